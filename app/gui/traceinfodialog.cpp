// SPDX-License-Identifier: MIT
#include "app/gui/traceinfodialog.h"

#include "model/timeformat.h"
#include "model/trace.h"

#include <QDialogButtonBox>
#include <QStringBuilder>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace strobe {

namespace {
QString row(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td style='padding-right:12px'><b>") % key.toHtmlEscaped() %
           QStringLiteral("</b></td><td>") % value.toHtmlEscaped() % QStringLiteral("</td></tr>");
}
} // namespace

QString TraceInfoDialog::html(const Trace& t, const QString& title) {
    const TraceMetadata& m = t.metadata();
    QString h = QStringLiteral("<h3>") % title.toHtmlEscaped() % QStringLiteral("</h3><table>");
    h += row(tr("File"), t.filePath());
    h += row(tr("Format"), m.format % QStringLiteral(" (") % m.productName % u')');
    if (m.nsysVersion || m.format == QLatin1String("nsys-sqlite"))
        h += row(tr("Nsight Systems version"), m.nsysVersion.value_or(tr("not recorded")));
    h += row(tr("Schema version"), m.schemaVersion.value_or(tr("not recorded")));
    if (m.rank)
        h += row(
            tr("Distributed rank"),
            QString::number(*m.rank) %
                (m.worldSize ? QStringLiteral(" of ") % QString::number(*m.worldSize) : QString()) %
                (m.distributedBackend.isEmpty()
                     ? QString()
                     : QStringLiteral(" (") % m.distributedBackend % u')'));
    if (!m.commandLine.isEmpty())
        h += row(tr("Command line"), m.commandLine);
    h += row(tr("Duration"), formatDuration(t.timeRange().duration()));
    const TraceCounts& c = t.counts();
    h += row(tr("Kernels"), QString::number(c.kernels));
    h += row(tr("Memory copies"), QString::number(c.memcpys));
    h += row(tr("Memory sets"), QString::number(c.memsets));
    h += row(tr("CUDA API calls"), QString::number(c.cudaApiCalls));
    h += row(tr("NVTX ranges / marks"),
             QString::number(c.nvtxRanges) % QStringLiteral(" / ") % QString::number(c.nvtxMarks));
    h += row(tr("OS runtime calls"), QString::number(c.osrtCalls));
    if (c.cpuOps || c.pythonFunctions)
        h += row(tr("CPU ops / Python functions"), QString::number(c.cpuOps) %
                                                       QStringLiteral(" / ") %
                                                       QString::number(c.pythonFunctions));
    h += QStringLiteral("</table><h4>") % tr("GPUs") % QStringLiteral("</h4><ul>");
    for (const GpuInfo& g : t.gpus()) {
        QString s = QStringLiteral("GPU ") % QString::number(g.id) % QStringLiteral(": ") %
                    (g.name ? t.string(g.name) : tr("name not recorded"));
        if (g.smCount)
            s += QStringLiteral(", ") % QString::number(g.smCount) %
                 QStringLiteral(" SMs, compute ") % QString::number(g.computeMajor) % u'.' %
                 QString::number(g.computeMinor);
        if (g.totalMemory)
            s += QStringLiteral(", ") % formatBytes(g.totalMemory);
        h += QStringLiteral("<li>") % s.toHtmlEscaped() % QStringLiteral("</li>");
    }
    h += QStringLiteral("</ul><h4>") % tr("Processes") % QStringLiteral("</h4><ul>");
    for (const ProcessInfo& p : t.processes())
        h += QStringLiteral("<li>") %
             QString(t.string(p.name) % QStringLiteral(" [") % QString::number(p.pid) % u']')
                 .toHtmlEscaped() %
             QStringLiteral("</li>");
    h += QStringLiteral("</ul><h4>") % tr("Warnings") % QStringLiteral("</h4>");
    if (t.warnings().empty())
        h +=
            QStringLiteral("<p>") % tr("None: the data had no anomalies.") % QStringLiteral("</p>");
    else {
        h += QStringLiteral("<ul>");
        for (const TraceWarning& w : t.warnings())
            h += QStringLiteral("<li>") % w.message.toHtmlEscaped() % QStringLiteral("</li>");
        h += QStringLiteral("</ul>");
    }
    return h;
}

TraceInfoDialog::TraceInfoDialog(const Trace& trace, const QString& title, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Trace Information"));
    auto* text = new QTextBrowser(this);
    text->setHtml(html(trace, title));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text);
    layout->addWidget(buttons);
    resize(640, 560);
}

} // namespace strobe
