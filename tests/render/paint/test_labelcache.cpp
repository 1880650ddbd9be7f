// SPDX-License-Identifier: MIT
// LabelCache: the same pixels as QPainter::drawText of QFontMetrics::elidedText, whole or cut at
// every width, from glyph runs kept per name; a bounded number of runs; a new font measures
// afresh.
#include "render/paint/labelcache.h"

#include <QFontMetrics>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <gtest/gtest.h>

using namespace strobe;

namespace {
constexpr QSize kSize(420, 24);

QImage blank() {
    QImage image(kSize, QImage::Format_RGB32);
    image.fill(Qt::white);
    return image;
}

// What the lane painter drew before the cache: Qt's elision, shaped on every call.
QImage reference(const QFont& font, const QString& text, int avail) {
    QImage image = blank();
    QPainter p(&image);
    p.setFont(font);
    p.setPen(Qt::black);
    const QFontMetrics fm(font);
    p.drawText(QPointF(3, 17), fm.horizontalAdvance(text) <= avail
                                   ? text
                                   : fm.elidedText(text, Qt::ElideRight, avail));
    return image;
}

QImage cached(LabelCache& cache, const QFont& font, const QString& text, int avail) {
    QImage image = blank();
    QPainter p(&image);
    p.setFont(font);
    p.setPen(Qt::black);
    cache.draw(p, font, QPointF(3, 17), text, avail);
    return image;
}

int inkColumns(const QImage& image) {
    int columns = 0;
    for (int x = 0; x < image.width(); ++x) {
        for (int y = 0; y < image.height(); ++y) {
            if (image.pixel(x, y) != qRgb(255, 255, 255)) {
                ++columns;
                break;
            }
        }
    }
    return columns;
}
} // namespace

TEST(LabelCache, DrawsWhatDrawTextOfTheElidedTextDraws) {
    const QFont font = QGuiApplication::font();
    LabelCache cache;
    const QStringList names = {QStringLiteral("sgemm_128x64_nn"),
                               QStringLiteral("void at::native::vectorized_elementwise_kernel<4, "
                                              "at::native::CUDAFunctor_add<float>>(int, float*)"),
                               QStringLiteral("ncclDevKernel_AllReduce_Sum_f32_RING_LL"),
                               QStringLiteral("W"), QStringLiteral("cudaLaunchKernel")};
    const int full = QFontMetrics(font).horizontalAdvance(names[1]);
    ASSERT_GT(full, 200) << "the long name must be cut in the widths below";
    int cut = 0;
    for (int pass = 0; pass < 2; ++pass) { // the second pass draws from the kept runs
        for (const QString& name : names) {
            for (int avail = 18; avail < 400; avail += 7) {
                const QImage want = reference(font, name, avail);
                ASSERT_EQ(cached(cache, font, name, avail), want)
                    << name.toStdString() << " in " << avail << " px, pass " << pass;
                cut += QFontMetrics(font).horizontalAdvance(name) > avail;
            }
        }
    }
    EXPECT_GT(cut, 50);
    EXPECT_GT(cache.runCount(), 10u);
}

// Issue 46: a hostile trace's 64 KiB kernel name. Finding the advance at every cut position
// of the whole name took seconds a frame (strobe-cli render ran past the fuzzer's 5 s on 50 of
// them); it is cut within its first LabelCache::kMaxCutChars characters, as Qt would cut it.
TEST(LabelCache, AHugeNameIsCutAsQtCutsIt) {
    const QFont font = QGuiApplication::font();
    LabelCache cache;
    const QString name = QStringLiteral("kernel_") + QString(64 * 1024, u'x');
    for (int avail : {30, 200, 410})
        EXPECT_EQ(cached(cache, font, name, avail), reference(font, name, avail)) << avail;
}

TEST(LabelCache, AnEllipsisThatDoesNotFitDrawsNothing) {
    const QFont font = QGuiApplication::font();
    LabelCache cache;
    const QString name = QStringLiteral("a_kernel_name_far_too_long_for_its_bar");
    EXPECT_EQ(inkColumns(cached(cache, font, name, 1)), 0);
    EXPECT_GT(inkColumns(cached(cache, font, name, 60)), 5);
}

TEST(LabelCache, RightToLeftTextIsCutByQt) {
    const QFont font = QGuiApplication::font();
    LabelCache cache;
    const QString name =
        QString::fromUtf8("\xd7\xa7\xd7\xa8\xd7\xa0\xd7\x9c \xd7\x97\xd7\xa9\xd7\x91"
                          "\xd7\x95\xd7\x9f \xd7\x90\xd7\xa8\xd7\x95\xd7\x9a");
    ASSERT_TRUE(name.isRightToLeft());
    for (int avail : {20, 40, 300})
        EXPECT_EQ(cached(cache, font, name, avail), reference(font, name, avail)) << avail;
}

TEST(LabelCache, KeepsABoundedNumberOfRuns) {
    const QFont font = QGuiApplication::font();
    LabelCache cache;
    QImage image = blank();
    QPainter p(&image);
    p.setFont(font);
    for (std::size_t k = 0; k < LabelCache::kMaxRuns + 500; ++k) {
        cache.draw(p, font, QPointF(3, 17), QStringLiteral("kernel_%1").arg(k), 400);
        ASSERT_LE(cache.runCount(), LabelCache::kMaxRuns);
    }
    EXPECT_GE(cache.runCount(), 500u);
}

TEST(LabelCache, AnotherFontIsMeasuredAfresh) {
    QFont small = QGuiApplication::font();
    small.setPixelSize(9);
    QFont big = small;
    big.setPixelSize(16);
    LabelCache cache;
    const QString name = QStringLiteral("flash_attention_forward_kernel");
    for (int avail : {60, 120, 400}) {
        EXPECT_EQ(cached(cache, small, name, avail), reference(small, name, avail)) << avail;
        EXPECT_EQ(cached(cache, big, name, avail), reference(big, name, avail)) << avail;
    }
}
