// IssueTimelineView colours each issued cell by its warp at the right scheduler row and cycle
// column, hatches idle cells, leaves unrevealed cycles empty, and stays cheap for long runs.
#include "paint_counter.h"
#include "render_probe.h"
#include "timeline/issue_timeline_view.h"

#include <QApplication>
#include <QHelpEvent>
#include <QTest>
#include <QToolTip>

using namespace wb;
using namespace wb::test;

namespace {

// Scheduler s issues warp s at even cycles and idles at odd ones; 30 of 40 cycles shown.
IssueTimelineFrame halfBusy() {
    IssueTimelineFrame f;
    f.title = "4 schedulers, 1 warp each";
    f.schedulers = 4;
    f.cycles = 40;
    f.shownUpTo = 30;
    f.warpsPerScheduler = 1;
    f.issued.assign(4, std::vector<int>(40, -1));
    for (std::size_t s = 0; s < 4; ++s) {
        for (std::size_t c = 0; c < 40; c += 2) {
            f.issued[s][c] = static_cast<int>(s);
        }
    }
    f.utilization = 0.5;
    f.caption = "1 warp, ILP 2: half the issue slots used";
    return f;
}

// 4000 cycles, runs of 10 cycles per warp, every 7th run idle.
IssueTimelineFrame longRun() {
    IssueTimelineFrame f;
    f.schedulers = 4;
    f.cycles = 4000;
    f.shownUpTo = 4000;
    f.warpsPerScheduler = 8;
    f.issued.assign(4, std::vector<int>(4000, -1));
    for (std::size_t s = 0; s < 4; ++s) {
        for (std::size_t c = 0; c < 4000; ++c) {
            const std::size_t run = c / 10;
            f.issued[s][c] = run % 7 == 6 ? -1 : static_cast<int>(s * 8 + run % 8);
        }
    }
    f.utilization = 6.0 / 7.0;
    f.caption = "8 warps per scheduler";
    return f;
}

} // namespace

class TestIssueTimelineView : public QObject {
    Q_OBJECT
private slots:
    void issuedIdleAndUnrevealedCells() {
        for (const QSize size : {QSize(1920, 1080), QSize(900, 600)}) {
            IssueTimelineView view;
            view.setFrame(halfBusy());
            view.resize(size);
            const QImage image = grabImage(view);
            saveForHumans(image, QStringLiteral("timeline_%1").arg(size.width()));
            const QRectF bounds(view.rect());
            QVERIFY(bounds.contains(view.plotRect(bounds)));
            for (int s = 0; s < 4; ++s) {
                const QColor warp = view.warpColor(s);
                const QRectF issued = view.cellRect(bounds, s, 12);
                const QRectF idle = view.cellRect(bounds, s, 13);
                const QRectF hidden = view.cellRect(bounds, s, 34);
                QVERIFY(countNear(image, around(issued.center(), 2), warp, 6) >= 20);
                QCOMPARE(countNear(image, idle.toRect().adjusted(2, 2, -2, -2), warp, 30), 0);
                QCOMPARE(countNear(image, hidden.toRect(), warp, 30), 0);
                // Idle cells are hatched: some darker pixels, not all surface.
                const QRect in = idle.toRect().adjusted(2, 3, -2, -3);
                QVERIFY(countNotNear(image, in, view.theme().surface, 6) > 0);
                QVERIFY(countNear(image, in, view.theme().surface, 6) > 0);
            }
        }
        // The lesson's caption already quotes the utilisation; only a bare frame gets the number.
        QCOMPARE(IssueTimelineView::captionText(halfBusy()),
                 QStringLiteral("1 warp, ILP 2: half the issue slots used"));
        IssueTimelineFrame bare = halfBusy();
        bare.caption.clear();
        QCOMPARE(IssueTimelineView::captionText(bare), QStringLiteral("utilisation 50 %"));
        QCOMPARE(IssueTimelineView::cellText(halfBusy(), 1, 13),
                 QStringLiteral("scheduler 1 \u00b7 cycle 13: idle, every warp stalled"));
    }

    void longTimelinesMergeRuns() {
        IssueTimelineView view;
        view.setFrame(longRun());
        view.resize(1920, 1080);
        const QImage image = grabImage(view);
        saveForHumans(image, QStringLiteral("timeline_long"));
        // 400 runs per row at most, never one rectangle per cycle.
        QVERIFY2(view.lastCellRects() <= 4 * 400,
                 qPrintable(QString::number(view.lastCellRects())));
        QVERIFY(view.lastCellRects() >= 4 * 300);
        const QRectF bounds(view.rect());
        // Cycles 0…9 of scheduler 2 are warp 16.
        const QRectF first = view.cellRect(bounds, 2, 5);
        QVERIFY(countNear(image,
                          QRect(static_cast<int>(first.center().x()),
                                static_cast<int>(first.center().y()), 1, 3),
                          view.warpColor(16), 6) == 3);
    }

    void cellTooltip() {
        IssueTimelineView view;
        view.setFrame(halfBusy());
        view.resize(1280, 720);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QPoint pos = view.cellRect(QRectF(view.rect()), 2, 10).center().toPoint();
        QHelpEvent help(QEvent::ToolTip, pos, view.mapToGlobal(pos));
        QApplication::sendEvent(&view, &help);
        QTRY_COMPARE(QToolTip::text(),
                     QStringLiteral("scheduler 2 \u00b7 cycle 10: warp 2 issued"));
        int s = 0;
        int c = 0;
        QVERIFY(!view.cellAt(view.cellRect(QRectF(view.rect()), 2, 35).center(), &s, &c));
    }

    void equalFramesDoNotRepaint() {
        IssueTimelineView view;
        IssueTimelineFrame changed = halfBusy();
        changed.shownUpTo = 31;
        QVERIFY(equalFrameSkipsRepaint(view, halfBusy(), changed));
    }
};

QTEST_MAIN(TestIssueTimelineView)
#include "test_issue_timeline_view.moc"
