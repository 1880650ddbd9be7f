// SPDX-License-Identifier: MIT
// strobe-cli synth -o FILE --events N [--seed S] [--format nsys|kineto] [--schema 2.9|3.13|3.25]
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "formats/kineto/synth/kinetosynth.h"
#include "formats/nsys/synth/synthtrace.h"

#include <QElapsedTimer>
#include <QStringBuilder>
#include <optional>

namespace strobe::cli {

namespace {

// "20000", "20k", "10M": a positive count.
std::optional<std::uint64_t> parseCount(const QString& text) {
    QString digits = text.trimmed();
    std::uint64_t scale = 1;
    if (digits.endsWith(u'k') || digits.endsWith(u'K'))
        scale = 1000;
    else if (digits.endsWith(u'm') || digits.endsWith(u'M'))
        scale = 1000000;
    if (scale != 1)
        digits.chop(1);
    bool ok = false;
    const std::uint64_t n = digits.toULongLong(&ok);
    if (!ok || n == 0 || n > (std::uint64_t(1) << 40) / scale)
        return std::nullopt;
    return n * scale;
}

std::optional<nsys::SchemaFlavor> parseSchema(const QString& text) {
    if (text == QLatin1String("2.9") || text == QLatin1String("2.9.1"))
        return nsys::SchemaFlavor::V2_9;
    if (text == QLatin1String("3.13") || text == QLatin1String("3.13.2"))
        return nsys::SchemaFlavor::V3_13;
    if (text == QLatin1String("3.25") || text == QLatin1String("3.25.0"))
        return nsys::SchemaFlavor::V3_25;
    return std::nullopt;
}

// A PyTorch profiler trace (JSON, gzip when the name ends in .gz).
int writeKineto(const QString& output, std::uint64_t events, std::uint64_t seed, Io io) {
    kinetosynth::KinetoSynthOptions options;
    options.events = events;
    options.seed = seed;
    QElapsedTimer timer;
    timer.start();
    std::string error;
    kinetosynth::KinetoSynthStats stats;
    if (!kinetosynth::writeKinetoTrace(output.toStdString(), options, &error, &stats)) {
        io.err << "strobe-cli: " << QString::fromStdString(error) << '\n';
        return 1;
    }
    io.out << "Wrote " << output << ": " << stats.events << " events (" << stats.kernels
           << " kernels, " << (stats.bytes >> 20) << " MB of JSON) in "
           << QString::number(double(timer.elapsed()) / 1000.0, 'f', 2) << " s\n";
    return 0;
}

} // namespace

int runSynth(const QStringList& args, Io io) {
    const QString cmd = QStringLiteral("synth");
    QStringList normalized;
    for (const QString& a : args)
        normalized << (a == QLatin1String("-o") ? QStringLiteral("--output") : a);
    CliArgs a(cmd, normalized, {},
              {QStringLiteral("output"), QStringLiteral("events"), QStringLiteral("seed"),
               QStringLiteral("schema"), QStringLiteral("format")},
              0);
    if (!a.ok())
        return usageError(io, cmd, a.error());
    const std::optional<QString> output = a.option(QStringLiteral("output"));
    if (!output || output->isEmpty())
        return usageError(io, cmd, QStringLiteral("missing -o FILE"));
    const std::optional<QString> eventsText = a.option(QStringLiteral("events"));
    if (!eventsText)
        return usageError(io, cmd, QStringLiteral("missing --events N"));
    const std::optional<std::uint64_t> events = parseCount(*eventsText);
    if (!events)
        return usageError(io, cmd,
                          QStringLiteral("--events must be a positive count such as 10000 or "
                                         "10M, not '") %
                              *eventsText % u'\'');

    std::uint64_t seed = 1;
    if (const auto seedText = a.option(QStringLiteral("seed"))) {
        bool ok = false;
        seed = seedText->toULongLong(&ok);
        if (!ok)
            return usageError(io, cmd,
                              QStringLiteral("--seed must be a non-negative integer, not '") %
                                  *seedText % u'\'');
    }
    const QString format = a.option(QStringLiteral("format")).value_or(QStringLiteral("nsys"));
    if (format == QLatin1String("kineto")) {
        if (a.option(QStringLiteral("schema")))
            return usageError(io, cmd, QStringLiteral("--schema applies to --format nsys only"));
        return writeKineto(*output, *events, seed, io);
    }
    if (format != QLatin1String("nsys"))
        return usageError(
            io, cmd, QStringLiteral("--format must be nsys or kineto, not '") % format % u'\'');

    synth::SynthOptions options;
    options.events = *events;
    options.seed = seed;
    if (const auto schemaText = a.option(QStringLiteral("schema"))) {
        const auto flavor = parseSchema(*schemaText);
        if (!flavor)
            return usageError(io, cmd,
                              QStringLiteral("--schema must be 2.9, 3.13 or 3.25, not '") %
                                  *schemaText % u'\'');
        options.flavor = *flavor;
    }

    QElapsedTimer timer;
    timer.start();
    std::string error;
    synth::SynthStats stats;
    if (!synth::writeSynthTrace(output->toStdString(), options, &error, {}, &stats)) {
        io.err << "strobe-cli: " << QString::fromStdString(error) << '\n';
        return 1;
    }
    const double seconds = double(timer.elapsed()) / 1000.0;
    io.out << "Wrote " << *output << ": " << stats.events << " events (" << stats.kernels
           << " kernels) in " << QString::number(seconds, 'f', 2) << " s\n";
    return 0;
}

} // namespace strobe::cli
