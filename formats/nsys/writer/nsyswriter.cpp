// SPDX-License-Identifier: MIT
// The writer's connection: the temporary file, table creation, commit and rename.
#include "formats/nsys/writer/nsyswriterimpl.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

namespace strobe::nsys {

bool writer::Table::create(sqlite3* db, unsigned versionBit) {
    std::string ddl = "CREATE TABLE ";
    ddl.append(m_name).append(" (\n");
    std::string cols, params;
    m_slot.assign(m_cols.size(), 0);
    int n = 0;
    for (std::size_t i = 0; i < m_cols.size(); ++i) {
        const schema::Column& c = m_cols[i];
        if (!(c.versions & versionBit))
            continue;
        if (n > 0) {
            ddl += ",\n";
            cols += ", ";
            params += ", ";
        }
        // Names padded to 28 characters, as nsys writes its DDL.
        ddl += "    ";
        ddl += c.name;
        ddl += std::string(28 > c.name.size() ? 28 - c.name.size() : 1, ' ');
        ddl += c.type;
        cols += c.name;
        params += '?';
        m_slot[i] = ++n;
    }
    ddl += "\n)";
    if (sqlite3_exec(db, ddl.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
        return false;
    std::string insert = "INSERT INTO ";
    insert.append(m_name).append(" (").append(cols).append(") VALUES (").append(params).append(")");
    return sqlite3_prepare_v3(db, insert.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &m_stmt,
                              nullptr) == SQLITE_OK;
}

Writer::Writer(std::unique_ptr<Impl> impl)
    : d(std::move(impl)) {}

Writer::~Writer() = default;

std::unique_ptr<Writer> Writer::create(const std::string& path, SchemaFlavor flavor,
                                       std::string* error) {
    auto impl = std::make_unique<Impl>();
    impl->path = path;
    impl->flavor = flavor;
    impl->versionBit = writer::versionBit(flavor);

    // Not mkstemp: its 0600 mode would survive the rename; O_EXCL with 0666 honours the umask.
    std::string tmpl;
    int fd = -1;
    static std::atomic<std::uint32_t> counter{0};
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        const std::uint64_t mix = (std::uint64_t(getpid()) << 32) ^
                                  std::uint64_t(std::time(nullptr)) ^
                                  (std::uint64_t(counter++) * 0x9E3779B97F4A7C15ull);
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, "%06llx",
                      static_cast<unsigned long long>((mix ^ (mix >> 29)) & 0xFFFFFF));
        tmpl = path + ".tmp-" + suffix;
        fd = open(tmpl.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        if (error)
            *error =
                "Cannot create a temporary file beside " + path + ": " + std::strerror(errno) + ".";
        return nullptr;
    }
    close(fd);
    impl->tmpPath = tmpl;

    if (sqlite3_open_v2(tmpl.c_str(), &impl->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
        if (error)
            *error = "Cannot open a temporary database beside " + path + ": " +
                     (impl->db ? sqlite3_errmsg(impl->db) : "out of memory") + ".";
        return nullptr;
    }
    // A private temp file renamed at the end: no journal, no fsync, no locking needed.
    const char* setup = "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
                        "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-65536; "
                        "PRAGMA temp_store=MEMORY; BEGIN";
    if (!impl->exec(setup)) {
        if (error)
            *error = impl->firstError;
        return nullptr;
    }
    return std::unique_ptr<Writer>(new Writer(std::move(impl)));
}

void Writer::setMetadata(const Metadata& meta) {
    d->meta = meta;
}
void Writer::addProcess(const ProcessRow& r) {
    d->processes.push_back(r);
}
void Writer::addThread(const ThreadRow& r) {
    d->threads.push_back(r);
}
void Writer::addGpu(const GpuRow& r) {
    d->gpus.push_back(r);
}
void Writer::addStream(const StreamRow& r) {
    d->streams.push_back(r);
}

using writer::Table;

bool Writer::commit(std::string* error) {
    auto failWith = [&](const std::string& msg) {
        if (error)
            *error = msg;
        d->closeDb();
        std::remove(d->tmpPath.c_str());
        d->tmpPath.clear();
        return false;
    };
    if (d->committed) {
        if (error)
            *error = "The trace " + d->path + " was already committed.";
        return false;
    }

    d->writeSmallTables();
    d->writeMetadata();
    if (d->ok()) {
        // StringIds last: every table above may have interned names.
        Table t{schema::StringIds{}};
        if (d->begin(t)) {
            for (std::size_t i = 0; i < d->stringsInOrder.size() && d->ok(); ++i) {
                t.i64(schema::StringIds::id, std::int64_t(i));
                t.text(schema::StringIds::value, *d->stringsInOrder[i]);
                d->finish(t);
            }
        }
    }
    if (d->ok())
        d->exec("COMMIT");
    if (!d->ok())
        return failWith(d->firstError);

    d->closeDb();
    if (std::rename(d->tmpPath.c_str(), d->path.c_str()) != 0)
        return failWith("Cannot move the finished trace into place at " + d->path + ": " +
                        std::strerror(errno) + ".");
    d->committed = true;
    return true;
}

} // namespace strobe::nsys
