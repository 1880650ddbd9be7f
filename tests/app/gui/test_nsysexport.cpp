// SPDX-License-Identifier: MIT
// Opening an .nsys-rep with nsys on the PATH: a fake nsys (a shell script that copies a real
// fixture where it is told) stands in for Nsight Systems.
#include "app/gui/appsettings.h"
#include "app/gui/mainwindow.h"
#include "app/gui/nsysexportjob.h"
#include "model/trace.h"
#include "tests/support/qtprinters.h"
#include "tests/support/sqlitequery.h"

#include <QAbstractButton>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStringBuilder>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>
#include <sys/stat.h>

using namespace strobe;

namespace {

const char* const kFixture = "nsys2024.5-cloverleaf.sqlite";

class NsysExportTest : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(dir.isValid());
        oldPath = qgetenv("PATH");
        oldCache = qgetenv("XDG_CACHE_HOME");
        QDir(dir.path()).mkpath(QStringLiteral("bin"));
        QDir(dir.path()).mkpath(QStringLiteral("reports"));
        qputenv("PATH", (dir.filePath(QStringLiteral("bin")) + u':').toLocal8Bit() + oldPath);
        qputenv("XDG_CACHE_HOME", dir.filePath(QStringLiteral("cache")).toLocal8Bit());
        report = dir.filePath(QStringLiteral("reports/run.nsys-rep"));
        QFile r(report);
        ASSERT_TRUE(r.open(QIODevice::WriteOnly));
        r.write("NVIDIA Tegra Profiler Report, not a real one\n");
        r.close();
        settings = std::make_unique<AppSettings>(dir.filePath(QStringLiteral("strobe.ini")));
        window = std::make_unique<MainWindow>(settings.get());
        window->show();
    }
    void TearDown() override {
        window.reset();
        qputenv("PATH", oldPath);
        if (oldCache.isEmpty())
            qunsetenv("XDG_CACHE_HOME");
        else
            qputenv("XDG_CACHE_HOME", oldCache);
    }

    // A fake nsys: logs its arguments, prints a progress bar, then runs `body` (sh) with $out
    // set to the --output path.
    void installNsys(const QString& body) {
        const QString path = dir.filePath(QStringLiteral("bin/nsys"));
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        const QString script =
            QStringLiteral("#!/bin/sh\necho \"$@\" >> '") % log() %
            QStringLiteral("'\nout=\nwhile [ $# -gt 0 ]; do\n  if [ \"$1\" = --output ]; then "
                           "out=\"$2\"; shift; fi\n  shift\ndone\n"
                           "printf 'Processing [=====     ] 50%%\\r'\n") %
            body % u'\n';
        f.write(script.toLocal8Bit());
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    QString log() const { return dir.filePath(QStringLiteral("nsys-calls.log")); }
    int nsysCalls() const {
        QFile f(log());
        return f.open(QIODevice::ReadOnly) ? int(f.readAll().count('\n')) : 0;
    }
    QMessageBox* question() const {
        return window->findChild<QMessageBox*>(QStringLiteral("nsysExportQuestion"));
    }
    // Opens the report, answers the question with `answer`, waits for the outcome.
    std::pair<bool, QString> openAnswering(QMessageBox::StandardButton answer) {
        QSignalSpy spy(window.get(), &MainWindow::loadFinished);
        window->openFile(report);
        if (!QTest::qWaitFor([&] { return question() != nullptr; }, 5000)) {
            ADD_FAILURE() << "no question was asked";
            return {false, QString()};
        }
        question()->button(answer)->click();
        if (answer != QMessageBox::Yes)
            return {false, QString()};
        EXPECT_TRUE(spy.wait(60000));
        return spy.isEmpty()
                   ? std::pair<bool, QString>{false, QString()}
                   : std::pair<bool, QString>{spy.at(0).at(0).toBool(), spy.at(0).at(1).toString()};
    }
    QStringList reportFolder() const {
        return QDir(dir.filePath(QStringLiteral("reports")))
            .entryList(QDir::Files | QDir::NoDotAndDotDot);
    }

    QTemporaryDir dir;
    QByteArray oldPath, oldCache;
    QString report;
    std::unique_ptr<AppSettings> settings;
    std::unique_ptr<MainWindow> window;
};

} // namespace

TEST_F(NsysExportTest, ExportsIntoTheCacheAndOpensTheResult) {
    const QString fixture = QString::fromStdString(test::fixturePath(kFixture));
    installNsys(QStringLiteral("cp '") % fixture % QStringLiteral("' \"$out\""));
    const auto [ok, error] = openAnswering(QMessageBox::Yes);
    ASSERT_TRUE(ok) << error.toStdString();
    ASSERT_NE(window->trace(), nullptr);
    EXPECT_EQ(std::int64_t(window->trace()->counts().kernels),
              test::queryInt(test::fixturePath(kFixture),
                             "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    EXPECT_EQ(window->traceTitle(), QStringLiteral("run.nsys-rep"));
    // Into the user's cache folder, never beside the report.
    EXPECT_EQ(reportFolder(), QStringList{QStringLiteral("run.nsys-rep")});
    const QString exported = NsysExportJob::exportPathFor(report);
    EXPECT_TRUE(exported.startsWith(dir.filePath(QStringLiteral("cache/"))))
        << exported.toStdString();
    EXPECT_TRUE(QFileInfo(exported).isFile());
    QFile calls(log());
    ASSERT_TRUE(calls.open(QIODevice::ReadOnly));
    const QString args = QString::fromLocal8Bit(calls.readAll());
    EXPECT_TRUE(args.startsWith(QStringLiteral("export --type sqlite "))) << args.toStdString();
    EXPECT_TRUE(args.trimmed().endsWith(QFileInfo(report).absoluteFilePath()));

    // Opened again: the earlier export is reused, nothing is asked and nsys does not run.
    ASSERT_TRUE(QTest::qWaitFor([&] { return question() == nullptr; }, 5000)); // the first one
    QSignalSpy spy(window.get(), &MainWindow::loadFinished);
    window->openFile(report);
    ASSERT_TRUE(spy.wait(30000));
    EXPECT_TRUE(spy.at(0).at(0).toBool());
    EXPECT_EQ(question(), nullptr);
    EXPECT_EQ(nsysCalls(), 1);
}

TEST_F(NsysExportTest, ProgressReachesTheStatusBar) {
    installNsys(QStringLiteral("sleep 30"));
    window->openFile(report);
    ASSERT_TRUE(QTest::qWaitFor([&] { return question() != nullptr; }, 5000));
    question()->button(QMessageBox::Yes)->click();
    auto* bar = window->findChild<QProgressBar*>();
    ASSERT_NE(bar, nullptr);
    EXPECT_TRUE(QTest::qWaitFor([&] { return bar->value() == 500; }, 10000)) << bar->value();
    EXPECT_TRUE(bar->isVisible());
    EXPECT_EQ(bar->format(), QStringLiteral("Exporting %p%"));
    // Cancel stops nsys and leaves no half-written export behind.
    QSignalSpy spy(window.get(), &MainWindow::loadFinished);
    window->cancelLoading();
    ASSERT_TRUE(spy.wait(10000));
    EXPECT_FALSE(spy.at(0).at(0).toBool());
    EXPECT_TRUE(spy.at(0).at(1).toString().isEmpty());
    const QDir exports(QFileInfo(NsysExportJob::exportPathFor(report)).path());
    EXPECT_TRUE(exports.entryList(QDir::Files).isEmpty())
        << exports.entryList().join(u' ').toStdString();
    EXPECT_FALSE(window->isLoading());
}

TEST_F(NsysExportTest, AFailedExportShowsNsysOwnWords) {
    installNsys(QStringLiteral("echo 'ERROR: the report is damaged.' >&2; exit 3"));
    const auto [ok, error] = openAnswering(QMessageBox::Yes);
    EXPECT_FALSE(ok);
    EXPECT_EQ(error, QStringLiteral("nsys could not export 'run.nsys-rep' (exit status 3: ERROR: "
                                    "the report is damaged.)."));
    EXPECT_FALSE(QFileInfo::exists(NsysExportJob::exportPathFor(report)));
}

TEST_F(NsysExportTest, AnExportThatWritesNothingIsAnError) {
    installNsys(QStringLiteral("exit 0"));
    const auto [ok, error] = openAnswering(QMessageBox::Yes);
    EXPECT_FALSE(ok);
    EXPECT_EQ(error, QStringLiteral("nsys finished without writing the export of 'run.nsys-rep'."));
}

TEST_F(NsysExportTest, DecliningRunsNothing) {
    installNsys(QStringLiteral("exit 0"));
    openAnswering(QMessageBox::No);
    QTest::qWait(200);
    EXPECT_EQ(nsysCalls(), 0);
    EXPECT_EQ(window->trace(), nullptr);
    EXPECT_FALSE(window->isLoading());
}

TEST_F(NsysExportTest, WithoutNsysTheErrorSaysHowToExport) {
    qputenv("PATH", dir.filePath(QStringLiteral("bin")).toLocal8Bit()); // holds no nsys
    QSignalSpy spy(window.get(), &MainWindow::loadFinished);
    window->openFile(report);
    ASSERT_TRUE(spy.wait(30000));
    EXPECT_EQ(question(), nullptr);
    EXPECT_FALSE(spy.at(0).at(0).toBool());
    EXPECT_TRUE(spy.at(0).at(1).toString().contains(
        QStringLiteral("export it first with: nsys export --type sqlite run.nsys-rep")));
}

// Issue 46: a broken nsys that prints megabytes without a line break. The error shows only the
// end of its output, cut and escaped; the whole of it (up to 4 MiB) stays in a log that the
// sentence names.
TEST_F(NsysExportTest, AFloodOfOutputShowsOnlyItsEndAndKeepsTheRestInALog) {
    installNsys(QStringLiteral("head -c 10000000 /dev/zero | tr '\\0' 'x'; "
                               "printf '\\033[31mtail\\033[0m'; exit 4"));
    const auto [ok, error] = openAnswering(QMessageBox::Yes);
    EXPECT_FALSE(ok);
    EXPECT_LT(error.size(), 800) << error.size();
    EXPECT_TRUE(error.startsWith(QStringLiteral("nsys could not export 'run.nsys-rep' (exit "
                                                "status 4: …xxx")))
        << error.left(200).toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("\\x1B[31mtail\\x1B[0m")))
        << error.right(300).toStdString();
    EXPECT_FALSE(error.contains(QChar(0x1B)));
    const QString logPath = NsysExportJob::exportPathFor(report).replace(
        QStringLiteral(".sqlite"), QStringLiteral(".nsys-output.log"));
    EXPECT_TRUE(error.endsWith(QStringLiteral("; its whole output is in ") % logPath %
                               QStringLiteral(").")))
        << error.right(200).toStdString();
    EXPECT_EQ(QFileInfo(logPath).size(), 4 * 1024 * 1024);
    QMessageBox* box = window->findChild<QMessageBox*>();
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(box->textFormat(), Qt::PlainText);
}

// Cancel ends nsys's children too: a real nsys starts helper processes, which a kill of nsys
// alone leaves running.
TEST_F(NsysExportTest, CancelEndsTheWholeProcessGroup) {
    const QString pidFile = dir.filePath(QStringLiteral("child.pid"));
    installNsys(QStringLiteral("sleep 300 & echo $! > '") % pidFile % QStringLiteral("'; wait"));
    window->openFile(report);
    ASSERT_TRUE(QTest::qWaitFor([&] { return question() != nullptr; }, 5000));
    question()->button(QMessageBox::Yes)->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return QFileInfo(pidFile).size() > 0; }, 10000));
    QFile f(pidFile);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QByteArray pid = f.readAll().trimmed();
    ASSERT_FALSE(pid.isEmpty());
    const auto alive = [&] {
        QFile stat(QStringLiteral("/proc/") % QString::fromLatin1(pid) % QStringLiteral("/stat"));
        if (!stat.open(QIODevice::ReadOnly))
            return false;
        const QByteArray s = stat.readAll();
        const qsizetype close = s.lastIndexOf(')');
        return close > 0 && s.size() > close + 2 && s[close + 2] != 'Z'; // a zombie has ended
    };
    ASSERT_TRUE(alive());
    QSignalSpy spy(window.get(), &MainWindow::loadFinished);
    window->cancelLoading();
    ASSERT_TRUE(spy.wait(10000));
    EXPECT_TRUE(QTest::qWaitFor([&] { return !alive(); }, 5000))
        << "sleep " << pid.constData() << " survived Cancel";
}

// The window's thread never opens a FIFO for reading (that waits for a writer for ever): the
// report check reads only regular files, without blocking.
TEST_F(NsysExportTest, AFifoIsNoReportAndOpeningItDoesNotBlockTheWindow) {
    const QString fifo = dir.filePath(QStringLiteral("pipe.nsys-rep"));
    ASSERT_EQ(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const QString plain = dir.filePath(QStringLiteral("pipe"));
    ASSERT_EQ(::mkfifo(QFile::encodeName(plain).constData(), 0600), 0);
    QElapsedTimer t;
    t.start();
    EXPECT_FALSE(NsysExportJob::isReport(fifo));
    EXPECT_FALSE(NsysExportJob::isReport(plain));
    window->openFile(plain);
    EXPECT_LT(t.elapsed(), 2000);
    EXPECT_EQ(question(), nullptr);
}
