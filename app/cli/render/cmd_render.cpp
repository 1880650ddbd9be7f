// SPDX-License-Identifier: MIT
// strobe-cli render FILE -o OUT.png|OUT.svg: the timeline as a picture, drawn without a window
// by the painters of the GUI (render/paint/timelinepicture.h; docs/CLI.md).
#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/render/renderinputs.h"
#include "formats/samefile.h"
#include "model/bookmarks.h"
#include "model/lod/timelinelod.h"
#include "model/reports/reporttable.h"
#include "model/timeformat.h"
#include "model/trace.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/rulerflags.h"
#include "render/geometry/timelinegeometry.h"
#include "render/paint/headerpainter.h"
#include "render/paint/timelinepicture.h"

#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QStringBuilder>
#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

namespace strobe::cli {

namespace {

constexpr int kMaxSide = 16384;
constexpr int kMinWidth = kLaneHeaderWidth + 100;
constexpr int kMinHeight = 100;
constexpr int kRangeMarginPercent = 5;

// One trace of the picture with everything its painters read.
struct Scene {
    QString file;
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<TimelineLod> lod;
    LaneLayout layout;
    TimelineGeometry geometry;
};

// The fonts of a picture are named, not the platform's default, so that a picture is the same
// wherever it is drawn (DejaVu Sans ships with every Debian; scripts/deps.sh installs it).
QFont pictureFont() {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSizeF(9.0);
    f.setStyleHint(QFont::SansSerif);
    f.setHintingPreference(QFont::PreferNoHinting);
    return f;
}

std::optional<int> parseSide(const std::optional<QString>& text, int fallback, int min) {
    if (!text)
        return fallback;
    bool ok = false;
    const int v = text->toInt(&ok);
    if (!ok || v < min || v > kMaxSide)
        return std::nullopt;
    return v;
}

QString sideError(const char* option, int min, const QString& text) {
    return QStringLiteral("--") % QLatin1String(option) %
           QStringLiteral(" must be a whole number of pixels from ") % QString::number(min) %
           QStringLiteral(" to ") % QString::number(kMaxSide) % QStringLiteral(", not '") % text %
           u'\'';
}

// The largest row height (at most the view's) at which the lanes fit `room`; nullopt if none.
std::optional<int> fittingRowHeight(std::vector<std::unique_ptr<Scene>>& scenes,
                                    std::vector<PictureTrace>& traces, int room) {
    for (int h = LaneLayout::kRowHeight; h >= LaneLayout::kMinRowHeight; --h) {
        for (auto& s : scenes)
            s->layout.setRowHeight(h);
        if (pictureLanesHeight(traces) <= room)
            return h;
    }
    return std::nullopt;
}

QString windowText(TimeRange w) {
    return formatTimestamp(w.start, 0) % QStringLiteral(" to ") % formatTimestamp(w.end, 0);
}

} // namespace

int runRender(const QStringList& args, Io io) {
    Q_ASSERT(qobject_cast<QGuiApplication*>(QCoreApplication::instance())); // makeApplication
    const QString cmd = QStringLiteral("render");
    QStringList normalized;
    for (const QString& a : args)
        normalized << (a == QLatin1String("-o") ? QStringLiteral("--output") : a);
    CliArgs a(cmd, normalized, {QStringLiteral("fit"), QStringLiteral("bookmarks")},
              {QStringLiteral("output"), QStringLiteral("width"), QStringLiteral("height"),
               QStringLiteral("from"), QStringLiteral("to"), QStringLiteral("range"),
               QStringLiteral("lanes"), QStringLiteral("theme"), QStringLiteral("compare"),
               QStringLiteral("bookmarks-dir")},
              1);
    if (!a.ok())
        return usageError(io, cmd, a.error());
    const QString output = a.option(QStringLiteral("output")).value_or(QString());
    if (output.isEmpty())
        return usageError(io, cmd, QStringLiteral("missing -o OUT.png or -o OUT.svg"));
    const QString suffix = QFileInfo(output).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return usageError(io, cmd,
                          QStringLiteral("the output must end in .png or .svg, not '") %
                              escapeControls(output) % u'\'');
    const auto widthText = a.option(QStringLiteral("width"));
    const auto heightText = a.option(QStringLiteral("height"));
    const auto width = parseSide(widthText, 1920, kMinWidth);
    if (!width)
        return usageError(io, cmd, sideError("width", kMinWidth, *widthText));
    const auto height = parseSide(heightText, 1080, kMinHeight);
    if (!height)
        return usageError(io, cmd, sideError("height", kMinHeight, *heightText));
    std::optional<TimeNs> from, to;
    for (auto [name, slot] : {std::pair{"from", &from}, std::pair{"to", &to}}) {
        if (const auto text = a.option(QLatin1String(name))) {
            *slot = parseTime(*text);
            if (!*slot)
                return usageError(io, cmd,
                                  QStringLiteral("--") % QLatin1String(name) %
                                      QStringLiteral(" wants a time such as 1.2s, 120ms, 350us, "
                                                     "800ns or 2500 (ns), not '") %
                                      *text % u'\'');
        }
    }
    std::optional<RangeSpec> rangeSpec;
    if (const auto text = a.option(QStringLiteral("range"))) {
        if (from || to)
            return usageError(io, cmd,
                              QStringLiteral("--range and --from/--to exclude each other"));
        rangeSpec = parseRangeSpec(*text);
        if (!rangeSpec)
            return usageError(io, cmd,
                              QStringLiteral("--range wants NAME or NAME#K, not an empty text"));
    }
    const QString theme = a.option(QStringLiteral("theme")).value_or(QStringLiteral("light"));
    if (theme != QLatin1String("light") && theme != QLatin1String("dark"))
        return usageError(io, cmd,
                          QStringLiteral("--theme must be light or dark, not '") % theme % u'\'');
    const QString lanes = a.option(QStringLiteral("lanes")).value_or(QStringLiteral("all"));
    const auto bookmarksDir = a.option(QStringLiteral("bookmarks-dir"));
    if (bookmarksDir && a.flag(QStringLiteral("bookmarks")))
        return usageError(io, cmd,
                          QStringLiteral("--bookmarks and --bookmarks-dir exclude each other"));
    if (bookmarksDir && !QFileInfo(*bookmarksDir).isDir())
        return usageError(io, cmd,
                          QStringLiteral("--bookmarks-dir wants a folder, not '") %
                              escapeControls(*bookmarksDir) % u'\'');

    // The traces, top to bottom, each on the shared axis from its own start.
    QStringList files{a.positional().front()};
    if (const auto other = a.option(QStringLiteral("compare")))
        files << *other;
    for (const QString& file : files) {
        if (isSameFile(output, file)) { // before the load: refused at once, nothing written
            io.err << "strobe-cli render: the output " << escapeControls(output) << " is the trace "
                   << escapeControls(file) << " itself; write the picture to another file.\n";
            return 1;
        }
    }
    std::vector<std::unique_ptr<Scene>> scenes;
    for (const QString& file : files) {
        auto scene = std::make_unique<Scene>();
        scene->file = QFileInfo(file).fileName();
        std::unique_ptr<Trace> loaded = loadForCli(file, io, kAllTraceParts);
        if (!loaded)
            return 1;
        scene->trace = std::move(loaded);
        scene->layout.setTrace(scene->trace.get());
        if (const QString error = selectLanes(*scene->trace, lanes, scene->file, scene->layout);
            !error.isEmpty()) {
            io.err << "strobe-cli render: " << error << '\n';
            return 1;
        }
        scenes.push_back(std::move(scene));
    }

    TimeNs longest = 0;
    for (const auto& s : scenes)
        longest = std::max(longest, s->trace->timeRange().duration());
    TimeRange window{from.value_or(0), to.value_or(longest)};
    if (rangeSpec) {
        const Scene& first = *scenes.front();
        const FoundRange found = findNamedRange(*first.trace, *rangeSpec, first.file);
        if (!found.range) {
            io.err << "strobe-cli render: " << found.error << '\n';
            return 1;
        }
        const TimeNs origin = first.trace->timeRange().start;
        window = withMargin({found.range->start - origin, found.range->end - origin},
                            kRangeMarginPercent);
    }
    if (window.isEmpty()) {
        io.err << "strobe-cli render: the window " << windowText(window)
               << " is empty; --to must come after --from.\n";
        return 1;
    }
    const bool overlapsAny = std::any_of(scenes.begin(), scenes.end(), [&](const auto& s) {
        return window.start < s->trace->timeRange().duration() && window.end > 0;
    });
    if (!overlapsAny) {
        io.err << "strobe-cli render: the window " << windowText(window)
               << " holds nothing: the trace runs from 0 to " << formatTimestamp(longest, 0)
               << ".\n";
        return 1;
    }

    std::vector<PictureTrace> traces;
    for (const auto& s : scenes) {
        PictureTrace t;
        t.layout = &s->layout;
        t.geometry = &s->geometry;
        t.offset = s->trace->timeRange().start;
        if (scenes.size() > 1)
            t.title = s->file;
        traces.push_back(std::move(t));
    }
    PictureOptions options;
    options.size = QSize(*width, *height);
    options.window = window;
    options.palette =
        theme == QLatin1String("dark") ? TimelinePalette::darkPalette() : TimelinePalette::light();
    options.font = pictureFont();
    if (bookmarksDir || a.flag(QStringLiteral("bookmarks"))) {
        // The GUI's notes for FILE, as its Export Image draws them: flags on the shared axis.
        const BookmarkStore store(bookmarksDir.value_or(BookmarkStore::guiDirectory()));
        const BookmarkLoad loaded = store.load(files.front());
        if (!loaded.warning.isEmpty())
            io.err << "strobe-cli render: " << escapeControls(loaded.warning) << '\n';
        else if (loaded.set.notes.empty())
            io.err << "strobe-cli render: no bookmark notes are kept for " << scenes[0]->file
                   << " in " << escapeControls(QDir::toNativeSeparators(store.directory()))
                   << ".\n";
        options.marks = noteMarks(loaded.set, scenes[0]->trace->timeRange().start);
    }
    options.footer = files.size() > 1 ? scenes[0]->file % QStringLiteral(" vs ") % scenes[1]->file
                                      : scenes[0]->file;
    options.footer += QStringLiteral("  \u00b7  ") % windowText(window) %
                      QStringLiteral("  \u00b7  Strobe ") % QLatin1String(STROBE_VERSION);
    const int room = pictureLanesRoom(options);
    if (pictureLanesHeight(traces) > room) {
        const int need = pictureLanesHeight(traces);
        if (!a.flag(QStringLiteral("fit"))) {
            io.err << "strobe-cli render: the lanes need " << need << " px but a " << *height
                   << " px high picture leaves " << room << " px for them; pass --height "
                   << (*height - room + need)
                   << ", --fit to shrink the rows, or --lanes to show fewer.\n";
            return 1;
        }
        if (!fittingRowHeight(scenes, traces, room)) {
            io.err << "strobe-cli render: even rows of " << LaneLayout::kMinRowHeight << " px need "
                   << pictureLanesHeight(traces) << " px but a " << *height
                   << " px high picture leaves " << room
                   << " px for them; pass a larger --height or --lanes to show fewer.\n";
            return 1;
        }
    }

    // The level of detail is built here, on this thread, before the one paint.
    const std::atomic<bool> cancelled{false};
    for (auto& s : scenes) {
        s->lod = std::make_shared<TimelineLod>(s->trace);
        s->lod->build(cancelled);
        s->geometry.setTrace(s->trace.get(), s->lod);
    }
    const PictureFormat format =
        suffix == QLatin1String("svg") ? PictureFormat::Svg : PictureFormat::Png;
    if (const QString error = writeTimelinePicture(output, format, options, traces);
        !error.isEmpty()) {
        io.err << "strobe-cli render: " << escapeControls(error) << '\n';
        return 1;
    }
    io.out << "wrote " << escapeControls(output) << ": " << *width << 'x' << *height
           << " px, window [" << window.start << ", " << window.end
           << ") ns from the trace start\n";
    return 0;
}

namespace {
QtMessageHandler g_previousHandler = nullptr;

// Qt's platform start-up asks for a runtime directory it does not use here; on a headless
// machine without XDG_RUNTIME_DIR its warning would only be noise around the command's output.
void dropRuntimeDirWarning(QtMsgType type, const QMessageLogContext& context,
                           const QString& message) {
    if (type == QtWarningMsg &&
        message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR")))
        return;
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}
} // namespace

std::unique_ptr<QCoreApplication> makeDrawingApplication(int& argc, char** argv) {
    // No display is needed: pictures are drawn into a QImage or an SVG on Qt's offscreen
    // platform, unless the caller chose a platform.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    g_previousHandler = qInstallMessageHandler(dropRuntimeDirWarning);
    return std::make_unique<QGuiApplication>(argc, argv);
}

} // namespace strobe::cli
