// ChartView puts series where its axes say, uses log axes when asked, marks estimates, and
// reuses its series objects instead of rebuilding the chart.
#include "charts/chart_view.h"
#include "render_probe.h"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTest>
#include <QToolTip>
#include <QValueAxis>

using namespace wb;
using namespace wb::test;

namespace {

ChartFrame logFrame() {
    ChartFrame f;
    f.title = "All-reduce time vs message size";
    f.x = {"message size (B)", true, 1.0, 1e4};
    f.y = {"time (\u00b5s)", true, 1.0, 1e4};
    ChartSeries flat;
    flat.name = "latency floor";
    flat.points = {{1.0, 100.0}, {1e4, 100.0}};
    flat.colorIndex = 0;
    ChartSeries rising;
    rising.name = "bandwidth term";
    rising.points = {{1.0, 1.0}, {10.0, 5.0}, {1e3, 300.0}, {1e4, 3000.0}};
    rising.style = ChartSeries::Style::Dashed;
    rising.colorIndex = 1;
    f.series = {flat, rising};
    f.markers = {{{1e3, 100.0}, "H100", "measured, nccl-tests", 2, false, true},
                 {{1e2, 1e3}, "B200", "datasheet / 2", 3, true, false}};
    f.footnote = "Source: NCCL docs; alpha-beta model";
    return f;
}

} // namespace

class TestChartView : public QObject {
    Q_OBJECT
private slots:
    void lineLandsWhereTheLogAxisSays() {
        ChartView view;
        view.setFrame(logFrame());
        view.resize(800, 600);
        const QImage image = grabImage(view);
        saveForHumans(image, QStringLiteral("chart_log"));
        const QRectF plot = view.chart()->plotArea();
        QVERIFY(plot.width() > 300 && plot.height() > 250);
        // y = 100 is half way up a 1..1e4 log axis (it would be near the bottom if linear).
        const QPointF at = view.mapToView({30.0, 100.0});
        QVERIFY(std::abs(at.y() - (plot.top() + plot.height() / 2.0)) < 2.0);
        const QColor colour = view.theme().seriesColor(0);
        QVERIFY(countNear(image,
                          QRect(static_cast<int>(at.x()) - 20, static_cast<int>(at.y()) - 2, 41, 5),
                          colour, 30) >= 30);
        // ... and not a quarter of the way further down.
        const int elsewhere = static_cast<int>(plot.top() + plot.height() * 0.75);
        QCOMPARE(countNear(image, QRect(static_cast<int>(at.x()) - 20, elsewhere - 2, 41, 5),
                           colour, 30),
                 0);
    }

    void axisKindFollowsTheFrame() {
        ChartView view;
        ChartFrame frame = logFrame();
        view.setFrame(frame);
        QVERIFY(qobject_cast<QLogValueAxis*>(view.axisX()) != nullptr);
        QVERIFY(qobject_cast<QLogValueAxis*>(view.axisY()) != nullptr);
        QCOMPARE(view.axisX()->titleText(), QStringLiteral("message size (B)"));
        frame.y = {"busbw (GB/s)", false, 0.0, 400.0};
        view.setFrame(frame);
        auto* linear = qobject_cast<QValueAxis*>(view.axisY());
        QVERIFY(linear != nullptr);
        QCOMPARE(linear->min(), 0.0);
        QCOMPARE(linear->max(), 400.0);
        QVERIFY(qobject_cast<QLogValueAxis*>(view.axisX()) != nullptr);
        // Every series is attached to the current axes.
        for (QLineSeries* s : view.lineSeries()) {
            QVERIFY(s->attachedAxes().contains(view.axisY()));
        }
        // Only the active axis of each side is shown.
        int shown = 0;
        for (QAbstractAxis* axis : view.chart()->axes()) {
            shown += axis->isVisible() ? 1 : 0;
        }
        QCOMPARE(shown, 2);
        QVERIFY(view.axisY()->isVisible());
    }

    void markersAreLabelledAndStyled() {
        ChartView view;
        view.setFrame(logFrame());
        QCOMPARE(ChartView::markerLabel(logFrame().markers[1]), QStringLiteral("B200 (est.)"));
        QCOMPARE(ChartView::markerLabel(logFrame().markers[0]), QStringLiteral("H100"));
        QCOMPARE(view.markerSeries().size(), std::size_t{2});
        QScatterSeries* measured = view.markerSeries()[0];
        QScatterSeries* estimate = view.markerSeries()[1];
        QCOMPARE(estimate->pointLabelsFormat(), QStringLiteral("B200 (est.)"));
        // Qt's own point labels stay off: the view places them (markerLabels) without overlap.
        QVERIFY(!estimate->pointLabelsVisible());
        QVERIFY(measured->markerSize() > estimate->markerSize());     // emphasis is bigger
        QCOMPARE(estimate->brush().color(), view.theme().background); // hollow
        QCOMPARE(measured->brush().color(), view.theme().seriesColor(2));
    }

    void hoveringAMarkerShowsItsTooltip() {
        ChartView view;
        view.resize(640, 480);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setFrame(logFrame());
        emit view.markerSeries()[1]->hovered(QPointF(1e2, 1e3), true);
        QTRY_COMPARE(QToolTip::text(), QStringLiteral("datasheet / 2"));
        emit view.markerSeries()[1]->hovered(QPointF(1e2, 1e3), false);
        QTRY_VERIFY(QToolTip::text().isEmpty());
    }

    void lineStylesFollowTheSeries() {
        ChartView view;
        ChartFrame frame = logFrame();
        frame.series[0].style = ChartSeries::Style::Faint;
        view.setFrame(frame);
        QCOMPARE(view.lineSeries()[1]->pen().style(), Qt::DashLine);
        QVERIFY(view.lineSeries()[0]->pen().color().alphaF() < 0.9f);
        QVERIFY(view.lineSeries()[0]->pen().widthF() < view.lineSeries()[1]->pen().widthF());
        QCOMPARE(view.chart()->animationOptions(), QChart::NoAnimation);
    }

    void sameFrameDoesNotRebuild() {
        ChartView view;
        ChartFrame frame = logFrame();
        view.setFrame(frame);
        const auto lines = view.lineSeries();
        const auto markers = view.markerSeries();
        QAbstractAxis* x = view.axisX();
        view.setFrame(frame);
        QCOMPARE(view.frameUpdates(), 1);
        QCOMPARE(view.lineSeries(), lines);
        QCOMPARE(view.markerSeries(), markers);
        QCOMPARE(view.axisX(), x);

        // New data, same shape: the same objects carry it.
        frame.series[0].points = {{1.0, 200.0}, {1e4, 200.0}};
        view.setFrame(frame);
        QCOMPARE(view.frameUpdates(), 2);
        QCOMPARE(view.lineSeries(), lines);
        QCOMPARE(view.lineSeries()[0]->at(0), QPointF(1.0, 200.0));
        QCOMPARE(view.axisX(), x);

        frame.series.pop_back();
        frame.markers.clear();
        view.setFrame(frame);
        QCOMPARE(view.lineSeries().size(), std::size_t{1});
        QCOMPARE(view.lineSeries()[0], lines[0]);
        QCOMPARE(view.chart()->series().size(), 1);
    }

    void nonPositivePointsAreDroppedOnLogAxes() {
        ChartView view;
        ChartFrame frame = logFrame();
        frame.series[1].points = {{0.0, 1.0}, {1.0, 1.0}, {10.0, 5.0}, {1e3, 300.0}, {1e4, 3000.0}};
        view.setFrame(frame);
        QCOMPARE(view.lineSeries()[1]->count(), 4);
    }

    void exportsAreRepeatableAndThemed() {
        ChartView view;
        view.setTheme(Theme::dark());
        view.setFrame(logFrame());
        view.resize(640, 480);
        const QImage first = grabImage(view);
        const QImage second = grabImage(view);
        QCOMPARE(first, second);
        saveForHumans(first, QStringLiteral("chart_dark"));
        QVERIFY(near(first.pixelColor(2, 2), Theme::dark().background, 2));
        ChartView other;
        other.setTheme(Theme::dark());
        other.setFrame(logFrame());
        other.resize(640, 480);
        QCOMPARE(grabImage(other), first);
    }

    void presentationThemeRenders() {
        ChartView view;
        view.setTheme(Theme::presentation(false));
        view.setFrame(logFrame());
        view.resize(1150, 1040);
        saveForHumans(grabImage(view), QStringLiteral("chart_presentation"));
        // Presentation type is the slide's body size times the presentation scale.
        QVERIFY(view.typeScale().px(TextRole::Body) > TypeScale::forSlide(1080).px(TextRole::Body));
    }

    void ticksReadInHumanUnits() {
        QCOMPARE(ChartView::tickText(1e6, "message size (B)"), QStringLiteral("1 MB"));
        QCOMPARE(ChartView::tickText(1e3, "message size (B)"), QStringLiteral("1 kB"));
        QCOMPARE(ChartView::tickText(1e4, "time (\u00b5s)"), QStringLiteral("10 ms"));
        QCOMPARE(ChartView::tickText(0.5, "time (s)"), QStringLiteral("500 ms"));
        QCOMPARE(ChartView::tickText(1e6, "ops (count)"), QStringLiteral("1 M"));
        QCOMPARE(ChartView::tickText(12.5, "TFLOP/s"), QStringLiteral("12.5"));
        QCOMPARE(ChartView::tickText(1000, "attainable (TFLOP/s)"), QStringLiteral("1 k"));
        for (const QString& t : {ChartView::tickText(1e6, "x"), ChartView::tickText(1e-5, "x")})
            QVERIFY2(!t.contains(QLatin1Char('e')), qPrintable(t));
    }

    void markerLabelsDoNotOverlapEachOtherOrTheirMarks() {
        ChartView view;
        ChartFrame frame = logFrame();
        // Four markers on one spot: the roofline's stacked "decode B=64" case.
        for (int i = 0; i < 4; ++i)
            frame.markers.push_back({{1e3, 1e3}, "decode B=64", "tip", 1, false, false});
        view.setFrame(frame);
        view.resize(800, 600);
        grabImage(view); // lays the chart out
        const std::vector<LabelPlacement> labels = view.markerLabels();
        QCOMPARE(labels.size(), frame.markers.size());
        const QRectF plot = view.chart()->plotArea();
        int placed = 0;
        for (std::size_t i = 0; i < labels.size(); ++i) {
            if (!labels[i].placed)
                continue;
            ++placed;
            QVERIFY(plot.adjusted(-1, -1, 1, 1).contains(labels[i].box));
            for (std::size_t j = 0; j < i; ++j)
                if (labels[j].placed)
                    QVERIFY(!labels[i].box.intersects(labels[j].box));
        }
        QVERIFY(placed >= 4);
    }
};

QTEST_MAIN(TestChartView)
#include "test_chart_view.moc"
