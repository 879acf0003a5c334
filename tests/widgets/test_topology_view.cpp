// TopologyView draws the cluster: spine, leaves, nodes of GPUs on an NVSwitch with one NIC
// each, links coloured by utilisation, GPUs by group, and packets moving along each flow's
// route. Rendered into QImages with pixel and geometry checks.
#include "render_probe.h"
#include "stage/frame_stage.h"
#include "topology/topology_view.h"

#include <QApplication>
#include <QTest>
#include <cmath>

using namespace wb;
using namespace wb::test;

namespace {

// `nodes` nodes of `gpus` GPUs, `perLeaf` nodes under each leaf, one spine, no flows.
TopologyFrame cluster(int nodes, int gpus = 8, int perLeaf = 4) {
    TopologyFrame f;
    f.title = "Cluster · " + std::to_string(nodes) + " nodes × " + std::to_string(gpus) + " GPUs";
    const int leaves = (nodes + perLeaf - 1) / perLeaf;
    for (int l = 0; l < leaves; ++l)
        f.leaves.push_back(
            {"leaf " + std::to_string(l), 0.0, "leaf " + std::to_string(l) + " tip"});
    for (int n = 0; n < nodes; ++n) {
        TopologyNode node;
        node.label = "node " + std::to_string(n);
        node.leaf = n / perLeaf;
        node.tip = "node " + std::to_string(n) + " tip";
        for (int g = 0; g < gpus; ++g)
            node.gpus.push_back({std::to_string(g), -1, 0.0, 0.0,
                                 "gpu " + std::to_string(n) + "." + std::to_string(g)});
        f.nodes.push_back(node);
    }
    f.spines = 1;
    f.flowClasses = {"TP", "PP", "DP"};
    f.caption = "test caption";
    return f;
}

TopologyGpu& gpuOf(TopologyFrame& f, int node, int gpu) {
    return f.nodes[static_cast<std::size_t>(node)].gpus[static_cast<std::size_t>(gpu)];
}

// A busy 16-node frame: TP inside nodes, PP across leaves, DP within a leaf; 512 flows.
TopologyFrame busy(int flows = 512) {
    TopologyFrame f = cluster(16, 8, 4);
    f.spines = 2;
    f.hiddenNodes = 112;
    for (int n = 0; n < 16; ++n)
        for (int g = 0; g < 8; ++g) {
            TopologyGpu& gpu = gpuOf(f, n, g);
            gpu.highlight = g < 4 ? 0 : 2;
            gpu.nvlinkUtil = 0.1 + 0.05 * g;
            gpu.nicUtil = (n * 8 + g) % 11 / 10.0;
        }
    for (std::size_t l = 0; l < f.leaves.size(); ++l)
        f.leaves[l].uplinkUtil = 0.3 * static_cast<double>(l);
    for (int i = 0; i < flows; ++i) {
        const int from = i % 16, g = (i / 16) % 8;
        const int kind = i % 3;
        const int to =
            kind == 0 ? from : (kind == 1 ? (from + 4) % 16 : (from / 4) * 4 + (from + 1) % 4);
        f.flows.push_back({from, g, to, kind == 0 ? (g + 1) % 8 : g, kind, 1.0 + (i % 7),
                           "flow " + std::to_string(i)});
    }
    f.phaseS = 0.37;
    return f;
}

bool contains(const QRectF& outer, const QRectF& inner) {
    return outer.adjusted(-0.5, -0.5, 0.5, 0.5).contains(inner);
}

} // namespace

class TestTopologyView : public QObject {
    Q_OBJECT
private slots:
    void highlightedGpusShowTheirGroupColour() {
        for (const Theme& theme : {Theme::light(), Theme::dark()}) {
            TopologyView view;
            view.setTheme(theme);
            TopologyFrame f = cluster(2);
            gpuOf(f, 0, 3).highlight = 0;
            gpuOf(f, 1, 5).highlight = 2;
            view.setFrame(f);
            const QSize size(1000, 600);
            const QImage image = paintToImage(view, size);
            const TopologyLayout layout = view.layoutFor(QRectF(QPointF(0, 0), QSizeF(size)));
            const QColor tp = TopologyView::classColor(theme, 0);
            const QColor dp = TopologyView::classColor(theme, 2);
            QVERIFY(!near(tp, dp, 40));
            // Most of the GPU box is its group's colour (the label takes a little of it).
            const auto inside = [&](int n, int g) {
                return layout.gpuRect(n, g).adjusted(2, 2, -2, -2).toRect();
            };
            const auto area = [&](int n, int g) {
                return inside(n, g).width() * inside(n, g).height();
            };
            QVERIFY(area(0, 3) > 20);
            QVERIFY(countNear(image, around(layout.gpuRect(0, 3).center(), 2), tp, 20) > 5);
            QVERIFY(countNear(image, inside(0, 3), tp, 20) > area(0, 3) / 2);
            QCOMPARE(countNear(image, inside(0, 3), dp, 20), 0);
            QVERIFY(countNear(image, inside(1, 5), dp, 20) > area(1, 5) / 2);
            // The legend shows every class in the colour its GPUs and packets use.
            for (int c = 0; c < 3; ++c)
                QVERIFY(countNear(image, layout.legendRect().toRect(),
                                  TopologyView::classColor(theme, c), 20) > 10);
            // A GPU in no group is neutral.
            QCOMPARE(countNear(image, inside(0, 0), tp, 20), 0);
            QCOMPARE(countNear(image, inside(0, 0), dp, 20), 0);
        }
    }

    void linksAreColouredByUtilisation() {
        const Theme theme = Theme::light();
        TopologyView view;
        TopologyFrame f = cluster(8, 8, 4);
        gpuOf(f, 0, 2).nicUtil = 1.0;
        gpuOf(f, 0, 3).nicUtil = 0.0;
        gpuOf(f, 1, 4).nvlinkUtil = 1.0;
        f.leaves[0].uplinkUtil = 1.0;
        f.leaves[1].uplinkUtil = 0.0;
        view.setFrame(f);
        const QSize size(1000, 600);
        const QImage image = paintToImage(view, size);
        saveForHumans(image, QStringLiteral("topology_util"));
        const TopologyLayout layout = view.layoutFor(QRectF(QPointF(0, 0), QSizeF(size)));
        using K = TopologyLayout::LinkKind;
        const auto midColour = [&](K kind, int a, int b) {
            const QLineF line = layout.linkLine({kind, a, b});
            return image.pixelColor(line.center().toPoint());
        };
        const auto redish = [](QColor c) {
            return c.red() > 170 && c.green() < 90 && c.blue() < 90;
        };
        QVERIFY(near(TopologyView::utilColor(theme, 0.0), theme.grid, 1));
        QVERIFY(redish(TopologyView::utilColor(theme, 1.0)));
        QVERIFY(redish(midColour(K::NicLeaf, 0, 2)));
        QVERIFY(near(midColour(K::NicLeaf, 0, 3), theme.grid, 30));
        QVERIFY(redish(midColour(K::Uplink, 0, 0)));
        QVERIFY(near(midColour(K::Uplink, 1, 0), theme.grid, 30));
        QVERIFY(redish(midColour(K::NvLink, 1, 4)));
        QVERIFY(near(midColour(K::NvLink, 1, 3), theme.grid, 30));
        // The scale in the legend runs from idle grey (left) to red (right).
        const QRectF scale = layout.scaleRect();
        QVERIFY(countNear(image, scale.toRect(), TopologyView::utilColor(theme, 1.0), 10) > 10);
        QVERIFY(countNear(image, scale.toRect(), TopologyView::utilColor(theme, 0.5), 10) > 10);
        // On the dark theme an idle link still stands out from the background (it was the
        // outline grey, nearly invisible at one pixel).
        const Theme dark = Theme::dark();
        const QColor idle = TopologyView::utilColor(dark, 0.0);
        QVERIFY(std::abs(qGray(idle.rgb()) - qGray(dark.background.rgb())) >= 60);
        QVERIFY(qGray(idle.rgb()) < qGray(TopologyView::utilColor(dark, 0.5).rgb()) + 40);
    }

    void packetsMoveAndRepeatWithTheirPeriod() {
        TopologyView view;
        TopologyFrame f = cluster(4, 8, 2);
        f.flows.push_back({0, 1, 3, 6, 1, 2.0, "pp flow"}); // across leaves; period 0.5 s
        const QSize size(1000, 600);
        const auto at = [&](double phase) {
            f.phaseS = phase;
            view.setFrame(f);
            return paintToImage(view, size);
        };
        const QImage a = at(0.1), b = at(0.3), c = at(0.6);
        QVERIFY(a != b);
        QVERIFY(a == c);
        QVERIFY(at(0.0) == at(0.5));
        // The differences lie on the route (the packets), nothing else changed.
        const TopologyLayout layout = view.layoutFor(QRectF(QPointF(0, 0), QSizeF(size)));
        const QRectF route = layout.routePath(0).boundingRect().adjusted(-10, -10, 10, 10);
        for (int y = 0; y < size.height(); y += 2)
            for (int x = 0; x < size.width(); x += 2)
                if (a.pixel(x, y) != b.pixel(x, y))
                    QVERIFY2(route.contains(QPointF(x, y)),
                             qPrintable(QStringLiteral("%1,%2").arg(x).arg(y)));
        // Packets are in the flow's colour and a higher rate shows more of them.
        f.phaseS = 0.1;
        QCOMPARE(TopologyView::packets(f, layout).size(), std::size_t(2));
        const QImage slow = paintToImage(view, size);
        const QColor pp = TopologyView::classColor(view.theme(), 1);
        QVERIFY(countNear(slow, route.toRect(), pp, 10) > 5);
        f.flows[0].packetsPerS = 6.0;
        QCOMPARE(TopologyView::packets(f, layout).size(), std::size_t(6));
        f.flows[0].packetsPerS = 0.0;
        QVERIFY(TopologyView::packets(f, layout).empty());
        // A packet sits on the route: its position moves with the phase by rate × dt of a period.
        f.flows[0].packetsPerS = 2.0;
        f.phaseS = 0.0;
        const auto p0 = TopologyView::packets(f, layout);
        f.phaseS = 0.05;
        const auto p1 = TopologyView::packets(f, layout);
        QCOMPARE(p0.size(), p1.size());
        const double moved =
            std::hypot(p1[0].pos.x() - p0[0].pos.x(), p1[0].pos.y() - p0[0].pos.y());
        QVERIFY(moved > 1.0 && moved <= layout.routeLength(0) * 0.05 + 1e-6);
    }

    void routesFollowTheFabric() {
        TopologyView view;
        TopologyFrame f = cluster(4, 8, 2); // leaves: {0, 1}, {2, 3}
        f.flows = {{0, 1, 0, 5, 0, 1, "nvlink"},
                   {0, 1, 1, 1, 2, 1, "same leaf"},
                   {0, 1, 3, 1, 1, 1, "via spine"},
                   {0, 1, 0, 1, 0, 1, "to itself"},
                   {0, 1, 9, 1, 0, 1, "no such node"}};
        view.setFrame(f);
        const TopologyLayout layout = view.layoutFor(QRectF(0, 0, 1000, 600));
        QCOMPARE(layout.spineCount(), 1);
        QCOMPARE(layout.leafCount(), 2);
        const QRectF nvlink = layout.routePath(0).boundingRect();
        QVERIFY(contains(layout.nodeRect(0), nvlink));
        QVERIFY(nvlink.bottom() > layout.gpuRect(0, 1).bottom()); // through the NVSwitch
        const QRectF sameLeaf = layout.routePath(1).boundingRect();
        QVERIFY(sameLeaf.top() <= layout.leafRect(0).bottom());
        QVERIFY(sameLeaf.top() > layout.spineRect(0).bottom());
        const QRectF viaSpine = layout.routePath(2).boundingRect();
        QVERIFY(viaSpine.top() <= layout.spineRect(0).center().y() + 0.5);
        QVERIFY(viaSpine.top() >= layout.spineRect(0).top());
        // Ends at the GPUs.
        QVERIFY(layout.gpuRect(0, 1).adjusted(-1, -1, 1, 1).contains(layout.routePoint(2, 0.0)));
        QVERIFY(layout.gpuRect(3, 1).adjusted(-1, -1, 1, 1).contains(layout.routePoint(2, 1.0)));
        QVERIFY(!layout.hasRoute(3));
        QVERIFY(!layout.hasRoute(4));
        QVERIFY(layout.routeLength(2) > layout.routeLength(1));
        QVERIFY(layout.routeLength(1) > layout.routeLength(0));
        // Without a spine, leaves cannot reach each other.
        f.spines = 0;
        view.setFrame(f);
        const TopologyLayout flat = view.layoutFor(QRectF(0, 0, 1000, 600));
        QVERIFY(flat.hasRoute(1));
        QVERIFY(!flat.hasRoute(2));
    }

    void hiddenNodesAreCounted() {
        TopologyView view;
        TopologyFrame f = cluster(16, 8, 4);
        view.setFrame(f);
        const QSize size(1000, 600);
        QVERIFY(view.layoutFor(QRectF(0, 0, 1000, 600)).hiddenRect().isEmpty());
        f.hiddenNodes = 120;
        view.setFrame(f);
        const QImage image = paintToImage(view, size);
        const TopologyLayout layout = view.layoutFor(QRectF(0, 0, 1000, 600));
        const QRectF hidden = layout.hiddenRect();
        QVERIFY(!hidden.isEmpty());
        QVERIFY(countNotNear(image, hidden.toRect(), view.theme().background) > 20);
        for (int n = 0; n < layout.nodeCount(); ++n)
            QVERIFY(!layout.nodeRect(n).intersects(hidden));
        view.resize(size);
        QVERIFY(view.tipAt(hidden.center()).contains(QStringLiteral("120")));
    }

    void layoutFitsFromOneNodeToTwentyFour() {
        for (const Theme& theme : {Theme::light(), Theme::presentation(false)}) {
            for (const QSize size : {QSize(1000, 600), QSize(1600, 900), QSize(640, 400)}) {
                for (int nodes : {1, 2, 16, 24}) {
                    TopologyView view;
                    view.setTheme(theme);
                    TopologyFrame f = cluster(nodes, 8, 4);
                    f.hiddenNodes = nodes > 16 ? 100 : 0;
                    view.setFrame(f);
                    const QRectF bounds(QPointF(0, 0), QSizeF(size));
                    const TopologyLayout layout = view.layoutFor(bounds);
                    const QString what = QStringLiteral("%1 nodes at %2x%3 scale %4")
                                             .arg(nodes)
                                             .arg(size.width())
                                             .arg(size.height())
                                             .arg(theme.fontScale);
                    QCOMPARE(layout.nodeCount(), nodes);
                    for (const QRectF& r : layout.allRects())
                        QVERIFY2(contains(bounds, r), qPrintable(what));
                    for (int n = 0; n < nodes; ++n) {
                        QVERIFY2(contains(layout.graphRect(), layout.nodeRect(n)),
                                 qPrintable(what));
                        if (n > 0)
                            QVERIFY2(layout.nodeRect(n - 1).right() < layout.nodeRect(n).left(),
                                     qPrintable(what));
                        for (int g = 0; g < 8; ++g) {
                            const QRectF gpu = layout.gpuRect(n, g);
                            QVERIFY2(gpu.width() > 0 && gpu.height() > 0, qPrintable(what));
                            QVERIFY2(contains(layout.nodeRect(n), gpu), qPrintable(what));
                            QVERIFY2(contains(layout.nodeRect(n), layout.nicRect(n, g)),
                                     qPrintable(what));
                            if (g > 0)
                                QVERIFY2(layout.gpuRect(n, g - 1).right() < gpu.left(),
                                         qPrintable(what));
                            QCOMPARE(layout.gpuAt(gpu.center()), (TopologyLayout::GpuRef{n, g}));
                        }
                        // Every node sits under its leaf's span.
                        const QRectF leaf = layout.leafRect(n / 4);
                        QVERIFY2(leaf.bottom() < layout.nodeRect(n).top(), qPrintable(what));
                    }
                    QVERIFY2(layout.spineRect(0).bottom() < layout.leafRect(0).top(),
                             qPrintable(what));
                    const QImage image = paintToImage(view, size);
                    if (size == QSize(1000, 600))
                        saveForHumans(image, QStringLiteral("topology_%1_nodes_scale_%2")
                                                 .arg(nodes)
                                                 .arg(theme.fontScale));
                }
            }
        }
    }

    void tipsComeFromTheFrame() {
        TopologyView view;
        TopologyFrame f = cluster(4, 8, 2);
        gpuOf(f, 1, 2).nicUtil = 0.5;
        f.flows.push_back({0, 0, 0, 7, 0, 1.0, "tp flow"});
        f.phaseS = 0.5;
        view.setFrame(f);
        view.resize(1000, 600);
        const TopologyLayout layout = view.layoutFor(QRectF(view.rect()));
        QCOMPARE(view.tipAt(layout.gpuRect(2, 3).center()), QStringLiteral("gpu 2.3"));
        QCOMPARE(view.tipAt(layout.leafRect(1).center()), QStringLiteral("leaf 1 tip"));
        QCOMPARE(view.tipAt(layout.nodeLabelRect(3).center()), QStringLiteral("node 3 tip"));
        QVERIFY(view.tipAt(layout.spineRect(0).center()).startsWith(QStringLiteral("spine")));
        const QLineF nic = layout.linkLine({TopologyLayout::LinkKind::NicLeaf, 1, 2});
        QCOMPARE(view.tipAt(nic.center()),
                 QStringLiteral("node 1 · GPU 2 NIC: busy 50 % of the step"));
        const auto moving = TopologyView::packets(f, layout);
        QCOMPARE(moving.size(), std::size_t(1));
        QCOMPARE(view.tipAt(moving.front().pos), QStringLiteral("tp flow"));
        QCOMPARE(view.tipAt(QPointF(2, 2)), QString());
    }

    void packetCountIsCapped() {
        TopologyFrame f = busy();
        for (auto& flow : f.flows)
            flow.packetsPerS = 1e6;
        TopologyView view;
        view.setFrame(f);
        const TopologyLayout layout = view.layoutFor(QRectF(0, 0, 1920, 1080));
        const auto moving = TopologyView::packets(f, layout);
        QVERIFY(moving.size() <= std::size_t(TopologyView::kMaxPackets));
        QVERIFY(moving.size() > 1000);
        // Every packet lies on its own route's bounding box.
        for (const auto& p : moving)
            QVERIFY(layout.routePath(p.flow).boundingRect().adjusted(-1, -1, 1, 1).contains(p.pos));
    }

    void busyClusterRendersAndSavesASample() {
        for (const Theme& theme : {Theme::light(), Theme::dark(), Theme::presentation(true)}) {
            TopologyView view;
            view.setTheme(theme);
            view.setFrame(busy());
            const QImage image = paintToImage(view, QSize(1600, 900));
            QVERIFY(countNotNear(image, image.rect(), theme.background) > 10000);
            const QString name = theme.fontScale > 1 ? QStringLiteral("presentation")
                                                     : (theme.isDark ? QStringLiteral("dark")
                                                                     : QStringLiteral("light"));
            saveForHumans(image, QStringLiteral("topology_busy_") + name);
            const QString png = qEnvironmentVariable("WB_TOPOLOGY_PNG");
            if (!png.isEmpty() && name == QStringLiteral("light"))
                QVERIFY(image.save(png));
        }
    }

    void emptyAndBrokenFramesPaint() {
        TopologyView view;
        const QImage empty = paintToImage(view, QSize(400, 300));
        QVERIFY(countNotNear(empty, empty.rect(), view.theme().background) > 0); // the message
        TopologyFrame f = cluster(3, 8, 2);
        f.nodes[2].leaf = 7;     // no such leaf
        f.nodes[1].gpus.clear(); // a node without GPUs
        f.spines = 0;
        f.flows = {{0, 0, 2, 0, 0, 1, "to a node without a leaf"},
                   {0, 0, 1, 0, 0, 1, "to a GPU that is not there"},
                   {0, -1, 0, 2, -3, std::nan(""), "odd values"}};
        f.phaseS = -3.7;
        view.setFrame(f);
        const TopologyLayout layout = view.layoutFor(QRectF(0, 0, 400, 300));
        for (int i = 0; i < 3; ++i)
            QVERIFY(!layout.hasRoute(i));
        paintToImage(view, QSize(400, 300));
        paintToImage(view, QSize(50, 40));
    }

    void theStageShowsItForATopologyFrame() {
        FrameStage stage;
        stage.resize(800, 600);
        const TopologyFrame f = cluster(2);
        stage.setFrames(Frames{{f, FactsFrame{"facts", {}}}});
        auto* view = qobject_cast<TopologyView*>(stage.view(0));
        QVERIFY(view != nullptr);
        QVERIFY(view->frame() == f);
        stage.setTheme(Theme::dark());
        QVERIFY(view->theme().isDark);
    }
};

QTEST_MAIN(TestTopologyView)
#include "test_topology_view.moc"
