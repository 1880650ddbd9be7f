// SPDX-License-Identifier: MIT
#include "app/cli/commands.h"

#include "app/cli/cliargs.h"
#include "app/cli/output.h"
#include "model/analysis/gaps.h"

#include <QCoreApplication>
#include <QStringBuilder>
#include <algorithm>
#include <array>
#include <cstring>

namespace strobe::cli {

namespace {

struct Command {
    const char* name;
    const char* synopsis; // the arguments after the name
    const char* summary;  // one line, for the list of commands
    const char* options;  // one "  --flag VALUE   meaning" line per option, for COMMAND --help
    int (*run)(const QStringList&, Io);
    bool draws = false; // needs a QGuiApplication (makeApplication)
};

const std::array kCommands{
    Command{"info", "FILE [--json]", "what the trace holds: counts, GPUs, lanes, warnings",
            "  --json              one JSON object instead of the readable summary\n", &runInfo},
    Command{"synth",
            "-o FILE (--events N [--seed S] [--format nsys|kineto] [--schema 2.9|3.13|3.25] | "
            "--sample before|after)\n"
            "       strobe-cli synth -o DIR --ranks N [--events E] [--seed S] [--straggler R "
            "--delay MS] [--clock-skew MS] [--no-gzip]",
            "write a realistic synthetic nsys-schema trace (or PyTorch profiler JSON with\n"
            "      --format kineto), deterministic for a seed, the sample training loop before\n"
            "      or after its data-loader fix, or a job of N ranks' Kineto traces whose\n"
            "      rank R arrives MS late at every collective",
            "  -o, --output FILE   where to write (appears only when complete); a folder with "
            "--ranks\n"
            "  --events N          rows in all event tables: 20000, 20k, 10M (per rank with "
            "--ranks,\n"
            "                      default 20k)\n"
            "  --seed S            default 1; the same seed and N give the same rows\n"
            "  --format nsys|kineto\n"
            "                      nsys SQLite (default) or PyTorch profiler JSON (.gz: gzip)\n"
            "  --schema 2.9|3.13|3.25\n"
            "                      the nsys exporter to imitate (default 3.13)\n"
            "  --sample before|after\n"
            "                      the sample trace instead, with or without its data-loader "
            "stall\n"
            "  --ranks N           a job: rank-0.json.gz ... rank-(N-1).json.gz, 1 to 4096 ranks\n"
            "  --straggler R --delay MS\n"
            "                      rank R arrives MS milliseconds late at every collective\n"
            "  --clock-skew MS     rank r's clock runs r * MS ahead (alignment tests)\n"
            "  --no-gzip           rank-R.json instead of rank-R.json.gz\n",
            &runSynth},
    Command{"kernels", "FILE [--format csv|json]", "one row per kernel launch, ordered by start",
            "  --format csv|json   output format (default csv)\n", &runKernels},
    Command{"kernel-summary", "FILE [--base] [--format csv|json]",
            "kernel statistics grouped by demangled name (--base: short name)",
            "  --base              group by short name, so template instances merge\n"
            "  --format csv|json   output format (default csv)\n",
            &runKernelSummary},
    Command{"nvtx-summary", "FILE [--raw] [--gpu] [--format csv|json]",
            "NVTX range statistics per name and style, per-call ids removed from names\n"
            "      (\"aten::mm, op_id = 7\" counts as \"aten::mm\")",
            "  --raw               one row per recorded name, per-call ids kept\n"
            "  --gpu               the ranges projected onto the GPU, as nsys's\n"
            "                      nvtx_gpu_proj_sum (its own columns)\n"
            "  --format csv|json   output format (default csv)\n",
            &runNvtxSummary},
    Command{"memory-summary", "FILE [--format csv|json]",
            "memory operations per direction: count, bytes, time, bandwidth",
            "  --format csv|json   output format (default csv)\n", &runMemorySummary},
    Command{"memory-size-summary", "FILE [--format csv|json]",
            "memory operation sizes per operation as nsys's cuda_gpu_mem_size_sum",
            "  --format csv|json   output format (default csv)\n", &runMemorySizeSummary},
    Command{"api-summary", "FILE [--format csv|json]",
            "CUDA API calls per name as nsys's cuda_api_sum: time share, count, durations",
            "  --format csv|json   output format (default csv)\n", &runApiSummary},
    Command{"osrt-summary", "FILE [--format csv|json]",
            "OS runtime calls per name as nsys's osrt_sum: time share, count, durations",
            "  --format csv|json   output format (default csv)\n", &runOsrtSummary},
    Command{"launch-summary", "FILE [--format csv|json]",
            "per kernel as nsys's cuda_kern_exec_sum: launch call, queue and kernel times",
            "  --format csv|json   output format (default csv)\n", &runLaunchSummary},
    Command{"gaps", "FILE [--min-ns N] [--busy all|kernels] [--format csv|json|text]",
            "GPU idle gaps of at least N ns (default %1) with their cause",
            "  --min-ns N          shortest gap reported, in ns (default %1)\n"
            "  --busy all|kernels  what keeps a GPU busy: all work (default) or kernels only\n"
            "  --format csv|json|text  output format (default csv); json and text add per GPU\n"
            "                      kernel, copy and idle time and the idle time at both ends\n",
            &runGaps},
    Command{"breakdown",
            "FILE [--range NAME] [--classes] [--classes-file FILE] [--format csv|json]",
            "per GPU: compute, communication, exposed communication, memory, idle and span in ns",
            "  --range NAME        one block per instance of NVTX range NAME (leading 'instance')\n"
            "  --classes           add one row per kernel class (class:gemm, ...)\n"
            "  --classes-file FILE kernel class table (JSON) instead of the built-in one\n"
            "  --format csv|json   output format (default csv)\n",
            &runBreakdown},
    Command{"ops", "FILE [--group-by name|shapes] [--range NAME] [--format csv|json]",
            "operator statistics as TensorBoard's PyTorch profiler shows them: calls, host and\n"
            "      device self and total time per operator, by device self time",
            "  --group-by name|shapes\n"
            "                      one row per operator name (default), or per name and input\n"
            "                      shapes\n"
            "  --range NAME        only the calls inside the instances of range NAME\n"
            "                      (\"ProfilerStep#552\" one step, \"ProfilerStep\" every step)\n"
            "  --format csv|json   output format (default csv)\n",
            &runOps},
    Command{"steps", "FILE [--format csv|json]",
            "per training step: kernel, memcpy, memset, communication, runtime, data loading,\n"
            "      CPU and other time in ns, then the average step",
            "  --format csv|json   output format (default csv)\n", &runSteps},
    Command{"analyze",
            "FILE [--rule ID[,ID...]] [--evidence] [--set RULE.KEY=V[,...]] "
            "[--format csv|json|text]",
            "findings ranked by the time at stake: what the data shows and what to try\n"
            "      (nsys's expert rules, TensorBoard's recommendations, launch overhead, ...)",
            "  --rule ID[,ID...]   only these rules: cuda_memcpy_async, cuda_memcpy_sync,\n"
            "                      cuda_memset_sync, cuda_api_sync, gpu_gaps, gpu_time_util,\n"
            "                      data_loading, communication, gpu_utilization, tensor_cores,\n"
            "                      memory_peak, launch_overhead, small_grid,\n"
            "                      exposed_communication, pageable_copies, straggler\n"
            "  --evidence          the evidence rows of the one rule --rule names\n"
            "  --set RULE.KEY=V    change a threshold (docs/FINDINGS.md): gpu_gaps.gap (ms),\n"
            "                      gpu_time_util.threshold (%), gpu_time_util.chunks,\n"
            "                      data_loading.threshold, communication.threshold,\n"
            "                      gpu_utilization.threshold, memory_peak.threshold (%),\n"
            "                      launch_overhead.call, .delay, .short (us),\n"
            "                      small_grid.share, small_grid.occupancy,\n"
            "                      exposed_communication.threshold (%)\n"
            "  --format csv|json|text  output format (default csv)\n",
            &runAnalyze},
    Command{"job",
            "DIR|FILES... [--what ranks|steps|collectives|stragglers] [--align "
            "wall|step:N|collective] [--format csv|json]\n"
            "       strobe-cli job summarize RANK_TRACE -o RANK.summary.json",
            "the ranks of a distributed job on one clock: per-rank breakdown, steps,\n"
            "      collectives matched across ranks with each rank's wait, stragglers",
            "  --what ranks|steps|collectives|stragglers\n"
            "                      the table to print (default ranks)\n"
            "  --align wall|step:N|collective\n"
            "                      the ranks' clocks: as recorded (default), ProfilerStep#N\n"
            "                      starting together, or the first matched collective ending\n"
            "                      together\n"
            "  --format csv|json   output format (default csv)\n"
            "  -o, --output FILE   (summarize) where to write the rank's summary\n",
            &runJob},
    Command{"diff",
            "A B [--base] [--config] [--range NAME|auto] [--what kernels|nvtx|gpus] "
            "[--format csv|json]",
            "compare trace B with the baseline A: kernels, NVTX ranges, GPUs (deltas B - A)",
            "  --base              match kernels by short name\n"
            "  --config            match kernels by demangled name and launch configuration\n"
            "  --range NAME|auto   per instance of this range (a name or prefix; auto: detect)\n"
            "  --what kernels|nvtx|gpus\n"
            "                      the table to print (CSV default kernels; JSON default all)\n"
            "  --format csv|json   output format (default csv)\n",
            &runDiff},
    Command{"render",
            "FILE -o OUT.png|OUT.svg [--width W] [--height H] [--from T --to T | --range "
            "NAME[#K]] [--lanes all|gpu|cpu|REGEX] [--theme light|dark] [--compare OTHER] [--fit] "
            "[--bookmarks | --bookmarks-dir DIR]",
            "the timeline as a picture, drawn without a display (GUI builds)",
            "  -o, --output FILE   OUT.png or OUT.svg\n"
            "  --width W, --height H\n"
            "                      pixels, default 1920x1080, at most 16384\n"
            "  --from T, --to T    the window from the trace start: 1.2s, 120ms, 350us, 800ns\n"
            "  --range NAME[#K]    the K-th NVTX range named NAME (default 1), 5 % margin\n"
            "  --lanes all|gpu|cpu|REGEX\n"
            "                      the lanes to draw (REGEX: searched in the lane labels)\n"
            "  --theme light|dark  the palette (default light)\n"
            "  --compare OTHER     OTHER stacked below, both from their own start\n"
            "  --fit               shrink the rows when the lanes need more than H\n"
            "  --bookmarks         the notes bookmarked for FILE in the GUI, as flags on the "
            "ruler\n"
            "  --bookmarks-dir DIR the same from the bookmarks folder DIR\n",
            &runRender, true},
};

const char* const kExitStatus =
    "Exit status: 0 success, 1 a file that cannot be read or written, 2 a usage error.\n";

// The one default that lives in the model, filled into the texts that mention it.
QString text(const char* s) {
    QString t = QLatin1String(s);
    if (t.contains(QLatin1String("%1")))
        t = t.arg(kDefaultIdleThresholdNs);
    return t;
}

void printUsage(QTextStream& s) {
    s << "usage: strobe-cli COMMAND [ARGS...]\n\ncommands:\n";
    for (const Command& c : kCommands)
        s << "  " << c.name << ' ' << c.synopsis << "\n      " << text(c.summary) << '\n';
    s << "  --version\n      print the version\n"
         "  --help\n      print this help\n\n"
         "'strobe-cli COMMAND --help' describes one command's options.\n"
      << kExitStatus;
}

void printCommandUsage(const Command& c, QTextStream& s) {
    s << "usage: strobe-cli " << c.name << ' ' << c.synopsis << "\n\n"
      << text(c.summary) << "\n\noptions:\n"
      << text(c.options)
      << (c.run == &runSynth
              ? ""
              : "  --cache [DIR]       reopen the trace from the reopen cache (and fill it):\n"
                "                      the GUI's unless DIR (or --cache=DIR) is given\n")
      << "  -h, --help          print this help\n\n"
      << kExitStatus;
}

bool isHelp(const QString& a) {
    return a == QLatin1String("--help") || a == QLatin1String("-h");
}

int dispatch(const QStringList& argv, Io io) {
    if (argv.isEmpty()) {
        printUsage(io.err);
        return 2;
    }
    const QString& cmd = argv.front();
    if (cmd == QLatin1String("--version") || cmd == QLatin1String("-v")) {
        io.out << "strobe-cli " << STROBE_VERSION << '\n';
        return 0;
    }
    if (isHelp(cmd) || cmd == QLatin1String("help")) {
        printUsage(io.out);
        return 0;
    }
    for (const Command& c : kCommands) {
        if (cmd != QLatin1String(c.name))
            continue;
        QStringList args = argv.mid(1);
        if (std::any_of(args.begin(), args.end(), isHelp)) {
            printCommandUsage(c, io.out);
            return 0;
        }
        if (c.run == &runSynth) // writes a trace, reads none
            return c.run(args, io);
        setCacheFolder(takeCacheOption(args));
        const int rc = c.run(args, io);
        setCacheFolder({});
        return rc;
    }
    io.err << "strobe-cli: unknown command '" << cmd
           << "'; run 'strobe-cli --help' for the list.\n";
    return 2;
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
    return finishOutput(io, dispatch(argv, io));
}

} // namespace strobe::cli
