// SPDX-License-Identifier: MIT
#pragma once
// Gzip-compresses bytes in memory with zlib (one member), for tests that write .json.gz files.
#include <gtest/gtest.h>

#include <QByteArray>
#include <zlib.h>

namespace strobe::test {

inline QByteArray gzip(const QByteArray& plain, int level = 6) {
    z_stream z{};
    EXPECT_EQ(deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    QByteArray out(qsizetype(deflateBound(&z, uLong(plain.size()))), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.constData()));
    z.avail_in = uInt(plain.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    out.resize(qsizetype(z.total_out));
    deflateEnd(&z);
    return out;
}

} // namespace strobe::test
