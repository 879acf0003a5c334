// LadderView draws one rung per level (fastest on top), emphasises the highlighted one and
// fills the Little's-law gauge in proportion to bytes in flight provided over needed.
#include "charts/ladder_view.h"
#include "paint_counter.h"
#include "render_probe.h"

#include <QApplication>
#include <QHelpEvent>
#include <QTest>
#include <QToolTip>

using namespace wb;
using namespace wb::test;

namespace {

LadderFrame ladder(double provided) {
    LadderFrame f;
    f.title = "H100 SXM memory hierarchy";
    f.clockGHz = 1.755;
    f.levels = {
        {"Registers", "256 KB / SM", 1.0, 0.57, 0.0, "CUDA C++ Programming Guide", "per thread",
         false, "", ""},
        {"Shared / L1", "256 KB / SM", 30.0, 17.1, 33000.0, "microbenchmarks (Jia et al.)",
         "tile data here", false, "", ""},
        {"L2", "50 MB", 260.0, 148.0, 12000.0, "microbenchmarks", "shared by all SMs", true, "",
         ""},
        {"HBM3", "80 GB", 480.0, 273.0, 3350.0, "NVIDIA H100 datasheet", "off-chip", false, "", ""},
    };
    f.bytesInFlightNeeded = 40e3;
    f.bytesInFlightProvided = provided;
    f.gaugeLabel = "Little's law for L2: latency x bandwidth";
    f.gaugeSource = "148 ns x 12 TB/s; provided = warps x loads in flight x 4 B";
    return f;
}

} // namespace

class TestLadderView : public QObject {
    Q_OBJECT
private slots:
    void oneRungPerLevelFastestOnTop() {
        for (const QSize size : {QSize(1920, 1080), QSize(900, 600)}) {
            LadderView view;
            view.setFrame(ladder(10e3));
            view.resize(size);
            const QImage image = grabImage(view);
            saveForHumans(image, QStringLiteral("ladder_%1").arg(size.width()));
            const QRectF bounds(view.rect());
            for (int i = 0; i < 4; ++i) {
                const QRectF rung = view.rungRect(bounds, i);
                QVERIFY(bounds.contains(rung));
                if (i > 0) {
                    QVERIFY(rung.top() > view.rungRect(bounds, i - 1).bottom());
                }
                // Only the highlighted rung (L2) carries the accent.
                const int accent = countNear(image, rung.toRect(), view.theme().accent, 10);
                if (i == 2) {
                    QVERIFY(accent > 100);
                } else {
                    QCOMPARE(accent, 0);
                }
            }
            QVERIFY(view.gaugeTrack(bounds).top() > view.rungRect(bounds, 3).bottom());
            QVERIFY(bounds.contains(view.gaugeTrack(bounds)));
        }
        QCOMPARE(LadderView::bandwidthText(ladder(1).levels[3]), QStringLiteral("3.35 TB/s"));
        QCOMPARE(LadderView::bandwidthText(ladder(1).levels[0]), QStringLiteral("\u2014"));
        QVERIFY(
            LadderView::latencyText(ladder(1).levels[2]).startsWith(QStringLiteral("260 cycles")));
    }

    void gaugeFillIsProvidedOverNeeded() {
        LadderView view;
        view.setFrame(ladder(10e3));
        view.resize(1280, 720);
        const QImage image = grabImage(view);
        const QRectF bounds(view.rect());
        const QRectF track = view.gaugeTrack(bounds);
        const QRectF fill = view.gaugeFill(bounds);
        QCOMPARE(fill.width() / track.width(), 0.25);
        // Count the warning-coloured pixels along the track's middle row.
        const QRect row(track.toRect().left(), static_cast<int>(track.center().y()),
                        track.toRect().width(), 1);
        const int warm = countNear(image, row, view.theme().seriesColor(1), 10);
        QVERIFY2(std::abs(warm - track.width() * 0.25) < 6.0, qPrintable(QString::number(warm)));
        QVERIFY(LadderView::gaugeText(view.frame()).contains(QStringLiteral("(25 %)")));

        // Enough in flight: the whole track in the accent colour, the needed mark inside it.
        view.setFrame(ladder(80e3));
        const QImage full = grabImage(view);
        saveForHumans(full, QStringLiteral("ladder_gauge_full"));
        const QRectF t2 = view.gaugeTrack(bounds);
        QCOMPARE(view.gaugeFill(bounds).width(), t2.width());
        const QRect row2(t2.toRect().left(), static_cast<int>(t2.center().y()), t2.toRect().width(),
                         1);
        QVERIFY(countNear(full, row2, view.theme().accent, 10) > t2.width() * 0.9);
    }

    void noGaugeWithoutNumbers() {
        LadderView view;
        view.setFrame(ladder(0.0));
        QVERIFY(view.gaugeTrack(QRectF(0, 0, 900, 600)).isEmpty());
    }

    void rungTooltip() {
        LadderView view;
        view.setFrame(ladder(10e3));
        view.resize(1280, 720);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QPoint pos = view.rungRect(QRectF(view.rect()), 1).center().toPoint();
        QCOMPARE(view.levelAt(QPointF(pos)), 1);
        QHelpEvent help(QEvent::ToolTip, pos, view.mapToGlobal(pos));
        QApplication::sendEvent(&view, &help);
        QTRY_COMPARE(QToolTip::text(), QStringLiteral("tile data here"));
    }

    void presentationFits() {
        LadderView view;
        view.setTheme(Theme::presentation(false));
        view.setFrame(ladder(30e3));
        view.resize(900, 600);
        const QRectF bounds(view.rect());
        QVERIFY(bounds.contains(view.gaugeTrack(bounds)));
        QVERIFY(view.gaugeTrack(bounds).top() > view.rungRect(bounds, 3).bottom());
        saveForHumans(grabImage(view), QStringLiteral("ladder_presentation_panel"));
    }

    void equalFramesDoNotRepaint() {
        LadderView view;
        QVERIFY(equalFrameSkipsRepaint(view, ladder(10e3), ladder(20e3)));
    }
};

QTEST_MAIN(TestLadderView)
#include "test_ladder_view.moc"
