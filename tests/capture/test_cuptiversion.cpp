// SPDX-License-Identifier: MIT
// The version rules of the CUDA side (issue 20, items 3 and 9): which CUDA a CUPTI belongs to,
// when its records cannot be read, and when the driver is too old for it.
#include "capture/cuptiversion.h"

#include <gtest/gtest.h>

using namespace strobe::capture;

TEST(CuptiVersion, CudaReleaseOfEachNumberingScheme) {
    EXPECT_EQ(cudaVersionOfCupti(130001), 13000); // 13.0 Update 1
    EXPECT_EQ(cudaVersionOfCupti(130100), 13010);
    EXPECT_EQ(cudaVersionOfCupti(28), 12090); // 12.9 Update 1, the old scheme
    EXPECT_EQ(cudaVersionOfCupti(19), 12000);
    EXPECT_EQ(cudaVersionOfCupti(18), 11080);
    EXPECT_EQ(cudaVersionOfCupti(0), std::nullopt);
    EXPECT_EQ(cudaVersionOfCupti(25), std::nullopt); // never released
    EXPECT_EQ(cudaVersionText(13000), "13.0");
    EXPECT_EQ(cudaVersionText(12090), "12.9");
}

TEST(CuptiVersion, SameMajorReadsTheSameLayout) {
    EXPECT_EQ(cuptiLayoutProblem(130001, 130001), "");
    EXPECT_EQ(cuptiLayoutProblem(130100, 130001), ""); // a newer 13.x from pip
    EXPECT_EQ(cuptiLayoutProblem(28, 24), "");
    EXPECT_EQ(cuptiLayoutProblem(0, 130001), ""); // unknown: carry on, the enables will tell
}

TEST(CuptiVersion, OtherMajorIsRefusedWithAdvice) {
    const std::string problem = cuptiLayoutProblem(28, 130001);
    EXPECT_EQ(problem.rfind("the loaded CUPTI from CUDA 12.9 writes records in another layout "
                            "than the CUDA 13.0 CUPTI strobe-inject was built for; ",
                            0),
              0u)
        << problem;
    EXPECT_NE(problem.find("LD_LIBRARY_PATH"), std::string::npos);
    EXPECT_NE(cuptiLayoutProblem(140000, 130001), "");
    EXPECT_NE(cuptiLayoutProblem(25, 130001).find("CUPTI version 25"), std::string::npos);
}

TEST(CuptiVersion, DriverOlderThanCuptiIsExplained) {
    EXPECT_EQ(driverProblem(130001, 13000), "");
    EXPECT_EQ(driverProblem(130001, 13020), "");
    EXPECT_EQ(driverProblem(130001, 0), ""); // unknown driver
    EXPECT_EQ(driverProblem(0, 12080), "");  // unknown CUPTI
    EXPECT_EQ(driverProblem(130100, 13000),
              "the NVIDIA driver supports CUDA 13.0, but CUPTI is from CUDA 13.1 and needs a "
              "driver for CUDA 13.1 or newer; update the driver, or use a CUPTI (and "
              "strobe-capture build) no newer than CUDA 13.0");
    EXPECT_NE(driverProblem(130001, 12080), "");
}
