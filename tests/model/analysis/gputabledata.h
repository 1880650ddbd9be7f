// SPDX-License-Identifier: MIT
#pragma once

// Copies of the real fixtures with a reduced TARGET_INFO_GPU, for the architecture table's tests.

#include "tests/support/sqlitequery.h"

#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <string>

namespace strobe::test {

// A copy of `fixture` whose TARGET_INFO_GPU keeps only `keep` (empty: the table is dropped).
inline QString withGpuTable(const QTemporaryDir& dir, const std::string& fixture,
                            const std::string& keep) {
    const QString copy = dir.filePath(QString::fromStdString(fixture));
    QFile::remove(copy);
    EXPECT_TRUE(QFile::copy(QString::fromStdString(test::fixturePath(fixture)), copy));
    QFile::setPermissions(copy, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    test::exec(copy.toStdString(),
               keep.empty() ? std::string("DROP TABLE TARGET_INFO_GPU;")
                            : "CREATE TABLE g AS SELECT " + keep +
                                  " FROM TARGET_INFO_GPU; DROP TABLE TARGET_INFO_GPU; ALTER "
                                  "TABLE g RENAME TO TARGET_INFO_GPU;");
    return copy;
}

} // namespace strobe::test
