// SPDX-License-Identifier: MIT
#include "app/cli/commands.h"

#include "model/analysis/gaps.h"

#include <QCoreApplication>
#include <array>
#include <cstring>

namespace strobe::cli {

namespace {

struct Command {
    const char* name;
    const char* synopsis;
    int (*run)(const QStringList&, Io);
    bool draws = false; // needs a QGuiApplication (makeApplication)
};

const std::array kCommands{
    Command{"info", "info FILE [--json]\n      what the trace holds: counts, GPUs, lanes, warnings",
            &runInfo},
    Command{"synth",
            "synth -o FILE --events N [--seed S] [--schema 2.9|3.13|3.25]\n"
            "      write a realistic synthetic nsys-schema trace, deterministic for a seed",
            &runSynth},
    Command{"kernels",
            "kernels FILE [--format csv|json]\n      one row per kernel launch, ordered by start",
            &runKernels},
    Command{"kernel-summary",
            "kernel-summary FILE [--base] [--format csv|json]\n"
            "      kernel statistics grouped by demangled name (--base: short name)",
            &runKernelSummary},
    Command{"nvtx-summary",
            "nvtx-summary FILE [--format csv|json]\n      NVTX range statistics per name and style",
            &runNvtxSummary},
    Command{"memory-summary",
            "memory-summary FILE [--format csv|json]\n      memory operations per direction: "
            "count, bytes, time, bandwidth",
            &runMemorySummary},
    Command{"gaps",
            "gaps FILE [--min-ns N] [--format csv|json]\n      GPU idle gaps of at least N ns "
            "(default %1) with their cause",
            &runGaps},
    Command{"render",
            "render FILE -o OUT.png|OUT.svg [--width W] [--height H] [--from T] [--to T]\n"
            "       [--range NAME[#K]] [--lanes all|gpu|cpu|REGEX] [--theme light|dark]\n"
            "       [--compare OTHER] [--fit]\n"
            "      the timeline as a picture, drawn without a display (needs a GUI build)",
            &runRender, true},
};

void printUsage(QTextStream& s) {
    s << "usage: strobe-cli COMMAND [ARGS...]\n\ncommands:\n";
    for (const Command& c : kCommands) {
        QString synopsis = QLatin1String(c.synopsis);
        if (synopsis.contains(QLatin1String("%1"))) // the one default that lives in the model
            synopsis = synopsis.arg(kDefaultIdleThresholdNs);
        s << "  " << synopsis << '\n';
    }
    s << "  --version\n      print the version\n"
         "  --help\n      print this help\n\n"
         "Exit status: 0 success, 1 a file that cannot be read or written, 2 a usage error.\n";
}

} // namespace

std::unique_ptr<QCoreApplication> makeApplication(int& argc, char** argv) {
    for (const Command& c : kCommands) {
        if (c.draws && argc > 1 && std::strcmp(argv[1], c.name) == 0)
            return makeDrawingApplication(argc, argv);
    }
    return std::make_unique<QCoreApplication>(argc, argv);
}

int runCommandLine(const QStringList& argv, Io io) {
    if (argv.isEmpty()) {
        printUsage(io.err);
        return 2;
    }
    const QString& cmd = argv.front();
    if (cmd == QLatin1String("--version") || cmd == QLatin1String("-v")) {
        io.out << "strobe-cli " << STROBE_VERSION << '\n';
        return 0;
    }
    if (cmd == QLatin1String("--help") || cmd == QLatin1String("-h") ||
        cmd == QLatin1String("help")) {
        printUsage(io.out);
        return 0;
    }
    for (const Command& c : kCommands) {
        if (cmd == QLatin1String(c.name))
            return c.run(argv.mid(1), io);
    }
    io.err << "strobe-cli: unknown command '" << cmd
           << "'; run 'strobe-cli --help' for the list.\n";
    return 2;
}

} // namespace strobe::cli
