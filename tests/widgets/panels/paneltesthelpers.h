// SPDX-License-Identifier: MIT
#pragma once

#include "formats/nsys/synth/synthtrace.h"
#include "formats/open.h"
#include "widgets/viewstate.h"

#include <QApplication>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

namespace strobe::test {

inline std::shared_ptr<const Trace> cloverleaf() {
    static std::shared_ptr<const Trace> trace = [] {
        LoadResult r =
            loadTrace(QStringLiteral(STROBE_FIXTURES_DIR "/nsys/nsys2024.5-cloverleaf.sqlite"));
        return std::shared_ptr<const Trace>(std::move(r.trace));
    }();
    return trace;
}

// The two-GPU PyTorch export whose NVTX names carry per-call ids ("aten::mm, op_id = N").
inline std::shared_ptr<const Trace> h100() {
    static std::shared_ptr<const Trace> trace = [] {
        LoadResult r =
            loadTrace(QStringLiteral(STROBE_FIXTURES_DIR "/nsys/nsys2026.2-h100-2gpu-nvtx.sqlite"));
        return std::shared_ptr<const Trace>(std::move(r.trace));
    }();
    return trace;
}

// The GPU-side preview of the two-GPU H100 export, as a big load sends it (LoadOptions::preview).
inline std::shared_ptr<const Trace> h100GpuSidePreview() {
    std::unique_ptr<Trace> preview;
    LoadOptions o;
    o.previewMinRows = 0;
    o.preview = [&](std::unique_ptr<Trace> t) { preview = std::move(t); };
    loadTrace(QStringLiteral(STROBE_FIXTURES_DIR "/nsys/nsys2026.2-h100-2gpu-nvtx.sqlite"), o);
    return std::shared_ptr<const Trace>(std::move(preview));
}

// The two previews a big load sends, from a synthetic trace of 300,000 events written to a
// temporary folder: [0] the early one (TraceStage::GpuSideBegun, the first GPU rows), [1] the
// whole GPU side (without launch details), then [2] the whole trace the load returned. Empty
// when the trace cannot be written or loaded.
inline std::vector<std::shared_ptr<const Trace>> synthPreviews() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("synth.sqlite"));
    synth::SynthOptions so;
    so.events = 300'000;
    std::string error;
    std::vector<std::shared_ptr<const Trace>> previews;
    if (!synth::writeSynthTrace(path.toStdString(), so, &error))
        return previews;
    LoadOptions o;
    o.previewMinRows = 0;
    o.earlyPreviewAfter = std::chrono::milliseconds(0);
    o.preview = [&](std::unique_ptr<Trace> t) { previews.emplace_back(std::move(t)); };
    LoadResult whole = loadTrace(path, o);
    if (!whole.ok())
        previews.clear();
    else
        previews.emplace_back(std::move(whole.trace));
    return previews;
}

// Panels compute on worker threads: waits (processing events) until `panel` shows the data of
// the current trace and settings; false on timeout.
template <class Panel> bool waitUntilReady(const Panel& panel, int timeoutMs = 30000) {
    return QTest::qWaitFor([&] { return !panel.isComputing(); }, timeoutMs);
}

// Clicks the header of `column` of a shown `view`, as the user sorts.
inline void clickHeader(QTableView* view, int column) {
    QHeaderView* h = view->horizontalHeader();
    const QPoint at(h->sectionViewportPosition(column) + h->sectionSize(column) / 2,
                    h->height() / 2);
    QTest::mouseClick(h->viewport(), Qt::LeftButton, {}, at);
}

// The sort a click on each column's header asks for first (QHeaderView asks the model).
inline Qt::SortOrder firstClickOrder(QTableView* view, int column) {
    return Qt::SortOrder(
        view->model()->headerData(column, Qt::Horizontal, Qt::InitialSortOrderRole).toInt());
}

} // namespace strobe::test
