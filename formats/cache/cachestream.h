// SPDX-License-Identifier: MIT
#pragma once

#include <QIODevice>
#include <QString>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace strobe {

// Sequential binary output for a cache entry: buffered, with a running CRC-32 over every byte
// written. Host byte order: entries are never shared between machines (the layout fingerprint
// in the header rejects another build's).
class CacheWriter {
public:
    // `out` null: only counts the bytes (bytesWritten), to size an entry before writing it.
    explicit CacheWriter(QIODevice* out);
    ~CacheWriter();
    CacheWriter(const CacheWriter&) = delete;
    CacheWriter& operator=(const CacheWriter&) = delete;

    void writeBytes(const void* data, std::size_t n);
    template <typename T> void writePod(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        writeBytes(&v, sizeof(T));
    }
    // The element count, then the elements' bytes.
    template <typename T> void writeVector(const std::vector<T>& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        writePod(std::uint64_t(v.size()));
        writeBytes(v.data(), v.size() * sizeof(T));
    }
    void writeString(const std::string& s);
    void writeQString(const QString& s);
    // Flushes the buffer; false when any write failed.
    bool finish();
    std::uint32_t crc() const { return m_crc; }
    std::uint64_t bytesWritten() const { return m_written; }

private:
    void flush();
    QIODevice* m_out;
    std::vector<char> m_buffer;
    std::uint32_t m_crc = 0;
    std::uint64_t m_written = 0;
    bool m_ok = true;
};

// Sequential binary input of a cache entry, bounded by the bytes the entry holds: every count
// read is checked against what is left, so a damaged or crafted entry can neither make it read
// past its end nor allocate more than the file's size. After the first failure every read fails
// and ok() stays false.
class CacheReader {
public:
    CacheReader(QIODevice& in, std::uint64_t bytes);

    bool ok() const { return m_ok; }
    std::uint64_t remaining() const { return m_remaining; }
    std::uint32_t crc() const { return m_crc; }

    bool readBytes(void* data, std::size_t n);
    template <typename T> bool readPod(T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        return readBytes(&v, sizeof(T));
    }
    // A count of elements of `elementBytes` each that must fit in what is left; 0 on failure.
    std::uint64_t readCount(std::size_t elementBytes);
    template <typename T> bool readVector(std::vector<T>& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        const std::uint64_t n = readCount(sizeof(T));
        if (!m_ok)
            return false;
        v.resize(n);
        return readBytes(v.data(), n * sizeof(T));
    }
    bool readString(std::string& s);
    bool readQString(QString& s);
    // Marks the input as bad (a value that cannot be right).
    bool fail() { return m_ok = false; }

private:
    QIODevice& m_in;
    std::uint64_t m_remaining;
    std::uint32_t m_crc = 0;
    bool m_ok = true;
};

// CRC-32 of `n` bytes, continuing `crc` (0 to start).
std::uint32_t cacheCrc32(std::uint32_t crc, const void* data, std::size_t n);

} // namespace strobe
