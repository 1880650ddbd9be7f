// SPDX-License-Identifier: MIT
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "app/gui/theme.h"
#include "model/hugepages.h"
#include "model/kernelclass.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QTextStream>
#include <QTimer>

int main(int argc, char** argv) {
    strobe::useHugePagesForMalloc(argv); // runs again with malloc on huge pages (see there)
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
        QStringLiteral("Trace to open (an nsys SQLite export, a Strobe capture or a PyTorch "
                       "profiler JSON trace); the sample when omitted. A folder, or several "
                       "traces, open as the ranks of one distributed job."),
        QStringLiteral("[TRACE | JOB_FOLDER | RANK_TRACE...]"));
    // For scripts and the test that runs this binary: open, paint once, exit with the outcome.
    const QCommandLineOption quitAfterLoad(
        QStringLiteral("quit-after-load"),
        QStringLiteral("Quit once the trace has loaded and the window has painted it: exit status "
                       "0, or 1 with the reason on stderr when the trace cannot be opened."));
    parser.addOption(quitAfterLoad);
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QStringLiteral("Compare TRACE (the baseline A) with this trace (B)."),
        QStringLiteral("AFTER"));
    parser.addOption(compare);
    const QCommandLineOption noCache(
        QStringLiteral("no-cache"),
        QStringLiteral("Read every trace from its file: neither use nor fill the reopen cache."));
    parser.addOption(noCache);
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
    if (!parser.isSet(noCache) && settings.traceCacheEnabled())
        window.setTraceCache(strobe::AppSettings::traceCacheFolder(),
                             settings.traceCacheCapBytes());
    window.show();
    if (parser.isSet(quitAfterLoad)) {
        const auto quit = [&window](bool ok, const QString& error) {
            if (ok) {
                window.repaint(); // every visible widget paints the trace
            } else {
                QTextStream(stderr) << "strobe: " << error << '\n';
            }
            QCoreApplication::exit(ok ? 0 : 1);
        };
        QObject::connect(&window, &strobe::MainWindow::loadFinished, &app, quit);
        QObject::connect(&window, &strobe::MainWindow::jobLoadFinished, &app, quit);
    }
    const QStringList args = parser.positionalArguments();
    const QString after = parser.value(compare);
    if (!after.isEmpty()) // B loads once A is there, so A is the baseline of the comparison
        QObject::connect(
            &window, &strobe::MainWindow::loadFinished, &window,
            [&window, after](bool ok) {
                if (ok && !window.isComparing() && !window.isLoadingComparison())
                    window.compareWith(after);
            },
            Qt::SingleShotConnection);
    QTimer::singleShot(0, &window, [&window, args] {
        if (args.isEmpty())
            window.openSample();
        else if (args.size() > 1)
            window.openJob(args);
        else
            window.openFile(args.front());
    });
    return app.exec();
}
