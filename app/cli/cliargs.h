// SPDX-License-Identifier: MIT
#pragma once

#include "app/cli/commands.h"

#include <QMap>
#include <QSet>
#include <memory>
#include <optional>

namespace strobe {
class Trace;
}

namespace strobe::cli {

// Parses "POSITIONAL... [--flag] [--option VALUE]" for one command. Unknown options, missing
// values and a wrong number of positionals are usage errors with one sentence in error().
// `positionals` kOneOrMore takes any number but none.
class CliArgs {
public:
    static constexpr int kOneOrMore = -1;
    CliArgs(const QString& command, const QStringList& args, const QSet<QString>& flags,
            const QSet<QString>& options, int positionals);
    bool ok() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }
    const QStringList& positional() const { return m_positional; }
    bool flag(const QString& name) const { return m_flags.contains(name); }
    std::optional<QString> option(const QString& name) const;

    // For commands with --format csv|json (default csv): true for json; sets error on others.
    bool jsonFormat();
    // For commands with --format csv|json|text (default csv): the format; sets error on others.
    QString tableOrTextFormat();

private:
    QString m_command;
    QString m_error;
    QStringList m_positional;
    QSet<QString> m_flags;
    QMap<QString, QString> m_options;
};

// The command line after the program's name, each argument decoded so that a file name that is
// not valid UTF-8 still names its file (formats/nativepath.h; QCoreApplication::arguments()
// replaces such bytes). Call it once the application has removed its own options from argv.
QStringList argumentsFromNative(int argc, char** argv);

// Reports a usage error the same way for every command and returns 2.
int usageError(Io io, const QString& command, const QString& message);

// The reopen cache the commands' loads use (docs/CACHE.md): empty, the default, reads every
// file itself. Set by `--cache[=DIR]` for one command (see takeCacheOption).
void setCacheFolder(const QString& folder);
QString cacheFolder();
// The GUI's cache folder, which `--cache` without a folder shares.
QString defaultCacheFolder();
// Removes `--cache`, `--cache=DIR` and `--cache DIR` (DIR an existing folder: a trace is never
// one) from `args`; returns the folder they name, the default for a bare --cache, or empty.
QString takeCacheOption(QStringList& args);

// Loads the `parts` of a trace a command needs (io.parts instead, when set); on failure prints
// the loader's sentence and returns nullptr.
std::unique_ptr<Trace> loadForCli(const QString& path, Io io, TraceParts parts);

} // namespace strobe::cli
