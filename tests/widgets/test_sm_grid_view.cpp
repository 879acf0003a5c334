// SmGridView draws one tile per SM, each resident block in its wave's colour on its own SM,
// the tail wave's idle SMs empty, and stays cheap to paint.
#include "grids/sm_grid_view.h"
#include "paint_counter.h"
#include "render_probe.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHelpEvent>
#include <QTest>
#include <QToolTip>

using namespace wb;
using namespace wb::test;

namespace {

// 132 SMs, 2 blocks per SM, 598 blocks: waves of 264, the third (tail) wave holds 70.
SmGridFrame tailWave() {
    SmGridFrame f;
    f.title = "598 blocks of 256 threads on 132 SMs";
    f.smCount = 132;
    f.maxBlocksPerSm = 2;
    f.warpsPerBlock = 8;
    f.maxWarpsPerSm = 64;
    f.wave = 3;
    f.waves = 3;
    f.blocksTotal = 598;
    f.blocksDone = 528;
    f.tailUtilization = 70.0 / 264.0;
    f.sms.resize(132);
    int block = 528;
    for (int sm = 0; sm < 132; ++sm) {
        SmState& s = f.sms[static_cast<std::size_t>(sm)];
        s.subPartitionWarps = {0, 0, 0, 0};
        s.tip = "SM " + std::to_string(sm);
        for (int slot = 0; slot < 2 && block < 598 && sm < 35; ++slot) {
            s.blocks.push_back(block++);
        }
        for (std::size_t p = 0; p < 4; ++p) {
            s.subPartitionWarps[p] = static_cast<int>(s.blocks.size()) * 2;
        }
    }
    return f;
}

SmGridFrame fullWave() {
    SmGridFrame f = tailWave();
    f.wave = 1;
    f.blocksDone = 0;
    int block = 0;
    for (SmState& s : f.sms) {
        s.blocks = {block, block + 1};
        block += 2;
        s.subPartitionWarps = {4, 4, 4, 4};
    }
    return f;
}

} // namespace

class TestSmGridView : public QObject {
    Q_OBJECT
private slots:
    void oneTilePerSmInsideTheView() {
        SmGridView view;
        view.setFrame(tailWave());
        const QRectF bounds(0, 0, 1920, 1080);
        const int columns = view.columns(bounds);
        QVERIFY(columns >= 10 && columns <= 16);
        QVERIFY(columns * ((132 + columns - 1) / columns) >= 132);
        for (int sm = 0; sm < 132; ++sm) {
            const QRectF tile = view.smRect(bounds, sm);
            QVERIFY(bounds.contains(tile));
            QVERIFY(tile.width() > 40.0 && tile.height() > 30.0);
            if (sm % columns != 0) {
                QVERIFY(tile.left() > view.smRect(bounds, sm - 1).right());
            }
        }
        // 70 of 264 slots: three significant digits, as the facts beside the grid print it.
        QCOMPARE(
            SmGridView::caption(tailWave()),
            QStringLiteral("wave 3/3 \u00b7 blocks 528/598 done \u00b7 tail wave 26.5 % full"));
    }

    void blocksInTheirWaveColourOnTheirSm() {
        SmGridView view;
        view.setFrame(tailWave());
        view.resize(1920, 1080);
        const QImage image = grabImage(view);
        saveForHumans(image, QStringLiteral("sm_grid_tail_1080p"));
        const QRectF bounds(view.rect());
        // SM 5 holds blocks 538 and 539 (third wave).
        QCOMPARE(view.waveOfBlock(538), 2);
        const QColor c538 = view.blockColor(538);
        QCOMPARE(c538, view.theme().seriesColor(2));
        // Below the block id printed at the chip's top.
        const auto lower = [&](int sm, int slot) {
            const QRectF chip = view.blockRect(bounds, sm, slot);
            return around(QPointF(chip.center().x(), chip.bottom() - 6.0), 3);
        };
        QVERIFY(countNear(image, lower(5, 0), c538, 6) >= 40);
        QVERIFY(countNear(image, lower(5, 1), view.blockColor(539), 6) >= 40);
        // Block 538 is nowhere else: SM 6 holds 540 and 541.
        QVERIFY(countNear(image, lower(6, 0), c538, 6) >= 40); // same wave, same colour…
        QCOMPARE(view.blockColor(540), c538);
        QVERIFY(view.blockColor(539) != c538); // …neighbours alternate
        // The tail: SMs 35… are idle, no block colour anywhere in their tiles.
        for (const int sm : {35, 80, 131}) {
            const QRect tile = view.smRect(bounds, sm).toRect();
            for (int wave = 0; wave < 3; ++wave) {
                QCOMPARE(countNear(image, tile, view.theme().seriesColor(wave), 20), 0);
            }
            QVERIFY(countNotNear(image, tile.adjusted(3, 3, -3, -3), view.theme().background, 30) <
                    tile.width() * tile.height() / 4);
        }
        // A busy SM's warp bars are filled to 4/16 of their height.
        const QRectF bar = view.subPartitionRect(bounds, 5, 0);
        const int filled =
            countNear(image,
                      QRect(static_cast<int>(bar.center().x()), static_cast<int>(bar.top()), 1,
                            static_cast<int>(bar.height())),
                      view.theme().muted, 8);
        QVERIFY2(std::abs(filled - bar.height() * 0.25) <= 2.5,
                 qPrintable(QString::number(filled)));
    }

    void fullWaveInAPanel() {
        SmGridView view;
        view.setFrame(fullWave());
        view.resize(900, 600);
        const QImage image = grabImage(view);
        saveForHumans(image, QStringLiteral("sm_grid_full_panel"));
        const QRectF bounds(view.rect());
        QVERIFY(bounds.contains(view.smRect(bounds, 131)));
        QVERIFY(countNear(image, around(view.blockRect(bounds, 131, 0).center(), 1),
                          view.blockColor(262), 6) >= 6);
        view.setTheme(Theme::presentation(true));
        saveForHumans(grabImage(view), QStringLiteral("sm_grid_full_presentation"));
    }

    void tooltipShowsTheSmsNumbers() {
        SmGridView view;
        view.setFrame(tailWave());
        view.resize(1280, 720);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QPoint pos = view.smRect(QRectF(view.rect()), 17).center().toPoint();
        QCOMPARE(view.smAt(QPointF(pos)), 17);
        QHelpEvent help(QEvent::ToolTip, pos, view.mapToGlobal(pos));
        QApplication::sendEvent(&view, &help);
        QTRY_COMPARE(QToolTip::text(), QStringLiteral("SM 17"));
    }

    void equalFramesDoNotRepaint() {
        SmGridView view;
        QVERIFY(equalFrameSkipsRepaint(view, tailWave(), fullWave()));
    }
};

QTEST_MAIN(TestSmGridView)
#include "test_sm_grid_view.moc"
