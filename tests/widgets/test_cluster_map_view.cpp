// ClusterMapView: every component is drawn in its state's colour where componentRect says,
// the hit test finds each component at its own rectangle, a press emits componentClicked
// with the component's kind and index, and 16,384 GPUs all get a cell of their own.
#include "render_probe.h"
#include "topology/cluster_map_view.h"

#include <QSignalSpy>
#include <QtTest>
#include <set>

using namespace wb;
using namespace wb::test;

namespace {

const QSize kSize(1000, 560);

QImage render(const ClusterMapView& view, QSize size = kSize) {
    return paintToImage(view, size);
}

// 128 GPUs: 16 nodes of 8, 8 racks of 2 nodes, 2 pods of 4 racks with 2 spines each, a PDU
// per 2 racks, a cooling zone per 4.
ClusterMapFrame small() {
    ClusterMapFrame f;
    f.title = "small cluster";
    f.racksPerPod = 4;
    f.spinesPerPod = 2;
    f.racksPerPdu = 2;
    f.racksPerCoolingZone = 4;
    f.tp = 8;
    f.pp = 4;
    f.dp = 4;
    f.ppStride = 8;
    f.dpStride = 32;
    f.gpus.assign(128, MapGpuState::Healthy);
    const int counts[kMapKinds] = {0, 16, 8, 8, 4, 4, 2, 1, 1};
    for (int k = 1; k < kMapKinds; ++k)
        f.components[static_cast<std::size_t>(k)].assign(static_cast<std::size_t>(counts[k]),
                                                         MapComponentState::Up);
    f.caption = "caption";
    return f;
}

const int kCounts[kMapKinds] = {128, 16, 8, 8, 4, 4, 2, 1, 1};

} // namespace

class TestClusterMapView : public QObject {
    Q_OBJECT
private slots:
    void everyComponentIsFoundWhereItIsDrawn() {
        ClusterMapView view;
        view.setFrame(small());
        const QRectF bounds(QPointF(0, 0), QSizeF(kSize));
        for (int k = 0; k < kMapKinds; ++k) {
            for (int i = 0; i < kCounts[k]; ++i) {
                const QRectF r = view.componentRect(bounds, k, i);
                QVERIFY2(!r.isEmpty(), qPrintable(QStringLiteral("%1 %2").arg(k).arg(i)));
                const ClusterMapView::Hit h = view.hitAt(bounds, r.center());
                QVERIFY2(h == (ClusterMapView::Hit{k, i}),
                         qPrintable(QStringLiteral("%1 %2 found as %3 %4")
                                        .arg(k)
                                        .arg(i)
                                        .arg(h.kind)
                                        .arg(h.index)));
            }
        }
        QCOMPARE(view.hitAt(bounds, QPointF(2, kSize.height() - 2)).kind, -1);
    }

    void statesTakeTheirColours() {
        ClusterMapFrame f = small();
        f.gpus[5] = MapGpuState::Lost;
        f.gpus[70] = MapGpuState::TpBroken;
        f.gpus[71] = MapGpuState::DpBroken;
        f.components[static_cast<std::size_t>(MapKind::Tor)][3] = MapComponentState::Failed;
        f.components[static_cast<std::size_t>(MapKind::Node)][6] = MapComponentState::Down;
        f.components[static_cast<std::size_t>(MapKind::Spine)][1] = MapComponentState::Down;
        ClusterMapView view;
        view.setFrame(f);
        const QImage image = render(view);
        saveForHumans(image, "cluster_map_small");
        const QRectF bounds(QPointF(0, 0), QSizeF(kSize));
        auto at = [&](int kind, int index) {
            return image.pixelColor(view.componentRect(bounds, kind, index).center().toPoint());
        };
        const int gpu = static_cast<int>(MapKind::Gpu);
        QVERIFY(near(at(gpu, 5), view.gpuColor(MapGpuState::Lost), 2));
        QVERIFY(near(at(gpu, 6), view.gpuColor(MapGpuState::Healthy), 2));
        QVERIFY(near(at(gpu, 70), view.gpuColor(MapGpuState::TpBroken), 2));
        QVERIFY(near(at(gpu, 71), view.gpuColor(MapGpuState::DpBroken), 2));
        QVERIFY(!near(view.gpuColor(MapGpuState::Lost), view.gpuColor(MapGpuState::Healthy), 40));
        QVERIFY(near(at(static_cast<int>(MapKind::Tor), 3),
                     view.componentColor(MapComponentState::Failed), 2));
        QVERIFY(near(at(static_cast<int>(MapKind::Tor), 2),
                     view.componentColor(MapComponentState::Up), 2));
        QVERIFY(near(at(static_cast<int>(MapKind::Node), 6),
                     view.componentColor(MapComponentState::Down), 2));
        QVERIFY(near(at(static_cast<int>(MapKind::Spine), 1),
                     view.componentColor(MapComponentState::Down), 2));
        QVERIFY(near(at(static_cast<int>(MapKind::Spine), 0),
                     view.componentColor(MapComponentState::Up), 2));
        QVERIFY(near(at(static_cast<int>(MapKind::Storage), 0),
                     view.componentColor(MapComponentState::Up), 2));
        QVERIFY(view.tipAt(bounds, view.componentRect(bounds, gpu, 5).center())
                    .contains(QStringLiteral("lost")));
    }

    void aPressEmitsTheComponent() {
        ClusterMapView view;
        view.resize(kSize);
        view.setFrame(small());
        QSignalSpy spy(&view, &ClusterMapView::componentClicked);
        const QRectF bounds(view.rect());
        const QPoint p =
            view.componentRect(bounds, static_cast<int>(MapKind::Pdu), 2).center().toPoint();
        QTest::mousePress(&view, Qt::LeftButton, Qt::NoModifier, p);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), static_cast<int>(MapKind::Pdu));
        QCOMPARE(spy.at(0).at(1).toInt(), 2);
    }

    void allOf16384GpusGetTheirOwnCell() {
        ClusterMapFrame f = small();
        f.racksPerPod = 128;
        f.spinesPerPod = 8;
        f.racksPerPdu = 8;
        f.racksPerCoolingZone = 64;
        f.gpus.assign(16384, MapGpuState::Healthy);
        const int counts[kMapKinds] = {0, 2048, 1024, 1024, 64, 128, 16, 1, 1};
        for (int k = 1; k < kMapKinds; ++k)
            f.components[static_cast<std::size_t>(k)].assign(static_cast<std::size_t>(counts[k]),
                                                             MapComponentState::Up);
        f.gpus[16383] = MapGpuState::Lost;
        ClusterMapView view;
        view.setFrame(f);
        const QSize big(1920, 1080);
        const QRectF bounds(QPointF(0, 0), QSizeF(big));
        std::set<std::pair<int, int>> cells;
        for (int g = 0; g < 16384; ++g) {
            const QRectF r = view.componentRect(bounds, 0, g);
            QVERIFY(!r.isEmpty());
            QVERIFY(bounds.contains(r));
            cells.insert({static_cast<int>(r.x()), static_cast<int>(r.y())});
        }
        QCOMPARE(cells.size(), std::size_t(16384));
        const QImage image = render(view, big);
        saveForHumans(image, "cluster_map_16384");
        QVERIFY(near(image.pixelColor(view.componentRect(bounds, 0, 16383).center().toPoint()),
                     view.gpuColor(MapGpuState::Lost), 2));
        QVERIFY(near(image.pixelColor(view.componentRect(bounds, 0, 0).center().toPoint()),
                     view.gpuColor(MapGpuState::Healthy), 2));
    }

    // On a 16,384-cell map a failed node is a few pixels: its reach is outlined in its own hue
    // around the lost GPUs, which stay their red (a ring in the text colour hid them).
    void theFailuresReachIsOutlinedAndItsGpusStayVisible() {
        ClusterMapFrame f = small();
        f.racksPerPod = 192;
        f.spinesPerPod = 8;
        f.racksPerPdu = 8;
        f.racksPerCoolingZone = 64;
        f.gpus.assign(16384, MapGpuState::Stopped);
        const int counts[kMapKinds] = {0, 2048, 1024, 1024, 48, 128, 16, 1, 1};
        for (int k = 1; k < kMapKinds; ++k)
            f.components[static_cast<std::size_t>(k)].assign(static_cast<std::size_t>(counts[k]),
                                                             MapComponentState::Up);
        for (int g = 296; g < 304; ++g)
            f.gpus[static_cast<std::size_t>(g)] = MapGpuState::Lost;
        f.components[static_cast<std::size_t>(MapKind::Node)][37] = MapComponentState::Failed;
        f.failedKind = static_cast<int>(MapKind::Node);
        f.failedIndex = 37;
        ClusterMapView view;
        view.setFrame(f);
        const QSize size(1280, 720);
        const QRectF bounds(QPointF(0, 0), QSizeF(size));
        const QImage image = render(view, size);
        saveForHumans(image, "cluster_map_reach");
        QRectF reach;
        for (int g = 296; g < 304; ++g) {
            const QRectF r = view.componentRect(bounds, 0, g);
            reach |= r;
            // The cell's first pixel: cells may be one pixel, whose centre rounds to the next.
            const QPoint cell(static_cast<int>(r.x()), static_cast<int>(r.y()));
            QVERIFY(near(image.pixelColor(cell), view.gpuColor(MapGpuState::Lost), 2));
        }
        const QRect around = reach.adjusted(-40, -40, 40, 40).toRect();
        QVERIFY(countNear(image, around, view.reachColor()) > 40);
        QVERIFY(!near(view.reachColor(), view.gpuColor(MapGpuState::Lost), 60));
        QVERIFY(!near(view.reachColor(), view.gpuColor(MapGpuState::Stopped), 60));
        QVERIFY(countNear(image, around, view.theme().foreground) < 10);
    }

    void emptyFramePaints() {
        ClusterMapView view;
        const QImage image = render(view);
        QVERIFY(countNear(image, image.rect(), view.theme().background) > 0);
    }
};

QTEST_MAIN(TestClusterMapView)
#include "test_cluster_map_view.moc"
