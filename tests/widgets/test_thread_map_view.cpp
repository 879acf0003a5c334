// ThreadMapView draws a row of lane cells per warp: lanes with a thread filled in their
// scheduler's shade, a partial warp's idle lanes hollow, the thread range beside each row, and
// a counting line when a big block's warps do not all fit.
#include "grids/thread_map_view.h"
#include "paint_counter.h"
#include "render_probe.h"

#include <QApplication>
#include <QTest>

using namespace wb;
using namespace wb::test;

namespace {

// 48 threads: warp 0 full, warp 1 with threads 32–47 in lanes 0–15 and lanes 16–31 idle.
ThreadMapFrame block(int threads) {
    ThreadMapFrame f;
    f.title = "Block 0";
    f.note = "Thread t runs in lane t mod 32 of warp ⌊t/32⌋.";
    for (int w = 0; w * 32 < threads; ++w)
        f.warps.push_back({.warp = w,
                           .firstThread = 32 * w,
                           .threads = std::min(32, threads - 32 * w),
                           .scheduler = w % 4});
    return f;
}

} // namespace

class TestThreadMapView : public QObject {
    Q_OBJECT
private slots:
    void idleLanesOfAPartialWarpStayHollow() {
        ThreadMapView view;
        view.setFrame(block(48));
        view.resize(760, 420);
        const QImage image = grabImage(view);
        saveForHumans(image, QStringLiteral("thread_map_48"));
        const QRectF bounds(view.rect());
        QCOMPARE(view.shownWarps(bounds), (std::vector<int>{0, 1}));
        const QColor bg = view.theme().background;
        for (int lane = 0; lane < 32; ++lane) {
            const QRectF full = view.laneRect(bounds, 0, lane);
            const QRectF part = view.laneRect(bounds, 1, lane);
            QVERIFY(bounds.contains(full) && bounds.contains(part));
            QVERIFY(!near(image.pixelColor(full.center().toPoint()), bg, 20));
            // Lanes 0–15 of warp 1 hold threads 32–47; 16–31 hold none and show the background.
            QCOMPARE(near(image.pixelColor(part.center().toPoint()), bg, 20), lane >= 16);
        }
        // Cells run left to right in lane order, without overlapping.
        for (int lane = 1; lane < 32; ++lane)
            QVERIFY(view.laneRect(bounds, 0, lane).left() >=
                    view.laneRect(bounds, 0, lane - 1).right() - 0.01);
        // Warps on different schedulers are told apart.
        QVERIFY(image.pixelColor(view.laneRect(bounds, 0, 0).center().toPoint()) !=
                image.pixelColor(view.laneRect(bounds, 1, 0).center().toPoint()));
    }

    void hoverNamesTheThread() {
        ThreadMapView view;
        view.setFrame(block(48));
        view.resize(760, 420);
        const QRectF bounds(view.rect());
        QCOMPARE(view.laneTip(view.laneRect(bounds, 1, 5).center()),
                 QStringLiteral("thread 37 → lane 5 of warp 1 → scheduler 1"));
        QVERIFY(view.laneTip(view.laneRect(bounds, 1, 20).center()).contains("no thread"));
        QVERIFY(view.laneTip(QPointF(1, 1)).isEmpty());
    }

    void aBigBlockKeepsItsFirstAndLastWarps() {
        ThreadMapView view;
        view.setFrame(block(1024));
        const QRectF small(0, 0, 600, 300);
        const std::vector<int> shown = view.shownWarps(small);
        QVERIFY(shown.size() < 32);
        QCOMPARE(shown.front(), 0);
        QCOMPARE(shown.back(), 31);
        for (std::size_t i = 0; i + 2 < shown.size(); ++i)
            QCOMPARE(shown[i + 1], shown[i] + 1);
        // Every row that is drawn lies inside the view.
        for (const int w : shown)
            QVERIFY(small.contains(view.laneRect(small, w, 31)));
        // With room, all 32 warps get a row.
        QCOMPARE(view.shownWarps(QRectF(0, 0, 1200, 2000)).size(), std::size_t{32});
    }

    void equalFramesRepaintNothing() {
        ThreadMapView view;
        QVERIFY(equalFrameSkipsRepaint(view, block(256), block(48)));
    }
};

QTEST_MAIN(TestThreadMapView)
#include "test_thread_map_view.moc"
