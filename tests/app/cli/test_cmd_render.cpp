// SPDX-License-Identifier: MIT
// strobe-cli render on the real fixtures: the picture's size, a kernel's pixels where the time
// mapping puts them, one SVG rectangle per drawn item, identical bytes run after run, a real
// process with no display at all, and every error path.
#include "formats/open.h"
#include "model/bookmarks.h"
#include "model/trace.h"
#include "render/geometry/lanelayout.h"
#include "render/geometry/timelinegeometry.h"
#include "render/paint/headerpainter.h"
#include "render/paint/lanepainter.h"
#include "render/paint/rulerpainter.h"
#include "render/paint/timelinecolors.h"
#include "render/paint/timelinepicture.h"
#include "tests/app/cli/clitesthelpers.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <gtest/gtest.h>

#include <cmath>
#include <map>

using namespace strobe;
using strobe::test::fixture;
using strobe::test::runCli;

namespace {

const char* const kCloverleaf = "nsys2024.5-cloverleaf.sqlite";

std::shared_ptr<const Trace> load(const char* name) {
    LoadResult r = loadTrace(fixture(name));
    EXPECT_TRUE(r.ok()) << r.error.toStdString();
    return std::shared_ptr<const Trace>(std::move(r.trace));
}

struct KernelEvent {
    TimeNs start = 0, end = 0;
    QString name;
};

// A kernel of the fixture from SQL: (start, end, short name) of the one starting at `start`.
KernelEvent kernelFromSql(const char* file, TimeNs start) {
    test::SqlDb db(fixture(file));
    const auto rows = db.query(
        QStringLiteral("SELECT k.start, k.end, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                       "StringIds s ON s.id = k.shortName WHERE k.start = ") %
        QString::number(start));
    EXPECT_EQ(rows.size(), 1u) << db.error().toStdString();
    if (rows.size() != 1)
        return {};
    return {rows[0][0]->toLongLong(), rows[0][1]->toLongLong(), *rows[0][2]};
}

QRgb kernelColour(const TimelinePalette& pal, const QString& name) {
    const QByteArray utf8 = name.toUtf8();
    const std::string_view v(utf8.constData(), std::size_t(utf8.size()));
    return pal.eventColor(classifyKernel(v), stableNameHash(v)).rgb();
}

// Image columns [first, last) a bar of [start, end) covers in a canvas of `canvasWidth` px that
// shows [viewStart, viewEnd) and starts at image x kLaneHeaderWidth (on the pixel grid).
std::pair<int, int> expectedColumns(TimeNs start, TimeNs end, TimeNs viewStart, TimeNs viewEnd,
                                    int canvasWidth) {
    const double pxPerNs = double(canvasWidth) / double(viewEnd - viewStart);
    const int x0 = int(std::floor(double(start - viewStart) * pxPerNs + 0.5));
    const int x1 = int(std::floor(double(end - viewStart) * pxPerNs + 0.5));
    return {kLaneHeaderWidth + x0, kLaneHeaderWidth + x1};
}

// The first y at or below `from` where column x holds `colour`; -1 if none.
int firstRowWith(const QImage& image, int x, QRgb colour, int from = kTimeRulerHeight) {
    for (int y = from; y < image.height(); ++y) {
        if (image.pixel(x, y) == colour)
            return y;
    }
    return -1;
}

class RenderTest : public ::testing::Test {
protected:
    QString out(const char* name) const { return dir.filePath(QString::fromUtf8(name)); }
    QTemporaryDir dir;
};

} // namespace

TEST_F(RenderTest, PngHasTheRequestedSizeAndTheDefaultOne) {
    const auto r =
        runCli(&cli::runRender,
               {fixture(kCloverleaf), QStringLiteral("-o"), out("a.png"), QStringLiteral("--width"),
                QStringLiteral("1234"), QStringLiteral("--height"), QStringLiteral("777")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    EXPECT_EQ(QImage(out("a.png")).size(), QSize(1234, 777));
    EXPECT_TRUE(r.out.startsWith(QStringLiteral("wrote "))) << r.out.toStdString();
    const auto d =
        runCli(&cli::runRender, {fixture(kCloverleaf), QStringLiteral("-o"), out("b.png")});
    ASSERT_EQ(d.status, 0) << d.err.toStdString();
    EXPECT_EQ(QImage(out("b.png")).size(), QSize(1920, 1080));
}

TEST_F(RenderTest, AKernelHoldsItsLaneColourOnItsMappedSpan) {
    // par_ranged2d_kernel [620811123, 622757710) on stream 7; its neighbours end 9.3 us before
    // and start 11.6 us after it, several pixels away at this zoom.
    const KernelEvent k = kernelFromSql(kCloverleaf, 620811123);
    ASSERT_EQ(k.name, QStringLiteral("par_ranged2d_kernel"));
    const auto trace = load(kCloverleaf);
    const TimeNs origin = trace->timeRange().start;
    const TimeNs from = k.start - origin - 100'000, to = k.end - origin + 100'000;
    for (const char* theme : {"light", "dark"}) {
        const QString png = out(theme) + QStringLiteral(".png");
        const auto r =
            runCli(&cli::runRender,
                   {fixture(kCloverleaf), QStringLiteral("-o"), png, QStringLiteral("--width"),
                    QStringLiteral("1600"), QStringLiteral("--height"), QStringLiteral("900"),
                    QStringLiteral("--from"), QString::number(from) + u"ns", QStringLiteral("--to"),
                    QString::number(to), QStringLiteral("--lanes"), QStringLiteral("gpu"),
                    QStringLiteral("--theme"), QLatin1String(theme)});
        ASSERT_EQ(r.status, 0) << r.err.toStdString();
        const QImage image(png);
        const TimelinePalette pal = QLatin1String(theme) == QLatin1String("dark")
                                        ? TimelinePalette::darkPalette()
                                        : TimelinePalette::light();
        const QRgb want = kernelColour(pal, k.name);
        const auto [x0, x1] = expectedColumns(k.start - origin, k.end - origin, from, to, 1340);
        ASSERT_GT(x1 - x0, 1000); // 1,340 px for 2.147 ms: the kernel is ~1,215 px wide
        const int y = firstRowWith(image, (x0 + x1) / 2, want);
        ASSERT_GT(y, kTimeRulerHeight) << theme;
        for (int x = x0; x < x1; ++x)
            ASSERT_EQ(image.pixel(x, y), want) << theme << " x " << x;
        EXPECT_NE(image.pixel(x0 - 1, y), want) << theme;
        EXPECT_NE(image.pixel(x1, y), want) << theme;
        EXPECT_EQ(image.pixel(1599, 1), pal.groupHeader.rgb()) << theme; // the ruler's band
    }
}

TEST_F(RenderTest, SvgParsesAndHoldsOneRectanglePerDrawnItem) {
    const auto r =
        runCli(&cli::runRender,
               {fixture(kCloverleaf), QStringLiteral("-o"), out("a.svg"), QStringLiteral("--width"),
                QStringLiteral("4000"), QStringLiteral("--height"), QStringLiteral("400"),
                QStringLiteral("--lanes"), QStringLiteral("gpu")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    QFile file(out("a.svg"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    // Rectangles in picture coordinates: each <g transform="matrix(1,0,0,1,dx,dy)"> moves its
    // content (QSvgGenerator writes one such group per state change).
    std::map<std::pair<int, int>, int> barsAt; // (canvas y, height) -> rectangles in the canvas
    QXmlStreamReader xml(&file);
    std::vector<QPointF> offsets{{0, 0}};
    const QRegularExpression matrix(QStringLiteral(R"(matrix\(1,0,0,1,([-\d.]+),([-\d.]+)\))"));
    int svgElements = 0, images = 0;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto attrs = xml.attributes();
            if (xml.name() == u"svg")
                ++svgElements;
            if (xml.name() == u"image")
                ++images;
            if (xml.name() == u"g") {
                QPointF o = offsets.back();
                const auto m = matrix.match(attrs.value(QStringLiteral("transform")));
                if (m.hasMatch())
                    o = QPointF(m.captured(1).toDouble(), m.captured(2).toDouble());
                offsets.push_back(o);
            } else if (xml.name() == u"rect" && offsets.back() == QPointF(kLaneHeaderWidth, 30)) {
                const int y = int(attrs.value(QStringLiteral("y")).toDouble());
                const int h = int(attrs.value(QStringLiteral("height")).toDouble());
                ++barsAt[std::pair(y, h)];
            }
        } else if (xml.isEndElement() && xml.name() == u"g") {
            offsets.pop_back();
        }
    }
    ASSERT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_EQ(svgElements, 1);

    // The same frame from the geometry: cloverleaf's GPU lanes over its whole range, 3740 px
    // wide, 350 px high (400 less the ruler and the footer).
    const auto trace = load(kCloverleaf);
    LaneLayout layout;
    layout.setTrace(trace.get());
    for (std::uint32_t lane = 0; lane < trace->lanes().size(); ++lane)
        layout.setLaneHidden(lane, !isGpuLane(trace->lane(lane).kind()));
    layout.setHideEmptyGroups(true);
    TimelineGeometry geometry;
    geometry.setTrace(trace.get());
    const ViewFrame frame =
        ViewFrame::make(&layout, trace->timeRange(), 3740, 350, 0, 1.0, kDefaultIdleThresholdNs);
    std::size_t items = 0, folded = 0, rows = 0, most = 0;
    for (const LayoutRow& row : layout.rows()) {
        if (row.kind != LayoutRowKind::LaneRow || row.y >= 350)
            continue;
        const std::vector<DrawItem>& drawn = geometry.rowItems(frame, row.lane, row.row);
        EXPECT_EQ(barsAt[std::pair(row.y + 1, row.height - 2)], int(drawn.size()))
            << trace->laneLabel(row.lane).toStdString() << " row " << row.row;
        items += drawn.size();
        most = std::max(most, drawn.size());
        folded += std::count_if(drawn.begin(), drawn.end(),
                                [](const DrawItem& it) { return it.isFolded; });
        ++rows;
    }
    EXPECT_EQ(rows, 2u); // the kernels and the memcpys of stream 7
    EXPECT_GT(items, 100u);
    // A row that the PNG blits as one image line: in the SVG its items are rectangles still.
    EXPECT_GT(most, LanePainter::kLineItems);
    EXPECT_GT(folded, 0u); // folded runs count as one item, and as one rectangle
    // Each GPU's utilisation strip: its kernel and its copy halves, as images (an SVG has no
    // texture brush to tile a line with).
    const auto strips = std::count_if(layout.rows().begin(), layout.rows().end(), [](auto& r) {
        return r.kind == LayoutRowKind::Utilization && r.y < 350;
    });
    EXPECT_EQ(strips, 1);
    EXPECT_EQ(images, 2 * int(strips));
}

TEST_F(RenderTest, ComparedTracesStackOnOneAxisEachFromItsOwnStart) {
    const char* a = "nsys2022.2-vectoradd-a.sqlite";
    const char* b = "nsys2022.2-vectoradd-b.sqlite";
    const auto r = runCli(&cli::runRender, {fixture(a), QStringLiteral("--compare"), fixture(b),
                                            QStringLiteral("-o"), out("c.png")});
    ASSERT_EQ(r.status, 0) << r.err.toStdString();
    const QImage image(out("c.png"));
    const auto ta = load(a), tb = load(b);
    const TimeNs longest = std::max(ta->timeRange().duration(), tb->timeRange().duration());
    // Each trace's one kernel "add", from SQL, relative to its own trace's start.
    int previousY = kTimeRulerHeight;
    for (const auto& [file, trace, start] :
         {std::tuple{a, ta, TimeNs(773208828)}, std::tuple{b, tb, TimeNs(657676439)}}) {
        const KernelEvent k = kernelFromSql(file, start);
        const TimeNs origin = trace->timeRange().start;
        const auto [x0, x1] = expectedColumns(k.start - origin, k.end - origin, 0, longest, 1660);
        const QRgb want = kernelColour(TimelinePalette::light(), k.name);
        const int y = firstRowWith(image, (x0 + x1) / 2, want, previousY + 1);
        ASSERT_GT(y, previousY) << file;
        EXPECT_EQ(image.pixel(x0, y), want) << file;
        EXPECT_EQ(image.pixel(x1 - 1, y), want) << file;
        EXPECT_NE(image.pixel(x0 - 1, y), want) << file;
        EXPECT_NE(image.pixel(x1, y), want) << file;
        previousY = y + LaneLayout::kRowHeight; // the second trace's kernel lies below
    }
}

TEST_F(RenderTest, RangeZoomsToTheKthInstanceWithAMargin) {
    const char* file = "nsys2022.2-saxpy-mpi-nvtx.sqlite";
    test::SqlDb db(fixture(file));
    const auto rows = db.query(QStringLiteral(
        "SELECT start, end FROM NVTX_EVENTS WHERE text = 'saxpy' OR textId IN (SELECT id FROM "
        "StringIds WHERE value = 'saxpy') ORDER BY start"));
    ASSERT_EQ(rows.size(), 5u) << db.error().toStdString();
    const TimeNs origin = load(file)->timeRange().start;
    for (int k : {1, 3}) {
        const TimeNs s = rows[std::size_t(k - 1)][0]->toLongLong() - origin;
        const TimeNs e = rows[std::size_t(k - 1)][1]->toLongLong() - origin;
        const TimeNs margin = (e - s) * 5 / 100;
        const QString spec = k == 1 ? QStringLiteral("saxpy") : QStringLiteral("saxpy#3");
        const auto r = runCli(&cli::runRender, {fixture(file), QStringLiteral("-o"), out("r.png"),
                                                QStringLiteral("--range"), spec});
        ASSERT_EQ(r.status, 0) << r.err.toStdString();
        EXPECT_TRUE(r.out.contains(QStringLiteral("window [") % QString::number(s - margin) %
                                   QStringLiteral(", ") % QString::number(e + margin) %
                                   QStringLiteral(") ns")))
            << r.out.toStdString();
    }
}

// Issue 44, item 11: PyTorch names its steps "ProfilerStep#552"; the '#' was read as NAME#K
// ("no NVTX range is named 'ProfilerStep'"). A range named exactly the text wins; NAME#K still
// counts instances when none is. ProfilerStep#552 runs [1682725898686653, +622928) us.
TEST_F(RenderTest, RangeNamedWithAHashIsFoundByItsWholeName) {
    const QString file = QStringLiteral(STROBE_FIXTURES_DIR "/kineto/hta-sampled-rank0.json.gz");
    LoadResult loaded = loadTrace(file);
    ASSERT_TRUE(loaded.ok()) << loaded.error.toStdString();
    const TimeNs origin = loaded.trace->timeRange().start;
    const TimeNs s = 1682725898686653000 - origin, e = s + 622928000;
    const TimeNs margin = (e - s) * 5 / 100;
    for (const char* spec : {"ProfilerStep#552", "ProfilerStep#552#1"}) {
        const auto r = runCli(&cli::runRender, {file, QStringLiteral("-o"), out("p.png"),
                                                QStringLiteral("--range"), QLatin1String(spec)});
        ASSERT_EQ(r.status, 0) << spec << ": " << r.err.toStdString();
        EXPECT_TRUE(r.out.contains(QStringLiteral("window [") % QString::number(s - margin) %
                                   QStringLiteral(", ") % QString::number(e + margin) %
                                   QStringLiteral(") ns")))
            << spec << ": " << r.out.toStdString();
    }
    // No range is named "ProfilerStep#552#2", and only one "ProfilerStep#552".
    const auto second =
        runCli(&cli::runRender, {file, QStringLiteral("-o"), out("q.png"),
                                 QStringLiteral("--range"), QStringLiteral("ProfilerStep#552#2")});
    EXPECT_EQ(second.status, 1);
    EXPECT_TRUE(
        second.err.contains(QStringLiteral("has 1 NVTX range(s) named 'ProfilerStep#552', not 2")))
        << second.err.toStdString();
    // "ProfilerStep#0" may be a name: not a usage error, but not in this trace.
    const auto zero =
        runCli(&cli::runRender, {file, QStringLiteral("-o"), out("z.png"),
                                 QStringLiteral("--range"), QStringLiteral("ProfilerStep#0")});
    EXPECT_EQ(zero.status, 1);
    EXPECT_TRUE(zero.err.contains(QStringLiteral("no NVTX range is named 'ProfilerStep#0'")))
        << zero.err.toStdString();
}

TEST_F(RenderTest, FitShrinksTheRowsAnHeightTooSmallOtherwiseFails) {
    const QStringList base{fixture(kCloverleaf), QStringLiteral("-o"), out("f.png"),
                           QStringLiteral("--height"), QStringLiteral("200")};
    const auto tooSmall = runCli(&cli::runRender, base);
    EXPECT_EQ(tooSmall.status, 1);
    EXPECT_TRUE(tooSmall.err.contains(QStringLiteral("--fit"))) << tooSmall.err.toStdString();
    EXPECT_EQ(tooSmall.err.count(u'\n'), 1);
    EXPECT_FALSE(QFile::exists(out("f.png")));
    const auto fit = runCli(&cli::runRender, base + QStringList{QStringLiteral("--fit")});
    ASSERT_EQ(fit.status, 0) << fit.err.toStdString();
    EXPECT_EQ(QImage(out("f.png")).size(), QSize(1920, 200));
    // Not even the smallest rows fit 100 px.
    const auto tiny = runCli(&cli::runRender, {fixture(kCloverleaf), QStringLiteral("-o"),
                                               out("t.png"), QStringLiteral("--height"),
                                               QStringLiteral("100"), QStringLiteral("--fit")});
    EXPECT_EQ(tiny.status, 1);
    EXPECT_TRUE(tiny.err.contains(QStringLiteral("even rows of"))) << tiny.err.toStdString();
}

TEST_F(RenderTest, RealProcessWithoutDisplayOrPlatformGivesIdenticalBytes) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    QByteArray first;
    for (const char* name : {"p1.png", "p2.png"}) {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(STROBE_CLI_BINARY),
                {QStringLiteral("render"), fixture(kCloverleaf), QStringLiteral("-o"), out(name),
                 QStringLiteral("--width"), QStringLiteral("1000"), QStringLiteral("--height"),
                 QStringLiteral("600")});
        ASSERT_TRUE(p.waitForFinished(60000));
        ASSERT_EQ(p.exitStatus(), QProcess::NormalExit);
        EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
        EXPECT_TRUE(p.readAllStandardError().isEmpty()); // no platform or font warnings either
        QFile f(out(name));
        ASSERT_TRUE(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        EXPECT_EQ(QImage::fromData(bytes).size(), QSize(1000, 600));
        if (first.isEmpty())
            first = bytes;
        else
            EXPECT_TRUE(bytes == first) << "two runs wrote different bytes";
    }
    // In-process (another application object, the same fonts): the same bytes again.
    const auto r =
        runCli(&cli::runRender, {fixture(kCloverleaf), QStringLiteral("-o"), out("p3.png"),
                                 QStringLiteral("--width"), QStringLiteral("1000"),
                                 QStringLiteral("--height"), QStringLiteral("600")});
    ASSERT_EQ(r.status, 0);
    QFile f(out("p3.png"));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_TRUE(f.readAll() == first);
}

TEST_F(RenderTest, RuntimeErrorsExitOneWithOneSentence) {
    const QString trace = fixture(kCloverleaf);
    const QString png = out("e.png");
    const std::vector<std::pair<QStringList, const char*>> cases{
        {{trace, QStringLiteral("-o"), dir.filePath(QStringLiteral("no/such/dir/x.png"))},
         "cannot write"},
        {{trace, QStringLiteral("-o"), png, QStringLiteral("--lanes"), QStringLiteral("(")},
         "neither all, gpu, cpu nor a valid regular expression"},
        {{trace, QStringLiteral("-o"), png, QStringLiteral("--lanes"), QStringLiteral("Tensor")},
         "matches none of the"},
        {{trace, QStringLiteral("-o"), png, QStringLiteral("--from"), QStringLiteral("2ms"),
          QStringLiteral("--to"), QStringLiteral("1ms")},
         "is empty"},
        {{trace, QStringLiteral("-o"), png, QStringLiteral("--from"), QStringLiteral("5ms"),
          QStringLiteral("--to"), QStringLiteral("5ms")},
         "is empty"},
        {{trace, QStringLiteral("-o"), png, QStringLiteral("--from"), QStringLiteral("10s"),
          QStringLiteral("--to"), QStringLiteral("11s")},
         "holds nothing"},
        {{trace, QStringLiteral("-o"), png, QStringLiteral("--range"), QStringLiteral("nosuch")},
         "no NVTX range is named 'nosuch'"},
        {{fixture("nsys2022.2-saxpy-mpi-nvtx.sqlite"), QStringLiteral("-o"), png,
          QStringLiteral("--range"), QStringLiteral("saxpy#6")},
         "has 5 NVTX range(s) named 'saxpy', not 6"},
        {{fixture("missing.sqlite"), QStringLiteral("-o"), png}, "missing.sqlite"},
        {{trace, QStringLiteral("--compare"), fixture("missing.sqlite"), QStringLiteral("-o"), png},
         "missing.sqlite"},
    };
    for (const auto& [args, says] : cases) {
        const auto r = runCli(&cli::runRender, args);
        EXPECT_EQ(r.status, 1) << args.join(u' ').toStdString();
        EXPECT_TRUE(r.err.contains(QLatin1String(says))) << r.err.toStdString();
        EXPECT_EQ(r.err.count(u'\n'), 1) << r.err.toStdString();
        EXPECT_TRUE(r.out.isEmpty());
    }
    EXPECT_FALSE(QFile::exists(png));
}

TEST_F(RenderTest, UsageErrorsExitTwo) {
    const QString trace = fixture(kCloverleaf);
    const QString png = out("u.png");
    auto with = [&](const QStringList& more) {
        return QStringList{trace, QStringLiteral("-o"), png} + more;
    };
    const std::vector<std::pair<QStringList, const char*>> cases{
        {{trace}, "missing -o"},
        {{QStringLiteral("-o"), png}, "missing the trace FILE"},
        {{trace, QStringLiteral("-o"), out("u.jpg")}, "must end in .png or .svg"},
        {with({QStringLiteral("--width"), QStringLiteral("16385")}), "--width must be"},
        {with({QStringLiteral("--width"), QStringLiteral("wide")}), "--width must be"},
        {with({QStringLiteral("--height"), QStringLiteral("0")}), "--height must be"},
        {with({QStringLiteral("--from"), QStringLiteral("12parsecs")}), "--from wants a time"},
        {with({QStringLiteral("--to"), QStringLiteral("1h")}), "--to wants a time"},
        {with({QStringLiteral("--range"), QStringLiteral("saxpy"), QStringLiteral("--from"),
               QStringLiteral("1ms")}),
         "exclude each other"},
        {with({QStringLiteral("--range"), QString()}), "--range wants NAME or NAME#K"},
        {with({QStringLiteral("--theme"), QStringLiteral("blue")}), "light or dark"},
        {with({QStringLiteral("--colour")}), "unknown option"},
        {with({QStringLiteral("--lanes")}), "needs a value"},
    };
    for (const auto& [args, says] : cases) {
        const auto r = runCli(&cli::runRender, args);
        EXPECT_EQ(r.status, 2) << args.join(u' ').toStdString();
        EXPECT_TRUE(r.err.contains(QLatin1String(says))) << r.err.toStdString();
    }
    EXPECT_FALSE(QFile::exists(png));
}

// Issue 46 item 4: two kernels at -4.7e15 us and 4.7e15 us, clamped to +-2^62 ns, make a trace
// 2^63 - 2 ns long; its ruler's minor ticks stepped past INT64_MAX, wrapped and never ended. The
// real process, so that a hang fails the test instead of stopping it.
TEST_F(RenderTest, ATraceSpanningAllOfInt64EndsWithAPicture) {
    const QString json = out("span.json");
    {
        QFile f(json);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        for (const char* ts : {"-4.7e15", "4.7e15"}) {
            f.write(QByteArray(f.pos() ? "," : "{\"traceEvents\":[") +
                    R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":)" + ts +
                    R"(,"dur":1,"args":{"device":0,"stream":7}})");
        }
        f.write("]}");
    }
    QProcess p;
    p.start(QStringLiteral(STROBE_CLI_BINARY),
            {QStringLiteral("render"), json, QStringLiteral("-o"), out("span.png")});
    const bool ended = p.waitForFinished(30000);
    if (!ended) {
        p.kill();
        p.waitForFinished();
    }
    ASSERT_TRUE(ended) << "strobe-cli render did not end within 30 s";
    ASSERT_EQ(p.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
    EXPECT_TRUE(p.readAllStandardOutput().contains("window [0, 9223372036854775806)"));
    EXPECT_EQ(QImage(out("span.png")).size(), QSize(1920, 1080));
}

namespace {

// The ruler's flag colour in the light palette (paintTimeRuler).
const QRgb kFlagColour = qRgb(0xd9, 0x7a, 0x00);

// Columns of the ruler band (right of the header column) holding the flag colour at row y.
std::vector<int> flagColumns(const QImage& image, int y) {
    std::vector<int> xs;
    for (int x = kLaneHeaderWidth; x < image.width(); ++x)
        if (image.pixel(x, y) == kFlagColour)
            xs.push_back(x);
    return xs;
}

} // namespace

// Issue 44, item 17: the notes the GUI keeps for a trace are drawn as the GUI's Export Image
// draws them, a flag (pole, pennant, bar along the top) on the ruler at the note's time; without
// --bookmarks the picture has none.
TEST_F(RenderTest, BookmarksDrawTheGuisNotesAsFlagsOnTheRuler) {
    const QString trace = fixture(kCloverleaf);
    const auto loaded = load(kCloverleaf);
    const TimeRange span = loaded->timeRange();
    // A note from 40 % to 50 % of the trace (the default window is the whole trace).
    const TimeNs start = span.start + span.duration() * 2 / 5;
    const TimeNs end = start + span.duration() / 10;
    BookmarkSet set;
    set.notes.push_back(BookmarkNote{{start, end}, QString()});
    const QString marks = dir.filePath(QStringLiteral("marks"));
    ASSERT_EQ(BookmarkStore(marks).save(trace, set), QString());
    // The oracle: the note's start on a 1340 px canvas over the trace's duration.
    const int canvas = 1600 - kLaneHeaderWidth;
    const double pxPerNs = canvas / double(span.duration());
    const double poleX = kLaneHeaderWidth + double(start - span.start) * pxPerNs;
    const double barEndX = kLaneHeaderWidth + double(end - span.start) * pxPerNs;
    auto render = [&](const char* name, const QStringList& more) {
        const QStringList args = QStringList{trace,
                                             QStringLiteral("-o"),
                                             out(name),
                                             QStringLiteral("--width"),
                                             QStringLiteral("1600"),
                                             QStringLiteral("--height"),
                                             QStringLiteral("900"),
                                             QStringLiteral("--lanes"),
                                             QStringLiteral("gpu")} +
                                 more;
        return runCli(&cli::runRender, args);
    };
    const auto with = render("with.png", {QStringLiteral("--bookmarks-dir"), marks});
    ASSERT_EQ(with.status, 0) << with.err.toStdString();
    EXPECT_EQ(with.err, QString());
    const QImage marked(out("with.png"));
    // The pole: one column, down the ruler, at the note's start.
    const std::vector<int> pole = flagColumns(marked, kTimeRulerHeight - 4);
    ASSERT_EQ(pole.size(), 1u);
    EXPECT_LE(std::abs(pole[0] - poleX), 1.0) << pole[0] << " vs " << poleX;
    // The bar: along the top from the start to the end of the note (134 px here).
    const std::vector<int> bar = flagColumns(marked, 0);
    ASSERT_FALSE(bar.empty());
    EXPECT_LE(std::abs(bar.front() - poleX), 1.0);
    EXPECT_LE(std::abs(bar.back() + 1 - barEndX), 1.0) << bar.back() << " vs " << barEndX;
    EXPECT_EQ(int(bar.size()), bar.back() - bar.front() + 1); // unbroken

    const auto without = render("without.png", {});
    ASSERT_EQ(without.status, 0) << without.err.toStdString();
    const QImage plain(out("without.png"));
    for (int y = 0; y < kTimeRulerHeight; ++y)
        ASSERT_TRUE(flagColumns(plain, y).empty()) << "row " << y;
    // Only the ruler differs: the lanes are the same pixels.
    EXPECT_EQ(plain.copy(0, kTimeRulerHeight, 1600, 800),
              marked.copy(0, kTimeRulerHeight, 1600, 800));

    // --bookmarks: the GUI's own folder, under the configuration home.
    QTemporaryDir home;
    const QByteArray previous = qgetenv("XDG_CONFIG_HOME");
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(home.path()));
    const QString gui = BookmarkStore::guiDirectory();
    EXPECT_TRUE(gui.startsWith(home.path())) << gui.toStdString();
    ASSERT_EQ(BookmarkStore(gui).save(trace, set), QString());
    const auto fromGui = render("gui.png", {QStringLiteral("--bookmarks")});
    if (previous.isNull())
        qunsetenv("XDG_CONFIG_HOME");
    else
        qputenv("XDG_CONFIG_HOME", previous);
    ASSERT_EQ(fromGui.status, 0) << fromGui.err.toStdString();
    EXPECT_EQ(QImage(out("gui.png")), marked);
}

TEST_F(RenderTest, BookmarksThatCannotBeUsedAreSaidAndThePictureIsDrawn) {
    const QString trace = fixture(kCloverleaf);
    const QString marks = dir.filePath(QStringLiteral("marks"));
    ASSERT_TRUE(QDir().mkpath(marks));
    auto render = [&](const QStringList& more) {
        return runCli(&cli::runRender,
                      QStringList{trace, QStringLiteral("-o"), out("m.png"),
                                  QStringLiteral("--lanes"), QStringLiteral("gpu")} +
                          more);
    };
    // None kept for this trace: one line says so, and the picture has no flag.
    const auto none = render({QStringLiteral("--bookmarks-dir"), marks});
    EXPECT_EQ(none.status, 0);
    EXPECT_EQ(none.err, QStringLiteral("strobe-cli render: no bookmark notes are kept for ") +
                            QLatin1String(kCloverleaf) + QStringLiteral(" in ") + marks +
                            QStringLiteral(".\n"));
    // A damaged file: the store's one sentence, and the picture without flags.
    BookmarkSet set;
    set.notes.push_back(BookmarkNote{{1, 2}, QStringLiteral("n")});
    const BookmarkStore store(marks);
    ASSERT_EQ(store.save(trace, set), QString());
    {
        QFile f(store.fileFor(trace));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{ not json");
    }
    const auto damaged = render({QStringLiteral("--bookmarks-dir"), marks});
    EXPECT_EQ(damaged.status, 0);
    EXPECT_TRUE(damaged.err.startsWith(
        QStringLiteral("strobe-cli render: The bookmarks file was ignored: it is not JSON")))
        << damaged.err.toStdString();
    for (int y = 0; y < kTimeRulerHeight; ++y)
        ASSERT_TRUE(flagColumns(QImage(out("m.png")), y).empty()) << "row " << y;
    // Usage: the two options exclude each other, and the folder must be one.
    const auto both =
        render({QStringLiteral("--bookmarks"), QStringLiteral("--bookmarks-dir"), marks});
    EXPECT_EQ(both.status, 2);
    EXPECT_TRUE(both.err.contains(QLatin1String("exclude each other"))) << both.err.toStdString();
    const auto notDir =
        render({QStringLiteral("--bookmarks-dir"), dir.filePath(QStringLiteral("missing"))});
    EXPECT_EQ(notDir.status, 2);
    EXPECT_TRUE(notDir.err.contains(QLatin1String("--bookmarks-dir wants a folder")))
        << notDir.err.toStdString();
}
