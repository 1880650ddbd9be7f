// SPDX-License-Identifier: MIT
// The one main() of every GUI test program (strobe_add_test(... GUI)): a QApplication for the
// whole program, created after GoogleTest has read its flags so that test discovery at build
// time (--gtest_list_tests, no display) never needs a platform plugin.
#include <gtest/gtest.h>

#include <QApplication>

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    if (GTEST_FLAG_GET(list_tests))
        return RUN_ALL_TESTS();
    QApplication app(argc, argv);
    // Settings written by tests land under this name, never in the user's own.
    QApplication::setOrganizationName(QStringLiteral("strobe-tests"));
    return RUN_ALL_TESTS();
}
