// CommGraphView draws NCCL's rings and trees: a disc per rank, one curved arrow per ring
// channel in its transport's colour, tree edges dashed, the legend and the hover tips.
#include "render_probe.h"
#include "stage/frame_stage.h"
#include "topology/comm_graph_view.h"

#include <QApplication>
#include <QTest>
#include <cmath>

using namespace wb;
using namespace wb::test;

namespace {

// Three ranks; channel 0 is a ring over P2P/IPC, channel 1 adds a 2 → 0 hop over the network,
// and one tree edge 0 → 1.
CommGraphFrame threeRanks() {
    CommGraphFrame f;
    f.title = "NCCL rings and trees · 3 ranks";
    for (int r = 0; r < 3; ++r)
        f.nodes.push_back({r, "rank " + std::to_string(r), "rank " + std::to_string(r) + " tip"});
    using K = CommGraphEdge::Kind;
    f.edges = {
        {K::Ring, 0, 1, 0, "P2P/IPC", 0, "ring ch0 0→1"},
        {K::Ring, 1, 2, 0, "P2P/IPC", 0, "ring ch0 1→2"},
        {K::Ring, 2, 0, 0, "P2P/IPC", 0, "ring ch0 2→0"},
        {K::Ring, 2, 0, 1, "NET/IB", 1, "ring ch1 2→0 via NET/IB"},
        {K::Tree, 0, 1, 0, "tree", 2, "tree ch0 0→1"},
    };
    f.channels = 2;
    f.transports = {"P2P/IPC", "NET/IB", "tree"};
    f.caption = "5 edges over 2 channels · test";
    return f;
}

// What the real two-GPU log gives (nccl2.27.7_2xA100pcie…): 24 channels, each a ring
// 0 → 1 → 0 over P2P/direct, and a tree edge per channel (root 0 on 0–5, root 1 on 6–11, …).
CommGraphFrame twoRanksManyChannels() {
    CommGraphFrame f;
    f.title = "NCCL rings and trees · 2 ranks";
    for (int r = 0; r < 2; ++r)
        f.nodes.push_back({r, "rank " + std::to_string(r), "rank " + std::to_string(r)});
    using K = CommGraphEdge::Kind;
    for (int c = 0; c < 24; ++c) {
        f.edges.push_back({K::Ring, 0, 1, c, "P2P/direct", 0, "ring 0→1 ch" + std::to_string(c)});
        f.edges.push_back({K::Ring, 1, 0, c, "P2P/direct", 0, "ring 1→0 ch" + std::to_string(c)});
    }
    for (int c = 0; c < 24; ++c) {
        const bool rootZero = (c / 6) % 2 == 0;
        f.edges.push_back({K::Tree, rootZero ? 0 : 1, rootZero ? 1 : 0, c, "tree", 1,
                           "tree ch" + std::to_string(c)});
    }
    f.channels = 24;
    f.transports = {"P2P/direct", "tree"};
    f.caption = "48 ring edges, 24 tree edges over 24 channels";
    return f;
}

} // namespace

class TestCommGraphView : public QObject {
    Q_OBJECT
private slots:
    void edgesInTheirTransportColours() {
        for (const Theme& theme : {Theme::light(), Theme::dark()}) {
            CommGraphView view;
            view.setTheme(theme);
            view.setFrame(threeRanks());
            const QSize size(720, 540);
            const QImage image = paintToImage(view, size);
            saveForHumans(image,
                          QStringLiteral("comm_graph_%1").arg(theme.isDark ? "dark" : "light"));
            const CommGraphLayout layout = view.layoutFor(QRectF(QPointF(0, 0), QSizeF(size)));
            QCOMPARE(layout.nodeCount(), 3);
            const QColor ipc = theme.seriesColor(0);
            const QColor net = theme.seriesColor(1);
            QVERIFY(!near(ipc, net, 40));
            // The middle of each ring edge is drawn in its transport's colour, not the other's.
            for (int e : {0, 1, 2}) {
                QVERIFY(layout.hasEdge(e));
                const QRect mid = around(layout.edgePoint(e, 0.5), 2);
                QVERIFY2(countNear(image, mid, ipc, 30) > 0, qPrintable(QString::number(e)));
                QCOMPARE(countNear(image, mid, net, 30), 0);
            }
            const QRect netMid = around(layout.edgePoint(3, 0.5), 2);
            QVERIFY(countNear(image, netMid, net, 30) > 0);
            QCOMPARE(countNear(image, netMid, ipc, 30), 0);
            // The two 2 → 0 channels run in separate lanes.
            const QPointF a = layout.edgePoint(2, 0.5), b = layout.edgePoint(3, 0.5);
            QVERIFY(std::hypot(a.x() - b.x(), a.y() - b.y()) >= 3.0);
            // The tree edge bends further out than the ring edge of the same pair.
            const QPointF ring01 = layout.edgePoint(0, 0.5), tree01 = layout.edgePoint(4, 0.5);
            const QPointF chord = (layout.nodeCentre(0) + layout.nodeCentre(1)) / 2.0;
            QVERIFY(std::hypot(tree01.x() - chord.x(), tree01.y() - chord.y()) >
                    std::hypot(ring01.x() - chord.x(), ring01.y() - chord.y()) + 5.0);
            // Tree edges are dashed: along the curve some samples are background.
            int gaps = 0;
            for (int k = 10; k <= 90; ++k) {
                const QPoint p = layout.edgePoint(4, k / 100.0).toPoint();
                gaps += near(image.pixelColor(p), theme.background, 30) ? 1 : 0;
            }
            QVERIFY(gaps > 5);
            // Each rank's disc in its rank colour (left of the number), the background elsewhere.
            for (int r = 0; r < 3; ++r) {
                const QPointF c = layout.nodeCentre(r);
                const QPointF side(c.x() - layout.nodeRadius() * 0.65, c.y());
                QVERIFY(countNear(image, around(side, 1), theme.rankColor(r, 3), 20) > 0);
            }
            const QRectF g = layout.graphRect();
            QCOMPARE(countNotNear(image, QRect(g.topLeft().toPoint() + QPoint(2, 2), QSize(6, 6)),
                                  theme.background, 6),
                     0);
        }
    }

    void ranksGoClockwiseFromTwelve() {
        CommGraphFrame f;
        for (int r = 0; r < 8; ++r)
            f.nodes.push_back({r, "rank " + std::to_string(r), ""});
        const CommGraphLayout layout = CommGraphLayout::compute(QRectF(0, 0, 800, 600), f, 12.0);
        const QPointF c = layout.graphRect().center();
        const auto at = [&](int i) { return layout.nodeCentre(i); };
        // 0 at 12 o'clock, 2 at 3, 4 at 6, 6 at 9 (screen y grows downwards).
        QVERIFY(std::fabs(at(0).x() - c.x()) < 1e-6 && at(0).y() < c.y() - 100);
        QVERIFY(at(2).x() > c.x() + 100 && std::fabs(at(2).y() - c.y()) < 1e-6);
        QVERIFY(std::fabs(at(4).x() - c.x()) < 1e-6 && at(4).y() > c.y() + 100);
        QVERIFY(at(6).x() < c.x() - 100 && std::fabs(at(6).y() - c.y()) < 1e-6);
        // Every disc lies inside the graph area and no two overlap.
        for (int i = 0; i < 8; ++i) {
            const QPointF p = at(i);
            const double r = layout.nodeRadius();
            QVERIFY(layout.graphRect().contains(QRectF(p.x() - r, p.y() - r, 2 * r, 2 * r)));
            QCOMPARE(layout.nodeAt(p), i);
            for (int j = 0; j < i; ++j)
                QVERIFY(std::hypot(p.x() - at(j).x(), p.y() - at(j).y()) > 2 * r);
        }
    }

    void manyChannelsBetweenTwoRanksStayApartAndInside() {
        const CommGraphFrame f = twoRanksManyChannels();
        CommGraphView view;
        view.setFrame(f);
        const QSize size(720, 540);
        const QImage image = paintToImage(view, size);
        saveForHumans(image, QStringLiteral("comm_graph_two_ranks_24_channels"));
        const CommGraphLayout layout = view.layoutFor(QRectF(QPointF(0, 0), QSizeF(size)));
        QCOMPARE(layout.nodeCount(), 2);
        // Two ranks side by side: rank 0 left, rank 1 right, on one line.
        QVERIFY(layout.nodeCentre(0).x() < layout.nodeCentre(1).x());
        QCOMPARE(layout.nodeCentre(0).y(), layout.nodeCentre(1).y());
        const double midY = layout.nodeCentre(0).y();
        const QColor ring = view.theme().seriesColor(0);
        for (int e = 0; e < static_cast<int>(f.edges.size()); ++e) {
            QVERIFY(layout.hasEdge(e));
            const QPointF mid = layout.edgePoint(e, 0.5);
            QVERIFY2(layout.graphRect().contains(mid), qPrintable(QString::number(e)));
            // 0 → 1 bends one way, 1 → 0 the other, so the two directions never cross.
            if (f.edges[static_cast<std::size_t>(e)].kind == CommGraphEdge::Kind::Ring) {
                const bool forward = f.edges[static_cast<std::size_t>(e)].from == 0;
                QVERIFY(forward ? mid.y() < midY : mid.y() > midY);
                QVERIFY2(countNear(image, around(mid, 2), ring, 30) > 0,
                         qPrintable(QString::number(e)));
            }
        }
        // The channels of one direction take distinct lanes (different curve midpoints).
        const QPointF first = layout.edgePoint(0, 0.5), last = layout.edgePoint(46, 0.5);
        QVERIFY(std::fabs(first.y() - last.y()) > 20.0);
        // Between the two discs, on the chord itself, nothing is drawn: every curve bends away.
        const QPointF chord = (layout.nodeCentre(0) + layout.nodeCentre(1)) / 2.0;
        QCOMPARE(countNotNear(image, around(chord, 1), view.theme().background, 12), 0);
        // The tips find a ring channel's curve and the disc.
        view.resize(size); // tipAt lays out for the widget's own size
        QCOMPARE(view.tipAt(layout.nodeCentre(1)), QStringLiteral("rank 1"));
        QVERIFY(view.tipAt(layout.edgePoint(0, 0.5)).startsWith(QStringLiteral("ring 0→1")));
    }

    void tipsComeFromTheFrame() {
        CommGraphView view;
        view.setFrame(threeRanks());
        view.resize(720, 540);
        const CommGraphLayout layout = view.layoutFor(QRectF(view.rect()));
        QCOMPARE(view.tipAt(layout.nodeCentre(1)), QStringLiteral("rank 1 tip"));
        QCOMPARE(view.tipAt(layout.edgePoint(3, 0.5)), QStringLiteral("ring ch1 2→0 via NET/IB"));
        QCOMPARE(view.tipAt(layout.edgePoint(1, 0.5)), QStringLiteral("ring ch0 1→2"));
        QCOMPARE(view.tipAt(layout.graphRect().topLeft() + QPointF(1, 1)), QString());
        QVERIFY(CommGraphView::legendText(threeRanks()).startsWith(QStringLiteral("2 channels")));
    }

    void emptyAndSelfLoopsDrawNothingWrong() {
        CommGraphView view;
        CommGraphFrame f;
        f.title = "empty";
        view.setFrame(f);
        const QImage empty = paintToImage(view, QSize(300, 200));
        QVERIFY(countNotNear(empty, empty.rect(), view.theme().background) > 0); // the message
        f = threeRanks();
        f.edges.push_back({CommGraphEdge::Kind::Ring, 1, 1, 0, "SHM", 0, "self"});
        f.edges.push_back({CommGraphEdge::Kind::Ring, 0, 7, 0, "SHM", 0, "no such rank"});
        view.setFrame(f);
        const CommGraphLayout layout = view.layoutFor(QRectF(0, 0, 300, 200));
        QVERIFY(!layout.hasEdge(5));
        QVERIFY(!layout.hasEdge(6));
        paintToImage(view, QSize(300, 200));
    }

    void theStageShowsItForACommGraphFrame() {
        FrameStage stage;
        stage.resize(800, 600);
        stage.setFrames(Frames{{threeRanks(), FactsFrame{"facts", {}}}});
        auto* view = qobject_cast<CommGraphView*>(stage.view(0));
        QVERIFY(view != nullptr);
        QVERIFY(view->frame() == threeRanks());
        stage.setTheme(Theme::dark());
        QVERIFY(view->theme().isDark);
    }
};

QTEST_MAIN(TestCommGraphView)
#include "test_comm_graph_view.moc"
