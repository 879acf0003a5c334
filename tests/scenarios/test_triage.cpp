// The slowdown triage (slowdown-triage): the verdict on every generated case across seeds and rank
// counts, on HTA's real two-rank sample, and the per-rank figures against hand-computed
// values on a small hand-written trace (tests/data/triage).
#include "engine/imported_set.h"
#include "engine/registry.h"
#include "engine/scenario_inputs.h"
#include "import/import_registry.h"
#include "imported_trace_helper.h"
#include "triage/kineto_trace_generator.h"
#include "triage/rank_analysis.h"
#include "triage/triage_verdict.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

using namespace wb;
using wb::test::importTrace;

namespace {

const QString kData = QStringLiteral(WB_TEST_DATA);

std::vector<RankFigures>
figuresOf(const std::vector<std::shared_ptr<const ChromeTraceResult>>& traces) {
    return analyseRanks(wb::test::rankInputs(traces));
}

void dump(const char* what, const std::vector<RankFigures>& f, const TriageVerdict& v) {
    if (!qEnvironmentVariableIsSet("WB_TRIAGE_DUMP"))
        return;
    qInfo("%s: %s %s", what, v.verdict.c_str(), v.evidence.c_str());
    for (const auto& r : f)
        qInfo("  rank %ld window %.0f compute %.0f comm %.0f wait %.0f overlap %.1f%% exposed "
              "%.0f idle %.0f steps %d",
              r.rank, r.windowUs, r.computeUs, r.commUs, r.waitUs, r.overlapPct, r.exposedCommUs,
              r.idleUs, r.steps);
}

} // namespace

class TestTriage : public QObject {
    Q_OBJECT
private slots:
    void generatedCases_data() {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("seed");
        for (const int ranks : {2, 4, 8, 16})
            for (const int seed : {1, 2, 3, 4, 5, 17})
                QTest::addRow("%d ranks, seed %d", ranks, seed) << ranks << seed;
    }
    void generatedCases() {
        QFETCH(int, ranks);
        QFETCH(int, seed);
        for (const TriageCase c : allTriageCases()) {
            TraceGeneratorConfig cfg;
            cfg.triageCase = c;
            cfg.ranks = ranks;
            cfg.seed = static_cast<std::uint64_t>(seed);
            cfg.stragglerRank = (seed * 3 + ranks) % ranks; // varies with seed and size
            const auto traces = generateImportedTraces(cfg);
            QCOMPARE(traces.size(), static_cast<std::size_t>(ranks));
            const auto figures = figuresOf(traces);
            const TriageVerdict v = triageVerdict(figures);
            dump(triageCaseName(c).c_str(), figures, v);
            const std::string expected = c == TriageCase::Healthy ? "none" : triageCaseName(c);
            QVERIFY2(v.verdict == expected,
                     qPrintable(QString::fromStdString(triageCaseName(c) + ": got " + v.verdict +
                                                       " — " + v.evidence)));
            if (c == TriageCase::Straggler) {
                QVERIFY(v.stragglerRank.has_value());
                QCOMPARE(*v.stragglerRank, static_cast<long>(cfg.stragglerRank));
            } else {
                QVERIFY(!v.stragglerRank.has_value());
            }
            QVERIFY(!v.evidence.empty());
        }
    }

    // Stronger and weaker faults than the defaults, still clear cases.
    void generatedParameters_data() {
        QTest::addColumn<int>("caseIndex");
        QTest::addColumn<double>("straggler");
        QTest::addColumn<double>("fabric");
        QTest::addColumn<QString>("expected");
        QTest::addRow("straggler 1.15x") << 1 << 1.15 << 3.0 << "straggler";
        QTest::addRow("straggler 2x") << 1 << 2.0 << 3.0 << "straggler";
        QTest::addRow("fabric 5x") << 2 << 1.3 << 5.0 << "fabric";
        // The parameters' upper ends. At 10x comm runs far past compute, so overlap % (÷ comm)
        // falls under 15 % although the buckets still start during the backward pass: the
        // hidden share (÷ min(comm, compute)) keeps this a fabric, not a serialization.
        QTest::addRow("fabric 10x") << 2 << 1.3 << 10.0 << "fabric";
        QTest::addRow("straggler 3x") << 1 << 3.0 << 3.0 << "straggler";
        // A fabric only 1.05x slower still hides under the backward pass: nothing to fix.
        QTest::addRow("fabric 1.05x") << 2 << 1.3 << 1.05 << "none";
        QTest::addRow("straggler 1.03x (within noise)") << 1 << 1.03 << 3.0 << "none";
    }
    void generatedParameters() {
        QFETCH(int, caseIndex);
        QFETCH(double, straggler);
        QFETCH(double, fabric);
        QFETCH(QString, expected);
        for (const int ranks : {2, 8}) {
            TraceGeneratorConfig cfg;
            cfg.triageCase = allTriageCases()[static_cast<std::size_t>(caseIndex)];
            cfg.ranks = ranks;
            cfg.seed = 9;
            cfg.stragglerRank = ranks - 1;
            cfg.stragglerSlowdown = straggler;
            cfg.fabricSlowdown = fabric;
            const auto figures = figuresOf(generateImportedTraces(cfg));
            const TriageVerdict v = triageVerdict(figures);
            dump("param", figures, v);
            QVERIFY2(v.verdict == expected.toStdString(),
                     qPrintable(QString::fromStdString(v.verdict + " — " + v.evidence)));
        }
    }

    void generatorIsDeterministicAndConsistent() {
        TraceGeneratorConfig cfg;
        cfg.triageCase = TriageCase::Straggler;
        cfg.ranks = 4;
        cfg.seed = 5;
        cfg.stragglerRank = 2;
        const auto a = generateKinetoTraces(cfg);
        QVERIFY(a == generateKinetoTraces(cfg));
        cfg.seed = 6;
        QVERIFY(a != generateKinetoTraces(cfg));
        // Every all-reduce ends at the same instant (skew removed) on every rank, after the
        // last rank entered it; the importer classifies them as NCCL all-reduces.
        cfg.seed = 5;
        const auto traces = generateImportedTraces(cfg);
        std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> calls(traces.size());
        for (std::size_t r = 0; r < traces.size(); ++r) {
            QCOMPARE(traces[r]->format, std::string("kineto"));
            QCOMPARE(*traces[r]->rank, static_cast<long>(r));
            QCOMPARE(*traces[r]->worldSize, 4L);
            const TraceStore& s = traces[r]->store;
            for (const StoredEvent& e : s.events()) {
                if (e.kind != EventKind::CommKernel)
                    continue;
                QCOMPARE(s.strings().text(s.kernels()[e.kernel].collective),
                         std::string_view("AllReduce"));
                calls[r].push_back({e.startNs, e.endNs()});
            }
            std::sort(calls[r].begin(), calls[r].end());
        }
        QCOMPARE(calls[0].size(), std::size_t{3 * 6}); // 3 steps × 6 buckets
        // Skew-free: each rank's times relative to the end of its own first all-reduce.
        for (std::size_t k = 0; k < calls[0].size(); ++k) {
            std::int64_t lastEnter = INT64_MIN;
            for (std::size_t r = 0; r < traces.size(); ++r)
                lastEnter = std::max(lastEnter, calls[r][k].first - calls[r][0].second);
            const std::int64_t end0 = calls[0][k].second - calls[0][0].second;
            for (std::size_t r = 0; r < traces.size(); ++r) {
                const std::int64_t end = calls[r][k].second - calls[r][0].second;
                QVERIFY(std::llabs(end - end0) <= 2); // same instant (ns text rounding)
                QVERIFY(end > lastEnter || k == 0);
                QVERIFY(calls[r][k].second > calls[r][k].first);
            }
        }
    }

    // HTA's sampled_rank-0/1: two ranks of a 128-rank job (distributedInfo world_size 128).
    // Rank 1 computes 29 % more than rank 0, but rank 0 waits only 17 ms more than rank 1
    // in the SendRecv collectives — a quarter of the 62 ms excess. A rank that held the
    // collectives would make the others wait about its whole excess; here both ranks mostly
    // wait on the 126 ranks the sample does not contain. Overlap is 15–20 %, the GPUs idle
    // more than half the window, compute is not uniform: no rule fires, and "none" is the
    // honest answer for a two-of-128 sample.
    // The evidence says so: only 2 of the job's 128 ranks are in the set.
    void htaSampledPair() {
        const auto traces = std::vector{importTrace(kData + "/import/hta_sampled_rank-0.json.gz"),
                                        importTrace(kData + "/import/hta_sampled_rank-1.json.gz")};
        const auto figures = figuresOf(traces);
        QCOMPARE(traces[0]->worldSize.value_or(0), 128L);
        const TriageVerdict v = triageVerdict(figures, *traces[0]->worldSize);
        dump("hta", figures, v);
        QCOMPARE(figures.size(), std::size_t{2});
        QCOMPARE(v.verdict, std::string("none"));
        QVERIFY(!v.stragglerRank);
        QVERIFY2(v.evidence.find("rank 1 computes") != std::string::npos, v.evidence.c_str());
        QVERIFY2(v.evidence.find("only 2 of 128 ranks") != std::string::npos, v.evidence.c_str());
        // Both GPUs idle more than half the window (675 and 651 ms of 1.22 s).
        QVERIFY2(v.evidence.find("GPU idle 54") != std::string::npos, v.evidence.c_str());
        // Without the world size the same rules give the same verdict, without the note.
        const TriageVerdict bare = triageVerdict(figures);
        QCOMPARE(bare.verdict, v.verdict);
        QVERIFY(bare.evidence.find("of 128") == std::string::npos);
        // Figures checked against a Python pass over the JSON (interval unions of kernels).
        QCOMPARE(figures[0].rank, 0L);
        QCOMPARE(figures[0].collectives, 10);
        QCOMPARE(figures[1].collectives, 10);
        QCOMPARE(figures[0].steps, 2);
        QVERIFY(figures[1].computeUs > 1.2 * figures[0].computeUs);
        QVERIFY(figures[0].waitUs > figures[1].waitUs);
    }

    // tests/data/triage/two_ranks_rank-{0,1}.json, times relative to each file's base (rank
    // 1's clock is 5 ms ahead; only durations cross ranks). In µs:
    //   rank 0: compute A[0,100) B[150,250) (stream 7) C[200,300) (stream 8, concurrent
    //           with B) D[500,600); all-reduces AR1[220,350) AR2[400,450); memcpy [460,480)
    //     compute = |[0,100) ∪ [150,300) ∪ [500,600)| = 100 + 150 + 100 = 350 (B∥C once)
    //     comm    = 130 + 50 = 180
    //     compute ∪ comm = [0,100) [150,350) [400,450) [500,600) = 450
    //     overlap = 350 + 180 − 450 = 80 (AR1 under B/C from 220 to 300) → 44.44 %
    //     exposed = 100; window [0,600) = 600; busy = 450 + 20 memcpy = 470; idle = 130
    //   rank 1: compute E[0,150) F[200,300) G[500,620); AR1[250,350) AR2[380,450)
    //     compute = 370, comm = 170, compute ∪ comm = 150 + 150 + 70 + 120 = 490
    //     overlap = 370 + 170 − 490 = 50 → 29.41 %; exposed 120; window 620; idle 130
    //   wait: AR1 durations 130 / 100 → shortest 100: rank 0 waits 30 (rank 1 came last);
    //         AR2 durations 50 / 70 → shortest 50: rank 1 waits 20.
    //   verdict: compute 350/370 uniform; hidden share (overlap ÷ min(comm, compute)) 80/180 =
    //     44.4 % and 50/170 = 29.4 %, median 36.9 % ≥ 15 %; exposed 16.7 % and
    //     19.4 % of the windows (≥ 15 %, 100/120 ≥ 0.6), median wait 25 < 110/3 → fabric.
    void handWrittenFigures() {
        const auto figures = figuresOf({importTrace(kData + "/triage/two_ranks_rank-0.json"),
                                        importTrace(kData + "/triage/two_ranks_rank-1.json")});
        QCOMPARE(figures.size(), std::size_t{2});
        const RankFigures& a = figures[0];
        const RankFigures& b = figures[1];
        QCOMPARE(a.rank, 0L);
        QCOMPARE(b.rank, 1L);
        QCOMPARE(a.computeUs, 350.0);
        QCOMPARE(a.commUs, 180.0);
        QCOMPARE(a.overlapUs, 80.0);
        QVERIFY(std::abs(a.overlapPct - 44.444444) < 1e-3);
        QCOMPARE(a.exposedCommUs, 100.0);
        QCOMPARE(a.windowUs, 600.0);
        QCOMPARE(a.idleUs, 130.0);
        QCOMPARE(a.waitUs, 30.0);
        QCOMPARE(a.collectives, 2);
        QCOMPARE(a.steps, 1);
        QCOMPARE(b.computeUs, 370.0);
        QCOMPARE(b.commUs, 170.0);
        QCOMPARE(b.overlapUs, 50.0);
        QVERIFY(std::abs(b.overlapPct - 29.411765) < 1e-3);
        QCOMPARE(b.exposedCommUs, 120.0);
        QCOMPARE(b.windowUs, 620.0);
        QCOMPARE(b.idleUs, 130.0);
        QCOMPARE(b.waitUs, 20.0);
        const TriageVerdict v = triageVerdict(figures);
        QCOMPARE(v.verdict, std::string("fabric"));
    }

    void unionCountsConcurrentOnce() {
        std::vector<Interval> v = {{10, 20}, {0, 5}, {15, 30}, {30, 31}, {40, 40}, {3, 4}};
        QCOMPARE(unionLengthNs(v), std::int64_t{5 + 21});
        std::vector<Interval> none;
        QCOMPARE(unionLengthNs(none), std::int64_t{0});
    }

    void straggledTieIsNotAStraggler() {
        // One rank computes more but waits as much as the others: not a straggler.
        std::vector<RankFigures> f(4);
        for (long i = 0; i < 4; ++i) {
            f[static_cast<std::size_t>(i)].rank = i;
            f[static_cast<std::size_t>(i)].windowUs = 1000;
            f[static_cast<std::size_t>(i)].computeUs = i == 2 ? 700 : 500;
            f[static_cast<std::size_t>(i)].commUs = 200;
            f[static_cast<std::size_t>(i)].overlapPct = 80;
            f[static_cast<std::size_t>(i)].exposedCommUs = 40;
            f[static_cast<std::size_t>(i)].waitUs = 50;
        }
        QCOMPARE(triageVerdict(f).verdict, std::string("none"));
        f[2].waitUs = 0;
        f[0].waitUs = f[1].waitUs = f[3].waitUs = 180;
        const TriageVerdict v = triageVerdict(f);
        QCOMPARE(v.verdict, std::string("straggler"));
        QCOMPARE(*v.stragglerRank, 2L);
    }

    void noKernelsIsNotNoNccl() {
        // Compute but no communication: the NCCL sentence. No kernel at all (a device whose
        // work is not CUDA/ROCm kernels): the evidence does not claim compute was read.
        std::vector<RankFigures> f(2);
        f[0].rank = 0;
        f[1].rank = 1;
        f[0].windowUs = f[1].windowUs = 1000;
        const TriageVerdict none = triageVerdict(f);
        QCOMPARE(none.verdict, std::string("none"));
        QVERIFY(none.evidence.starts_with("no CUDA or ROCm kernels"));
        f[0].computeUs = f[1].computeUs = 400;
        const TriageVerdict computeOnly = triageVerdict(f);
        QCOMPARE(computeOnly.verdict, std::string("none"));
        QVERIFY(computeOnly.evidence.starts_with("no NCCL kernels"));
    }

    // Overlap % (÷ comm) and the hidden share (÷ min(comm, compute)) part ways when comm is
    // far longer than compute. 4 ranks, window 1000, compute 300, comm 900, wait 10:
    //   overlap 120 → 13.3 % of comm but 40 % of compute: buckets do start under compute;
    //     exposed 780 = 78 % of the window on every rank, wait 10 < 780/3 → fabric.
    //   overlap 0 → 0 % either way, exposed 900 → overlap (serialized).
    void hiddenShareSeparatesSlowFabricFromSerialized() {
        std::vector<RankFigures> f(4);
        for (long i = 0; i < 4; ++i) {
            RankFigures& r = f[static_cast<std::size_t>(i)];
            r.rank = i;
            r.windowUs = 1000;
            r.computeUs = 300;
            r.commUs = 900;
            r.overlapUs = 120;
            r.overlapPct = 100.0 * 120 / 900;
            r.exposedCommUs = 780;
            r.waitUs = 10;
        }
        QCOMPARE(triageVerdict(f).verdict, std::string("fabric"));
        for (RankFigures& r : f) {
            r.overlapUs = 0;
            r.overlapPct = 0;
            r.exposedCommUs = 900;
        }
        QCOMPARE(triageVerdict(f).verdict, std::string("overlap"));
        // A world size larger than the set adds the note, never changes the verdict.
        const TriageVerdict partial = triageVerdict(f, 64);
        QCOMPARE(partial.verdict, std::string("overlap"));
        QVERIFY(partial.evidence.find("only 4 of 64 ranks") != std::string::npos);
        QVERIFY(triageVerdict(f, 4).evidence.find("ranks in the set") == std::string::npos);
    }

    void scenarioLessonAndImportModes() {
        ScenarioInputs in;
        const Scenario* s = findScenario("slowdown-triage");
        QVERIFY(s);
        QCOMPARE(s->group(), ScenarioGroup::ReliabilityAtScale);
        Params p = s->defaultParams();
        QVERIFY(!p.set("ranks", "4"));
        const Story lesson = s->build(p);
        QCOMPARE(lesson.steps.size(), std::size_t{8});
        QVERIFY(lesson.provenance.starts_with("modeled on CPU: seeded generator (seed 1"));
        QCOMPARE(firstImportedStep(lesson), -1);
        const char* verdicts[] = {"none", "straggler", "fabric", "overlap"};
        const std::size_t caseSteps[] = {0, 1, 3, 4};
        for (std::size_t i = 0; i < 4; ++i) {
            const Step& step = lesson.steps[caseSteps[i]];
            QVERIFY2(step.title.find(std::string("verdict ") + verdicts[i]) != std::string::npos,
                     step.title.c_str());
            const Frames f = step.frames(0.5);
            QCOMPARE(f.items.size(), std::size_t{2});
            const auto& tl = std::get<TimelineFrame>(f.items[0]);
            QCOMPARE(tl.lanes.size(), std::size_t{4});
            QVERIFY(tl.gpuOnly);
            QVERIFY(std::holds_alternative<BarChartFrame>(f.items[1]));
        }
        const Frames side = lesson.steps[5].frames(0.0);
        QCOMPARE(side.items.size(), std::size_t{4});
        QCOMPARE(lesson.steps.back().title, std::string(kWhiteboardTitle));

        // Import mode: the user's ranks come first, titled "Your traces".
        for (const char* file : {"/triage/two_ranks_rank-0.json", "/triage/two_ranks_rank-1.json"})
            in.imported.traces.push_back(
                {importTrace(kData + file), in.imported.traces.size() == 0 ? 0L : 1L});
        const Story mine = s->build(p, in);
        // The user's step follows the lesson's whiteboard answer.
        QCOMPARE(mine.steps.size(), std::size_t{9});
        QCOMPARE(firstImportedStep(mine), 8);
        QCOMPARE(mine.steps[7].title, std::string(kWhiteboardTitle));
        QVERIFY2(mine.steps[8].title.find("fabric") != std::string::npos,
                 mine.steps[8].title.c_str());
        QVERIFY(
            mine.provenance.starts_with("IMPORTED: two_ranks_rank-0.json, two_ranks_rank-1.json"));
        const Frames f = mine.steps[8].frames(1.0);
        const auto& tl = std::get<TimelineFrame>(f.items[0]);
        QCOMPARE(tl.lanes.size(), std::size_t{2});
        QVERIFY(!tl.gpuOnly);
        QVERIFY(f == mine.steps[8].frames(1.0));
    }

    // A healthy run's waits are arrival jitter, not a culprit: every rank waits a little, far
    // less than the ranks waiting for a straggler, and no rank waits many times the median.
    void healthyWaitsAreSmall_data() { generatedCases_data(); }
    void healthyWaitsAreSmall() {
        QFETCH(int, ranks);
        QFETCH(int, seed);
        TraceGeneratorConfig cfg;
        cfg.ranks = ranks;
        cfg.seed = static_cast<std::uint64_t>(seed);
        const auto healthy = figuresOf(generateImportedTraces(cfg));
        cfg.triageCase = TriageCase::Straggler;
        cfg.stragglerRank = 0;
        const TriageVerdict straggler = triageVerdict(figuresOf(generateImportedTraces(cfg)));
        const TriageVerdict calm = triageVerdict(healthy);
        dump("healthy wait", healthy, calm);
        for (const RankFigures& r : healthy) {
            // Per all-reduce under the spread of the data-loading gap (ranks start each step
            // that far apart at most, plus kernel jitter), under 5 % of the window, and under a
            // sixth of what a 1.3x straggler costs.
            QVERIFY2(r.waitUs / r.collectives < cfg.hostGapMaxUs - cfg.hostGapMinUs,
                     qPrintable(QString::number(r.waitUs)));
            QVERIFY(r.waitUs < 0.05 * r.windowUs);
            QVERIFY(r.waitUs < straggler.measures.othersWaitUs / 6.0);
        }
    }

    // The measures a slide quotes are the ones the rules compared.
    void measuresAreWhatTheRulesCompared() {
        TraceGeneratorConfig cfg;
        cfg.triageCase = TriageCase::Straggler;
        cfg.ranks = 4;
        cfg.seed = 3;
        cfg.stragglerRank = 2;
        const auto f = figuresOf(generateImportedTraces(cfg));
        const TriageVerdict v = triageVerdict(f);
        const TriageMeasures& m = v.measures;
        QCOMPARE(m.heaviestRank, 2L);
        QCOMPARE(m.heaviestComputeUs, f[2].computeUs);
        QCOMPARE(m.heaviestWaitUs, f[2].waitUs);
        std::vector<double> others;
        for (const RankFigures& r : f)
            if (r.rank != 2)
                others.push_back(r.computeUs);
        std::sort(others.begin(), others.end());
        QCOMPARE(m.othersComputeUs, others[1]); // the median of three
        QVERIFY(std::abs(m.excessPct - 100.0 * (f[2].computeUs - others[1]) / others[1]) < 1e-9);
        double least = 1e300;
        for (const RankFigures& r : f)
            least = std::min(least, r.exposedCommUs / r.windowUs);
        QCOMPARE(m.minExposedShare, least);
    }

    // The words follow the verdict and the values: a slowdown of 1x is no straggler, and a
    // fabric 1.2x slower that still hides under compute is no slow fabric.
    void narrationFollowsTheVerdict_data() {
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("step");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("mustNot");
        QTest::addRow("straggler 1x") << "straggler-slowdown"
                                      << "1" << 1 << "none"
                                      << "waits inside";
        QTest::addRow("fabric 1x") << "fabric-slowdown"
                                   << "1" << 3 << "none"
                                   << "slow";
        QTest::addRow("fabric 1.2x") << "fabric-slowdown"
                                     << "1.2" << 3 << "none"
                                     << "Every collective";
    }
    void narrationFollowsTheVerdict() {
        QFETCH(QString, param);
        QFETCH(QString, value);
        QFETCH(int, step);
        QFETCH(QString, verdict);
        QFETCH(QString, mustNot);
        const Scenario* s = findScenario("slowdown-triage");
        Params p = s->defaultParams();
        QVERIFY(!p.set(param.toStdString(), value.toStdString()));
        const Story story = s->build(p);
        const Step& st = story.steps[static_cast<std::size_t>(step)];
        QVERIFY2(st.title.ends_with("verdict " + verdict.toStdString()), st.title.c_str());
        QVERIFY2(st.narration.find("Verdict: " + verdict.toStdString()) != std::string::npos,
                 st.narration.c_str());
        QVERIFY2(st.narration.find(mustNot.toStdString()) == std::string::npos,
                 st.narration.c_str());
        // The whiteboard says the case read otherwise, with the verdict.
        bool said = false;
        for (const WhiteboardPoint& w : story.whiteboard.points)
            said = said || w.text.find("reads " + verdict.toStdString()) != std::string::npos;
        QVERIFY(said);
    }

    // Every step but the still whiteboard animates: its frame at t = 0.5 is not its resting
    // frame. Timelines at rest draw their whole trace.
    void stepsAnimate() {
        const Scenario* s = findScenario("slowdown-triage");
        const Story story = s->build(s->defaultParams());
        for (std::size_t i = 0; i + 1 < story.steps.size(); ++i) {
            const Step& st = story.steps[i];
            QVERIFY2(!(st.frames(0.5) == st.frames(1.0)), st.title.c_str());
            for (const Frame& f : st.frames(1.0).items)
                if (const auto* tl = std::get_if<TimelineFrame>(&f))
                    QCOMPARE(tl->revealEndNs, std::int64_t{0});
        }
    }

    // The four cases share one time axis: equal windows, as long as the longest trace, and
    // equal lane labels (so equal label columns and equal plot widths).
    void sideBySideSharesOneAxis() {
        const Scenario* s = findScenario("slowdown-triage");
        const Story story = s->build(s->defaultParams());
        const Frames grid = story.steps[5].frames(1.0);
        QCOMPARE(grid.arrangement, Arrangement::Grid);
        std::int64_t longest = 0;
        std::vector<std::int64_t> spans;
        for (const Frame& f : grid.items) {
            const auto& tl = std::get<TimelineFrame>(f);
            const auto [lo, hi] = timeSpan(tl);
            QCOMPARE(tl.viewStartNs, lo);
            longest = std::max(longest, hi - lo);
            spans.push_back(tl.viewEndNs - tl.viewStartNs);
            for (std::size_t i = 0; i < tl.lanes.size(); ++i)
                QCOMPARE(tl.lanes[i].label.find('('), std::string::npos);
        }
        for (const std::int64_t span : spans)
            QCOMPARE(span, longest);
        // Mid-play every panel is revealed to the same time since its start.
        const Frames mid = story.steps[5].frames(0.5);
        for (const Frame& f : mid.items) {
            const auto& tl = std::get<TimelineFrame>(f);
            QVERIFY(std::llabs(tl.revealEndNs - tl.viewStartNs - longest / 2) <= 1);
        }
    }

    // Per rank compute and wait; the straggler's bar is emphasised, computes most, waits
    // least. nvidia-smi's step splits each window into compute, NCCL-only and idle.
    void barsPerRank() {
        const Scenario* s = findScenario("slowdown-triage");
        const Story story = s->build(s->defaultParams());
        const auto bars = std::get<BarChartFrame>(story.steps[1].frames(1.0).items[1]);
        QCOMPARE(bars.categories.size(), std::size_t{8});
        QVERIFY(bars.emphasis >= 0);
        const auto& e = bars.categories[static_cast<std::size_t>(bars.emphasis)];
        for (const BarCategory& c : bars.categories) {
            QCOMPARE(c.segments.size(), std::size_t{2});
            QVERIFY(c.segments[0].value <= e.segments[0].value);
            QVERIFY(c.segments[1].value >= e.segments[1].value);
        }
        const auto util = std::get<BarChartFrame>(story.steps[2].frames(1.0).items[0]);
        QCOMPARE(util.categories.size(), std::size_t{8});
        const auto& slow = util.categories[static_cast<std::size_t>(util.emphasis)];
        for (const BarCategory& c : util.categories) {
            QCOMPARE(c.segments.size(), std::size_t{2});
            // GPU-Util over 90 % on every rank: waiting in NCCL counts as busy.
            QVERIFY2(c.segments[0].value + c.segments[1].value > 0.9, c.label.c_str());
            QVERIFY(c.segments[0].value <= slow.segments[0].value);
        }
        const auto facts = std::get<FactsFrame>(story.steps[2].frames(1.0).items[1]);
        QVERIFY(facts.rows.front().source.find("NVML") != std::string::npos);
    }

    // The rules are on a slide, in order, each with the case it fired on.
    void rulesOnASlide() {
        const Scenario* s = findScenario("slowdown-triage");
        const Story story = s->build(s->defaultParams());
        const auto rules = std::get<FactsFrame>(story.steps[6].frames(1.0).items[0]);
        QCOMPARE(rules.rows.size(), std::size_t{4});
        const char* names[] = {"straggler:", "overlap:", "fabric:", "none:"};
        const char* fired[] = {"Straggler", "Broken overlap", "Slow fabric", "Healthy"};
        for (std::size_t i = 0; i < 4; ++i) {
            QVERIFY2(rules.rows[i].label.starts_with(names[i]), rules.rows[i].label.c_str());
            QVERIFY2(rules.rows[i].value.find(fired[i]) != std::string::npos,
                     rules.rows[i].value.c_str());
            QVERIFY(rules.rows[i].emphasis);
        }
        QCOMPARE(std::get<FactsFrame>(story.steps[6].frames(0.0).items[0]).rows.size(),
                 std::size_t{1});
        // Beside the rules, where each case's time goes: compute alike, exposed comm not.
        const auto where = std::get<BarChartFrame>(story.steps[6].frames(1.0).items[1]);
        QCOMPARE(where.categories.size(), std::size_t{4});
        for (std::size_t i = 1; i < 4; ++i) {
            QVERIFY(std::abs(where.categories[i].segments[0].value -
                             where.categories[0].segments[0].value) <
                    0.05 * where.categories[0].segments[0].value);
            QVERIFY(where.categories[i].segments[1].value > where.categories[0].segments[1].value);
        }
    }
};

QTEST_APPLESS_MAIN(TestTriage)
#include "test_triage.moc"
