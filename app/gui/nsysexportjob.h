// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>
#include <memory>

class QFile;
class QProcess;

namespace strobe {

// Turns an Nsight Systems report (.nsys-rep, .qdrep), which only nsys can read, into the SQLite
// export Strobe opens: runs `nsys export --type sqlite` in the background into the user's cache
// folder (never beside the report, which may be read-only or shared), reporting progress.
class NsysExportJob : public QObject {
    Q_OBJECT
public:
    // True for a file that only Nsight Systems reads: an .nsys-rep or .qdrep name, or the
    // report header.
    static bool isReport(const QString& path);
    // The nsys program on the PATH, or empty when there is none.
    static QString findNsys();
    // Where the export of `report` goes: the cache folder's nsys-exports/ holds
    // NAME-HASH.sqlite, HASH covering the report's absolute path, size and modification time,
    // so an export is reused until the report changes.
    static QString exportPathFor(const QString& report);

    NsysExportJob(const QString& nsys, const QString& report, QObject* parent = nullptr);
    ~NsysExportJob() override;

    const QString& report() const { return m_report; }
    const QString& outputPath() const { return m_output; }
    void start();
    // Stops nsys and removes what it wrote; finished() follows with an empty error.
    void cancel();
    bool isRunning() const;

signals:
    // 0 to 1000 while nsys prints percentages.
    void progress(int permille);
    // `sqlite` is the complete export, or empty on failure (then `error` is one sentence;
    // empty when cancelled).
    void finished(const QString& sqlite, const QString& error);

private:
    void readOutput();
    void onFinished(int exitCode, bool crashed);
    void killGroup();
    // nsys's last lines that are not its progress bar, cut and escaped, for the error.
    QString lastLines() const;
    QString partialPath() const;
    // nsys's output (its first 4 MiB), kept beside the export when the error shows only part.
    QString logPath() const;

    QString m_nsys;
    QString m_report;
    QString m_output;
    std::unique_ptr<QProcess> m_process;
    std::unique_ptr<QFile> m_log;
    QByteArray m_tail; // the last 16 KiB of nsys's output
    qint64 m_outputBytes = 0;
    bool m_cancelled = false;
    bool m_done = false;
};

} // namespace strobe
