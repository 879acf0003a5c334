// NodeTopologyView draws the inside of servers: parts on a diagram grid, links by class, and
// routes with packets and numbered marks. Rendered into QImages with pixel and geometry checks.
#include "render_probe.h"
#include "stage/frame_stage.h"
#include "topology/node_topology_view.h"

#include <QApplication>
#include <QTest>
#include <cmath>

using namespace wb;
using namespace wb::test;

namespace {

NodePart part(NodePartKind kind, const char* label, double x, double y, double w, double h) {
    NodePart p;
    p.kind = kind;
    p.label = label;
    p.x = x;
    p.y = y;
    p.w = w;
    p.h = h;
    p.tip = std::string(label) + " tip";
    return p;
}

// GPU 0 and GPU 1 over a wide NVSwitch bar, a NIC above GPU 0 on a PCIe link; a route from
// GPU 0 through the switch to GPU 1 with one mark at GPU 1.
NodeTopologyFrame small() {
    NodeTopologyFrame f;
    f.title = "two GPUs";
    f.hosts.push_back({"server 0", 0, 0, 10, 8, "server tip"});
    f.parts.push_back(part(NodePartKind::Gpu, "GPU 0", 1, 3, 2, 1.5));         // 0
    f.parts.push_back(part(NodePartKind::Gpu, "GPU 1", 7, 3, 2, 1.5));         // 1
    f.parts.push_back(part(NodePartKind::NvSwitch, "NVSwitch", 0.5, 6, 9, 1)); // 2
    f.parts.push_back(part(NodePartKind::Nic, "NIC 0", 1.2, 0.5, 1.6, 1));     // 3
    f.links.push_back({0, 2, NodeLinkKind::NvLink, "nvlink 0"});
    f.links.push_back({1, 2, NodeLinkKind::NvLink, "nvlink 1"});
    f.links.push_back({0, 3, NodeLinkKind::Pcie, "pcie 0"});
    NodeRoute r;
    r.parts = {0, 2, 1};
    r.colorIndex = 0;
    r.packetsPerS = 0;
    r.marks.push_back({2, "1", "mark tip"});
    r.tip = "route tip";
    f.routes.push_back(r);
    f.routeClasses = {"ring"};
    f.caption = "caption";
    return f;
}

} // namespace

class TestNodeTopologyView : public QObject {
    Q_OBJECT
private slots:
    void partsAreScaledIntoTheDiagramInOrder() {
        NodeTopologyView view;
        view.setFrame(small());
        const NodeTopologyLayout l = view.layoutFor(QRectF(0, 0, 900, 600));
        QCOMPARE(l.partCount(), 4);
        // Same diagram order on screen: GPU 0 left of GPU 1, the NIC above, the switch below.
        QVERIFY(l.partRect(0).right() < l.partRect(1).left());
        QVERIFY(l.partRect(3).bottom() < l.partRect(0).top());
        QVERIFY(l.partRect(2).top() > l.partRect(0).bottom());
        // Widths keep their ratio (2 : 9) since x is scaled uniformly.
        QVERIFY(std::abs(l.partRect(2).width() / l.partRect(0).width() - 4.5) < 0.01);
        QVERIFY(l.diagramRect().contains(l.hostRect(0).adjusted(1, 1, -1, -1)));
        QVERIFY(l.titleRect().bottom() <= l.diagramRect().top());
        QVERIFY(l.legendRect().top() >= l.diagramRect().bottom());
    }

    void routesRunOrthogonallyThroughABus() {
        NodeTopologyView view;
        view.setFrame(small());
        const NodeTopologyLayout l = view.layoutFor(QRectF(0, 0, 900, 600));
        const QPolygonF& p = l.route(0);
        QVERIFY(p.size() >= 4);
        for (int i = 1; i < p.size(); ++i) {
            const QPointF d = p[i] - p[i - 1];
            QVERIFY2(std::abs(d.x()) < 0.01 || std::abs(d.y()) < 0.01, "a diagonal segment");
        }
        // Down from GPU 0, along the switch, up into GPU 1.
        QVERIFY(l.partRect(0).adjusted(-10, -10, 10, 10).contains(p.front()));
        QVERIFY(l.partRect(1).adjusted(-10, -10, 10, 10).contains(p.back()));
        QVERIFY(std::abs(p[1].y() - l.partRect(2).center().y()) < 10);
        // The link from GPU 0 to the wide switch is vertical, at GPU 0's x.
        const QLineF link = l.linkLine(0);
        QVERIFY(std::abs(link.x1() - link.x2()) < 0.01);
        QVERIFY(std::abs(link.x1() - l.partRect(0).center().x()) < 0.01);
        // Half way along the route is on the switch.
        QVERIFY(l.partRect(2).adjusted(-10, -10, 10, 10).contains(l.routePoint(0, 0.5)));
    }

    void drawsLinksRoutesAndMarksInTheirColours() {
        NodeTopologyView view;
        view.setFrame(small());
        const QSize size(900, 600);
        const QImage image = paintToImage(view, size);
        saveForHumans(image, "node_topology_small");
        const NodeTopologyLayout l = view.layoutFor(QRectF(QPointF(0, 0), QSizeF(size)));
        const Theme& t = view.theme();
        // Without the route, the NVLink links are green and the PCIe link is not.
        NodeTopologyFrame bare = small();
        bare.routes.clear();
        NodeTopologyView plain;
        plain.setFrame(bare);
        const QImage links = paintToImage(plain, size);
        const QColor green = NodeTopologyView::linkColor(t, NodeLinkKind::NvLink);
        QVERIFY(countNear(links, around(l.linkLine(1).pointAt(0.5), 3), green, 30) > 3);
        QCOMPARE(countNear(links, around(l.linkLine(2).pointAt(0.5), 3), green, 30), 0);
        // The route's colour lies along its path (sampled off the parts: names sit on plates
        // over the routes).
        const QColor route = NodeTopologyView::routeColor(t, 0);
        QVERIFY(countNear(image, around(l.routePoint(0, 0.3), 4), route, 60) > 3);
        // The mark is an accent disc at its point.
        QVERIFY(countNear(image, around(l.markPoint(0, 2), 5), t.accent, 40) > 10);
        // Nothing of the route's colour far from it (the NIC, top left).
        QCOMPARE(countNear(image, l.partRect(3).toRect().adjusted(2, 2, -2, -2), route, 30), 0);
    }

    // The still layer (everything but packets and marks) is painted once and reused while only
    // the animation time moves; a frame, theme or size change must show at once.
    void stillLayerFollowsFrameThemeAndSize() {
        const QSize size(900, 600);
        NodeTopologyFrame f = small();
        f.routes[0].packetsPerS = 3;
        f.phaseS = 0.1;
        NodeTopologyView view;
        view.setFrame(f);
        const NodeTopologyLayout l = view.layoutFor(QRectF(QPointF(0, 0), QSizeF(size)));
        const QColor route = NodeTopologyView::routeColor(view.theme(), 0);
        const QImage first = paintToImage(view, size);
        QVERIFY(countNear(first, around(l.routePoint(0, 0.3), 4), route, 60) > 3);
        // Time moves: the packets move, the route stays.
        f.phaseS = 0.27;
        view.setFrame(f);
        const QImage later = paintToImage(view, size);
        QVERIFY(first != later);
        QVERIFY(countNear(later, around(l.routePoint(0, 0.3), 4), route, 60) > 3);
        const std::vector<NodeTopologyView::Packet> moved = NodeTopologyView::packets(f, l);
        QVERIFY(!moved.empty());
        for (const NodeTopologyView::Packet& p : moved)
            QVERIFY(countNotNear(later, around(p.pos, 1), view.theme().background, 30) > 0);
        // The route goes: its pixels go with it, from the same view.
        NodeTopologyFrame bare = f;
        bare.routes.clear();
        view.setFrame(bare);
        const QImage gone = paintToImage(view, size);
        QCOMPARE(countNear(gone, around(l.routePoint(0, 0.3), 4), route, 30), 0);
        // A new theme repaints the background.
        view.setTheme(Theme::dark());
        const QImage dark = paintToImage(view, size);
        QCOMPARE(dark.pixelColor(3, 300), Theme::dark().background);
        // A new size lays out again: the GPU box moves with the diagram.
        const QSize wide(1200, 600);
        const NodeTopologyLayout lw = view.layoutFor(QRectF(QPointF(0, 0), QSizeF(wide)));
        const QImage big = paintToImage(view, wide);
        QVERIFY(countNotNear(big, lw.partRect(0).toRect().adjusted(1, 1, -1, -1),
                             Theme::dark().background, 20) > 0);
        QCOMPARE(big.size(), wide);
    }

    void packetsFollowTheirRate() {
        NodeTopologyView view;
        NodeTopologyFrame f = small();
        view.setFrame(f);
        const NodeTopologyLayout l = view.layoutFor(QRectF(0, 0, 900, 600));
        QVERIFY(NodeTopologyView::packets(f, l).empty());
        f.routes[0].packetsPerS = 3;
        QCOMPARE(NodeTopologyView::packets(f, l).size(), std::size_t(3));
        // A third of a second later the pattern is the same: the period is 1/3 s.
        f.phaseS = 0.1;
        const auto a = NodeTopologyView::packets(f, l);
        f.phaseS = 0.1 + 1.0 / 3.0;
        const auto b = NodeTopologyView::packets(f, l);
        QCOMPARE(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            QVERIFY(QLineF(a[i].pos, b[i].pos).length() < 0.5);
        // Packets lie on the route.
        for (const auto& p : a) {
            bool onRoute = false;
            const QPolygonF& poly = l.route(0);
            for (int i = 1; i < poly.size(); ++i)
                onRoute = onRoute ||
                          QLineF(poly[i - 1], p.pos).length() + QLineF(p.pos, poly[i]).length() <
                              QLineF(poly[i - 1], poly[i]).length() + 0.5;
            QVERIFY(onRoute);
        }
        // An absurd rate stays within the budget.
        f.routes[0].packetsPerS = 1e9;
        QVERIFY(NodeTopologyView::packets(f, l).size() <=
                static_cast<std::size_t>(NodeTopologyView::kMaxPackets));
    }

    void hoverNamesWhatIsUnderThePointer() {
        NodeTopologyView view;
        view.resize(900, 600);
        view.setFrame(small());
        const NodeTopologyLayout l = view.layoutFor(QRectF(view.rect()));
        QCOMPARE(view.tipAt(l.markPoint(0, 2)), QString("mark tip"));
        QCOMPARE(view.tipAt(l.routePoint(0, 0.5)), QString("route tip"));
        QCOMPARE(view.tipAt(l.partRect(3).center()), QString("NIC 0 tip"));
        const QLineF pcie = l.linkLine(2);
        QCOMPARE(view.tipAt(pcie.pointAt(0.5)), QString("pcie 0"));
        QCOMPARE(view.tipAt(QPointF(l.hostRect(0).right() - 3, l.hostRect(0).bottom() - 3)),
                 QString("server tip"));
    }

    void emptyAndBrokenFramesPaintWithoutCrashing() {
        NodeTopologyView view;
        const QImage blank = paintToImage(view, QSize(400, 300));
        QCOMPARE(blank.pixelColor(5, 150), view.theme().background);
        NodeTopologyFrame f = small();
        f.links.push_back({0, 99, NodeLinkKind::Pcie, "dangling"});
        f.routes.push_back({{0, -4, 77}, 3, true, NAN, {{9, "x", ""}}, ""});
        view.setFrame(f);
        paintToImage(view, QSize(400, 300));
        paintToImage(view, QSize(40, 30));
        const NodeTopologyLayout l = view.layoutFor(QRectF(0, 0, 400, 300));
        QVERIFY(l.route(1).isEmpty());
        QVERIFY(l.linkLine(3).isNull());
    }

    void theStageShowsItForANodeTopologyFrame() {
        FrameStage stage;
        stage.resize(800, 600);
        const NodeTopologyFrame f = small();
        stage.setFrames(Frames{{f, FactsFrame{"facts", {}}}});
        auto* view = qobject_cast<NodeTopologyView*>(stage.view(0));
        QVERIFY(view != nullptr);
        QVERIFY(view->frame() == f);
        stage.setTheme(Theme::dark());
        QVERIFY(view->theme().isDark);
    }
};

QTEST_MAIN(TestNodeTopologyView)
#include "test_node_topology_view.moc"
