// SPDX-License-Identifier: MIT
#pragma once

// File names as the system spells them: bytes, which need not be UTF-8. Qt 6 decodes names as
// UTF-8 and turns each invalid byte into U+FFFD (QFile::decodeName, QCoreApplication::arguments),
// so a file whose name holds byte 0xff could not be opened again from its QString. These two keep
// such a byte as the lone surrogate U+DC00 + byte (as Python's "surrogateescape" does) and give
// the same bytes back; for names that are valid UTF-8 they are QFile::decodeName and encodeName.
// Header-only: the readers (strobe_nsys, strobe_kineto), formats/open.cpp and strobe-cli use it.

#include <QByteArray>
#include <QFile>
#include <QString>

#if defined(__unix__)
#include <fcntl.h>
#endif

namespace strobe {

namespace nativepath_detail {

// The length of the valid UTF-8 sequence at p[0..n), or 0 when it is not one (overlong forms,
// surrogates and code points past U+10FFFF are not).
inline int utf8SequenceLength(const unsigned char* p, qsizetype n) {
    const unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    int len = 0;
    unsigned char lo = 0x80, hi = 0xBF; // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (n < len || p[1] < lo || p[1] > hi)
        return 0;
    for (int i = 2; i < len; ++i) {
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    }
    return len;
}

inline bool isEscapedByte(char16_t u) {
    return u >= 0xDC80 && u <= 0xDCFF;
}

} // namespace nativepath_detail

// The name `bytes` as a QString that nativePath() turns back into the same bytes.
inline QString pathFromNative(const QByteArray& bytes) {
    using namespace nativepath_detail;
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.constData());
    const qsizetype n = bytes.size();
    qsizetype valid = 0;
    while (valid < n) {
        const int len = utf8SequenceLength(p + valid, n - valid);
        if (len == 0)
            break;
        valid += len;
    }
    if (valid == n)
        return QFile::decodeName(bytes);
    QString out = QString::fromUtf8(bytes.constData(), valid);
    for (qsizetype i = valid; i < n;) {
        const int len = utf8SequenceLength(p + i, n - i);
        if (len == 0) {
            out += QChar(char16_t(0xDC00 + p[i]));
            ++i;
        } else {
            out += QString::fromUtf8(bytes.constData() + i, len);
            i += len;
        }
    }
    return out;
}

// The bytes of the name `path` (from pathFromNative, or any QString).
inline QByteArray nativePath(const QString& path) {
    using namespace nativepath_detail;
    const qsizetype n = path.size();
    auto lone = [&](qsizetype i) {
        return isEscapedByte(path[i].unicode()) && (i == 0 || !path[i - 1].isHighSurrogate());
    };
    qsizetype first = 0;
    while (first < n && !lone(first))
        ++first;
    if (first == n)
        return QFile::encodeName(path);
    QByteArray out = QFile::encodeName(path.left(first));
    qsizetype run = first;
    for (qsizetype i = first; i < n; ++i) {
        if (!lone(i))
            continue;
        out += QFile::encodeName(path.mid(run, i - run));
        out += char(path[i].unicode() - 0xDC00);
        run = i + 1;
    }
    out += QFile::encodeName(path.mid(run));
    return out;
}

#if defined(__unix__)
// open(2) of `path` by its bytes, close-on-exec, never blocking: a FIFO without a writer opens at
// once (the caller waits for data with a bounded poll). Returns the descriptor, or -1 and errno.
inline int openNativeForReading(const QString& path) {
    return ::open(nativePath(path).constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
}
#endif

} // namespace strobe
