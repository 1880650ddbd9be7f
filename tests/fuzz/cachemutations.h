// SPDX-License-Identifier: MIT
#pragma once
// The fuzzer's reopen-cache rounds (issue 46): a trace is loaded once with the cache on, which
// writes its entry; the entry is then damaged (bit flips, truncation, a count or length
// overwritten with a huge value, a symbolic link to a victim file or a FIFO in its place) and the
// trace loaded again. A finding is a load that fails or takes longer than the time limit, a
// victim file written through the link, or a file appearing outside the cache folder.

#include "formats/open.h"
#include "tests/fixtures/hostilefixtures.h"
#include "tests/fuzz/kinetomutations.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QString>
#include <string>
#include <sys/stat.h>

namespace strobe::fuzz {

struct CacheRound {
    bool bad = false;
    std::string did; // the damage done, for the report
    QString problem; // why it is a finding
};

inline QByteArray sha256Of(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly)
               ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256)
               : QByteArray();
}

// `trace` is a copy of a seed that loads (the round mutates the cache entry, not the trace);
// `work` an empty folder of the round's own.
inline CacheRound cacheRound(const QString& trace, const QString& work, Rng& rng) {
    CacheRound out;
    const QString cache = work + QStringLiteral("/cache");
    QDir().mkpath(cache);
    QFile::setPermissions(cache, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    LoadOptions options;
    options.cacheFolder = cache;
    // Entries of traces of any size hold a preview, which the reload reads and sends first.
    options.previewMinRows = 0;
    options.preview = [](std::unique_ptr<Trace>) {};
    if (!loadTrace(trace, options).ok())
        return out; // nothing cached: not this round's subject
    const QStringList entries = QDir(cache).entryList(QDir::Files | QDir::NoDotAndDotDot);
    if (entries.isEmpty())
        return out;
    const QString entry = cache + u'/' + entries.front();
    const QString victim = work + QStringLiteral("/victim.txt");
    {
        QFile v(victim);
        if (v.open(QIODevice::WriteOnly))
            v.write("the user's own file\n");
    }
    const QByteArray victimBefore = sha256Of(victim);
    QFile f(entry);
    const qint64 size = f.size();
    switch (rng() % 5) {
    case 0: { // bit flips
        if (!f.open(QIODevice::ReadWrite) || size == 0)
            break;
        for (int i = 0, n = int(rng() % 8) + 1; i < n; ++i) {
            const qint64 at = qint64(rng() % std::uint64_t(size));
            f.seek(at);
            char c = 0;
            f.getChar(&c);
            f.seek(at);
            f.putChar(char(c ^ char(1u << (rng() % 8))));
        }
        out.did = "bit flips";
        break;
    }
    case 1: // truncation
        f.resize(size > 0 ? qint64(rng() % std::uint64_t(size)) : 0);
        out.did = "truncated";
        break;
    case 2: { // a count or length past the end: 8 bytes overwritten at an aligned offset
        if (!f.open(QIODevice::ReadWrite) || size < 8)
            break;
        const qint64 at = qint64(rng() % std::uint64_t(size / 8)) * 8;
        const std::uint64_t huge[] = {~std::uint64_t(0), std::uint64_t(1) << 40,
                                      std::uint64_t(1) << 62, std::uint64_t(size) * 16};
        const std::uint64_t v = huge[rng() % 4];
        f.seek(at);
        f.write(reinterpret_cast<const char*>(&v), sizeof v);
        out.did = "count at " + std::to_string(at) + " set to " + std::to_string(v);
        break;
    }
    case 3: // a symbolic link to the user's file in the entry's place
        QFile::remove(entry);
        QFile::link(victim, entry);
        out.did = "symlink to a victim";
        break;
    default: // a FIFO in the entry's place
        QFile::remove(entry);
        ::mkfifo(QFile::encodeName(entry).constData(), 0600);
        out.did = "FIFO";
        break;
    }
    f.close();
    const QStringList besideBefore = QDir(work).entryList(QDir::AllEntries | QDir::Hidden);
    QElapsedTimer t;
    t.start();
    const LoadResult again = loadTrace(trace, options);
    if (!again.ok())
        out.problem = QStringLiteral("the trace no longer loads: ") % again.error;
    else if (t.elapsed() > fixtures::kHostileTimeLimitMs)
        out.problem = QStringLiteral("the reload took %1 ms").arg(t.elapsed());
    else if (sha256Of(victim) != victimBefore)
        out.problem = QStringLiteral("the victim file was written through the link");
    else if (QDir(work).entryList(QDir::AllEntries | QDir::Hidden) != besideBefore)
        out.problem = QStringLiteral("a file appeared outside the cache folder");
    out.bad = !out.problem.isEmpty();
    QDir(cache).removeRecursively();
    QFile::remove(victim);
    return out;
}

} // namespace strobe::fuzz
