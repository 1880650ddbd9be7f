// SPDX-License-Identifier: MIT
// strobe-cli render in a build without the GUI (STROBE_BUILD_GUI=OFF): the painters it draws
// with are not built, so it says so.
#include "app/cli/commands.h"

#include <QCoreApplication>

namespace strobe::cli {

int runRender(const QStringList&, Io io) {
    io.err << "strobe-cli render: this strobe-cli was built without the GUI "
              "(STROBE_BUILD_GUI=OFF), which render draws with; rebuild with it on.\n";
    return 1;
}

std::unique_ptr<QCoreApplication> makeDrawingApplication(int& argc, char** argv) {
    return std::make_unique<QCoreApplication>(argc, argv);
}

} // namespace strobe::cli
