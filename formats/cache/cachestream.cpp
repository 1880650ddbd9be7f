// SPDX-License-Identifier: MIT
#include "formats/cache/cachestream.h"

#include <libdeflate.h>

namespace strobe {

namespace {
constexpr std::size_t kBufferBytes = std::size_t(1) << 20;
// Big arrays are read and written in pieces so that the checksum runs on cache-warm bytes.
constexpr std::size_t kChunkBytes = std::size_t(4) << 20;
} // namespace

std::uint32_t cacheCrc32(std::uint32_t crc, const void* data, std::size_t n) {
    return libdeflate_crc32(crc, data, n);
}

CacheWriter::CacheWriter(QIODevice* out)
    : m_out(out) {
    if (m_out)
        m_buffer.reserve(kBufferBytes);
}

CacheWriter::~CacheWriter() = default;

void CacheWriter::flush() {
    if (m_buffer.empty())
        return;
    if (m_ok && m_out->write(m_buffer.data(), qint64(m_buffer.size())) != qint64(m_buffer.size()))
        m_ok = false;
    m_buffer.clear();
}

void CacheWriter::writeBytes(const void* data, std::size_t n) {
    m_written += n;
    if (n == 0 || !m_out)
        return;
    m_crc = cacheCrc32(m_crc, data, n);
    if (m_buffer.size() + n <= kBufferBytes) {
        const auto* p = static_cast<const char*>(data);
        m_buffer.insert(m_buffer.end(), p, p + n);
        return;
    }
    flush();
    if (m_ok && m_out->write(static_cast<const char*>(data), qint64(n)) != qint64(n))
        m_ok = false;
}

void CacheWriter::writeString(const std::string& s) {
    writePod(std::uint64_t(s.size()));
    writeBytes(s.data(), s.size());
}

void CacheWriter::writeQString(const QString& s) {
    writePod(std::uint64_t(s.size()));
    writeBytes(s.constData(), std::size_t(s.size()) * sizeof(QChar));
}

bool CacheWriter::finish() {
    flush();
    return m_ok;
}

CacheReader::CacheReader(QIODevice& in, std::uint64_t bytes)
    : m_in(in)
    , m_remaining(bytes) {}

bool CacheReader::readBytes(void* data, std::size_t n) {
    if (!m_ok || n > m_remaining)
        return fail();
    auto* p = static_cast<char*>(data);
    for (std::size_t done = 0; done < n;) {
        const std::size_t part = std::min(kChunkBytes, n - done);
        if (m_in.read(p + done, qint64(part)) != qint64(part))
            return fail();
        m_crc = cacheCrc32(m_crc, p + done, part);
        done += part;
    }
    m_remaining -= n;
    return true;
}

std::uint64_t CacheReader::readCount(std::size_t elementBytes) {
    std::uint64_t n = 0;
    if (!readPod(n))
        return 0;
    if (elementBytes > 0 && n > m_remaining / elementBytes) {
        fail();
        return 0;
    }
    return n;
}

bool CacheReader::readString(std::string& s) {
    const std::uint64_t n = readCount(1);
    if (!m_ok)
        return false;
    s.resize(n);
    return readBytes(s.data(), n);
}

bool CacheReader::readQString(QString& s) {
    const std::uint64_t n = readCount(sizeof(QChar));
    if (!m_ok)
        return false;
    s.resize(qsizetype(n));
    return readBytes(s.data(), n * sizeof(QChar));
}

} // namespace strobe
