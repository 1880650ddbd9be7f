// SPDX-License-Identifier: MIT
#include "app/cli/cliargs.h"

#include "model/analysis/reporttable.h"

#include "formats/open.h"

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
    if (m_positional.size() < positionals)
        m_error = QStringLiteral("missing the trace FILE argument");
    else if (m_positional.size() > positionals)
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

int usageError(Io io, const QString& command, const QString& message) {
    io.err << "strobe-cli " << command << ": " << message << "; run 'strobe-cli " << command
           << " --help' for usage.\n";
    return 2;
}

std::unique_ptr<Trace> loadForCli(const QString& path, Io io, TraceParts parts) {
    LoadOptions options;
    options.parts = io.parts.value_or(parts);
    LoadResult r = loadTrace(path, options);
    if (!r.ok()) {
        io.err << "strobe-cli: " << escapeControls(r.error) << '\n';
        return nullptr;
    }
    return std::move(r.trace);
}

} // namespace strobe::cli
