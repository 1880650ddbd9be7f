// SPDX-License-Identifier: MIT
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "app/gui/theme.h"
#include "model/kernelclass.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QTimer>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("strobe"));
    QApplication::setApplicationDisplayName(QStringLiteral("Strobe"));
    QApplication::setOrganizationName(QStringLiteral("strobe"));
    QApplication::setApplicationVersion(QStringLiteral(STROBE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.strobe.Strobe"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/strobe.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Timeline viewer for GPU profiles (Nsight Systems SQLite exports)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("trace"),
        QStringLiteral("Trace to open (an nsys SQLite export); the sample when omitted."),
        QStringLiteral("[TRACE]"));
    parser.process(app);

    // The user's kernel class table (docs/BREAKDOWN.md), for colours and the Overview alike.
    const QString classes = strobe::KernelClassTable::userFilePath();
    if (QFileInfo::exists(classes)) {
        QString error;
        if (const auto table = strobe::KernelClassTable::fromFile(classes, &error))
            strobe::KernelClassTable::setActive(*table);
        else
            qWarning("%s Using the built-in table.", qUtf8Printable(error));
    }

    strobe::AppSettings settings;
    strobe::applyTheme(app, settings.theme());
    strobe::MainWindow window(&settings);
    window.show();
    const QStringList args = parser.positionalArguments();
    QTimer::singleShot(0, &window, [&window, args] {
        if (args.isEmpty())
            window.openSample();
        else
            window.openFile(args.front());
    });
    return app.exec();
}
