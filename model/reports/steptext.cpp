// SPDX-License-Identifier: MIT
#include "model/reports/steptext.h"

#include <QCoreApplication>
#include <QStringBuilder>

namespace strobe {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("StepText", text);
}

QString percent(double fraction) {
    return QString::number(100.0 * fraction, 'f', 1) % QStringLiteral(" %");
}

QString basisText(KernelMetricBasis basis) {
    switch (basis) {
    case KernelMetricBasis::Recorded:
        return tr("recorded by the profiler");
    case KernelMetricBasis::Estimated:
        return tr("estimated by Strobe");
    case KernelMetricBasis::Mixed:
        break;
    }
    return tr("partly recorded, partly estimated");
}

} // namespace

QString gpuMetricsText(const GpuStepMetrics& g) {
    QString text = tr("GPU %1: busy %2 of the steps' time")
                       .arg(QString::number(g.deviceId), percent(g.utilization));
    if (g.smEfficiency)
        text += tr(", est. SM efficiency %1 (%2)")
                    .arg(percent(g.smEfficiency->value), basisText(g.smEfficiency->basis));
    else
        text += tr(", est. SM efficiency unknown (no blocks per SM recorded or estimable)");
    if (g.achievedOccupancy)
        text += tr(", est. achieved occupancy %1 (%2)")
                    .arg(percent(g.achievedOccupancy->value / 100.0),
                         basisText(g.achievedOccupancy->basis));
    else
        text += tr(", est. achieved occupancy unknown");
    if (g.kernelTime > 0)
        text += tr(", Tensor Cores %1 of kernel time").arg(percent(g.tensorCoreShare()));
    return text % u'.';
}

QString operatorWarningsText(const OperatorWarnings& w) {
    if (w.crossing == 0)
        return {};
    return w.crossing == 1
               ? tr("1 range that crosses an enclosing one on its thread was left out (its "
                    "launches "
                    "count for the range around it).")
               : tr("%1 ranges that cross an enclosing one on their thread were left out (their "
                    "launches count for the range around them).")
                     .arg(w.crossing);
}

} // namespace strobe
