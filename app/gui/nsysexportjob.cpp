// SPDX-License-Identifier: MIT
#include "app/gui/nsysexportjob.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QStringBuilder>

namespace strobe {

bool NsysExportJob::isReport(const QString& path) {
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    if (suffix == QLatin1String("nsys-rep") || suffix == QLatin1String("qdrep"))
        return true;
    QFile f(path);
    return f.open(QIODevice::ReadOnly) &&
           f.read(28) == QByteArrayLiteral("NVIDIA Tegra Profiler Report");
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
        m_process->kill();
        m_process->waitForFinished(2000);
        QFile::remove(partialPath());
    }
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
    m_process->kill();
}

void NsysExportJob::readOutput() {
    // nsys draws a progress bar ("[====    ] 42%"), redrawn with carriage returns.
    static const QRegularExpression percent(QStringLiteral("(\\d{1,3})%"));
    const QString text = QString::fromLocal8Bit(m_process->readAll());
    int last = -1;
    for (auto it = percent.globalMatch(text); it.hasNext();)
        last = it.next().captured(1).toInt();
    if (last >= 0 && last <= 100)
        emit progress(last * 10);
    static const QRegularExpression lineBreak(QStringLiteral("[\r\n]+"));
    for (const QString& line : text.split(lineBreak, Qt::SkipEmptyParts)) {
        if (!line.trimmed().isEmpty() && !percent.match(line).hasMatch())
            m_lastLine = line.trimmed();
    }
}

void NsysExportJob::onFinished(int exitCode, bool crashed) {
    if (m_done)
        return;
    m_done = true;
    if (m_process && m_process->bytesAvailable() > 0)
        readOutput();
    const QString name = QFileInfo(m_report).fileName();
    if (m_cancelled) {
        QFile::remove(partialPath());
        emit finished(QString(), QString());
        return;
    }
    QString error;
    if (exitCode == -1 && !crashed) {
        error = QStringLiteral("Cannot run ") % m_nsys % QStringLiteral(" to export '") % name %
                QStringLiteral("'.");
    } else if (crashed || exitCode != 0) {
        error = QStringLiteral("nsys could not export '") % name % QStringLiteral("' (") %
                (crashed ? QStringLiteral("it crashed")
                         : QStringLiteral("exit status ") % QString::number(exitCode)) %
                (m_lastLine.isEmpty() ? QString() : QStringLiteral(": ") % m_lastLine) %
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
        emit finished(QString(), error);
        return;
    }
    emit progress(1000);
    emit finished(m_output, QString());
}

} // namespace strobe
