// SPDX-License-Identifier: MIT
#include "app/cli/commands.h"

#include <QCoreApplication>
#include <cstdio>
#include <memory>

int main(int argc, char** argv) {
    const std::unique_ptr<QCoreApplication> app = strobe::cli::makeApplication(argc, argv);
    QTextStream out(stdout);
    QTextStream err(stderr);
    // runCommandLine flushes `out` and turns a failed write into exit status 1.
    const int rc = strobe::cli::runCommandLine(QCoreApplication::arguments().mid(1), {out, err});
    err.flush();
    return rc;
}
