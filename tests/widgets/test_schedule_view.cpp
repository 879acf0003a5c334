// ScheduleView: bars in their kind's colour at the model's times, pipeline idle time hatched
// as the bubble (only on stage rows), bars after the playback cursor faint, the narrowest
// bar wins the hover, and an empty frame paints.
#include "render_probe.h"
#include "timeline/schedule_view.h"

#include <QtTest>

using namespace wb;
using namespace wb::test;

namespace {

const QSize kSize(900, 420);

QImage render(const ScheduleView& view, QSize size = kSize) {
    return paintToImage(view, size);
}

// Row 0: a stage with a forward 0–1, a backward 3–5 and a bubble between; row 1: a compute
// stream with the same gap, not a bubble; a short all-reduce over row 1's wide bar.
ScheduleFrame sample() {
    ScheduleFrame f;
    f.title = "sample";
    f.endS = 6.0;
    ScheduleRow stage{"stage 0", {}, true};
    stage.bars.push_back({0.0, 1.0, ScheduleKind::Forward, "1", 0, "F1"});
    stage.bars.push_back({3.0, 5.0, ScheduleKind::Backward, "1", 0, "ring-allreduce"});
    ScheduleRow stream{"GPU 0", {}, false};
    stream.bars.push_back({0.0, 1.0, ScheduleKind::Forward, "", 0, ""});
    stream.bars.push_back({3.0, 6.0, ScheduleKind::Optimizer, "", 0, "wide"});
    stream.bars.push_back({4.0, 4.2, ScheduleKind::AllReduce, "", 0, "narrow"});
    f.rows = {stage, stream};
    return f;
}

QRect gapRect(const ScheduleView& view, int row) {
    const QRectF r = view.rowRect(QRectF(QPointF(0, 0), QSizeF(kSize)), row);
    const QRectF plot = view.plotRect(QRectF(QPointF(0, 0), QSizeF(kSize)));
    const double x1 = plot.left() + plot.width() * 1.2 / 6.0,
                 x2 = plot.left() + plot.width() * 2.8 / 6.0;
    return QRectF(x1, r.top() + r.height() * 0.3, x2 - x1, r.height() * 0.4).toRect();
}

} // namespace

class TestScheduleView : public QObject {
    Q_OBJECT
private slots:
    void barsInTheirKindColour() {
        ScheduleView view;
        view.setFrame(sample());
        const QImage image = render(view);
        saveForHumans(image, "schedule_sample");
        const QRectF bounds(QPointF(0, 0), QSizeF(kSize));
        const QRectF fwd = view.barRect(bounds, 0, 0);
        QVERIFY(countNear(image, around(fwd.center() + QPointF(fwd.width() / 3, 0), 2),
                          view.kindColor(ScheduleKind::Forward), 10) > 10);
        const QRectF bwd = view.barRect(bounds, 0, 1);
        QVERIFY(countNear(image, around(bwd.center() + QPointF(bwd.width() / 3, 0), 2),
                          view.kindColor(ScheduleKind::Backward), 10) > 10);
        // The bar spans the model's times on the axis: 3 s … 5 s of 6 s.
        const QRectF plot = view.plotRect(bounds);
        QVERIFY(std::abs(bwd.left() - (plot.left() + plot.width() * 0.5)) < 1.5);
        QVERIFY(std::abs(bwd.right() - (plot.left() + plot.width() * 5.0 / 6.0)) < 1.5);
    }

    void bubbleHatchedOnlyOnStageRows() {
        ScheduleView view;
        view.setFrame(sample());
        const QImage image = render(view);
        const int onStage = countNear(image, gapRect(view, 0), view.bubbleColor(), 40);
        const int onStream = countNear(image, gapRect(view, 1), view.bubbleColor(), 40);
        QVERIFY2(onStage > 20, qPrintable(QString::number(onStage)));
        QCOMPARE(onStream, 0);
    }

    void barsAfterTheCursorAreFaint() {
        ScheduleFrame f = sample();
        f.cursorS = 2.0; // the backward (3–5 s) has not started
        ScheduleView view;
        view.setFrame(f);
        const QImage image = render(view);
        const QRectF bwd = view.barRect(QRectF(QPointF(0, 0), QSizeF(kSize)), 0, 1);
        const QRect probe = around(bwd.center() + QPointF(bwd.width() / 3, 0), 2);
        QCOMPARE(countNear(image, probe, view.kindColor(ScheduleKind::Backward), 10), 0);
        // The forward (0–1 s) is done: full colour.
        const QRectF fwd = view.barRect(QRectF(QPointF(0, 0), QSizeF(kSize)), 0, 0);
        QVERIFY(countNear(image, around(fwd.center() + QPointF(fwd.width() / 3, 0), 2),
                          view.kindColor(ScheduleKind::Forward), 10) > 10);
        // Playback changes the picture; the end of playback (cursor < 0) shows everything.
        f.cursorS = 5.5;
        view.setFrame(f);
        QVERIFY(render(view) != image);
    }

    void narrowestBarWinsTheHover() {
        ScheduleView view;
        view.setFrame(sample());
        const QRectF bounds(QPointF(0, 0), QSizeF(kSize));
        const QRectF narrow = view.barRect(bounds, 1, 2);
        int row = -1, bar = -1;
        QVERIFY(view.barAt(bounds, narrow.center(), &row, &bar));
        QCOMPARE(row, 1);
        QCOMPARE(bar, 2);
        QCOMPARE(view.barText(row, bar), QStringLiteral("narrow"));
        const QRectF wide = view.barRect(bounds, 1, 1);
        QVERIFY(view.barAt(bounds, QPointF(wide.right() - 3, wide.center().y()), &row, &bar));
        QCOMPARE(bar, 1);
        QVERIFY(!view.barAt(bounds, QPointF(1, 1), &row, &bar));
    }

    void categoriesColourBarsAndNameTheLegend() {
        ScheduleFrame f;
        f.endS = 4;
        f.categories = {"run", "lost work"};
        ScheduleRow r{"job", {}, false};
        r.bars.push_back({0, 2, ScheduleKind::Forward, "", 0, "", 1});
        r.bars.push_back({2, 4, ScheduleKind::Forward, "", 0, "", 0});
        f.rows = {r};
        ScheduleView view;
        view.setFrame(f);
        const QImage image = render(view);
        const QRectF bounds(QPointF(0, 0), QSizeF(kSize));
        const QRectF lost = view.barRect(bounds, 0, 0);
        QVERIFY(countNear(image, around(lost.center() + QPointF(lost.width() / 3, 0), 2),
                          view.categoryColor(1), 10) > 10);
        QCOMPARE(countNear(image, around(lost.center() + QPointF(lost.width() / 3, 0), 2),
                           view.kindColor(ScheduleKind::Forward), 10),
                 0);
        QVERIFY(view.barText(0, 0).startsWith(QStringLiteral("lost work")));
    }

    void emptyFramePaints() {
        ScheduleView view;
        const QImage image = render(view, QSize(300, 200));
        QCOMPARE(countNotNear(image, image.rect(), view.theme().background, 4), 0);
    }
};

QTEST_MAIN(TestScheduleView)
#include "test_schedule_view.moc"
