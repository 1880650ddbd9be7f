// SPDX-License-Identifier: MIT
// strobe-cli synth -o FILE --events N [--seed S] [--format nsys|kineto] [--schema 2.9|3.13|3.25]
// strobe-cli synth -o FILE --sample before|after
// strobe-cli synth -o DIR --ranks N [--events E] [--seed S] [--straggler R --delay MS]
//                  [--clock-skew MS] [--no-gzip]
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "formats/kineto/synth/kinetosynth.h"
#include "formats/nsys/synth/sampletrace.h"
#include "formats/nsys/synth/synthtrace.h"

#include <QElapsedTimer>
#include <QStringBuilder>
#include <QStringList>
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

// Milliseconds as decimal text ("20", "2.5", "-0.25" when `signedOk`) to exact nanoseconds, up
// to 10 s either way; nullopt for anything else.
std::optional<std::int64_t> parseMilliseconds(const QString& text, bool signedOk) {
    QString t = text.trimmed();
    const bool negative = t.startsWith(u'-');
    if (negative) {
        if (!signedOk)
            return std::nullopt;
        t.remove(0, 1);
    }
    const qsizetype dot = t.indexOf(u'.');
    const QString whole = dot < 0 ? t : t.left(dot),
                  fraction = dot < 0 ? QString() : t.mid(dot + 1);
    if (whole.isEmpty() || whole.size() > 5 || fraction.size() > 6 ||
        (dot >= 0 && fraction.isEmpty()))
        return std::nullopt;
    const QString digits = whole + fraction;
    for (const QChar c : digits) {
        if (c < u'0' || c > u'9')
            return std::nullopt;
    }
    std::int64_t ns = whole.toLongLong() * 1000000;
    if (!fraction.isEmpty())
        ns += QString(fraction + QString(6 - fraction.size(), u'0')).toLongLong();
    if (ns > 10'000'000'000)
        return std::nullopt;
    return negative ? -ns : ns;
}

// "N ms" with the digits the nanoseconds need.
QString milliseconds(std::int64_t ns) {
    QString text = QString::number(double(ns) / 1e6, 'f', 6);
    while (text.endsWith(u'0'))
        text.chop(1);
    if (text.endsWith(u'.'))
        text.chop(1);
    return text % QStringLiteral(" ms");
}

// --ranks N: one Kineto trace per rank into the folder `output` (docs/SYNTH.md).
int writeJob(const QString& cmd, const CliArgs& a, const QString& output, const QString& ranksText,
             Io io) {
    for (const char* single : {"schema", "sample"}) {
        if (a.option(QString::fromLatin1(single)))
            return usageError(
                io, cmd,
                QStringLiteral("--ranks writes a job of Kineto traces and takes no --") %
                    QString::fromLatin1(single));
    }
    if (a.option(QStringLiteral("format")).value_or(QStringLiteral("kineto")) !=
        QLatin1String("kineto"))
        return usageError(io, cmd,
                          QStringLiteral("--ranks writes Kineto traces only (nsys jobs are not "
                                         "supported); use --format kineto or leave it out"));
    kinetosynth::KinetoJobOptions options;
    bool ok = false;
    const uint ranks = ranksText.toUInt(&ok);
    if (!ok || ranks == 0 || ranks > kinetosynth::KinetoJobOptions::kMaxRanks)
        return usageError(io, cmd,
                          QStringLiteral("--ranks must be a whole number from 1 to %1, not '")
                                  .arg(kinetosynth::KinetoJobOptions::kMaxRanks) %
                              ranksText % u'\'');
    options.ranks = ranks;
    if (const auto eventsText = a.option(QStringLiteral("events"))) {
        const std::optional<std::uint64_t> events = parseCount(*eventsText);
        if (!events || *events > 100'000'000)
            return usageError(io, cmd,
                              QStringLiteral("--events must be a positive count per rank up to "
                                             "100M, such as 20000 or 1M, not '") %
                                  *eventsText % u'\'');
        options.events = *events;
    }
    if (const auto seedText = a.option(QStringLiteral("seed"))) {
        options.seed = seedText->toULongLong(&ok);
        if (!ok)
            return usageError(io, cmd,
                              QStringLiteral("--seed must be a non-negative integer, not '") %
                                  *seedText % u'\'');
    }
    const std::optional<QString> stragglerText = a.option(QStringLiteral("straggler")),
                                 delayText = a.option(QStringLiteral("delay"));
    if (stragglerText && !delayText)
        return usageError(io, cmd,
                          QStringLiteral("--straggler R needs --delay MS, how late it is"));
    if (delayText && !stragglerText)
        return usageError(io, cmd, QStringLiteral("--delay MS needs --straggler R, the late rank"));
    if (stragglerText) {
        const uint rank = stragglerText->toUInt(&ok);
        if (!ok || rank >= ranks)
            return usageError(
                io, cmd,
                QStringLiteral("--straggler must be a rank from 0 to %1, not '").arg(ranks - 1) %
                    *stragglerText % u'\'');
        const std::optional<std::int64_t> delay = parseMilliseconds(*delayText, false);
        if (!delay)
            return usageError(io, cmd,
                              QStringLiteral("--delay must be milliseconds from 0 to 10000 such "
                                             "as 20 or 2.5, not '") %
                                  *delayText % u'\'');
        options.straggler = rank;
        options.delayNs = *delay;
    }
    if (const auto skewText = a.option(QStringLiteral("clock-skew"))) {
        const std::optional<std::int64_t> skew = parseMilliseconds(*skewText, true);
        if (!skew || (*skew != 0 && 1'000'000'000 / std::abs(*skew) < std::int64_t(ranks)))
            return usageError(io, cmd,
                              QStringLiteral("--clock-skew must be milliseconds such as 0.5 or "
                                             "-2, at most 1 s times the number of ranks, not '") %
                                  *skewText % u'\'');
        options.clockSkewNs = *skew;
    }
    options.gzip = !a.flag(QStringLiteral("no-gzip"));

    QElapsedTimer timer;
    timer.start();
    std::string error;
    kinetosynth::KinetoJobStats stats;
    if (!kinetosynth::writeKinetoJob(output.toStdString(), options, &error, &stats)) {
        io.err << "strobe-cli: " << QString::fromStdString(error) << '\n';
        return 1;
    }
    const kinetosynth::KinetoSynthStats& rank0 = stats.ranks.front();
    io.out << "Wrote " << ranks << " traces to " << output << " ("
           << QString::fromStdString(kinetosynth::jobFileName(0, options.gzip)) << " to "
           << QString::fromStdString(kinetosynth::jobFileName(ranks - 1, options.gzip))
           << "): " << rank0.events << " events, " << rank0.steps << " steps and "
           << rank0.collectives << " all-reduces each, " << (stats.fileBytes >> 20) << " MB in "
           << QString::number(double(timer.elapsed()) / 1000.0, 'f', 2) << " s\n";
    if (options.straggler)
        io.out << "Rank " << *options.straggler << " arrives " << milliseconds(options.delayNs)
               << " late at every all-reduce\n";
    return 0;
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

// --sample before|after: the embedded sample trace, or its variant with the data loader fixed.
int writeSample(const QString& cmd, const CliArgs& a, const QString& output, const QString& which,
                Io io) {
    if (a.option(QStringLiteral("events")) || a.option(QStringLiteral("seed")) ||
        a.option(QStringLiteral("schema")) || a.option(QStringLiteral("format")))
        return usageError(io, cmd,
                          QStringLiteral("--sample writes the fixed sample trace and takes no "
                                         "--events, --seed, --format or --schema"));
    sample::SampleVariant variant = sample::SampleVariant::Before;
    if (which == QLatin1String("after"))
        variant = sample::SampleVariant::After;
    else if (which != QLatin1String("before"))
        return usageError(
            io, cmd, QStringLiteral("--sample must be before or after, not '") % which % u'\'');
    std::string error;
    if (!sample::writeSampleTrace(output.toStdString(), &error, variant)) {
        io.err << "strobe-cli: " << QString::fromStdString(error) << '\n';
        return 1;
    }
    io.out << "Wrote " << output << ": the sample training loop, "
           << (variant == sample::SampleVariant::After ? "after" : "before")
           << " its data-loader fix\n";
    return 0;
}

} // namespace

int runSynth(const QStringList& args, Io io) {
    const QString cmd = QStringLiteral("synth");
    QStringList normalized;
    for (const QString& a : args)
        normalized << (a == QLatin1String("-o") ? QStringLiteral("--output") : a);
    CliArgs a(cmd, normalized, {QStringLiteral("no-gzip")},
              {QStringLiteral("output"), QStringLiteral("events"), QStringLiteral("seed"),
               QStringLiteral("schema"), QStringLiteral("format"), QStringLiteral("sample"),
               QStringLiteral("ranks"), QStringLiteral("straggler"), QStringLiteral("delay"),
               QStringLiteral("clock-skew")},
              0);
    if (!a.ok())
        return usageError(io, cmd, a.error());
    const std::optional<QString> output = a.option(QStringLiteral("output"));
    if (!output || output->isEmpty())
        return usageError(io, cmd, QStringLiteral("missing -o FILE (-o DIR with --ranks)"));
    if (const auto ranksText = a.option(QStringLiteral("ranks")))
        return writeJob(cmd, a, *output, *ranksText, io);
    for (const char* jobOnly : {"straggler", "delay", "clock-skew", "no-gzip"}) {
        const QString name = QString::fromLatin1(jobOnly);
        if (a.option(name) || a.flag(name))
            return usageError(io, cmd,
                              QStringLiteral("--") % name %
                                  QStringLiteral(" describes a job and needs --ranks N"));
    }
    if (const auto sampleText = a.option(QStringLiteral("sample")))
        return writeSample(cmd, a, *output, *sampleText, io);
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
