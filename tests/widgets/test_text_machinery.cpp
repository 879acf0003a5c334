// The shared text layer: wrapping keeps every word and never elides, legends wrap into rows
// without dropping entries, and the label placer keeps labels apart, inside the area and off
// obstacles, with a leader line or no label when there is no room.
#include "text/label_placer.h"
#include "text/legend_layout.h"
#include "text/text_layout.h"
#include "text/unit_glue.h"

#include <QApplication>
#include <QFont>
#include <QFontMetricsF>
#include <QTest>
#include <algorithm>
#include <cmath>

using namespace wb;

namespace {
QFont px(int size) {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(size);
    return f;
}
} // namespace

class TestTextMachinery : public QObject {
    Q_OBJECT
private slots:
    void wrappingKeepsEveryWordWithinTheWidth() {
        const QString text = QStringLiteral(
            "NVML reports GPU utilisation as the percent of time over the past sample period "
            "during which one or more kernels was executing on the GPU.");
        const WrappedText w = wrapText(px(16), text, 240);
        QVERIFY(w.lines.size() >= 4);
        for (double lw : w.lineWidths)
            QVERIFY(lw <= 240.5);
        QStringList words;
        for (const QString& line : w.lines)
            words += line.split(' ', Qt::SkipEmptyParts);
        QCOMPARE(words.join(' '), text);
        QVERIFY(!w.lines.back().contains(QChar(0x2026)));
        QCOMPARE(w.height(), w.lineHeight * static_cast<double>(w.lines.size()));
    }

    void numbersStayWithTheirUnits() {
        // At every width where each glued group fits on a line the wrap may not leave "34" at a
        // line's end with "% SM" below it, nor "GB/" with "s" below it; the lines still give back
        // the text word for word.
        const QString text = QStringLiteral(
            "Rings: 4 channels over 16 GPUs at 200 GB/s of bus bandwidth; rank 0 reads 99.7 % "
            "with 34 % SM activity and waits 1.5 s of 2.23 s.");
        int widthsTried = 0;
        for (double width = 140; width <= 640; width += 3, ++widthsTried) {
            const WrappedText w = wrapText(px(16), text, width);
            QStringList words;
            for (std::size_t i = 0; i < w.lines.size(); ++i) {
                const QString& line = w.lines[i];
                words += line.split(' ', Qt::SkipEmptyParts);
                QVERIFY2(!line.endsWith('/'),
                         qPrintable(QString("width %1: %2").arg(width).arg(line)));
                if (i + 1 < w.lines.size() && !line.isEmpty() && line.back().isDigit()) {
                    const QString next = w.lines[i + 1];
                    QVERIFY2(
                        !next.startsWith('%') && !next.startsWith("GB") && !next.startsWith("s ") &&
                            !next.startsWith("s."),
                        qPrintable(QString("width %1: '%2' then '%3'").arg(width).arg(line, next)));
                }
            }
            QCOMPARE(words.join(' '), text);
        }
        QVERIFY(widthsTried > 100);
        // The glue is invisible: a glued label is as wide as the plain one.
        const QFontMetricsF fm(px(16));
        QCOMPARE(fm.horizontalAdvance(keepUnitsTogether(QStringLiteral("200 GB/s"))),
                 fm.horizontalAdvance(QStringLiteral("200 GB/s")));
        // Prose after a number may still start the next line.
        QCOMPARE(keepUnitsTogether(QStringLiteral("4 interruptions")),
                 QStringLiteral("4 interruptions"));
    }
    void aWordWiderThanTheBoxIsBrokenNotCut() {
        const QString word = QStringLiteral("all_reduce_coalesced_bucket_view_fp32");
        const WrappedText w = wrapText(px(16), word, 80);
        QVERIFY(w.lines.size() > 1);
        QString joined;
        for (const QString& line : w.lines)
            joined += line;
        QCOMPARE(joined, word);
    }

    void newlinesStartLinesAndNoWidthKeepsOneLine() {
        QCOMPARE(wrapText(px(14), QStringLiteral("a\nb"), 500).lines.size(), std::size_t{2});
        QCOMPARE(wrapText(px(14), QStringLiteral("one long line of text"), 0).lines.size(),
                 std::size_t{1});
        QVERIFY(wrapText(px(14), QString(), 100).empty());
    }

    void labelsShortenByWholeParts() {
        const QString label = QStringLiteral("job 196 \u00b7 64 GPUs \u00b7 high");
        const QFont f = px(14);
        const QFontMetricsF fm(f);
        QCOMPARE(fitByParts(f, label, 1000, KeepParts::Head), label);
        const double twoParts = fm.horizontalAdvance(QStringLiteral("job 196 \u00b7 64 GPUs")) + 1;
        QCOMPARE(fitByParts(f, label, twoParts, KeepParts::Head),
                 QStringLiteral("job 196 \u00b7 64 GPUs"));
        QCOMPARE(
            fitByParts(f, label, fm.horizontalAdvance(QStringLiteral("high")) + 1, KeepParts::Tail),
            QStringLiteral("high"));
        QVERIFY(fitByParts(f, label, 5, KeepParts::Head).isEmpty());
    }

    void legendWrapsIntoRowsAndKeepsEveryEntry() {
        std::vector<LegendEntry> entries;
        for (int i = 0; i < 16; ++i)
            entries.push_back({QBrush(Qt::red), Qt::NoPen, QStringLiteral("GPU %1").arg(i)});
        entries.push_back({QBrush(Qt::blue), Qt::NoPen,
                           QStringLiteral("a very long legend entry describing a broken TP group "
                                          "that must wrap rather than be cut")});
        const LegendLayout l = layoutLegend(entries, px(14), 300);
        QCOMPARE(l.blocks.size(), entries.size());
        double rows = 0;
        for (std::size_t i = 0; i < entries.size(); ++i) {
            QVERIFY(l.texts[i].right() <= 300.5);
            QVERIFY(l.swatches[i].left() >= 0);
            rows = std::max(rows, l.texts[i].bottom());
        }
        QVERIFY(l.blocks.back().lines.size() > 1);
        QCOMPARE(l.height, rows);
        // No two entries share space.
        for (std::size_t i = 0; i < entries.size(); ++i)
            for (std::size_t j = 0; j < i; ++j)
                QVERIFY(!l.texts[i].intersects(l.texts[j]));
    }

    void labelsAroundOneSpotDoNotOverlap() {
        LabelPlacer placer(QRectF(0, 0, 400, 300));
        const QRectF mark(195, 145, 10, 10);
        placer.addObstacle(mark);
        std::vector<QRectF> boxes;
        for (int i = 0; i < 6; ++i) {
            const LabelPlacement p = placer.place(QSizeF(60, 16), mark, 4);
            QVERIFY(p.placed);
            QVERIFY(!p.box.intersects(mark));
            for (const QRectF& b : boxes)
                QVERIFY(!p.box.intersects(b));
            boxes.push_back(p.box);
        }
    }

    void aLabelAtTheEdgeStaysInside() {
        const QRectF area(0, 0, 400, 300);
        LabelPlacer placer(area);
        const LabelPlacement p = placer.place(QSizeF(80, 16), QRectF(395, 5, 0, 0), 4);
        QVERIFY(p.placed);
        QVERIFY(area.contains(p.box));
        // Beside its mark (no leader), slid back inside, and off the mark itself.
        QVERIFY(!p.leader);
        QVERIFY(!p.box.contains(QPointF(395, 5)));
        QVERIFY(p.box.right() <= 400);
    }

    void aLabelIsNeverNearerAnotherMark() {
        // Two dots 80 px apart on a row, the right one near the area's right edge (the roofline's
        // two large GEMMs): the right one's label must not sit over the left dot.
        const QRectF area(0, 0, 400, 300);
        LabelPlacer placer(area);
        const QRectF left(300, 150, 10, 10), right(380, 150, 10, 10);
        placer.addMark(left);
        placer.addMark(right);
        const LabelPlacement p = placer.place(QSizeF(100, 16), right, 4);
        QVERIFY(p.placed);
        QVERIFY(area.contains(p.box));
        const auto centres = [&](const QRectF& m) {
            const QPointF d = p.box.center() - m.center();
            return std::hypot(d.x(), d.y());
        };
        QVERIFY2(centres(right) < centres(left), "the label reads as the other dot's");
    }

    void blockedNeighboursGiveALeaderOrNoLabel() {
        LabelPlacer placer(QRectF(0, 0, 400, 300));
        const QRectF mark(200, 150, 0, 0);
        // Everything within 40 px of the mark is taken.
        placer.addObstacle(QRectF(150, 120, 100, 60));
        const LabelPlacement far = placer.place(QSizeF(40, 12), mark, 4);
        QVERIFY(far.placed);
        QVERIFY(far.leader);
        LabelPlacer full(QRectF(0, 0, 100, 100));
        full.addObstacle(QRectF(0, 0, 100, 100));
        QVERIFY(!full.place(QSizeF(40, 12), QRectF(50, 50, 0, 0), 4).placed);
    }
};

QTEST_MAIN(TestTextMachinery)
#include "test_text_machinery.moc"
