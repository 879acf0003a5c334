// FabricView draws an incast: hosts, the small switch T, the main switch S, receivers; links
// coloured by use or drawn as held (PFC pause, or no IB credit), queue and ingress bars, event
// badges, flow gauges. Rendered into QImages with pixel and geometry checks.
#include "render_probe.h"
#include "stage/frame_stage.h"
#include "topology/fabric_view.h"

#include <QApplication>
#include <QTest>
#include <cmath>

using namespace wb;
using namespace wb::test;

namespace {

constexpr QSize kSize(1200, 800);

// VS and H0 on T; H1, H2 on S; T → S; S → R and S → VR. Links in that order:
// 0 H0→T, 1 H1→S, 2 H2→S, 3 T→S, 4 S→R, 5 VS→T, 6 S→VR.
FabricFrame incast(FabricStall held = FabricStall::None) {
    FabricFrame f;
    f.title = "test incast";
    f.counters = "pause frames 0";
    f.caption = "test caption";
    f.linkGbps = 400;
    using R = FabricNodeRole;
    const std::vector<std::pair<std::string, R>> nodes = {
        {"T", R::EdgeSwitch},    {"S", R::CoreSwitch},     {"R", R::Receiver},
        {"H0", R::Sender},       {"H1", R::Sender},        {"H2", R::Sender},
        {"VS", R::VictimSender}, {"VR", R::VictimReceiver}};
    for (const auto& [label, role] : nodes)
        f.nodes.push_back({label, role, label + " tip"});
    const std::vector<std::pair<int, int>> links = {{3, 0}, {4, 1}, {5, 1}, {0, 1},
                                                    {1, 2}, {6, 0}, {1, 7}};
    for (const auto& [from, to] : links) {
        FabricFrameLink l;
        l.from = from;
        l.to = to;
        l.utilisation = 0.5;
        const bool fromSwitch = from <= 1;
        l.queueCapBytes = fromSwitch ? 1e6 : 0.0;
        l.ingressCapBytes = to <= 1 ? 96e3 : 0.0;
        l.tip = f.nodes[static_cast<std::size_t>(from)].label + "→" +
                f.nodes[static_cast<std::size_t>(to)].label + " tip";
        f.links.push_back(l);
    }
    f.links[3].stall = held; // T → S
    f.links[0].stall = held; // H0 → T: the pause climbed
    f.flows = {{"H0→R", 3, false, 400, 50, "H0 flow"},
               {"H1→R", 4, false, 400, 175, "H1 flow"},
               {"H2→R", 5, false, 400, 175, "H2 flow"},
               {"VS→VR", 6, true, 400, 40, "victim flow"}};
    return f;
}

QImage render(const FabricView& view, QSize size = kSize) {
    return paintToImage(view, size);
}

QRect toRect(const QRectF& r) {
    return r.toAlignedRect();
}

QRect aroundLine(const QLineF& l, int pad) {
    return QRectF(l.p1(), l.p2()).normalized().toAlignedRect().adjusted(-pad, -pad, pad, pad);
}

} // namespace

class TestFabricView : public QObject {
    Q_OBJECT
private slots:
    void pauseIsDrawnWhereTheFrameSaysAndNowhereElse() {
        FabricView view;
        view.setFrame(incast(FabricStall::Paused));
        const QImage image = render(view);
        saveForHumans(image, "fabric_paused");
        const FabricLayout layout = view.layoutFor(QRectF(QPointF(0, 0), QSizeF(kSize)));
        const QColor pause = FabricView::pauseColor(view.theme());
        // On the held links (T→S and H0→T), not on a free one (H1→S).
        QVERIFY(countNear(image, aroundLine(layout.linkLine(3), 3), pause, 20) > 40);
        QVERIFY(countNear(image, aroundLine(layout.linkLine(0), 3), pause, 20) > 40);
        QCOMPARE(countNear(image, aroundLine(layout.linkLine(1), 3), pause, 20), 0);

        // The same moment on InfiniBand: held by credits, not paused — no pause colour in the
        // graph (the legend always shows the swatch), the no-credit colour instead.
        view.setFrame(incast(FabricStall::NoCredit));
        const QImage ib = render(view);
        saveForHumans(ib, "fabric_no_credit");
        const QRect graph = toRect(layout.graphRect());
        QCOMPARE(countNear(ib, graph, pause, 20), 0);
        QVERIFY(countNear(ib, aroundLine(layout.linkLine(3), 3),
                          FabricView::noCreditColor(view.theme()), 20) > 20);
    }

    void queueBarsAreProportionalToTheBytes() {
        FabricView view;
        FabricFrame f = incast();
        f.links[3].queueBytes = 0.25e6; // T→S egress: a quarter of the 1 MB scale
        f.links[4].queueBytes = 0.75e6; // S→R egress: three quarters
        view.setFrame(f);
        const QImage image = render(view);
        const FabricLayout layout = view.layoutFor(QRectF(QPointF(0, 0), QSizeF(kSize)));
        const QColor fill = FabricView::queueColor(view.theme());
        const QRectF a = layout.queueRect(3), b = layout.queueRect(4);
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        // The filled share of each bar is the queue's share of the scale.
        // Measured along the bar's middle row, so antialiased top and bottom edges do not count.
        const auto filled = [&](const QRectF& r) {
            const QRect row(toRect(r).left(), static_cast<int>(r.center().y()), toRect(r).width(),
                            1);
            return countNear(image, row, fill, 10) / r.width();
        };
        QVERIFY2(std::fabs(filled(a) - 0.25) < 0.05, qPrintable(QString::number(filled(a))));
        QVERIFY2(std::fabs(filled(b) - 0.75) < 0.07, qPrintable(QString::number(filled(b))));
        // A host's NIC has no queue bar; an empty switch queue draws no fill.
        QVERIFY(layout.queueRect(0).isEmpty());
        QCOMPARE(countNear(image, toRect(layout.queueRect(6)), fill, 10), 0);
    }

    void eventsFlashOnTheirLink() {
        FabricView view;
        FabricFrame f = incast();
        f.links[4].drops = 12; // S→R
        view.setFrame(f);
        const QImage image = render(view);
        const FabricLayout layout = view.layoutFor(QRectF(QPointF(0, 0), QSizeF(kSize)));
        const QColor drop = view.theme().seriesColor(3);
        const QRect badge = around(layout.badgeAnchor(4), static_cast<int>(layout.em() * 2));
        QVERIFY(countNear(image, badge, drop, 12) > 20);
        f.links[4].drops = 0;
        view.setFrame(f);
        QCOMPARE(countNear(render(view), badge, drop, 12), 0);
    }

    void hoverNamesWhatIsUnderThePointer() {
        FabricView view;
        view.resize(kSize);
        view.setFrame(incast(FabricStall::Paused));
        const FabricLayout layout = view.layoutFor(QRectF(view.rect()));
        QCOMPARE(view.tipAt(layout.linkLine(3).center() + QPointF(0, 1)), QString("T→S tip"));
        QCOMPARE(view.tipAt(layout.queueRect(4).center()), QString("S→R tip"));
        QCOMPARE(view.tipAt(layout.ingressRect(1).center()), QString("H1→S tip"));
        QCOMPARE(view.tipAt(layout.nodeRect(1).center()), QString("S tip"));
        QCOMPARE(view.tipAt(layout.flowRect(3).center()), QString("victim flow"));
        QCOMPARE(view.tipAt(QPointF(2, 2)), QString());
    }

    void layoutKeepsEveryNodeInsideTheGraph() {
        FabricView view;
        view.setFrame(incast());
        for (const QSize size : {QSize(1920, 1080), QSize(640, 400), QSize(320, 240)}) {
            const FabricLayout layout = view.layoutFor(QRectF(QPointF(0, 0), QSizeF(size)));
            for (int n = 0; n < 8; ++n) {
                const QRectF r = layout.nodeRect(n);
                QVERIFY(!r.isEmpty());
                QVERIFY(layout.graphRect().adjusted(-1, -1, 1, 1).contains(r));
                for (int m = n + 1; m < 8; ++m)
                    QVERIFY2(!r.intersects(layout.nodeRect(m)),
                             qPrintable(QString("%1 and %2 overlap").arg(n).arg(m)));
            }
        }
    }

    void emptyFrameSaysSo() {
        FabricView view;
        const QImage image = render(view);
        const FabricLayout layout = view.layoutFor(QRectF(QPointF(0, 0), QSizeF(kSize)));
        QVERIFY(countNotNear(image, toRect(layout.graphRect()), view.theme().background) > 50);
        QCOMPARE(countNear(image, image.rect(), FabricView::pauseColor(view.theme()), 20), 0);
        QCOMPARE(view.tipAt(QPointF(600, 400)), QString());
    }

    void stageShowsAFabricView() {
        FrameStage stage;
        stage.resize(kSize);
        stage.setFrames(Frames{{incast()}});
        QVERIFY(qobject_cast<FabricView*>(stage.view(0)) != nullptr);
        stage.setTheme(Theme::dark());
        QVERIFY(qobject_cast<FabricView*>(stage.view(0))->theme().isDark);
    }
};

QTEST_MAIN(TestFabricView)
#include "test_fabric_view.moc"
