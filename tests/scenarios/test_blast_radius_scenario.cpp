// blast-radius blast radius: the map's GPU and component states agree with
// ClusterFailureModel::fail for every component kind; consequences appear in order (GPUs lost,
// groups broken, job stopped); an aligned layout damages fewer TP groups and replicas than a
// misaligned one for a node failure; the single-points-of-failure table comes from the model; bad
// layouts are refused.
#include "reliability/blast_radius_scenario.h"
#include "reliability/cluster_failure_model.h"
#include "scenario_test_helpers.h"

#include <QtTest>
#include <algorithm>
#include <stdexcept>

using namespace wb;
using namespace wb::test;

namespace {

int countState(const ClusterMapFrame& f, MapGpuState s) {
    return static_cast<int>(std::count(f.gpus.begin(), f.gpus.end(), s));
}

int countComponents(const ClusterMapFrame& f, MapComponentState s) {
    int n = 0;
    for (const auto& v : f.components)
        n += static_cast<int>(std::count(v.begin(), v.end(), s));
    return n;
}

ClusterMapFrame failureMap(const char* kind, const char* index, double t,
                           const char* order = "aligned") {
    const Story s = build("blast-radius", {{"fail", kind}, {"index", index}, {"order", order}});
    return *first<ClusterMapFrame>(s.steps[1].frames(t));
}

ParallelLayout llama3(bool aligned) {
    ParallelLayout l;
    l.tp = 8;
    l.pp = 16;
    l.dp = 128;
    if (!aligned)
        l.order = {Strategy::DP, Strategy::PP, Strategy::TP};
    return l;
}

} // namespace

class TestBlastRadiusScenario : public QObject {
    Q_OBJECT
private slots:
    void mapAgreesWithTheModelForEveryKind() {
        const ClusterFailureModel model(ClusterSpec{}, llama3(true));
        // GPUs lost from the spec: 1, 8 per node, 16 per rack (and its ToR), 8 racks per PDU,
        // 64 racks per cooling zone; a spine, the storage and the scheduler lose none.
        const std::vector<std::pair<const char*, int>> kinds = {
            {"gpu", 1},   {"node", 8},       {"rack", 16},   {"tor", 16},     {"spine", 0},
            {"pdu", 128}, {"cooling", 1024}, {"storage", 0}, {"scheduler", 0}};
        for (const auto& [kind, expectedLost] : kinds) {
            const ComponentKind k = parseComponentKind(kind);
            const int index = 5 % model.count(k);
            const BlastRadius b = model.fail(model.id(k, index));
            QCOMPARE(static_cast<int>(b.lostGpus.size()), expectedLost);
            const ClusterMapFrame f = failureMap(kind, "5", 1.0);
            QCOMPARE(f.failedKind, static_cast<int>(k));
            QCOMPARE(f.failedIndex, index);
            QCOMPARE(countState(f, MapGpuState::Lost), expectedLost);
            for (int g : b.lostGpus)
                QVERIFY(f.gpus[static_cast<std::size_t>(g)] == MapGpuState::Lost);
            // Every GPU of a broken TP group is lost or marked TP-broken: groups × TP size.
            QCOMPARE(countState(f, MapGpuState::Lost) + countState(f, MapGpuState::TpBroken),
                     b.groups.tp * 8);
            QCOMPARE(countComponents(f, MapComponentState::Failed),
                     k == ComponentKind::Gpu ? 0 : 1);
            const int downNonGpu =
                static_cast<int>(b.down.size()) - expectedLost - (k == ComponentKind::Gpu ? 0 : 1);
            QCOMPARE(countComponents(f, MapComponentState::Down), downNonGpu);
            // The job stops when a GPU or the storage is lost; then no GPU stays healthy.
            QCOMPARE(countState(f, MapGpuState::Healthy) == 0, b.jobStops);
            QVERIFY(f.caption.find(b.jobStops ? "job stopped" : "job runs") != std::string::npos);
        }
    }

    void nodeFailureGroupsFromTheLayout() {
        // Aligned tp-pp-dp: node n holds ranks 8n…8n+7, one TP group; each of its GPUs is in its
        // own PP group (different t) and its own DP group; all one replica.
        const ClusterFailureModel aligned(ClusterSpec{}, llama3(true));
        const BlastRadius a = aligned.fail(aligned.id(ComponentKind::Node, 37));
        QCOMPARE(a.groups, (GroupsBroken{1, 8, 8}));
        QCOMPARE(a.replicasBroken, 1);
        // Misaligned dp-pp-tp: the node's 8 consecutive ranks are 8 DP indices with the same
        // t and p: 8 TP groups, 8 PP groups, 1 DP group, 8 replicas.
        const ClusterFailureModel mis(ClusterSpec{}, llama3(false));
        const BlastRadius m = mis.fail(mis.id(ComponentKind::Node, 37));
        QCOMPARE(m.groups, (GroupsBroken{8, 8, 1}));
        QCOMPARE(m.replicasBroken, 8);
        QVERIFY(a.groups.tp < m.groups.tp);
        QVERIFY(a.replicasBroken < m.replicasBroken);

        // The comparison step shows both, with the same GPUs lost and the frames' TP members.
        const Story s = build("blast-radius", {{"fail", "node"}, {"index", "37"}});
        const auto maps = all<ClusterMapFrame>(s.steps[2].frames(1.0));
        QCOMPARE(maps.size(), std::size_t(2));
        QCOMPARE(maps[0].tpStride, 1);
        QCOMPARE(maps[1].dpStride, 1);
        QCOMPARE(countState(maps[0], MapGpuState::Lost), 8);
        QCOMPARE(countState(maps[1], MapGpuState::Lost), 8);
        QCOMPARE(countState(maps[0], MapGpuState::TpBroken), 0); // the TP group is the node
        QCOMPARE(countState(maps[1], MapGpuState::TpBroken), 8 * 8 - 8);
        const auto table = first<FactsFrame>(s.steps[2].frames(1.0));
        QVERIFY(table);
        QCOMPARE(table->rows.back().value, std::string("1 vs 8"));
        QVERIFY(s.steps[2].title.find("1 vs 8") != std::string::npos);
    }

    void consequencesAppearInOrder() {
        const ClusterMapFrame f0 = failureMap("node", "37", 0.0);
        QCOMPARE(f0.revealed, 0);
        QCOMPARE(countState(f0, MapGpuState::Lost), 0);
        QCOMPARE(f0.components[static_cast<std::size_t>(MapKind::Node)][37],
                 MapComponentState::Failed);
        const ClusterMapFrame f1 = failureMap("node", "37", 0.3);
        QCOMPARE(countState(f1, MapGpuState::Lost), 8);
        QCOMPARE(countState(f1, MapGpuState::DpBroken), 0);
        const ClusterMapFrame f2 = failureMap("node", "37", 0.6);
        QVERIFY(countState(f2, MapGpuState::DpBroken) > 0);
        QCOMPARE(countState(f2, MapGpuState::Stopped), 0);
        const ClusterMapFrame f3 = failureMap("node", "37", 1.0);
        QCOMPARE(f3.revealed, 3);
        QCOMPARE(countState(f3, MapGpuState::Healthy), 0);
        QVERIFY(countState(f3, MapGpuState::Stopped) > 0);
        // Aligned node 37: PP groups of 16 and DP groups of 128, 8 of each, overlapping only
        // in the lost GPUs: 8·15 PP-only members and 8·127 DP-only ones.
        QCOMPARE(countState(f3, MapGpuState::PpBroken), 8 * 15);
        QCOMPARE(countState(f3, MapGpuState::DpBroken), 8 * 127);
    }

    void singlePointsOfFailureComeFromTheModel() {
        const Story s = build("blast-radius");
        const auto table = first<FactsFrame>(s.steps.back().frames(1.0));
        QVERIFY(table);
        const ClusterFailureModel model(ClusterSpec{}, llama3(true));
        const auto spofs = model.singlePointsOfFailure();
        QCOMPARE(table->rows.size(), spofs.size());
        for (std::size_t i = 0; i < spofs.size(); ++i) {
            QCOMPARE(table->rows[i].label, componentKindName(spofs[i].kind));
            QCOMPARE(table->rows[i].value,
                     std::to_string(spofs[i].spofs) + " of " + std::to_string(spofs[i].total));
            QCOMPARE(table->rows[i].source, spofs[i].why);
        }
        // Redundant spines (8 per pod, 8 pods) stop nothing; every node and the storage do.
        auto row = [&](const char* kind) {
            return std::find_if(table->rows.begin(), table->rows.end(),
                                [&](const FactRow& r) { return r.label == kind; })
                ->value;
        };
        QCOMPARE(row("spine"), std::string("0 of 64"));
        QCOMPARE(row("node"), std::string("2048 of 2048"));
        QCOMPARE(row("storage"), std::string("1 of 1"));
        QCOMPARE(row("scheduler"), std::string("0 of 1"));
    }

    void badLayoutsAreRefused() {
        const Scenario& sc = *findScenario("blast-radius");
        for (const char* bad : {"tp=8,pp=16,dp=64", "tp=3,pp=16,dp=128", "tp=8,pp=16",
                                "tp=8,pp=x,dp=128", "tp=8,tp=16,dp=128"}) {
            Params p = sc.defaultParams();
            QVERIFY(!p.set("layout", bad));
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sc.build(p));
        }
        Params ok = sc.defaultParams();
        QVERIFY(!ok.set("layout", "tp=4,pp=4,dp=1024"));
        const Story s = sc.build(ok);
        QCOMPARE(first<ClusterMapFrame>(s.steps[0].frames(0.5))->tp, 4);
    }

    void indexWraps() {
        // 16383 nodes do not exist: the index wraps to 16383 mod 2048 = 2047.
        const ClusterMapFrame f = failureMap("node", "16383", 1.0);
        QCOMPARE(f.failedIndex, 2047);
        QCOMPARE(f.gpus[16383], MapGpuState::Lost);
        QCOMPARE(countState(f, MapGpuState::Lost), 8);
        QVERIFY(f.gpus[16383 - 8] != MapGpuState::Lost);
    }

    // The scenario owns its click mapping: a component clicked on the map is the failure
    // parameters, and the story they build fails that very component.
    void aClickOnTheMapSetsTheFailure() {
        const Scenario& sc = *findScenario("blast-radius");
        const Params start = sc.defaultParams();
        const auto next = sc.paramsForClick(start, ClickTarget{static_cast<int>(MapKind::Tor), 3});
        QVERIFY(next);
        QCOMPARE(next->text("fail"), std::string("tor"));
        QCOMPARE(next->integer("index"), 3LL);
        QCOMPARE(next->text("layout"), start.text("layout")); // the rest is kept
        const auto map = first<ClusterMapFrame>(sc.build(*next).steps[1].frames(1.0));
        QCOMPARE(map->failedKind, static_cast<int>(MapKind::Tor));
        QCOMPARE(map->failedIndex, 3);
        // A kind the map does not have, or an index out of range, changes nothing.
        QVERIFY(!sc.paramsForClick(start, ClickTarget{kMapKinds, 0}));
        QVERIFY(!sc.paramsForClick(start, ClickTarget{-1, 0}));
        QVERIFY(!sc.paramsForClick(start, ClickTarget{0, 16384}));
        // Scenarios without a clickable picture map no click.
        QVERIFY(!findScenario("ring-allreduce")
                     ->paramsForClick(findScenario("ring-allreduce")->defaultParams(),
                                      ClickTarget{0, 0}));
    }
};

QTEST_APPLESS_MAIN(TestBlastRadiusScenario)
#include "test_blast_radius_scenario.moc"
