// CommGraphView draws NCCL's rings and trees: a disc per rank, one curved arrow per ring
// channel in its transport's colour, tree edges dashed, the legend and the hover tips.
#include "comm_graph_view.h"
#include "frame_stage.h"
#include "render_probe.h"

#include <QApplication>
#include <QTest>

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

QImage render(const CommGraphView& view, QSize size) {
    QImage image(size, QImage::Format_RGB32);
    QPainter painter(&image);
    view.paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    return image;
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
            const QImage image = render(view, size);
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
        const QImage empty = render(view, QSize(300, 200));
        QVERIFY(countNotNear(empty, empty.rect(), view.theme().background) > 0); // the message
        f = threeRanks();
        f.edges.push_back({CommGraphEdge::Kind::Ring, 1, 1, 0, "SHM", 0, "self"});
        f.edges.push_back({CommGraphEdge::Kind::Ring, 0, 7, 0, "SHM", 0, "no such rank"});
        view.setFrame(f);
        const CommGraphLayout layout = view.layoutFor(QRectF(0, 0, 300, 200));
        QVERIFY(!layout.hasEdge(5));
        QVERIFY(!layout.hasEdge(6));
        render(view, QSize(300, 200));
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
