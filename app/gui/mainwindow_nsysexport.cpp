// SPDX-License-Identifier: MIT
// Opening an Nsight Systems report: nsys exports it to SQLite in the background, into the
// cache folder, after the user agreed; then the export opens like any trace.
#include "app/gui/mainwindow.h"
#include "app/gui/nsysexportjob.h"
#include "widgets/messagebox.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

namespace strobe {

bool MainWindow::offerNsysExport(const QString& report) {
    const QString nsys = NsysExportJob::findNsys();
    if (nsys.isEmpty() || !QFileInfo(report).isFile())
        return false;
    const QString name = QFileInfo(report).fileName();
    const QString cached = NsysExportJob::exportPathFor(report);
    if (QFileInfo(cached).isFile()) { // exported before, and the report has not changed since
        startLoad(cached, name, false);
        return true;
    }
    QMessageBox* box = plainMessageBox(
        QMessageBox::Question, tr("Export the report?"),
        tr("'%1' is an Nsight Systems report, which only Nsight Systems can read. Export it to "
           "SQLite with %2 now?\n\nThe export runs in the background and is written to %3; the "
           "report's folder is left as it is.")
            .arg(name, nsys, QFileInfo(cached).path()),
        QMessageBox::Yes | QMessageBox::No, this);
    box->setObjectName(QStringLiteral("nsysExportQuestion"));
    box->setDefaultButton(QMessageBox::Yes);
    connect(box, &QMessageBox::finished, this, [this, nsys, report](int button) {
        if (button == QMessageBox::Yes)
            startExport(nsys, report);
    });
    box->open(); // not exec(): the window stays responsive
    return true;
}

void MainWindow::startExport(const QString& nsys, const QString& report) {
    if (m_export)
        m_export->cancel();
    m_export = std::make_unique<NsysExportJob>(nsys, report);
    connect(m_export.get(), &NsysExportJob::progress, m_progress, &QProgressBar::setValue);
    connect(m_export.get(), &NsysExportJob::finished, this, &MainWindow::onExportFinished);
    m_progress->setFormat(tr("Exporting %p%"));
    m_progress->setValue(0);
    m_progress->show();
    m_cancelButton->show();
    statusBar()->showMessage(tr("Exporting %1 with nsys…").arg(QFileInfo(report).fileName()));
    m_export->start();
}

void MainWindow::onExportFinished(const QString& sqlite, const QString& error) {
    auto* job = qobject_cast<NsysExportJob*>(sender());
    if (!job || job != m_export.get())
        return; // a superseded export
    const QString name = QFileInfo(job->report()).fileName();
    m_export.release()->deleteLater(); // after this slot returns
    m_progress->hide();
    m_cancelButton->hide();
    statusBar()->clearMessage();
    if (!sqlite.isEmpty()) {
        startLoad(sqlite, name, false);
        return;
    }
    if (error.isEmpty()) {
        statusBar()->showMessage(tr("Exporting %1 was cancelled.").arg(name), 5000);
        emit loadFinished(false, QString());
        return;
    }
    showError(error);
    emit loadFinished(false, error);
}

} // namespace strobe
