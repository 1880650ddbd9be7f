// SPDX-License-Identifier: MIT
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/hugepagechoice.h"
#include "model/hugepages.h"

#include <QCoreApplication>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>

int main(int argc, char** argv) {
    // Runs again with malloc on huge pages (see there) where the inputs are big enough to gain.
    if (strobe::cli::hugePagesPayOff(argc, argv))
        strobe::useHugePagesForMalloc(argv);
    // Out of memory or any other exception (a hostile file must never end in an abort with no
    // message): one sentence on stderr, exit status 1.
    try {
        const std::unique_ptr<QCoreApplication> app = strobe::cli::makeApplication(argc, argv);
        QTextStream out(stdout);
        QTextStream err(stderr);
        // runCommandLine flushes `out` and turns a failed write into exit status 1.
        const int rc =
            strobe::cli::runCommandLine(strobe::cli::argumentsFromNative(argc, argv), {out, err});
        err.flush();
        return rc;
    } catch (const std::bad_alloc&) {
        std::fputs("strobe-cli: not enough memory to finish; the file may be too large or "
                   "damaged.\n",
                   stderr);
    } catch (...) {
        std::fputs("strobe-cli: an unexpected internal error stopped the command.\n", stderr);
    }
    return 1;
}
