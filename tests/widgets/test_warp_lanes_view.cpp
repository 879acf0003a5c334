// WarpLanesView shows active lanes bright and idle/exited lanes grey at the lane positions,
// highlights the issued instruction, wraps to two rows of 16 when narrow, and shows lane tips.
#include "grids/warp_lanes_view.h"
#include "paint_counter.h"
#include "render_probe.h"

#include <QApplication>
#include <QHelpEvent>
#include <QTest>
#include <QToolTip>

using namespace wb;
using namespace wb::test;

namespace {

WarpFrame diverged() {
    WarpFrame f;
    f.title = "if (threadIdx.x % 2) v = v * 3; else v = v + 1;";
    f.program = {"v = threadIdx.x", "p = v % 2",       "@p bra ELSE",  "v = v * 3",
                 "bra JOIN",        "ELSE: v = v + 1", "JOIN: store v"};
    f.pc = 3;
    f.lanes.resize(32);
    for (int i = 0; i < 32; ++i) {
        WarpLane& lane = f.lanes[static_cast<std::size_t>(i)];
        lane.active = i % 2 == 1;
        lane.value = i;
        lane.tip = "lane " + std::to_string(i) + (lane.active ? ": takes then" : ": waits");
    }
    f.lanes[31].active = false;
    f.lanes[31].exited = true;
    f.stack = {
        {0xffffffffU, 6, -1, "after if"}, {0x55555555U, 5, 6, "else"}, {0xaaaaaaaaU, 3, 6, "then"}};
    f.issued = 4;
    f.activeLaneSlots = 112;
    f.efficiency = 112.0 / 128.0;
    f.diverged = true;
    return f;
}

} // namespace

class TestWarpLanesView : public QObject {
    Q_OBJECT
private slots:
    void activeAndIdleLanesLookDifferent() {
        for (const QSize size : {QSize(1920, 1080), QSize(900, 600)}) {
            WarpLanesView view;
            view.setFrame(diverged());
            view.resize(size);
            const QImage image = grabImage(view);
            saveForHumans(image, QStringLiteral("warp_lanes_%1").arg(size.width()));
            const QRectF bounds(view.rect());
            const Theme& theme = view.theme();
            for (int lane = 0; lane < 32; ++lane) {
                const QRectF r = view.laneRect(bounds, lane);
                QVERIFY(bounds.contains(r));
                // Sample the box away from its value text.
                const QRect corner(static_cast<int>(r.left() + r.width() * 0.15),
                                   static_cast<int>(r.top() + 2), static_cast<int>(r.width() * 0.2),
                                   static_cast<int>(r.height() * 0.2));
                const int accent = countNear(image, corner, theme.accent, 10);
                if (lane % 2 == 1 && lane != 31) {
                    QVERIFY2(accent > corner.width() * corner.height() / 2,
                             qPrintable(QStringLiteral("lane %1 not bright").arg(lane)));
                } else {
                    QCOMPARE(accent, 0);
                    QVERIFY(countNear(image, corner, lane == 31 ? theme.background : theme.surface,
                                      6) > corner.width() * corner.height() / 2);
                }
            }
            // Lanes do not overlap and are left to right within a row.
            QVERIFY(view.laneRect(bounds, 1).left() > view.laneRect(bounds, 0).right());
        }
    }

    void narrowViewsUseTwoRowsOf16() {
        WarpLanesView view;
        view.setFrame(diverged());
        QVERIFY(!view.twoRows(QRectF(0, 0, 1920, 1080)));
        QVERIFY(view.twoRows(QRectF(0, 0, 640, 480)));
        const QRectF bounds(0, 0, 640, 480);
        QVERIFY(view.laneRect(bounds, 16).top() > view.laneRect(bounds, 15).bottom());
        QCOMPARE(view.laneRect(bounds, 16).left(), view.laneRect(bounds, 0).left());
        view.resize(640, 480);
        view.setTheme(Theme::presentation(true));
        saveForHumans(grabImage(view), QStringLiteral("warp_lanes_narrow_presentation"));
    }

    void issuedInstructionIsHighlighted() {
        WarpLanesView view;
        view.setFrame(diverged());
        view.resize(1280, 720);
        const QImage image = grabImage(view);
        const QRectF bounds(view.rect());
        const QRect pcRow = view.programLineRect(bounds, 3).toRect();
        const QRect other = view.programLineRect(bounds, 1).toRect();
        QVERIFY(!pcRow.isEmpty());
        // The accent bar at the row's left edge, and a tinted band, on the pc row only.
        const QRect bar(pcRow.left(), pcRow.top() + 2, 3, pcRow.height() - 4);
        QVERIFY(countNear(image, bar, view.theme().accent, 10) > bar.height());
        QCOMPARE(countNear(image, other, view.theme().accent, 10), 0);
        const QRect band(pcRow.right() - 40, pcRow.top() + 2, 30, pcRow.height() - 4);
        QVERIFY(countNear(image, band, view.theme().background, 2) <
                band.width() * band.height() / 4);
        QVERIFY(countNear(image, other.adjusted(other.width() - 40, 2, -10, -2),
                          view.theme().background, 2) > 0);
        // The scenario's panels write the efficiency with the same words and digits.
        QVERIFY(WarpLanesView::counterText(diverged())
                    .startsWith(QStringLiteral("SIMT efficiency so far 87.5 %")));
    }

    void eachProgramLineShowsTheLanesItsIssueRanFor() {
        WarpFrame f = diverged();
        f.issuedMasks = {{0, 0xffffffffU}, {1, 0xffffffffU}, {2, 0xffffffffU}, {3, 0xaaaaaaaaU}};
        WarpLanesView view;
        view.setFrame(f);
        view.resize(1280, 720);
        const QImage image = grabImage(view);
        saveForHumans(image, QStringLiteral("warp_lanes_mask_record"));
        const QRectF bounds(view.rect());
        // Issued lines carry a strip; lines not issued yet carry none.
        QVERIFY(!view.maskStripRect(bounds, 3).isEmpty());
        QVERIFY(view.maskStripRect(bounds, 4).isEmpty());
        const QRectF strip = view.maskStripRect(bounds, 3);
        QVERIFY(view.programLineRect(bounds, 3).contains(strip));
        // Line 3 ran the odd lanes: bright cells at odd lanes, none at even ones. Each cell
        // is sampled at its middle (32 cells and two cells of group gaps).
        const double pitch = strip.width() / 34.0;
        for (int lane : {0, 1, 8, 9, 30, 31}) {
            const double x = strip.left() + pitch * (lane + (lane / 8) * (2.0 / 3.0) + 0.39);
            const QRect cell(static_cast<int>(x) - 1, static_cast<int>(strip.center().y()) - 1, 2,
                             2);
            const int accent = countNear(image, cell, view.theme().accent, 16);
            if (lane % 2 == 1)
                QVERIFY2(accent > 0, qPrintable(QStringLiteral("lane %1 not bright").arg(lane)));
            else
                QVERIFY2(accent == 0, qPrintable(QStringLiteral("lane %1 bright").arg(lane)));
        }
    }

    void longProgramsKeepThePcInView() {
        WarpFrame f = diverged();
        for (int i = 0; i < 60; ++i) {
            f.program.push_back("nop " + std::to_string(i));
        }
        f.pc = 55;
        WarpLanesView view;
        view.setFrame(f);
        const QRectF bounds(0, 0, 900, 600);
        QVERIFY(!view.programLineRect(bounds, 55).isEmpty());
        QVERIFY(view.programLineRect(bounds, 0).isEmpty());
        QVERIFY(bounds.contains(view.programLineRect(bounds, 55)));
    }

    void laneTooltipsShowTheModelsNote() {
        WarpLanesView view;
        view.setFrame(diverged());
        view.resize(1280, 720);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QPoint pos = view.laneRect(QRectF(view.rect()), 5).center().toPoint();
        QCOMPARE(view.laneAt(QPointF(pos)), 5);
        QHelpEvent help(QEvent::ToolTip, pos, view.mapToGlobal(pos));
        QApplication::sendEvent(&view, &help);
        QTRY_COMPARE(QToolTip::text(), QStringLiteral("lane 5: takes then"));
    }

    void equalFramesDoNotRepaint() {
        WarpLanesView view;
        WarpFrame changed = diverged();
        changed.pc = 4;
        QVERIFY(equalFrameSkipsRepaint(view, diverged(), changed));
    }
};

QTEST_MAIN(TestWarpLanesView)
#include "test_warp_lanes_view.moc"
