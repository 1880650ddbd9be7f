// SPDX-License-Identifier: MIT
// Exact microsecond text -> nanoseconds and integers.
#include "formats/kineto/kinetonumber.h"

#include <gtest/gtest.h>

using namespace strobe::kineto;

struct TimeCase {
    const char* text;
    std::optional<std::int64_t> ns;
};

class MicrosecondsToNs : public ::testing::TestWithParam<TimeCase> {};

TEST_P(MicrosecondsToNs, ExactDecimal) {
    EXPECT_EQ(microsecondsToNs(GetParam().text), GetParam().ns) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MicrosecondsToNs,
    ::testing::Values(TimeCase{"0", 0}, TimeCase{"1", 1000}, TimeCase{"5747.0", 5747000},
                      TimeCase{"0.04", 40}, TimeCase{"41.407", 41407},
                      // 1.7e15 us: a double cannot hold these nanoseconds (1700000000000000123).
                      TimeCase{"1700000000000000.123", 1700000000000000123},
                      TimeCase{"4458676983543.183", 4458676983543183},
                      TimeCase{"1682725898236567", 1682725898236567000},
                      // Past the third fractional digit: round half to even.
                      TimeCase{"1.0004", 1000}, TimeCase{"1.0006", 1001}, TimeCase{"1.0005", 1000},
                      TimeCase{"1.0015", 1002}, TimeCase{"1.00050001", 1001}, TimeCase{"0.0005", 0},
                      TimeCase{"-1.0005", -1000}, TimeCase{"-1.0015", -1002},
                      TimeCase{"-2.5", -2500},
                      // Exponents, blanks around the token.
                      TimeCase{"1.5e3", 1500000}, TimeCase{"15E-1", 1500}, TimeCase{"1e-4", 0},
                      TimeCase{"2.5e-3", 2}, TimeCase{" 7 ", 7000}, TimeCase{"12\n", 12000},
                      TimeCase{"00012", 12000},
                      // Limits: int64 holds 9223372036854775807 ns.
                      TimeCase{"9223372036854775.807", 9223372036854775807},
                      TimeCase{"9223372036854775.808", std::nullopt},
                      TimeCase{"-9223372036854775.808", std::numeric_limits<std::int64_t>::min()},
                      TimeCase{"1e300", std::nullopt}, TimeCase{"0e100000", 0},
                      // Not numbers.
                      TimeCase{"", std::nullopt}, TimeCase{"-", std::nullopt},
                      TimeCase{"1.", std::nullopt}, TimeCase{".5", std::nullopt},
                      TimeCase{"1e", std::nullopt}, TimeCase{"12a", std::nullopt},
                      TimeCase{"\"12\"", std::nullopt}, TimeCase{"1 2", std::nullopt},
                      TimeCase{"+1", std::nullopt}));

TEST(ExactInteger, IntegersAndZeroFractionsOnly) {
    EXPECT_EQ(exactInteger("42"), 42);
    EXPECT_EQ(exactInteger("-549452224"), -549452224);
    EXPECT_EQ(exactInteger("5.0"), 5);
    EXPECT_EQ(exactInteger("2e3"), 2000);
    EXPECT_EQ(exactInteger("9223372036854775807"), std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(exactInteger("9223372036854775808"), std::nullopt);
    EXPECT_EQ(exactInteger("5.05"), std::nullopt);
    EXPECT_EQ(exactInteger("4.740741"), std::nullopt);
    EXPECT_EQ(exactInteger("0x0"), std::nullopt);
    EXPECT_EQ(exactInteger("stream 7"), std::nullopt);
}

TEST(ExactInteger, TheInlinePathAndTheGeneralOneAgree) {
    // 18 digits take the one-pass path, 19 the general one: both exact.
    EXPECT_EQ(exactInteger("999999999999999999"), 999999999999999999);
    EXPECT_EQ(exactInteger("1000000000000000000"), 1000000000000000000);
    EXPECT_EQ(exactInteger("-999999999999999999"), -999999999999999999);
    EXPECT_EQ(exactInteger("-9223372036854775808"), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(exactInteger("7 \n"), 7); // a token with the blanks before the next comma
    EXPECT_EQ(exactInteger(" 7"), 7);
    EXPECT_EQ(exactInteger("-"), std::nullopt);
    EXPECT_EQ(exactInteger(""), std::nullopt);
    EXPECT_EQ(exactInteger("12x"), std::nullopt);
    EXPECT_EQ(exactInteger("1-2"), std::nullopt);
}

TEST(MicrosecondsToNsPaths, SixteenAndSeventeenIntegerDigits) {
    // 16 integer digits and 3 fractional ones: the one-pass path; beyond it the general one.
    EXPECT_EQ(microsecondsToNs("9999999999999999.999"), std::nullopt); // > int64 nanoseconds
    EXPECT_EQ(microsecondsToNs("9223372036854775.807 "), 9223372036854775807);
    EXPECT_EQ(microsecondsToNs("1700000000000000.12"), 1700000000000000120);
    EXPECT_EQ(microsecondsToNs("17000000000000001"), std::nullopt); // 1.7e19 ns does not fit
    EXPECT_EQ(microsecondsToNs("1700000000000000"), 1700000000000000000);
    EXPECT_EQ(microsecondsToNs("0.0015"), 2); // a fourth fractional digit: half to even
}

TEST(DecimalNumber, NearestDoubleOrNothing) {
    EXPECT_EQ(decimalNumber("4.740741"), 4.740741);
    EXPECT_EQ(decimalNumber("75.851852"), 75.851852);
    EXPECT_EQ(decimalNumber("73"), 73.0);
    EXPECT_EQ(decimalNumber("-0.5 "), -0.5);
    EXPECT_EQ(decimalNumber("0.1"), 0.1);
    // Beyond 15 significant digits or with an exponent: the general path, still the nearest.
    EXPECT_EQ(decimalNumber("3.1415926535897932"), 3.1415926535897932);
    EXPECT_EQ(decimalNumber("1.5e3"), 1500.0);
    EXPECT_EQ(decimalNumber("2E-2"), 0.02);
    EXPECT_EQ(decimalNumber("1e400"), std::nullopt);
    for (const char* bad :
         {"", "-", ".5", "1.2.3", "inf", "-inf", "nan", "0x10", "1e", "+1", "12a"})
        EXPECT_EQ(decimalNumber(bad), std::nullopt) << bad;
}
