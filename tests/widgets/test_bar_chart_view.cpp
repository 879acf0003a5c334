// BarChartView: segments in their series colour at the right place, lengths proportional to
// the values, the reference line at its value, hover tips per segment, horizontal bars, an
// empty frame and absurd values paint without trouble.
#include "charts/bar_chart_view.h"
#include "render_probe.h"

#include <QtTest>
#include <limits>

using namespace wb;
using namespace wb::test;

namespace {

const QSize kSize(900, 480);
const QRectF kBounds(QPointF(0, 0), QSizeF(kSize));

QImage render(const BarChartView& view, QSize size = kSize) {
    return paintToImage(view, size);
}

// Two bars: 30 + 10 and 60 + 20 (+ 0), a reference at 50.
BarChartFrame sample(bool horizontal = false) {
    BarChartFrame f;
    f.title = "sample";
    f.series = {"weights", "gradients", "optimizer"};
    f.categories = {{"A", {{30, 0, ""}, {10, 1, "A gradients"}}, "bar A"},
                    {"B", {{60, 0, ""}, {20, 1, ""}, {0, 2, ""}}, "bar B"}};
    f.references = {{50, "HBM 50"}};
    f.unit = BarValueUnit::Bytes;
    f.horizontal = horizontal;
    return f;
}

// A probe a quarter of the way along a segment, away from any value text at its centre.
QRect quarter(const QRectF& r, bool horizontal) {
    return around(horizontal
                      ? QPointF(r.left() + r.width() * 0.15, r.center().y())
                      : QPointF(r.center().x() - r.width() * 0.3, r.bottom() - r.height() * 0.15),
                  2);
}

} // namespace

class TestBarChartView : public QObject {
    Q_OBJECT
private slots:
    void segmentsInTheirSeriesColour() {
        for (const bool horizontal : {false, true}) {
            BarChartView view;
            view.setFrame(sample(horizontal));
            const QImage image = render(view);
            saveForHumans(image, horizontal ? "bar_chart_h" : "bar_chart_v");
            for (int c = 0; c < 2; ++c)
                for (int s = 0; s < 2; ++s) {
                    const QRectF r = view.segmentRect(kBounds, c, s);
                    QVERIFY2(countNear(image, quarter(r, horizontal), view.seriesColor(s), 10) > 15,
                             qPrintable(QStringLiteral("bar %1 segment %2").arg(c).arg(s)));
                }
            // Weights sit nearest the axis origin, gradients after them.
            const QRectF w = view.segmentRect(kBounds, 0, 0), g = view.segmentRect(kBounds, 0, 1);
            if (horizontal)
                QVERIFY(g.left() >= w.right() - 1);
            else
                QVERIFY(g.bottom() <= w.top() + 1);
        }
    }

    void lengthsProportionalToValues() {
        for (const bool horizontal : {false, true}) {
            BarChartView view;
            view.setFrame(sample(horizontal));
            auto length = [&](int c, int s) {
                const QRectF r = view.segmentRect(kBounds, c, s);
                return horizontal ? r.width() : r.height();
            };
            // 60 : 30 and 20 : 10, within a pixel.
            QVERIFY(std::abs(length(1, 0) - 2 * length(0, 0)) < 1.5);
            QVERIFY(std::abs(length(1, 1) - 2 * length(0, 1)) < 1.5);
            QVERIFY(std::abs(length(0, 0) - 3 * length(0, 1)) < 1.5);
            QCOMPARE(length(1, 2), 0.0);
            // The whole bar B of 80 spans 80 / axisMax of the plot.
            const QRectF plot = view.plotRect(kBounds);
            const double full = horizontal ? plot.width() : plot.height();
            QVERIFY(std::abs(length(1, 0) + length(1, 1) - full * 80 / view.axisMax()) < 1.5);
            QVERIFY(view.axisMax() >= 80);
        }
    }

    void referenceLineAtItsValue() {
        BarChartView view;
        view.setFrame(sample());
        const QImage image = render(view);
        const QRectF plot = view.plotRect(kBounds);
        const double y = view.valuePos(kBounds, 50);
        QVERIFY(std::abs(y - (plot.bottom() - plot.height() * 50 / view.axisMax())) < 1.0);
        // Dashed: some of the line between the bars is in the reference colour.
        const QRectF a = view.barRect(kBounds, 0), b = view.barRect(kBounds, 1);
        const QRect between(static_cast<int>(a.right()) + 3, static_cast<int>(y) - 2,
                            static_cast<int>(b.left() - a.right()) - 6, 5);
        QVERIFY(countNear(image, between, view.referenceColor(), 30) > 10);
        // And it crosses bar B (80 > 50), drawn over it.
        QVERIFY(countNear(image,
                          QRect(static_cast<int>(b.left()), static_cast<int>(y) - 2,
                                static_cast<int>(b.width()), 5),
                          view.referenceColor(), 30) > 5);
        // No reference, no reference colour there.
        BarChartFrame f = sample();
        f.references.clear();
        view.setFrame(f);
        QCOMPARE(countNear(render(view), between, view.referenceColor(), 30), 0);
    }

    void referenceLineSparesTheTotals() {
        // Bar A's total (40) printed right where a reference at 42 runs: the line passes
        // behind the text, not through it, and is still drawn beside it.
        BarChartView view;
        BarChartFrame f = sample();
        f.references = {{42, "HBM 42"}};
        view.setFrame(f);
        const QImage image = render(view);
        saveForHumans(image, "bar_chart_reference_behind_total");
        const QRectF a = view.barRect(kBounds, 0);
        const double y = view.valuePos(kBounds, 42);
        // The total sits just above the bar's end (the top of its last segment).
        const double totalY = view.segmentRect(kBounds, 0, 1).top() - 6;
        QVERIFY(std::abs(totalY - y) < 8);
        const QRect overText(static_cast<int>(a.center().x()) - 6, static_cast<int>(y) - 1, 12, 3);
        QCOMPARE(countNear(image, overText, view.referenceColor(), 30), 0);
        const QRect beside(static_cast<int>(a.right()) + 10, static_cast<int>(y) - 2, 30, 5);
        QVERIFY(countNear(image, beside, view.referenceColor(), 30) > 5);
    }

    void denseBarsLabelEveryNthAtFullSize() {
        // 64 narrow bars: labels would overlap, so every stride-th is drawn at the view's
        // label size and each bar's tip names it.
        BarChartFrame f = sample();
        f.categories.clear();
        for (int e = 0; e < 64; ++e)
            f.categories.push_back({"expert-" + std::to_string(e), {{double(e + 1), 0, ""}}, ""});
        BarChartView view;
        view.setFrame(f);
        const QImage image = render(view);
        saveForHumans(image, QStringLiteral("bar_chart_dense"));
        int c = -1, s = -1;
        QVERIFY(view.segmentAt(kBounds, view.segmentRect(kBounds, 63, 0).center(), &c, &s));
        QVERIFY(view.segmentText(c, s).startsWith(QStringLiteral("expert-63")));
    }

    void tinyByteAxesLabelEachTickOnce() {
        // Bytes below 1 kB print whole: an axis of zeros (one GPU sends nothing) or of a few
        // bytes must not read "1 B, 1 B, 0 B". Every tick's label differs from the others.
        for (const double top : {0.0, 1.0, 3.0, 7.0, 999.0}) {
            BarChartFrame f;
            f.unit = BarValueUnit::Bytes;
            f.categories = {{"G0", {{top, 0, ""}}, ""}, {"G1", {{top / 2, 0, ""}}, ""}};
            BarChartView view;
            view.setFrame(f);
            const std::vector<double> ticks = view.axisTicks(kBounds);
            QVERIFY2(ticks.size() >= 2, qPrintable(QString::number(top)));
            QStringList labels;
            for (double v : ticks)
                labels << view.valueText(v);
            QCOMPARE(labels.removeDuplicates(), qsizetype(0));
            QVERIFY(ticks.back() <= view.axisMax() + 1e-9);
        }
    }

    void hoverNamesTheSegment() {
        BarChartView view;
        view.setFrame(sample());
        int c = -1, s = -1;
        QVERIFY(view.segmentAt(kBounds, view.segmentRect(kBounds, 0, 1).center(), &c, &s));
        QCOMPARE(c, 0);
        QCOMPARE(s, 1);
        QCOMPARE(view.segmentText(c, s), QStringLiteral("A gradients"));
        QVERIFY(view.segmentAt(kBounds, view.segmentRect(kBounds, 1, 0).center(), &c, &s));
        QCOMPARE(view.segmentText(c, s), QStringLiteral("B \u00b7 weights: 60 B"));
        QVERIFY(!view.segmentAt(kBounds, QPointF(2, 2), &c, &s));
    }

    void emphasisOutlinesTheBar() {
        BarChartView view;
        BarChartFrame f = sample();
        const QImage plain = (view.setFrame(f), render(view));
        f.emphasis = 1;
        view.setFrame(f);
        const QImage outlined = render(view);
        QVERIFY(plain != outlined);
        const QRectF b = view.segmentRect(kBounds, 1, 0);
        QVERIFY(
            countNear(outlined,
                      QRect(static_cast<int>(b.left()) - 3, static_cast<int>(b.center().y()), 4, 3),
                      view.theme().accent, 20) > 0);
    }

    void emptyAndHugeFramesPaint() {
        BarChartView view;
        view.setFrame(BarChartFrame{});
        const QImage empty = render(view);
        QCOMPARE(countNotNear(empty, empty.rect(), view.theme().background), 0);
        BarChartFrame f = sample();
        f.categories[0].segments[0].value = 1e300;
        f.categories[1].segments[0].value = std::numeric_limits<double>::infinity();
        f.categories[1].segments[1].value = std::numeric_limits<double>::quiet_NaN();
        f.references.push_back({-5, "negative"});
        view.setFrame(f);
        const QImage huge = render(view);
        QVERIFY(view.axisMax() >= 1e300 && std::isfinite(view.axisMax()));
        QVERIFY(countNear(huge, quarter(view.segmentRect(kBounds, 0, 0), false),
                          view.seriesColor(0), 10) > 15);
        render(view, QSize(40, 30)); // tiny: nothing to assert but no crash
        Theme big = Theme::presentation(false);
        view.setTheme(big);
        view.setFrame(sample());
        QVERIFY(countNear(render(view), quarter(view.segmentRect(kBounds, 1, 0), false),
                          view.seriesColor(0), 10) > 15);
    }
};

QTEST_MAIN(TestBarChartView)
#include "test_bar_chart_view.moc"
