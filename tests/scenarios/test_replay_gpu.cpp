// The occupancy and warp-divergence scenarios replay exactly what a trace holds: recorded
// traces set as the live recording show their own numbers, save → load gives identical
// frames, the modeled trace set live draws the same frames as no recording (one code path),
// and the status line never calls modeled data measured.
#include "engine/recording_set.h"
#include "engine/registry.h"
#include "engine/scenario_inputs.h"
#include "gpu/branch_masks_recording.h"
#include "gpu/hbm_latency.h"
#include "gpu/ilp_occupancy_recording.h"
#include "scenario_test_helpers.h"
#include "trace/trace_json.h"

#include <QtTest>
#include <optional>
#include <variant>

using namespace wb;
using namespace wb::test;

namespace {

constexpr const char* kBandwidthStep = "Bandwidth vs occupancy, per ILP";

TraceEvent ilpPoint(int ilp, int warps, double gbs) {
    TraceEvent e;
    e.name = "ilp";
    e.durationNs = std::llround(1073741824.0 / gbs);
    e.values = {{"ilp", ilp},
                {"warps_per_sm", warps},
                {"occupancy_theoretical", warps / 64.0},
                {"gbs", gbs}};
    return e;
}

// Measured-looking points no model would produce: ILP 4 at 25 % beats ILP 1 at 75 %.
Trace recordedIlp() {
    Trace t = recorded(kIlpOccupancyKind, "occupancy");
    t.metadata["threads_per_block"] = "256";
    t.metadata["bytes"] = "536870912";
    t.events = {ilpPoint(1, 16, 811.25), ilpPoint(1, 48, 2203.5), ilpPoint(1, 32, 1500.75),
                ilpPoint(4, 16, 2511.0), ilpPoint(4, 48, 2790.25)};
    return t;
}

TraceEvent maskEvent(const char* kind, const char* point, int warp, int block, double mask) {
    TraceEvent e;
    e.name = kind;
    e.category = point;
    e.track = block * 2 + warp;
    e.startNs = 100;
    e.values = {{"mask", mask}, {"warp", warp}, {"block", block}};
    return e;
}

// odd-even on warp 0 of blocks 0 and 1 as a GPU reports it; block 1's then-mask is corrupted
// on purpose so the comparison has a mismatch to show.
Trace recordedMasks() {
    Trace t = recorded(kBranchMasksKind, "warp-divergence");
    t.metadata["block_dim"] = "64";
    t.metadata["blocks"] = "2";
    t.metadata["seed"] = "42";
    t.metadata["p"] = "0.5";
    t.metadata["time_unit"] = "cycles";
    for (int block : {0, 1}) {
        t.events.push_back(maskEvent("odd-even", "before", 0, block, 0xFFFFFFFF));
        t.events.push_back(
            maskEvent("odd-even", "then", 0, block, block == 0 ? 0xAAAAAAAA : 0xAAAAAAAB));
        t.events.push_back(maskEvent("odd-even", "else", 0, block, 0x55555555));
        t.events.push_back(maskEvent("odd-even", "after", 0, block, 0xFFFFFFFF));
    }
    return t;
}

// The mask check, on the step after the paths ("Reconverged", or for a branch that never
// split "No reconvergence needed").
std::optional<FactsFrame> maskFacts(const Story& s) {
    for (const Step& step : s.steps)
        for (const auto& f : all<FactsFrame>(step.frames(1.0)))
            if (f.title.rfind("Active masks", 0) == 0)
                return f;
    return std::nullopt;
}

} // namespace

class TestReplayGpu : public QObject {
    Q_OBJECT
private slots:

    void occupancyChartsTheRecordedPoints() {
        ScenarioInputs in;
        const Trace t = recordedIlp();
        in.recordings.setLiveRecording(t);
        const Story s = build(in, "occupancy");
        QVERIFY(s.provenance.rfind("RECORDED: measured on NVIDIA H100 80GB HBM3", 0) == 0);
        QVERIFY(s.provenance.find("2026-12-01") != std::string::npos);
        const auto chart = first<ChartFrame>(s.steps[stepIndex(s, kBandwidthStep)].frames(0.5));
        QVERIFY(chart);
        QCOMPARE(chart->series.size(), size_t(2));
        QCOMPARE(chart->series[0].name, std::string("ILP 1"));
        QCOMPARE(chart->series[1].name, std::string("ILP 4"));
        // Sorted by occupancy, the values exactly as recorded.
        const std::vector<ChartPoint> ilp1{{25.0, 811.25}, {50.0, 1500.75}, {75.0, 2203.5}};
        QVERIFY(chart->series[0].points == ilp1);
        const std::vector<ChartPoint> ilp4{{25.0, 2511.0}, {75.0, 2790.25}};
        QVERIFY(chart->series[1].points == ilp4);
        // The story's two kernels: 75 % at ILP 1, 25 % at ILP 4 (the default).
        QCOMPARE(chart->markers.size(), size_t(2));
        QCOMPARE(chart->markers[1].at.y, 2511.0);
        QVERIFY(chart->markers[1].emphasis);
        QVERIFY(chart->footnote.rfind("RECORDED: measured on NVIDIA H100 80GB HBM3", 0) == 0);
        QVERIFY(chart->title.find("NVIDIA H100 80GB HBM3") != std::string::npos);
        // The earlier steps are unchanged: the sims still sit at 4, 5, 6.
        QCOMPARE(s.steps[6].title, std::string("25 % occupancy, ILP 4"));

        const auto points = ilpOccupancyPoints(t);
        QCOMPARE(points.size(), size_t(5));
        QCOMPARE(points[3].ilp, 4);
        QCOMPARE(points[3].gbs, 2511.0);

        in.recordings.setLiveRecording(saveAndLoad(t));
        compareStories(s, build(in, "occupancy"));
    }

    void occupancySaysLiveForALiveTrace() {
        ScenarioInputs in;
        Trace t = recordedIlp();
        t.provenance.source = TraceSource::Live;
        in.recordings.setLiveRecording(t);
        const Story s = build(in, "occupancy");
        QVERIFY(s.provenance.rfind("LIVE: measured on NVIDIA H100 80GB HBM3", 0) == 0);
    }

    void occupancyModeledTraceIsTheSimulationTimesLittlesLaw() {
        ScenarioInputs in;
        const Story s = build(in, "occupancy");
        QVERIFY(s.provenance.rfind("MODELED on CPU for NVIDIA H100", 0) == 0);
        QVERIFY(s.provenance.find("measured") == std::string::npos);
        const GpuSpec& gpu = *HardwareCatalogue::builtin().find("h100-sxm");
        // One latency: the GPU's HBM latency in its cycles, as the lesson's simulation uses.
        const int latency = static_cast<int>(std::lround(hbmLatency(gpu).cycles));
        const Trace modeled = modeledIlpOccupancy(gpu, latency);
        QCOMPARE(saveAndLoad(modeled), modeled);
        QCOMPARE(modeled.events.size(), size_t(20));
        const double hbm = gpu.value("memory_bandwidth_gbs");
        for (const auto& p : ilpOccupancyPoints(modeled)) {
            QVERIFY(p.gbs > 0.0 && p.gbs <= hbm);
            QCOMPARE(p.gbs,
                     modeledIlpBandwidthGBs(gpu, static_cast<int>(p.warpsPerSm), p.ilp, latency));
        }
        // Latency-bound at 8 warps × ILP 1, HBM-bound at 64 warps × ILP 8; 16 warps × ILP 4
        // keeps up with 48 warps × ILP 1.
        QVERIFY(modeledIlpBandwidthGBs(gpu, 8, 1, latency) < 0.3 * hbm);
        QCOMPARE(modeledIlpBandwidthGBs(gpu, 64, 8, latency), hbm);
        QVERIFY(modeledIlpBandwidthGBs(gpu, 16, 4, latency) >=
                0.95 * modeledIlpBandwidthGBs(gpu, 48, 1, latency));
        const auto chart = first<ChartFrame>(s.steps[stepIndex(s, kBandwidthStep)].frames(0.0));
        QVERIFY(chart);
        QCOMPARE(chart->series.size(), size_t(4));
        QVERIFY(chart->footnote.rfind("MODELED on CPU", 0) == 0);
        QVERIFY(chart->footnote.find("measured") == std::string::npos);
        QVERIFY(chart->title.find("measured") == std::string::npos);
        for (const auto& m : chart->markers)
            QVERIFY(m.tooltip.find("measured") == std::string::npos);
        // Set the modeled trace live: the story draws the same frames (one code path).
        in.recordings.setLiveRecording("occupancy", modeled);
        compareModeledWithLive(s, build(in, "occupancy"));
    }

    void divergenceComparesRecordedMasksWithTheInterpreter() {
        ScenarioInputs in;
        const Trace t = recordedMasks();
        in.recordings.setLiveRecording(t);
        const Story s = build(in, "warp-divergence");
        QVERIFY(s.provenance.rfind("RECORDED: measured on NVIDIA H100 80GB HBM3", 0) == 0);
        const auto facts = maskFacts(s);
        QVERIFY(facts);
        // The title names the branch as the slide writes it and says where the masks come from.
        QCOMPARE(facts->title, std::string("Active masks of if (threadIdx.x % 2), warp 0 of block "
                                           "0: recorded on NVIDIA H100 80GB HBM3 vs predicted"));
        QCOMPARE(facts->rows.size(), size_t(4));
        QCOMPARE(facts->rows[0].label, std::string("before"));
        QCOMPARE(facts->rows[1].label, std::string("then"));
        QCOMPARE(facts->rows[1].value, std::string("recorded 0xAAAAAAAA · predicted 0xAAAAAAAA ✓"));
        QCOMPARE(facts->rows[2].label, std::string("else"));
        QCOMPARE(facts->rows[2].value, std::string("recorded 0x55555555 · predicted 0x55555555 ✓"));
        QCOMPARE(facts->rows[3].value, std::string("recorded 0xFFFFFFFF · predicted 0xFFFFFFFF ✓"));
        for (const auto& row : facts->rows)
            QVERIFY(!row.emphasis);

        // Block 1 recorded a then-mask the interpreter does not predict: shown, marked ✗.
        const Story odd = build(in, "warp-divergence", {{"block", "1"}});
        const auto bad = maskFacts(odd);
        QVERIFY(bad && bad->title.find("warp 0 of block 1") != std::string::npos);
        QCOMPARE(bad->rows[1].value, std::string("recorded 0xAAAAAAAB · predicted 0xAAAAAAAA ✗"));
        QVERIFY(bad->rows[1].emphasis);
        // Block 3 is not in the trace: block 1, of the same parity, stands in.
        const auto parity = maskFacts(build(in, "warp-divergence", {{"block", "3"}}));
        QVERIFY(parity && parity->title.find("warp 0 of block 1") != std::string::npos);
        // A warp the trace lacks: every predicted point shows as not reached, never hidden.
        const auto missing = maskFacts(build(in, "warp-divergence", {{"warp", "1"}}));
        QVERIFY(missing && !missing->rows.empty());
        for (const auto& row : missing->rows)
            QVERIFY(row.value.rfind("recorded not reached", 0) == 0 && row.emphasis);

        const auto records = branchMaskRecords(t);
        QCOMPARE(records.size(), size_t(8));
        QCOMPARE(records[5].mask, 0xAAAAAAABu);
        QCOMPARE(records[5].block, 1);

        in.recordings.setLiveRecording(saveAndLoad(t));
        compareStories(s, build(in, "warp-divergence"));
        compareStories(odd, build(in, "warp-divergence", {{"block", "1"}}));
    }

    void divergenceSaysLiveForALiveTrace() {
        ScenarioInputs in;
        Trace t = recordedMasks();
        t.provenance.source = TraceSource::Live;
        in.recordings.setLiveRecording(t);
        QVERIFY(build(in, "warp-divergence")
                    .provenance.rfind("LIVE: measured on NVIDIA H100 80GB HBM3", 0) == 0);
    }

    void divergenceModeledMasksAgreeWithThePrediction() {
        ScenarioInputs in;
        // The shipped recording ran p = 0.5: at any other p the interpreter's masks are drawn.
        const Story s = build(in, "warp-divergence", {{"p", "0.3"}});
        QVERIFY(s.provenance.rfind("MODELED on CPU", 0) == 0);
        QVERIFY(s.provenance.find("measured") == std::string::npos);
        QVERIFY2(s.provenance.find("replays when Data branch probability p is 0.5") !=
                     std::string::npos,
                 s.provenance.c_str());
        const Trace modeled = modeledBranchMasks(0, 0.3, 42);
        QCOMPARE(saveAndLoad(modeled), modeled);
        // odd-even, warp 0: the then-path runs the odd lanes.
        SimtConfig c;
        const auto masks = predictedBranchMasks(c);
        QCOMPARE(masks.at("before"), 0xFFFFFFFFu);
        QCOMPARE(masks.at("then"), 0xAAAAAAAAu);
        QCOMPARE(masks.at("else"), 0x55555555u);
        QCOMPARE(masks.at("after"), 0xFFFFFFFFu);
        QVERIFY(!masks.contains("inner-then"));
        c.kind = BranchKind::Nested;
        const auto nested = predictedBranchMasks(c);
        QCOMPARE(nested.at("then"), 0x0000FFFFu);
        QCOMPARE(nested.at("inner-then"), 0x0000AAAAu);
        QCOMPARE(nested.at("inner-else"), 0x00005555u);
        QCOMPARE(nested.at("else"), 0xFFFF0000u);
        c.kind = BranchKind::WarpUniform;
        c.warp = 1;
        const auto uniform = predictedBranchMasks(c);
        QVERIFY(!uniform.contains("then")); // no lane of warp 1 takes it: nothing recorded
        QCOMPARE(uniform.at("else"), 0xFFFFFFFFu);

        // Every fixed kind, warp and a few inputs: the modeled masks agree by construction.
        for (const char* kind :
             {"odd-even", "half-warp", "warp-uniform", "block-uniform", "data", "nested"})
            for (const char* warp : {"0", "1"})
                for (const char* block : {"0", "1"})
                    for (const char* p : {"0", "0.3", "1"}) {
                        const Story story =
                            build(in, "warp-divergence",
                                  {{"branch", kind}, {"warp", warp}, {"block", block}, {"p", p}});
                        const auto facts = maskFacts(story);
                        QVERIFY(facts && facts->rows.size() >= 3);
                        for (const auto& row : facts->rows) {
                            QVERIFY2(row.value.rfind("modeled 0x", 0) == 0, row.value.c_str());
                            QVERIFY2(row.value.ends_with(" ✓"), row.value.c_str());
                            QVERIFY(row.source.find("measured") == std::string::npos);
                        }
                        QVERIFY(facts->title.find("measured") == std::string::npos);
                    }
        // Set the modeled trace live: the story draws the same frames (one code path).
        in.recordings.setLiveRecording("warp-divergence", modeled);
        compareModeledWithLive(s, build(in, "warp-divergence", {{"p", "0.3"}}));
    }

    void customConditionsAreNotInTheTrace() {
        const auto facts =
            maskFacts(build("warp-divergence", {{"branch", "custom"}, {"condition", "lane < 8"}}));
        QVERIFY(facts);
        QCOMPARE(facts->rows.size(), size_t(1));
    }
};

QTEST_APPLESS_MAIN(TestReplayGpu)
#include "test_replay_gpu.moc"
