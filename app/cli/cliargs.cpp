// SPDX-License-Identifier: MIT
#include "app/cli/cliargs.h"

#include "model/reports/reporttable.h"

#include "formats/nativepath.h"
#include "formats/open.h"

#include <QFileInfo>
#include <QStandardPaths>
#include <QStringBuilder>

namespace strobe::cli {

CliArgs::CliArgs(const QString& command, const QStringList& args, const QSet<QString>& flags,
                 const QSet<QString>& options, int positionals)
    : m_command(command) {
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (a.startsWith(QLatin1String("--")) && a.size() > 2) {
            QString name = a.mid(2);
            QString value;
            bool hasValue = false;
            if (const qsizetype eq = name.indexOf(u'='); eq > 0) {
                value = name.mid(eq + 1);
                name = name.left(eq);
                hasValue = true;
            }
            if (flags.contains(name) && !hasValue) {
                m_flags.insert(name);
            } else if (options.contains(name)) {
                if (!hasValue) {
                    if (i + 1 >= args.size()) {
                        m_error =
                            QStringLiteral("option --") % name % QStringLiteral(" needs a value");
                        return;
                    }
                    value = args[++i];
                }
                m_options.insert(name, value);
            } else {
                m_error = QStringLiteral("unknown option '") % a % u'\'';
                return;
            }
        } else {
            m_positional << a;
        }
    }
    if (positionals == kOneOrMore ? m_positional.isEmpty() : m_positional.size() < positionals)
        m_error = QStringLiteral("missing the trace FILE argument");
    else if (positionals != kOneOrMore && m_positional.size() > positionals)
        m_error = QStringLiteral("unexpected argument '") % m_positional.at(positionals) % u'\'';
}

std::optional<QString> CliArgs::option(const QString& name) const {
    if (auto it = m_options.constFind(name); it != m_options.constEnd())
        return it.value();
    return std::nullopt;
}

bool CliArgs::jsonFormat() {
    const QString f = option(QStringLiteral("format")).value_or(QStringLiteral("csv"));
    if (f != QLatin1String("csv") && f != QLatin1String("json"))
        m_error = QStringLiteral("--format must be csv or json, not '") % f % u'\'';
    return f == QLatin1String("json");
}

QString CliArgs::tableOrTextFormat() {
    QString f = option(QStringLiteral("format")).value_or(QStringLiteral("csv"));
    if (f != QLatin1String("csv") && f != QLatin1String("json") && f != QLatin1String("text"))
        m_error = QStringLiteral("--format must be csv, json or text, not '") % f % u'\'';
    return f;
}

QStringList argumentsFromNative(int argc, char** argv) {
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << pathFromNative(QByteArray(argv[i]));
    return args;
}

int usageError(Io io, const QString& command, const QString& message) {
    io.err << "strobe-cli " << command << ": " << message << "; run 'strobe-cli " << command
           << " --help' for usage.\n";
    return 2;
}

namespace {
QString g_cacheFolder; // strobe-cli runs one command at a time, on one thread
} // namespace

void setCacheFolder(const QString& folder) {
    g_cacheFolder = folder;
}

QString cacheFolder() {
    return g_cacheFolder;
}

QString defaultCacheFolder() {
    // QStandardPaths::CacheLocation of the GUI (organisation and application "strobe").
    return QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) %
           QStringLiteral("/strobe/strobe/traces");
}

QString takeCacheOption(QStringList& args) {
    QString folder;
    for (qsizetype i = 0; i < args.size();) {
        const QString& a = args[i];
        if (a == QLatin1String("--cache")) {
            if (i + 1 < args.size() && QFileInfo(args[i + 1]).isDir()) {
                folder = args[i + 1];
                args.remove(i, 2);
            } else {
                folder = defaultCacheFolder();
                args.remove(i);
            }
        } else if (a.startsWith(QLatin1String("--cache=")) && a.size() > 8) {
            folder = a.mid(8);
            args.remove(i);
        } else {
            ++i;
        }
    }
    return folder;
}

std::unique_ptr<Trace> loadForCli(const QString& path, Io io, TraceParts parts) {
    LoadOptions options;
    options.parts = io.parts.value_or(parts);
    options.cacheFolder = g_cacheFolder;
    LoadResult r = loadTrace(path, options);
    if (!r.ok()) {
        io.err << "strobe-cli: " << escapeControls(r.error) << '\n';
        return nullptr;
    }
    return std::move(r.trace);
}

} // namespace strobe::cli
