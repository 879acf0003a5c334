// Scenarios replay exactly what a trace holds: a recorded trace set as the live recording
// shows its own numbers, save → load gives identical frames, modeled traces draw the same
// frames as the model, and the status line never calls modeled data measured.
#include "engine/recording_set.h"
#include "engine/registry.h"
#include "engine/scenario_inputs.h"
#include "gpu/block_placement_recording.h"
#include "gpu/roofline_probes_recording.h"
#include "gpu/staircase_recording.h"
#include "gpu/transpose_recording.h"
#include "roofline/roofline_model.h"
#include "scenario_test_helpers.h"
#include "trace/trace_json.h"

#include <QtTest>
#include <optional>
#include <variant>

using namespace wb;
using namespace wb::test;

namespace {

// Recorded placement: 2,640 blocks of 256 threads on the H100's 132 SMs, 8 blocks per SM
// (1,056 per wave: 2.5 waves), in an order no round-robin model would produce.
constexpr int kRecordedBlocks = 2640;
const std::initializer_list<std::pair<const char*, const char*>> kPlacementParams = {
    {"blocks", "2640"}, {"registers-per-thread", "32"}};

Trace recordedPlacement() {
    Trace t = recorded(kBlockPlacementKind, "silicon-mapping");
    t.metadata["blocks"] = std::to_string(kRecordedBlocks);
    t.metadata["threads_per_block"] = "256";
    t.metadata["registers_per_thread"] = "12";
    t.metadata["smem_per_block"] = "0";
    t.metadata["blocks_per_sm"] = "8";
    for (int b = 0; b < kRecordedBlocks; ++b) {
        TraceEvent e;
        e.name = "block";
        e.track = (b * 7 + b / 1056) % 132;
        e.startNs = (b / 1056) * 5000 + (b % 1056) * 3; // 3 waves, slightly staggered
        e.durationNs = 4900;
        e.values = {{"block", b}, {"smid", e.track}, {"warps", 8}};
        t.events.push_back(e);
    }
    return t;
}

Trace recordedTranspose() {
    Trace t = recorded(kTransposeTimingKind, "coalescing-transpose");
    t.metadata = {{"scenario", "coalescing-transpose"},
                  {"n", "8192"},
                  {"elem_bytes", "4"},
                  {"tile", "32"},
                  {"block_rows", "8"},
                  {"repetitions", "20"},
                  {"sm_count", "132"},
                  {"memory_gb", "85.0299"}};
    const std::vector<std::pair<const char*, double>> gbs{
        {"copy", 2871.25}, {"naive", 611.5}, {"tiled", 1702.0}, {"padded", 2640.75}};
    for (const auto& [name, value] : gbs) {
        TraceEvent e;
        e.name = name;
        e.durationNs = std::llround(2.0 * 8192.0 * 8192.0 * 4.0 / value);
        e.values = {
            {"gbs", value}, {"pct_of_copy", 100.0 * value / 2871.25}, {"reference_ok", 1.0}};
        t.events.push_back(e);
    }
    return t;
}

} // namespace

class TestReplay : public QObject {
    Q_OBJECT
private slots:

    void registryPrefersLiveAndNeedsAScenarioId() {
        RecordingSet set;
        const Trace* shipped = set.recordingFor("silicon-mapping"); // resources/traces
        QVERIFY(shipped && shipped->provenance.source == TraceSource::Recorded);
        Trace t = recordedPlacement();
        QVERIFY(set.setLiveRecording(t));
        QVERIFY(set.recordingFor("silicon-mapping") && *set.recordingFor("silicon-mapping") == t);
        set.clearLiveRecording("silicon-mapping");
        QCOMPARE(set.recordingFor("silicon-mapping"), shipped);
        t.metadata.erase("scenario");
        QVERIFY(!set.setLiveRecording(t));
    }

    // Inputs are explicit: the same parameters and the same inputs give the same frames, even
    // when other inputs (what the app would hold after another recording) are built in between;
    // the inputs, not a global, decide what a story replays.
    void sameParamsAndInputsGiveTheSameFrames() {
        const Scenario& roofline = *findScenario("roofline");
        const Params p = roofline.defaultParams();
        ScenarioInputs live;
        live.recordings.setLiveRecording(
            "roofline", modeledRooflineProbes(*HardwareCatalogue::builtin().find("h100-sxm")));
        const Story first = roofline.build(p, live);
        ScenarioInputs other = live;
        other.recordings.setLiveRecording(recordedPlacement());
        other.recordings.clearLiveRecording("roofline");
        const Story between = roofline.build(p, other);
        const Story again = roofline.build(p, live);
        compareStories(first, again);
        // The shipped inputs replay the shipped recording's note; the live one hides it.
        QVERIFY(between.provenance != first.provenance);
        compareStories(between, roofline.build(p));
        // A story keeps what it was built from when its inputs change afterwards.
        live.recordings.clearAllLiveRecordings();
        compareStories(first, again);
    }

    void siliconMappingDrawsTheRecordedPlacement() {
        ScenarioInputs in;
        const Trace t = recordedPlacement();
        in.recordings.setLiveRecording(t);
        const Story s = build(in, "silicon-mapping", kPlacementParams);
        QVERIFY(s.provenance.rfind("RECORDED: measured on NVIDIA H100 80GB HBM3", 0) == 0);
        QVERIFY(s.provenance.find("2026-12-01") != std::string::npos);
        // Wave 1 = the first 1,056 starts; block 7 sits on the SM it recorded.
        const auto w1 = first<SmGridFrame>(s.steps[1].frames(0.0));
        QVERIFY(w1);
        QCOMPARE(w1->smCount, 132);
        QCOMPARE(w1->waves, 3);
        const int sm7 = t.events[7].track;
        const auto& blocks = w1->sms[static_cast<size_t>(sm7)].blocks;
        QVERIFY(std::find(blocks.begin(), blocks.end(), 7) != blocks.end());
        for (int sm = 0; sm < 132; ++sm)
            for (int b : w1->sms[static_cast<size_t>(sm)].blocks)
                QCOMPARE(sm, t.events[static_cast<size_t>(b)].track);
        // The tail wave is the step before the whiteboard answer.
        const auto tail = first<SmGridFrame>(s.steps[s.steps.size() - 2].frames(1.0));
        QVERIFY(tail);
        QCOMPARE(tail->wave, 3);
        QCOMPARE(tail->blocksDone, 2112);
        // The waves step's facts say where the placement came from.
        const auto facts = first<FactsFrame>(s.steps[2].frames(0.0));
        QVERIFY(facts);
        QCOMPARE(facts->rows.back().value, std::string("recorded %smid"));

        in.recordings.setLiveRecording(saveAndLoad(t));
        compareStories(s, build(in, "silicon-mapping", kPlacementParams));
    }

    // A recording replays only under the parameters it was measured at; elsewhere the model
    // draws and the provenance says which values replay the measurement.
    void aRecordingReplaysOnlyWhereItsInputsHold() {
        ScenarioInputs in;
        in.recordings.setLiveRecording(recordedPlacement());
        const Story atDefaults = build(in, "silicon-mapping");
        QVERIFY(atDefaults.provenance.rfind("MODELED on CPU", 0) == 0);
        QVERIFY(atDefaults.provenance.find("replays when Grid size (blocks) is 2640") !=
                std::string::npos);
        const Story otherGpu =
            build(in, "silicon-mapping",
                  {{"blocks", "2640"}, {"registers-per-thread", "32"}, {"gpu", "a100-sxm-80gb"}});
        QVERIFY(otherGpu.provenance.rfind("MODELED on CPU", 0) == 0);
        QVERIFY(otherGpu.provenance.find("GPU is NVIDIA H100 SXM5 80 GB") != std::string::npos);
        // Same GPU and grid, but 64 registers fit 4 blocks per SM where the kernel ran 8.
        const Story fewer = build(in, "silicon-mapping", {{"blocks", "2640"}});
        QVERIFY(fewer.provenance.rfind("MODELED on CPU", 0) == 0);
        QVERIFY(fewer.provenance.find("ran 8 blocks per SM; these parameters fit 4") !=
                std::string::npos);
        // The app sets a live recording's inputs: then it replays.
        const Scenario& mapping = *findScenario("silicon-mapping");
        const auto params = paramsReplaying(mapping, recordedPlacement(), mapping.defaultParams());
        QVERIFY(params);
        QCOMPARE(params->integer("blocks"), 2640LL);
        QCOMPARE(params->text("gpu"), std::string("h100-sxm"));
        // A device the catalogue lacks never replays, and says so.
        Trace pcie = recordedPlacement();
        pcie.provenance.device = "NVIDIA H100 PCIe";
        pcie.metadata["sm_count"] = "114";
        in.recordings.setLiveRecording(pcie);
        const Story unknown = build(in, "silicon-mapping", kPlacementParams);
        QVERIFY(unknown.provenance.rfind("MODELED on CPU", 0) == 0);
        QVERIFY(unknown.provenance.find("its device is not in the catalogue") != std::string::npos);
        QVERIFY(!paramsReplaying(mapping, pcie, mapping.defaultParams()));
    }

    void siliconMappingModeledReplayIsTheWaveModel() {
        const Story s = build("silicon-mapping", {{"registers-per-thread", "32"}});
        QVERIFY(s.provenance.rfind("MODELED on CPU", 0) == 0);
        QVERIFY(s.provenance.find("measured") == std::string::npos);
        const WaveModel model(2000, 132, 8, 8, 64);
        // Steps: before launch (wave 0), wave 1, the tail (wave 2).
        QVERIFY(first<SmGridFrame>(s.steps[0].frames(0.0)) == model.waveFrame(0));
        QVERIFY(first<SmGridFrame>(s.steps[1].frames(0.0)) == model.waveFrame(1));
        QVERIFY(first<SmGridFrame>(s.steps[3].frames(0.0)) == model.waveFrame(2));
        // The modeled trace round-trips too.
        const Trace modeled =
            modeledBlockPlacement(model, KernelResources{256, 32, 0}, 8, "h100-sxm", "H100");
        QCOMPARE(saveAndLoad(modeled), modeled);
        const BlockPlacementReplay a(modeled, 64);
        const BlockPlacementReplay b(saveAndLoad(modeled), 64);
        for (int w = 0; w <= 2; ++w) {
            QVERIFY(a.waveFrame(w) == model.waveFrame(w));
            QVERIFY(b.waveFrame(w) == a.waveFrame(w));
        }
        QCOMPARE(a.smOf(1057), model.smOf(1057));
    }

    void transposeBillShowsTheRecordedBandwidth() {
        ScenarioInputs in;
        const Trace t = recordedTranspose();
        in.recordings.setLiveRecording(t);
        const Story s = build(in, "coalescing-transpose", {{"n", "8192"}});
        QVERIFY(s.provenance.rfind("RECORDED: measured on NVIDIA H100 80GB HBM3", 0) == 0);
        // The bars are the recorded numbers, the slowest named in the caption beside where
        // they were measured.
        const auto chart = first<BarChartFrame>(s.steps[stepIndex(s, "The bill")].frames(0.5));
        QVERIFY(chart);
        QVERIFY(chart->title.find("n = 8192") != std::string::npos);
        const auto timings = transposeTimings(t);
        QCOMPARE(timings[1].gbs, 611.5);
        QCOMPARE(chart->categories.size(), timings.size());
        for (std::size_t i = 0; i < timings.size(); ++i)
            QCOMPARE(chart->categories[i].segments[0].value, timings[i].gbs);
        QCOMPARE(chart->categories[1].segments[0].tip,
                 std::string("naive: 611.5 GB/s, 21.3 % of the copy"));
        QVERIFY(chart->caption.find("naive at 21.3 %") != std::string::npos);
        QVERIFY(chart->caption.find("measured on NVIDIA H100") != std::string::npos);
        // Beside the peak, what the recorded copy reaches of it, as measured.
        QCOMPARE(chart->references.size(), std::size_t(1));
        QCOMPARE(chart->references[0].value, 3350.0);
        QCOMPARE(chart->categories[0].label, std::string("copy · 85.7 % of peak"));
        const std::string& narration = s.steps[stepIndex(s, "The bill")].narration;
        QVERIFY2(narration.find("The copy reaches 2871 GB/s, 85.7 % of the 3350 GB/s peak "
                                "(measured)") != std::string::npos,
                 narration.c_str());

        in.recordings.setLiveRecording(saveAndLoad(t));
        compareStories(s, build(in, "coalescing-transpose", {{"n", "8192"}}));
        // The timings are of n = 8192: at the default n the model draws the bill.
        QVERIFY(build(in, "coalescing-transpose")
                    .provenance.find("replays when Matrix size n is 8192") != std::string::npos);
    }

    void transposeModeledTimingsFollowTheModel() {
        ScenarioInputs in;
        const Story s = build(in, "coalescing-transpose");
        QVERIFY(s.provenance.rfind("MODELED on CPU", 0) == 0);
        QVERIFY(s.provenance.find("measured") == std::string::npos);
        TransposeConfig c;
        const GpuSpec& gpu = *HardwareCatalogue::builtin().find("h100-sxm");
        const Trace modeled = modeledTransposeTiming(c, gpu);
        QCOMPARE(saveAndLoad(modeled), modeled);
        const auto timings = transposeTimings(modeled);
        QCOMPARE(timings.size(), size_t(4));
        // The copy runs at what BabelStream reaches of peak (87 % on an A100), not at peak.
        QVERIFY(std::fabs(timings[0].gbs - gpu.value("memory_bandwidth_gbs") * 1774.0 / 2039.0) <
                1e-6);
        QVERIFY(!achievableCopy(gpu).measured);
        QVERIFY(achievableCopy(*HardwareCatalogue::builtin().find("a100-sxm-80gb")).measured);
        c.variant = TransposeVariant::Naive;
        QVERIFY(std::fabs(timings[1].pctOfCopy - 100.0 / TransposeModel(c).summary().relativeTime) <
                1e-9);
        const auto bill = first<BarChartFrame>(s.steps[stepIndex(s, "The bill")].frames(0.0));
        QVERIFY(bill->caption.find("modeled on CPU") != std::string::npos);
        QVERIFY(bill->caption.find("measured") == std::string::npos);
        // The modeled copy runs at the achievable share, labelled as assumed for an H100.
        QCOMPARE(bill->categories[0].label, std::string("copy · 87 % of peak (assumed)"));
        QVERIFY(s.steps[stepIndex(s, "The bill")].narration.find("assumed") != std::string::npos);
        // Set the modeled trace live: the story draws the same frames (one code path).
        in.recordings.setLiveRecording("coalescing-transpose", modeled);
        compareModeledWithLive(s, build(in, "coalescing-transpose"));
    }

    void memoryHierarchyPrefersTheLiveStaircase() {
        ScenarioInputs in;
        Trace t = recorded(kPointerChaseKind, "memory-hierarchy");
        t.provenance.source = TraceSource::Live;
        t.series.push_back(
            {"load latency", "B", "cycles", {4096, 65536, 1e6, 1e8}, {33.5, 35.0, 261.25, 655.0}});
        t.series.push_back({"read bandwidth",
                            "B",
                            "GB/s",
                            {4096, 65536, 1e6, 1e8},
                            {9000.0, 12000.0, 7400.0, 3010.5}});
        in.recordings.setLiveRecording(t);
        const Story s = build(in, "memory-hierarchy");
        QVERIFY(s.provenance.rfind("LIVE: measured on NVIDIA H100 80GB HBM3", 0) == 0);
        const auto stairs = first<ChartFrame>(s.steps[4].frames(1.0));
        QVERIFY(stairs);
        const auto& pts = stairs->series.front().points;
        QCOMPARE(pts.size(), size_t(4));
        QCOMPARE(pts[2].y, 261.25);
        QVERIFY(stairs->footnote.find("live recording") != std::string::npos);
        const size_t bw = stepIndex(s, "Bandwidth as the working set grows");
        const auto chart = first<ChartFrame>(s.steps[bw].frames(1.0));
        QCOMPARE(chart->series.front().name, std::string("read bandwidth"));
        QCOMPARE(chart->series.front().points.back().y, 3010.5);

        in.recordings.setLiveRecording(saveAndLoad(t));
        compareStories(s, build(in, "memory-hierarchy"));
    }

    void memoryHierarchyWithoutRecordingReplaysTheShippedModel() {
        const Story s = build("memory-hierarchy");
        QVERIFY(s.provenance.rfind("MODELED on CPU", 0) == 0);
        QVERIFY(s.provenance.find("measured") == std::string::npos);
        for (const auto& step : s.steps)
            QVERIFY(step.title != "Bandwidth as the working set grows");
        const auto stairs = first<ChartFrame>(s.steps[4].frames(1.0));
        QVERIFY(stairs->footnote.find("pointer-chase-h100-sxm.json") != std::string::npos);
    }

    void rooflineDrawsRecordedCeilingsAndKernels() {
        ScenarioInputs in;
        Trace t = recorded(kRooflineProbesKind, "roofline");
        TraceEvent fp32{"fp32-fma", "", 0, 0, 1000, {{"tflops", 51.25}}};
        TraceEvent bf16{"bf16-mma", "", 0, 0, 1000, {{"tflops", 702.5}}};
        TraceEvent hbm{"hbm-bandwidth", "", 0, 0, 1000, {{"gbs", 2975.0}}};
        TraceEvent gemm{
            "kernel",
            "gemm 4096",
            0,
            0,
            1000,
            {{"flops", 1.4e11}, {"bytes", 1e8}, {"tflops", 612.0}, {"intensity", 1365.0}}};
        t.events = {fp32, bf16, hbm, gemm};
        in.recordings.setLiveRecording(t);
        const Story s = build(in, "roofline");
        QVERIFY(s.provenance.rfind("RECORDED: measured on NVIDIA H100 80GB HBM3", 0) == 0);
        const Frames frames = s.steps[stepIndex(s, "Probes against the roofs")].frames(0.0);
        const auto chart = first<ChartFrame>(frames);
        QVERIFY(chart);
        bool bf16Ceiling = false;
        for (const auto& series : chart->series)
            if (series.name == "BF16 tensor MMA probe")
                bf16Ceiling = series.points.back().y == 702.5;
        QVERIFY(bf16Ceiling);
        QCOMPARE(chart->markers.size(), size_t(1));
        QCOMPARE(chart->markers.front().at.x, 1365.0);
        QCOMPARE(chart->markers.front().at.y, 612.0);
        QCOMPARE(chart->markers.front().label, std::string("gemm 4096"));
        const auto facts = first<FactsFrame>(frames);
        QVERIFY(facts->rows[2].value.rfind("2975 GB/s", 0) == 0);

        in.recordings.setLiveRecording(saveAndLoad(t));
        compareStories(s, build(in, "roofline"));
    }

    void rooflineModeledProbesAreTheCataloguePeaks() {
        ScenarioInputs in;
        const Story s = build(in, "roofline");
        QVERIFY(s.provenance.rfind("MODELED on CPU", 0) == 0);
        QVERIFY(s.provenance.find("measured") == std::string::npos);
        const GpuSpec& gpu = *HardwareCatalogue::builtin().find("h100-sxm");
        const Trace modeled = modeledRooflineProbes(gpu);
        QCOMPARE(saveAndLoad(modeled), modeled);
        const RooflineProbes probes = rooflineProbes(modeled);
        QCOMPARE(*probes.bf16Tflops, *peakTflops(gpu, Precision::BF16));
        QCOMPARE(*probes.hbmGBs, gpu.value("memory_bandwidth_gbs"));
        QVERIFY(probes.kernels.empty());
        const size_t probeStep = stepIndex(s, "Probes against the roofs");
        const auto facts = first<FactsFrame>(s.steps[probeStep].frames(0.0));
        // The modeled rows never say measured; the shipped H200 recording's rows, listed
        // beside them under that GPU's name, do, because they were.
        for (const auto& row : facts->rows) {
            const bool shipped = row.label.rfind("H200", 0) == 0;
            QCOMPARE(row.source.find("measured") != std::string::npos, shipped);
        }
        in.recordings.setLiveRecording("roofline", modeled);
        const Story live = build(in, "roofline");
        QVERIFY(s.provenance.rfind(live.provenance + "; a recording from ", 0) == 0);
        // A live modeled trace hides the shipped recording, so only the probe step's table
        // differs: the live rows are the modeled story's rows less the H200 ones.
        QCOMPARE(s.steps.size(), live.steps.size());
        for (size_t i = 0; i < s.steps.size(); ++i)
            for (double t : {0.0, 0.4, 1.0}) {
                if (i != probeStep) {
                    QVERIFY2(s.steps[i].frames(t) == live.steps[i].frames(t),
                             s.steps[i].title.c_str());
                    continue;
                }
                const auto a = first<FactsFrame>(s.steps[i].frames(t));
                const auto b = first<FactsFrame>(live.steps[i].frames(t));
                QVERIFY(a->rows.size() > b->rows.size());
                for (size_t r = 0; r < b->rows.size(); ++r)
                    QCOMPARE(a->rows[r], b->rows[r]);
                QCOMPARE(first<ChartFrame>(s.steps[i].frames(t)),
                         first<ChartFrame>(live.steps[i].frames(t)));
            }
    }
};

QTEST_APPLESS_MAIN(TestReplay)
#include "test_replay.moc"
