// SPDX-License-Identifier: MIT
#include "app/gui/nsysexportjob.h"

#include "formats/nativepath.h"
#include "model/reports/reporttable.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QStringBuilder>
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

namespace strobe {

namespace {

// What the error shows of nsys's output: its last lines, each cut, and what the log keeps.
constexpr int kShownLines = 3;
constexpr int kShownLineChars = 240;
constexpr qsizetype kTailBytes = qsizetype{16} * 1024;
constexpr qint64 kLogBytes = qint64{4} * 1024 * 1024;

// The first 28 bytes of a regular file, read without blocking: the GUI thread calls this, and a
// FIFO (or a device) opened for reading would wait for a writer for ever.
QByteArray headerOfRegularFile(const QString& path) {
    const int fd = openNativeForReading(path);
    if (fd < 0)
        return {};
    QByteArray head;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        head.resize(28);
        const ssize_t n = ::read(fd, head.data(), std::size_t(head.size()));
        head.resize(n > 0 ? qsizetype(n) : 0);
    }
    ::close(fd);
    return head;
}

} // namespace

bool NsysExportJob::isReport(const QString& path) {
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    if (suffix == QLatin1String("nsys-rep") || suffix == QLatin1String("qdrep"))
        return info.isFile();
    return headerOfRegularFile(path) == QByteArrayLiteral("NVIDIA Tegra Profiler Report");
}

QString NsysExportJob::findNsys() {
    return QStandardPaths::findExecutable(QStringLiteral("nsys"));
}

QString NsysExportJob::exportPathFor(const QString& report) {
    const QFileInfo info(report);
    QCryptographicHash hash(QCryptographicHash::Sha1);
    hash.addData(info.absoluteFilePath().toUtf8());
    hash.addData(QByteArray::number(info.size()));
    hash.addData(QByteArray::number(info.lastModified().toMSecsSinceEpoch()));
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) %
                        QStringLiteral("/nsys-exports");
    return dir % u'/' % info.completeBaseName() % u'-' %
           QString::fromLatin1(hash.result().toHex().left(12)) % QStringLiteral(".sqlite");
}

NsysExportJob::NsysExportJob(const QString& nsys, const QString& report, QObject* parent)
    : QObject(parent)
    , m_nsys(nsys)
    , m_report(QFileInfo(report).absoluteFilePath())
    , m_output(exportPathFor(report)) {}

NsysExportJob::~NsysExportJob() {
    if (isRunning()) {
        m_process->disconnect(this);
        killGroup();
        m_process->waitForFinished(2000);
        QFile::remove(partialPath());
    }
}

QString NsysExportJob::logPath() const {
    QString p = m_output;
    p.chop(int(QStringLiteral(".sqlite").size()));
    return p % QStringLiteral(".nsys-output.log");
}

void NsysExportJob::killGroup() {
    // nsys runs in a process group of its own (start()): end its children with it, which a
    // kill of nsys alone would leave running.
    const qint64 pid = m_process->processId();
    if (pid > 0)
        ::kill(-pid_t(pid), SIGKILL);
    m_process->kill();
}

QString NsysExportJob::partialPath() const {
    QString p = m_output;
    p.chop(int(QStringLiteral(".sqlite").size()));
    return p % QStringLiteral(".partial.sqlite");
}

bool NsysExportJob::isRunning() const {
    return m_process && m_process->state() != QProcess::NotRunning;
}

void NsysExportJob::start() {
    QDir().mkpath(QFileInfo(m_output).path());
    QFile::remove(partialPath());
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setChildProcessModifier([] { ::setpgid(0, 0); });
    QFile::remove(logPath()); // a link left there is removed, never written through
    m_log = std::make_unique<QFile>(logPath());
    if (!m_log->open(QIODevice::WriteOnly | QIODevice::Truncate))
        m_log.reset();
    connect(m_process.get(), &QProcess::readyRead, this, &NsysExportJob::readOutput);
    connect(m_process.get(), &QProcess::finished, this,
            [this](int code, QProcess::ExitStatus status) {
                onFinished(code, status == QProcess::CrashExit);
            });
    connect(m_process.get(), &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            onFinished(-1, false);
    });
    m_process->start(m_nsys,
                     {QStringLiteral("export"), QStringLiteral("--type"), QStringLiteral("sqlite"),
                      QStringLiteral("--force-overwrite"), QStringLiteral("true"),
                      QStringLiteral("--output"), partialPath(), m_report});
}

void NsysExportJob::cancel() {
    if (!isRunning())
        return;
    m_cancelled = true;
    killGroup();
}

void NsysExportJob::readOutput() {
    // nsys draws a progress bar ("[====    ] 42%"), redrawn with carriage returns.
    static const QRegularExpression percent(QStringLiteral("(\\d{1,3})%"));
    const QByteArray bytes = m_process->readAll();
    if (m_log && m_log->size() < kLogBytes)
        m_log->write(bytes.left(kLogBytes - m_log->size()));
    m_outputBytes += bytes.size();
    // Only the tail is kept: a broken nsys may print megabytes without a line break.
    m_tail += bytes.right(kTailBytes);
    if (m_tail.size() > kTailBytes)
        m_tail.remove(0, m_tail.size() - kTailBytes);
    const QString text = QString::fromLocal8Bit(bytes);
    int last = -1;
    for (auto it = percent.globalMatch(text); it.hasNext();)
        last = it.next().captured(1).toInt();
    if (last >= 0 && last <= 100)
        emit progress(last * 10);
}

QString NsysExportJob::lastLines() const {
    static const QRegularExpression percent(QStringLiteral("\\d{1,3}%"));
    static const QRegularExpression lineBreak(QStringLiteral("[\r\n]+"));
    const QStringList all = QString::fromLocal8Bit(m_tail).split(lineBreak, Qt::SkipEmptyParts);
    QStringList shown;
    for (auto it = all.crbegin(); it != all.crend() && shown.size() < kShownLines; ++it) {
        QString line = it->trimmed();
        if (line.isEmpty() || percent.match(line).hasMatch())
            continue;
        if (line.size() > kShownLineChars) // the end says most: nsys ends with its error
            line = QStringLiteral("…") % line.right(kShownLineChars);
        shown.prepend(escapeControls(line));
    }
    return shown.join(QStringLiteral(" / "));
}

void NsysExportJob::onFinished(int exitCode, bool crashed) {
    if (m_done)
        return;
    m_done = true;
    if (m_process && m_process->bytesAvailable() > 0)
        readOutput();
    m_log.reset(); // closed: kept beside the export for a failure, removed otherwise
    const QString name = QFileInfo(m_report).fileName();
    if (m_cancelled) {
        QFile::remove(partialPath());
        QFile::remove(logPath());
        emit finished(QString(), QString());
        return;
    }
    QString error;
    if (exitCode == -1 && !crashed) {
        error = QStringLiteral("Cannot run ") % m_nsys % QStringLiteral(" to export '") % name %
                QStringLiteral("'.");
    } else if (crashed || exitCode != 0) {
        const QString lines = lastLines();
        // The whole output stays in the log when the error shows only part of it.
        const bool cut = m_outputBytes > qint64(lines.toLocal8Bit().size()) + 256;
        error = QStringLiteral("nsys could not export '") % escapeControls(name) %
                QStringLiteral("' (") %
                (crashed ? QStringLiteral("it crashed")
                         : QStringLiteral("exit status ") % QString::number(exitCode)) %
                (lines.isEmpty() ? QString() : QStringLiteral(": ") % lines) %
                (cut ? QStringLiteral("; its whole output is in ") % logPath() : QString()) %
                QStringLiteral(").");
    } else if (QFileInfo(partialPath()).size() <= 0) {
        error = QStringLiteral("nsys finished without writing the export of '") % name %
                QStringLiteral("'.");
    } else {
        QFile::remove(m_output);
        if (!QFile::rename(partialPath(), m_output))
            error = QStringLiteral("Cannot move the export of '") % name %
                    QStringLiteral("' into place at ") % m_output % u'.';
    }
    if (!error.isEmpty()) {
        QFile::remove(partialPath());
        if (!error.contains(logPath()))
            QFile::remove(logPath());
        emit finished(QString(), error);
        return;
    }
    QFile::remove(logPath());
    emit progress(1000);
    emit finished(m_output, QString());
}

} // namespace strobe
