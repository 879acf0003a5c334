// blast-radius blast radius: the map's GPU and component states agree with
// ClusterFailureModel::fail for every component kind; consequences appear in order (GPUs lost,
// groups broken, job stopped); an aligned layout damages fewer TP groups and replicas than a
// misaligned one for a node failure, shown on two maps of one size; the cluster cites Llama 3
// only for what it publishes and says "assumed" for the rest; the ranking by expected loss and
// what spares buy come from the model; bad layouts are refused.
#include "engine/number_format.h"
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
        // Two maps and nothing else, in a grid: the same size and arrangement, to be compared.
        const Frames compared = s.steps[2].frames(1.0);
        QCOMPARE(compared.items.size(), std::size_t(2));
        QCOMPARE(compared.arrangement, Arrangement::Grid);
        QCOMPARE(maps[0].racksPerPod, maps[1].racksPerPod);
        QCOMPARE(maps[0].gpus.size(), maps[1].gpus.size());
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

    // The topology cites Llama 3 §3.3.1 for what it publishes (8-GPU servers, 16 GPUs per ToR,
    // pods of 192 racks = 3,072 GPUs, 1:7 between pods) and labels the rest assumed.
    void theClusterCitesOnlyWhatIsPublished() {
        const ClusterSpec spec;
        QCOMPARE(spec.racksPerPod * spec.nodesPerRack * spec.gpusPerNode, 3072);
        const Story s = build("blast-radius");
        const auto facts = first<FactsFrame>(s.steps[0].frames(1.0));
        QVERIFY(facts);
        auto row = [&](const char* label) {
            const auto it = std::find_if(facts->rows.begin(), facts->rows.end(),
                                         [&](const FactRow& r) { return r.label == label; });
            return it == facts->rows.end() ? FactRow{} : *it;
        };
        for (const char* assumed : {"spine", "PDU", "cooling zone", "scheduler"}) {
            QVERIFY2(row(assumed).source.find("assumed") != std::string::npos, assumed);
            QVERIFY2(row(assumed).source.find("Llama") == std::string::npos, assumed);
        }
        for (const char* published : {"node", "rack", "ToR"})
            QVERIFY2(row(published).source.find("§3.3.1") != std::string::npos, published);
        QCOMPARE(row("pod").value, std::string("3072 GPUs"));
        QVERIFY(row("pod").source.find("1:7") != std::string::npos);
        QVERIFY(s.steps[0].narration.find("Assumed") != std::string::npos);
        // Six pods: five full ones of 192 racks and one of 64 (16,384 = 5⅓ × 3,072).
        const ClusterFailureModel model(spec, llama3(true));
        QCOMPARE(model.count(ComponentKind::Spine), 6 * spec.spinesPerPod);
    }

    // Components ranked by blast size × failure rate × hours down (not a list of every GPU),
    // then what hot spares buy and which layout keeps a rack inside one replica.
    void rankingAndSparesComeFromTheModel() {
        const Story s =
            build("blast-radius", {{"spares", "32"}, {"repair", "8"}, {"restart", "20"}});
        const ClusterFailureModel model(ClusterSpec{}, llama3(true));
        SparePolicy policy;
        policy.spareGpus = 32;
        policy.repairH = 8;
        policy.restartH = 20.0 / 60.0;
        const LossRanking r = model.expectedLosses(policy);
        const auto noSpares = first<BarChartFrame>(s.steps[4].frames(1.0));
        const auto spares = first<BarChartFrame>(s.steps[5].frames(1.0));
        QVERIFY(noSpares && spares);
        QCOMPARE(noSpares->categories.size(), r.kinds.size());
        QVERIFY(r.kinds.size() < 16); // kinds, not every GPU and node
        for (std::size_t i = 0; i < r.kinds.size(); ++i) {
            QCOMPARE(noSpares->categories[i].segments.front().value, r.kinds[i].lossNoSpares);
            QCOMPARE(spares->categories[i].segments.front().value, r.kinds[i].lossSpares);
            QVERIFY(i == 0 || r.kinds[i - 1].lossNoSpares >= r.kinds[i].lossNoSpares);
        }
        QCOMPARE(noSpares->axisMax, spares->axisMax); // one scale: the bars shrink
        QCOMPARE(r.kinds.front().kind, ComponentKind::Gpu);
        QVERIFY(s.steps[4].title.find("GPUs cost the most") != std::string::npos);
        // Every rate shows where it comes from: Table 5 or "assumed".
        const auto rates = first<FactsFrame>(s.steps[4].frames(1.0));
        QVERIFY(rates);
        for (const FactRow& row : rates->rows)
            QVERIFY2(row.source.find("Table 5") != std::string::npos ||
                         row.source.find("assumed") != std::string::npos,
                     row.label.c_str());
        // Spares lift the share of the time the job runs; the title says both.
        QVERIFY(r.availabilitySpares > r.availabilityNoSpares);
        QVERIFY(s.steps[5].title.find(formatShare(r.availabilitySpares)) != std::string::npos);
        // A rack: one replica aligned (a replica is 128 consecutive GPUs), 16 misaligned.
        const auto layout = first<FactsFrame>(s.steps[5].frames(1.0));
        QVERIFY(layout);
        QCOMPARE(layout->rows[4].value, std::string("1 replica damaged"));
        QCOMPARE(layout->rows[5].value, std::string("16 replicas damaged"));
        QCOMPARE(s.checks[1].answer, 16.0);
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
