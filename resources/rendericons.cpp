// SPDX-License-Identifier: MIT
// Build tool: renders the SVG application icon to the PNG sizes desktops expect.
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <cstdio>

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: strobe-render-icons SVG OUTDIR SIZE...\n");
        return 2;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    QSvgRenderer svg(QString::fromLocal8Bit(argv[1]));
    if (!svg.isValid()) {
        std::fprintf(stderr, "strobe-render-icons: cannot read %s\n", argv[1]);
        return 1;
    }
    for (int i = 3; i < argc; ++i) {
        const int size = QByteArray(argv[i]).toInt();
        QImage img(size, size, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::transparent);
        QPainter p(&img);
        p.setRenderHint(QPainter::Antialiasing);
        svg.render(&p);
        p.end();
        const QString out =
            QString::fromLocal8Bit(argv[2]) + QStringLiteral("/strobe-%1.png").arg(size);
        if (!img.save(out)) {
            std::fprintf(stderr, "strobe-render-icons: cannot write %s\n", qPrintable(out));
            return 1;
        }
    }
    return 0;
}
