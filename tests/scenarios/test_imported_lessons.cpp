// The user's imported files in the lesson scenarios: Nsight Compute kernels on the roofline
// and in occupancy, nccl-tests rows against the α-β model (and the fit), NCCL rings and trees
// as a CommGraphFrame. An empty imported set must leave every story exactly as it was.
#include "collectives/collective_cost.h"
#include "engine/imported_set.h"
#include "engine/number_format.h"
#include "engine/registry.h"
#include "engine/scenario_inputs.h"
#include "frames/frame.h"
#include "import/import_registry.h"
#include "imported/nccl_tests_fit.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <fstream>
#include <optional>
#include <tuple>

using namespace wb;

namespace {

const std::string kData = std::string(WB_TEST_DATA) + "/import/";

std::shared_ptr<const ImportResult> import(const std::string& path) {
    auto r = importFile(path);
    if (std::holds_alternative<ImportError>(r))
        qFatal("import of %s failed", path.c_str());
    return std::shared_ptr<const ImportResult>(std::move(std::get<0>(r)));
}

// The story from the imported files in `inputs` (nothing global: each test has its own).
Story build(const ScenarioInputs& inputs, const std::string& id,
            const std::vector<std::pair<std::string, std::string>>& set = {}) {
    const Scenario* s = findScenario(id);
    if (s == nullptr)
        qFatal("no scenario %s", id.c_str());
    Params p(s->parameters());
    for (const auto& [k, v] : set)
        if (auto err = p.set(k, v))
            qFatal("%s", err->c_str());
    return s->build(p, inputs);
}

const Step* stepTitled(const Story& story, const std::string& title) {
    for (const auto& step : story.steps)
        if (step.title == title)
            return &step;
    return nullptr;
}

template <typename F> F frameOf(const Frames& frames, int nth = 0) {
    for (const auto& item : frames.items)
        if (const auto* f = std::get_if<F>(&item))
            if (nth-- == 0)
                return *f;
    qFatal("frame kind not in the step");
}

// The row labelled `label`, or one whose label says it is missing (so comparisons fail).
FactRow row(const FactsFrame& f, const std::string& label) {
    for (const auto& r : f.rows)
        if (r.label == label)
            return r;
    return FactRow{"<missing> " + label, "<missing>", "<missing>", false};
}

bool hasRow(const FactsFrame& f, const std::string& label) {
    return row(f, label).value != "<missing>";
}

const ChartSeries* series(const ChartFrame& f, const std::string& prefix) {
    for (const auto& s : f.series)
        if (s.name.rfind(prefix, 0) == 0)
            return &s;
    return nullptr;
}

// A long-format `ncu --csv` with two launches, written by hand so every number is known.
// Launch 0, "void ns::k_fma<4>(float*)": block (256,1,1), 128 registers per thread,
//   ffma 1,000,000 + fadd 500,000 thread instructions → 2·1e6 + 5e5 = 2.5e6 FLOP,
//   DRAM 1,000,000 B read + 250,000 B written = 1.25e6 B → intensity 2.5e6 / 1.25e6 = 2 FLOP/B,
//   1,000 ns → 2.5e6 FLOP / 1e-6 s = 2.5e12 FLOP/s = 2.5 TFLOP/s;
//   achieved 20 %, theoretical 25 %, the register limit allows the fewest blocks (2).
// Launch 1, "copy(float*)": DRAM bytes and duration but no FLOP metrics → not plotted.
std::string writeHandCsv(const QTemporaryDir& dir) {
    const std::string path = dir.path().toStdString() + "/hand.csv";
    std::ofstream out(path);
    out << "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","
           "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\","
           "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
    auto line = [&](int id, const char* kernel, const char* block, const char* metric,
                    const char* unit, const char* value) {
        out << "\"" << id << "\",\"1\",\"app\",\"host\",\"" << kernel << "\",\"1\",\"7\",\""
            << block << "\",\"(64, 1, 1)\",\"0\",\"9.0\",\"s\",\"" << metric << "\",\"" << unit
            << "\",\"" << value << "\"\n";
    };
    const char* k0 = "void ns::k_fma<4>(float *)";
    const char* b0 = "(256, 1, 1)";
    line(0, k0, b0, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "1,000,000");
    line(0, k0, b0, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "inst", "500,000");
    line(0, k0, b0, "dram__bytes_read.sum", "byte", "1,000,000");
    line(0, k0, b0, "dram__bytes_write.sum", "byte", "250,000");
    line(0, k0, b0, "gpu__time_duration.sum", "nsecond", "1,000");
    line(0, k0, b0, "sm__warps_active.avg.pct_of_peak_sustained_active", "%", "20");
    line(0, k0, b0, "sm__maximum_warps_per_active_cycle_pct", "%", "25");
    line(0, k0, b0, "launch__registers_per_thread", "register/thread", "128");
    line(0, k0, b0, "launch__occupancy_limit_registers", "block", "2");
    line(0, k0, b0, "launch__occupancy_limit_warps", "block", "8");
    const char* k1 = "copy(float *)";
    line(1, k1, b0, "dram__bytes_read.sum", "byte", "4,000");
    line(1, k1, b0, "dram__bytes_write.sum", "byte", "4,000");
    line(1, k1, b0, "gpu__time_duration.sum", "nsecond", "2,000");
    return path;
}

// A long-format CSV with `n` launches, five metrics each, written by `launch(i)` → (kernel,
// ffma thread instructions, DRAM bytes read, duration ns); achieved occupancy 50 %.
template <typename Launch>
std::string writeManyLaunches(const QTemporaryDir& dir, int n, Launch launch) {
    const std::string path = dir.path().toStdString() + "/many.csv";
    std::ofstream out(path);
    out << "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\","
           "\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
    for (int i = 0; i < n; ++i) {
        const auto [kernel, ffma, bytes, ns] = launch(i);
        auto line = [&](const char* metric, const char* unit, double value) {
            out << "\"" << i << "\",\"" << kernel << "\",\"(256, 1, 1)\",\"(8, 1, 1)\",\"0\","
                << "\"9.0\",\"s\",\"" << metric << "\",\"" << unit << "\",\"" << std::fixed << value
                << "\"\n";
        };
        line("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", ffma);
        line("dram__bytes_read.sum", "byte", bytes);
        line("dram__bytes_write.sum", "byte", 0.0);
        line("gpu__time_duration.sum", "nsecond", ns);
        line("sm__warps_active.avg.pct_of_peak_sustained_active", "%", 50.0);
    }
    return path;
}

// nccl-tests rows made by the model itself: `test` on `ranks` ranks, 8 B … 8 GiB (×4), with
// the times, algbw and busbw of `cost(K)` (an AllReduceCost from collective_cost).
template <typename Cost>
std::shared_ptr<NcclTestsResult> synthetic(const std::string& test, std::optional<int> ranks,
                                           Cost cost) {
    auto r = std::make_shared<NcclTestsResult>();
    r->format = "nccl-tests";
    r->path = "synthetic_" + test + ".txt";
    r->test = test;
    r->nranks = ranks;
    for (std::int64_t k = 8; k <= (std::int64_t(1) << 33); k *= 4) {
        const AllReduceCost c = cost(static_cast<double>(k));
        NcclTestsRow row;
        row.size = k;
        row.count = k / 4;
        row.type = "float";
        row.outOfPlace = {c.timeS * 1e6, c.algbwBytesPerS / 1e9, c.busbwBytesPerS / 1e9, 0, {}};
        row.inPlace = row.outOfPlace;
        r->rows.push_back(row);
    }
    return r;
}

std::shared_ptr<const ImportResult> syntheticAllReduce(int ranks, const AlphaBeta& ab,
                                                       AllReduceAlgorithm a) {
    return synthetic("all_reduce_perf", ranks,
                     [&](double k) { return allReduceCost(a, ranks, k, ab); });
}

// Every step's title, narration and frames at a few t, for comparing two builds.
void compareSteps(const Story& a, const Story& b, std::size_t count) {
    QVERIFY(a.steps.size() >= count && b.steps.size() >= count);
    for (std::size_t i = 0; i < count; ++i) {
        QCOMPARE(a.steps[i].title, b.steps[i].title);
        QCOMPARE(a.steps[i].narration, b.steps[i].narration);
        for (double t : {0.0, 0.5, 1.0})
            QVERIFY(a.steps[i].frames(t) == b.steps[i].frames(t));
    }
}

} // namespace

class TestImportedLessons : public QObject {
    Q_OBJECT
private slots:
    // A watchdog file opens the silent-hang lesson (as an NCCL log opens nccl-topology): its
    // "Your watchdog log" step follows the lesson's own steps and names rank 3, stuck one
    // SeqNum below the others, as the suspect.
    void watchdogOpensSilentHang() {
        const auto wd = import(kData + "pytorch_watchdog_torchrun_8ranks.log");
        QCOMPARE(wd->format, std::string("pytorch-watchdog"));
        QCOMPARE(lessonsForFormat(wd->format).front(), std::string("silent-hang"));
        ScenarioInputs inputs;
        const Story before = build(inputs, "silent-hang");
        QCOMPARE(firstImportedStep(before), -1);
        inputs.imported.addBatch({wd});
        QCOMPARE(inputs.imported.watchdogs.size(), std::size_t(1));
        QCOMPARE(inputs.imported.paths().size(), std::size_t(1));
        const Story with = build(inputs, "silent-hang");
        QCOMPARE(with.steps.size(), before.steps.size() + 1);
        compareSteps(before, with, before.steps.size());
        const int at = firstImportedStep(with);
        QCOMPARE(at, static_cast<int>(before.steps.size()));
        const Step& step = with.steps[static_cast<std::size_t>(at)];
        QCOMPARE(step.title, std::string("Your watchdog log"));
        QVERIFY(step.narration.find("Rank 3 stopped below #1580") != std::string::npos);
        const Frames f = step.frames(0.0);
        const auto& bars = std::get<BarChartFrame>(f.items.at(0));
        QCOMPARE(bars.categories.size(), std::size_t(7));
        QCOMPARE(bars.categories[static_cast<std::size_t>(bars.emphasis)].label,
                 std::string("rank 3"));
        QCOMPARE(bars.categories[0].segments[0].value, 2.0); // 1580 against the lowest, 1579
        const auto& facts = std::get<FactsFrame>(f.items.at(1));
        QCOMPARE(facts.rows[2].value, std::string("rank 3"));
        QCOMPARE(facts.rows[3].value, std::string("rank 6"));
        QVERIFY(with.provenance.find("pytorch_watchdog_torchrun_8ranks.log") != std::string::npos);
    }

    void emptySetLeavesStoriesUnchanged() {
        ScenarioInputs inputs;
        for (const std::string id : {"roofline", "occupancy", "ring-allreduce"}) {
            const Story before = build(inputs, id);
            QCOMPARE(firstImportedStep(before), -1);
            // With files imported the lesson's own steps stay as they were, "Your" steps follow.
            QTemporaryDir dir;
            inputs.imported.addBatch(
                {import(writeHandCsv(dir)), import(kData + "aws_2x_p5_h100_efa_allreduce_srun.txt"),
                 import(kData + "nccl2.27.7_2xA100pcie_nvlink_roce_subsys_all.log.gz")});
            const Story with = build(inputs, id);
            QVERIFY(with.steps.size() > before.steps.size());
            QCOMPARE(firstImportedStep(with), static_cast<int>(before.steps.size()));
            compareSteps(before, with, before.steps.size());
            // Emptied again: the very same story as before any import.
            inputs.imported = ImportedSet();
            const Story after = build(inputs, id);
            QCOMPARE(after.steps.size(), before.steps.size());
            compareSteps(before, after, before.steps.size());
        }
    }

    void kernelsAreDotsOnTheRoofline() {
        ScenarioInputs inputs;
        QTemporaryDir dir;
        inputs.imported.addBatch({import(writeHandCsv(dir))});
        const Story story = build(inputs, "roofline", {{"gpu", "h100-sxm"}});
        const Step* step = stepTitled(story, "Your Nsight Compute kernels");
        QVERIFY(step != nullptr);
        const Frames frames = step->frames(0.0);
        inputs.imported = ImportedSet(); // the story keeps its own copy
        QVERIFY(step->frames(0.0) == frames);
        const auto chart = frameOf<ChartFrame>(frames);
        QCOMPARE(chart.markers.size(), std::size_t(1)); // only launch 0 has FLOPs
        const ChartMarker& dot = chart.markers.front();
        // The legend names the dots in their colour.
        const ChartSeries* legend = series(chart, "your kernels (Nsight Compute)");
        QVERIFY(legend != nullptr);
        QCOMPARE(legend->colorIndex, dot.colorIndex);
        QCOMPARE(dot.at.x, 2.0);                    // 2.5e6 FLOP / 1.25e6 B
        QVERIFY(std::fabs(dot.at.y - 2.5) < 1e-12); // 2.5e12 FLOP/s in TFLOP/s
        QCOMPARE(dot.label, std::string("k_fma<4>"));
        QVERIFY(dot.tooltip.find("void ns::k_fma<4>(float *)") != std::string::npos);
        QVERIFY(dot.tooltip.find("2.5 MFLOP") != std::string::npos);
        QVERIFY(dot.tooltip.find("1.25 MB") != std::string::npos);
        QVERIFY(dot.tooltip.find("2.5 TFLOP/s") != std::string::npos);
        QVERIFY(dot.tooltip.find("1 µs") != std::string::npos);
        QVERIFY(dot.tooltip.find("hand.csv") != std::string::npos);
        const auto facts = frameOf<FactsFrame>(frames);
        const FactRow skipped = row(facts, "not plotted: copy #1");
        QVERIFY(skipped.value != "<missing>");
        QVERIFY(skipped.value.find("no FLOP counts") != std::string::npos);
        const FactRow device = row(facts, "the CSV's device");
        QVERIFY(device.value != "<missing>");
        QCOMPARE(device.value, std::string("device 0, compute capability 9.0"));
        const FactRow gpu = row(facts, "roofs drawn for (GPU parameter)");
        QVERIFY(gpu.value.find("H100") != std::string::npos);
    }

    void manyLaunchesBecomeOneDotPerKernel() {
        ScenarioInputs inputs;
        // 450 launches (> 400 dots) cycling over kernels a, b, c. Launch i: 1e6 ffma = 2e6 FLOP,
        // DRAM 1e6 B (even i) or 2e6 B (odd i), 1000 ns (a, b) or 2000 ns (c). Each kernel has
        // 150 launches, 75 of each byte count, so Σ FLOP = 3e8, Σ bytes = 2.25e8 → x = 4/3;
        // Σ time = 150 µs (a, b) → y = 2 TFLOP/s, or 300 µs (c) → 1 TFLOP/s.
        QTemporaryDir dir;
        inputs.imported.addBatch({import(writeManyLaunches(dir, 450, [](int i) {
            const char* names[] = {"void a(float *)", "void b(float *)", "void c(float *)"};
            return std::tuple{std::string(names[i % 3]), 1e6, 1e6 * (1 + i % 2),
                              i % 3 == 2 ? 2000.0 : 1000.0};
        }))});
        Story story = build(inputs, "roofline");
        const Step* step = stepTitled(story, "Your Nsight Compute kernels");
        QVERIFY(step != nullptr);
        auto chart = frameOf<ChartFrame>(step->frames(0.0));
        QCOMPARE(chart.markers.size(), std::size_t(3));
        for (std::size_t k = 0; k < 3; ++k) {
            const ChartMarker& dot = chart.markers[k];
            QVERIFY(std::fabs(dot.at.x - 4.0 / 3.0) < 1e-12);
            QVERIFY(std::fabs(dot.at.y - (k == 2 ? 1.0 : 2.0)) < 1e-12);
            QVERIFY(dot.tooltip.find("× 150 launches") != std::string::npos);
        }
        QCOMPARE(chart.markers[2].label, std::string("c"));
        auto facts = frameOf<FactsFrame>(step->frames(0.0));
        QVERIFY(hasRow(facts, "one dot per kernel"));
        QVERIFY(facts.title.find("450 launches plotted") != std::string::npos);
        QVERIFY(step->narration.find("450 of your launches") != std::string::npos);

        // Occupancy: every launch in the series, tooltips (markers) on the first 150.
        story = build(inputs, "occupancy");
        step = stepTitled(story, "Your kernels' occupancy");
        QVERIFY(step != nullptr);
        chart = frameOf<ChartFrame>(step->frames(0.0));
        const ChartSeries* achieved = series(chart, "achieved");
        QVERIFY(achieved != nullptr);
        QCOMPARE(achieved->points.size(), std::size_t(450));
        QCOMPARE(achieved->points.back().x, 450.0);
        QCOMPARE(std::count_if(chart.markers.begin(), chart.markers.end(),
                               [](const ChartMarker& m) { return m.colorIndex == 0; }),
                 std::ptrdiff_t(150));

        // 405 different kernels, launch i taking i + 1 µs: the 400 that took longest are drawn
        // (kern_5 … kern_404), the 5 shortest counted.
        inputs.imported = ImportedSet();
        QTemporaryDir other;
        inputs.imported.addBatch({import(writeManyLaunches(other, 405, [](int i) {
            return std::tuple{"void kern_" + std::to_string(i) + "(float *)", 1e6, 1e6,
                              1000.0 * (i + 1)};
        }))});
        story = build(inputs, "roofline");
        step = stepTitled(story, "Your Nsight Compute kernels");
        QVERIFY(step != nullptr);
        chart = frameOf<ChartFrame>(step->frames(0.0));
        QCOMPARE(chart.markers.size(), std::size_t(400));
        QVERIFY(chart.markers.front().tooltip.rfind("void kern_5(float *) #5:", 0) == 0);
        QVERIFY(chart.markers.back().tooltip.rfind("void kern_404(float *) #404:", 0) == 0);
        facts = frameOf<FactsFrame>(step->frames(0.0));
        QCOMPARE(row(facts, "kernels not drawn (least total time)").value, std::string("5"));
    }

    void realCsvsWithoutFlopsAreListedNotPlotted() {
        ScenarioInputs inputs;
        inputs.imported.addBatch({import(kData + "ncu_rtx5070_saxpy.csv"),
                                  import(kData + "ncu_rtx5070_gemm_naive.csv")});
        const Story story = build(inputs, "roofline");
        const Step* step = stepTitled(story, "Your Nsight Compute kernels");
        QVERIFY(step != nullptr);
        const auto frames = step->frames(1.0);
        QVERIFY(frameOf<ChartFrame>(frames).markers.empty());
        QVERIFY(series(frameOf<ChartFrame>(frames), "your kernels") == nullptr); // no dots
        const auto facts = frameOf<FactsFrame>(frames);
        const FactRow saxpy = row(facts, "not plotted: saxpy_kernel #0");
        QVERIFY(saxpy.value != "<missing>");
        QVERIFY(saxpy.value.find("no FLOP counts") != std::string::npos);
        QCOMPARE(saxpy.source, std::string("ncu_rtx5070_saxpy.csv"));
        QVERIFY(hasRow(facts, "not plotted: gemm_naive_kernel #0"));
        QCOMPARE(row(facts, "the CSV's device").value,
                 std::string("device 0, compute capability 12.0"));
    }

    void occupancyShowsMeasuredAndTheCalculator() {
        ScenarioInputs inputs;
        QTemporaryDir dir;
        inputs.imported.addBatch(
            {import(writeHandCsv(dir)), import(kData + "ncu_rtx5070_gemm_naive.csv")});
        const Story story = build(inputs, "occupancy", {{"gpu", "h100-sxm"}});
        const Step* step = stepTitled(story, "Your kernels' occupancy");
        QVERIFY(step != nullptr);
        const auto frames = step->frames(0.0);
        const auto chart = frameOf<ChartFrame>(frames);
        // Launch 0 of the hand CSV at x = 1: achieved 20 %, theoretical 25 %, and the
        // calculator for 256 threads × 128 registers on H100: 128·32 = 4096 registers per warp,
        // 65536 / 4096 = 16 warps = 2 blocks of 8 warps → 16 / 64 = 25 %.
        const ChartSeries* achieved = series(chart, "achieved");
        const ChartSeries* theoretical = series(chart, "theoretical");
        const ChartSeries* calc = series(chart, "calculator");
        QVERIFY(achieved && theoretical && calc);
        QCOMPARE(achieved->points.front().x, 1.0);
        QCOMPARE(achieved->points.front().y, 20.0);
        QCOMPARE(theoretical->points.front().y, 25.0);
        QCOMPARE(calc->points.front().y, 25.0);
        // gemm_naive (x = 3): achieved 66.61 %; block 32×32 = 1024 threads, registers not in
        // the CSV (not limiting) → 2 blocks × 32 warps = 64 warps → 100 %.
        QCOMPARE(achieved->points.back().x, 3.0);
        QCOMPARE(achieved->points.back().y, 66.61);
        QCOMPARE(calc->points.back().y, 100.0);
        const auto facts = frameOf<FactsFrame>(frames);
        // Value: achieved / theoretical / calculator; the line below: shape and limiters.
        const FactRow first = row(facts, "k_fma<4> #0");
        QVERIFY(first.value != "<missing>");
        QCOMPARE(first.value, std::string("20 % / 25 % / 25 %"));
        QVERIFY(first.source.find("256 threads, 128 registers") != std::string::npos);
        QVERIFY(first.source.find("limited by registers") != std::string::npos);
        QVERIFY(first.source.find("(calculator: registers)") != std::string::npos);
        const FactRow naive = row(facts, "gemm_naive_kernel #0");
        QVERIFY(naive.value != "<missing>");
        QVERIFY(naive.source.find("1024 threads") != std::string::npos);
        QVERIFY(naive.source.find("registers not in the CSV") != std::string::npos);
    }

    void fitRecoversAlphaAndBandwidth() {
        for (auto a : {AllReduceAlgorithm::Ring, AllReduceAlgorithm::DoubleBinaryTree}) {
            const AlphaBeta truth{7e-6, 40e9};
            std::vector<TimedSize> times;
            for (double k = 8; k < 2e10; k *= 2)
                times.push_back({k, allReduceCost(a, 8, k, truth).timeS});
            const AlphaBetaFit fit = fitAllReduceAlphaBeta(a, 8, times);
            QVERIFY(fit.ok);
            QVERIFY(std::fabs(fit.ab.alphaS / truth.alphaS - 1.0) < 1e-9);
            QVERIFY(std::fabs(fit.ab.bandwidthBytesPerS / truth.bandwidthBytesPerS - 1.0) < 1e-9);
            QVERIFY(fit.rmsRelative < 1e-9);
        }
        for (auto c : {Collective::AllGather, Collective::ReduceScatter, Collective::AllToAll,
                       Collective::Broadcast}) {
            const AlphaBeta truth{3e-6, 120e9};
            std::vector<TimedSize> times;
            for (double k = 8; k < 2e10; k *= 2)
                times.push_back({k, collectiveCost(c, 16, k, truth).timeS});
            const AlphaBetaFit fit = fitCollectiveAlphaBeta(c, 16, times);
            QVERIFY(fit.ok);
            QVERIFY(std::fabs(fit.ab.alphaS / truth.alphaS - 1.0) < 1e-9);
            QVERIFY(std::fabs(fit.ab.bandwidthBytesPerS / truth.bandwidthBytesPerS - 1.0) < 1e-9);
        }
        // Times that fall with size cannot be fitted; the fit says so instead of lying.
        const AlphaBetaFit bad = fitAllReduceAlphaBeta(AllReduceAlgorithm::Ring, 4,
                                                       {{1e3, 2e-3}, {1e6, 1e-3}, {1e9, 1e-6}});
        QVERIFY(!bad.ok);
        QVERIFY(!bad.problem.empty());
    }

    void stepReportsTheFitWithUnits() {
        ScenarioInputs inputs;
        inputs.imported.addBatch({syntheticAllReduce(8, {7e-6, 40e9}, AllReduceAlgorithm::Ring)});
        const Story story = build(inputs, "ring-allreduce", {{"algorithm", "ring"}});
        const Step* step = stepTitled(story, "Your nccl-tests vs the model");
        QVERIFY(step != nullptr);
        const auto frames = step->frames(0.0);
        const auto facts = frameOf<FactsFrame>(frames);
        QCOMPARE(row(facts, "α-β fit: latency α").value, std::string("7 µs"));
        QCOMPARE(row(facts, "α-β fit: bandwidth B").value, std::string("40 GB/s"));
        QCOMPARE(row(facts, "test").value, std::string("all_reduce_perf"));
        QCOMPARE(row(facts, "ranks N").value, std::string("8"));
        const auto chart = frameOf<ChartFrame>(frames);
        QVERIFY(chart.x.log);
        // The fitted curve lies on the measured points (they came from the same model).
        const ChartSeries* fitted = series(chart, "α-β fit");
        const ChartSeries* measured = series(chart, "measured, out-of-place");
        const ChartSeries* model = series(chart, "Ring model");
        QVERIFY(fitted && measured && model);
        const auto largest = measured->points.back();
        QVERIFY(
            std::fabs(
                largest.y -
                allReduceCost(AllReduceAlgorithm::Ring, 8, largest.x, {7e-6, 40e9}).busbwBytesPerS /
                    1e9) < 1e-9);
        // The model curve uses the scenario's α = 5 µs, B = 50 GB/s and the file's N = 8.
        const ChartPoint m0 = model->points.front();
        QVERIFY(std::fabs(
                    m0.y -
                    allReduceCost(AllReduceAlgorithm::Ring, 8, m0.x, {5e-6, 50e9}).busbwBytesPerS /
                        1e9) < 1e-12);
    }

    void realNcclTestsRowsArePlotted() {
        ScenarioInputs inputs;
        inputs.imported.addBatch({import(kData + "aws_2x_p5_h100_efa_allreduce_srun.txt")});
        const Story story = build(inputs, "ring-allreduce");
        const Step* step = stepTitled(story, "Your nccl-tests vs the model");
        QVERIFY(step != nullptr);
        const auto frames = step->frames(0.0);
        const auto chart = frameOf<ChartFrame>(frames);
        const ChartSeries* out = series(chart, "measured, out-of-place");
        const ChartSeries* in = series(chart, "measured, in-place");
        QVERIFY(out && in);
        // 8 B … 16 GiB, doubling: 32 rows (file lines "8 … 0.00" to "17179869184 … 487.09").
        QCOMPARE(out->points.size(), std::size_t(32));
        QCOMPARE(out->points.front().x, 8.0);
        QCOMPARE(out->points.front().y, 0.0);
        QCOMPARE(out->points.back().x, 17179869184.0);
        QCOMPARE(out->points.back().y, 487.09);
        QCOMPARE(in->points.back().y, 487.26);
        QCOMPARE(out->points[20].x, 8388608.0); // "8388608 … 204.8 40.96 76.80"
        QCOMPARE(out->points[20].y, 76.80);
        QCOMPARE(in->points[20].y, 78.20);
        // No test name and no rank lines: all-reduce from busbw ÷ algbw > 1, and N = 16 from
        // 2(N−1)/N = 1.875 (e.g. 487.09 / 259.78).
        const auto facts = frameOf<FactsFrame>(frames);
        QCOMPARE(row(facts, "ranks N").value, std::string("16"));
        QVERIFY(row(facts, "ranks N").source.find("inferred") != std::string::npos);
        QVERIFY(series(chart, "Ring model") != nullptr);
        QVERIFY(hasRow(facts, "α-β fit: latency α"));
    }

    void otherCollectivesAgainstTheirRingCost() {
        ScenarioInputs inputs;
        // all_gather_perf on 4 ranks, made with collectiveCost at α = 9 µs, B = 30 GB/s.
        const AlphaBeta truth{9e-6, 30e9};
        inputs.imported.addBatch({synthetic("all_gather_perf", 4, [&](double k) {
            return collectiveCost(Collective::AllGather, 4, k, truth);
        })});
        const Story story = build(inputs, "ring-allreduce");
        const Step* step = stepTitled(story, "Your nccl-tests vs the model");
        QVERIFY(step != nullptr);
        const auto frames = step->frames(0.0);
        const auto chart = frameOf<ChartFrame>(frames);
        QVERIFY(series(chart, "measured, out-of-place") != nullptr);
        QVERIFY(series(chart, "Ring model") == nullptr); // not the all-reduce curve
        const ChartSeries* model = series(chart, "ring all_gather_perf model");
        QVERIFY(model != nullptr);
        // The curve is the all-gather ring cost at the scenario's α = 5 µs, B = 50 GB/s, N = 4.
        for (const ChartPoint& p : model->points)
            QVERIFY(std::fabs(
                        p.y -
                        collectiveCost(Collective::AllGather, 4, p.x, {5e-6, 50e9}).busbwBytesPerS /
                            1e9) < 1e-12);
        QVERIFY(chart.footnote.find("for all-reduce") != std::string::npos);
        QVERIFY(series(chart, "α-β fit") != nullptr);
        const auto facts = frameOf<FactsFrame>(frames);
        QCOMPARE(row(facts, "α-β fit: latency α").value, std::string("9 µs"));
        QCOMPARE(row(facts, "α-β fit: bandwidth B").value, std::string("30 GB/s"));
        QCOMPARE(row(facts, "busbw factor, N = 4").value, std::string("0.75")); // (N−1)/N
        QCOMPARE(row(facts, "ranks N").value, std::string("4"));
        QCOMPARE(row(facts, "test").value, std::string("all_gather_perf"));
    }

    void testsWithoutAModelArePlottedWithANote() {
        ScenarioInputs inputs;
        // A test collective_cost does not know, on 2 ranks the file states.
        auto sendrecv = synthetic("sendrecv_perf", 2, [](double k) {
            return collectiveCost(Collective::Broadcast, 2, k, {5e-6, 20e9});
        });
        inputs.imported.addBatch({sendrecv});
        Story story = build(inputs, "ring-allreduce");
        const Step* step = stepTitled(story, "Your nccl-tests vs the model");
        QVERIFY(step != nullptr);
        auto chart = frameOf<ChartFrame>(step->frames(0.0));
        QVERIFY(series(chart, "measured, out-of-place") != nullptr);
        QCOMPARE(chart.series.size(), std::size_t(2)); // the measured pair only
        QVERIFY(chart.footnote.find("sendrecv_perf is plotted as measured") != std::string::npos);
        QVERIFY(chart.footnote.find("for all-reduce") != std::string::npos);
        auto facts = frameOf<FactsFrame>(step->frames(0.0));
        QCOMPARE(row(facts, "ranks N").value, std::string("2"));
        QCOMPARE(row(facts, "ranks N").source, std::string("stated in the file"));

        // all_reduce_perf on one GPU: no bytes cross a link, so no model and no fit.
        inputs.imported = ImportedSet();
        inputs.imported.addBatch({syntheticAllReduce(2, {5e-6, 50e9}, AllReduceAlgorithm::Ring)});
        auto single = std::make_shared<NcclTestsResult>(
            *std::static_pointer_cast<const NcclTestsResult>(inputs.imported.ncclTests.front()));
        single->nranks = 1;
        inputs.imported = ImportedSet();
        inputs.imported.addBatch({single});
        story = build(inputs, "ring-allreduce");
        step = stepTitled(story, "Your nccl-tests vs the model");
        QVERIFY(step != nullptr);
        chart = frameOf<ChartFrame>(step->frames(0.0));
        QCOMPARE(chart.series.size(), std::size_t(2));
        QVERIFY(chart.footnote.find("N = 1") != std::string::npos);
        QVERIFY(step->narration.find("N = 1") != std::string::npos);
        QVERIFY(step->narration.find("fit: .") == std::string::npos);
        facts = frameOf<FactsFrame>(step->frames(0.0));
        QVERIFY(row(facts, "model").value.find("N = 1") != std::string::npos);
    }

    void realNcclTestsVariants() {
        ScenarioInputs inputs;
        // p4de: "0: "-prefixed rows, 8 B … 2 GiB doubling = 29 rows; no test name, no rank
        // lines: all-reduce and N = 16 from busbw ÷ algbw (78.33 / 41.78 ≈ 1.875 = 2·15/16).
        // eks excerpt: "[1,0]<stdout>:" prefixes, "..." elisions, a 0-byte row and 6 sizes
        // 64 MiB … 2 GiB (last row 9197.5 µs, busbw 437.79 / 437.89 GB/s).
        inputs.imported.addBatch({import(kData + "aws_2x_p4de_a100_efa_allreduce_srun.txt"),
                                  import(kData + "aws_2x_p5_eks_mpirun_prefixed_excerpt.txt")});
        const Story story = build(inputs, "ring-allreduce");
        const Step* p4de = stepTitled(
            story, "Your nccl-tests vs the model · aws_2x_p4de_a100_efa_allreduce_srun.txt");
        const Step* eks = stepTitled(
            story, "Your nccl-tests vs the model · aws_2x_p5_eks_mpirun_prefixed_excerpt.txt");
        QVERIFY(p4de != nullptr && eks != nullptr);
        auto chart = frameOf<ChartFrame>(p4de->frames(0.0));
        const ChartSeries* out = series(chart, "measured, out-of-place");
        const ChartSeries* in = series(chart, "measured, in-place");
        QVERIFY(out && in);
        QCOMPARE(out->points.size(), std::size_t(29));
        QCOMPARE(out->points.front().x, 8.0);
        QCOMPARE(out->points.back().x, 2147483648.0);
        QCOMPARE(out->points.back().y, 78.33);
        QCOMPARE(out->points[20].x, 8388608.0); // "8388608 … 762.8 11.00 20.62 … 20.68"
        QCOMPARE(out->points[20].y, 20.62);
        QCOMPARE(in->points[20].y, 20.68);
        auto facts = frameOf<FactsFrame>(p4de->frames(0.0));
        QCOMPARE(row(facts, "ranks N").value, std::string("16"));
        QVERIFY(series(chart, "Ring model") != nullptr);

        chart = frameOf<ChartFrame>(eks->frames(0.0));
        out = series(chart, "measured, out-of-place");
        in = series(chart, "measured, in-place");
        QVERIFY(out && in);
        QCOMPARE(out->points.size(), std::size_t(6)); // the 0-byte row has no log-x position
        QCOMPARE(out->points.front().x, 67108864.0);
        QCOMPARE(out->points.front().y, 126.33);
        QCOMPARE(out->points.back().x, 2147483648.0);
        QCOMPARE(out->points.back().y, 437.79);
        QCOMPARE(in->points.back().y, 437.89);
        facts = frameOf<FactsFrame>(eks->frames(0.0));
        QCOMPARE(row(facts, "ranks N").value, std::string("16"));
        QCOMPARE(row(facts, "message sizes").value,
                 std::string("6 sizes plotted, 67.1 MB to 2.15 GB (1 row of 0 B left out)"));
    }

    void ringsAndTreesFromARealLog() {
        ScenarioInputs inputs;
        inputs.imported.addBatch(
            {import(kData + "nccl2.27.7_2xA100pcie_nvlink_roce_subsys_all.log.gz")});
        const Story story = build(inputs, "ring-allreduce");
        // The file is nccl-tests output with INFO lines: both steps appear.
        QVERIFY(stepTitled(story, "Your nccl-tests vs the model") != nullptr);
        const Step* step = stepTitled(story, "Your NCCL rings and trees");
        QVERIFY(step != nullptr);
        const auto frames = step->frames(0.0);
        const auto graph = frameOf<CommGraphFrame>(frames);
        QCOMPARE(graph.nodes.size(), std::size_t(2));
        QCOMPARE(graph.channels, 24);
        // "Channel 00/24 : 0 1" … 24 rings of 0 → 1 → 0: two directed edges per channel, each
        // "via P2P/direct pointer" in the log.
        int ring = 0, tree = 0;
        for (const auto& e : graph.edges) {
            if (e.kind == CommGraphEdge::Kind::Ring) {
                ++ring;
                QCOMPARE(e.transport, std::string("P2P/direct"));
                QVERIFY(e.from != e.to);
            } else {
                ++tree;
            }
        }
        QCOMPARE(ring, 48);
        QVERIFY(tree >= 24); // one parent → child edge per tree channel
        const auto& first = graph.edges.front();
        QVERIFY(first.kind == CommGraphEdge::Kind::Ring);
        QCOMPARE(first.channel, 0);
        QCOMPARE(first.from, 0);
        QCOMPARE(first.to, 1);
        QVERIFY(first.tip.find("P2P/direct") != std::string::npos);
        // "Trees" lines: channel 0's root is rank 0 with child 1; channel 6's root is rank 1.
        bool ch0 = false, ch6 = false;
        for (const auto& e : graph.edges) {
            if (e.kind != CommGraphEdge::Kind::Tree)
                continue;
            ch0 = ch0 || (e.channel == 0 && e.from == 0 && e.to == 1);
            ch6 = ch6 || (e.channel == 6 && e.from == 1 && e.to == 0);
        }
        QVERIFY(ch0 && ch6);
        QVERIFY(graph.transports.front() == "P2P/direct");
        const auto facts = frameOf<FactsFrame>(frames);
        QCOMPARE(row(facts, "channels").value, std::string("24"));
        QCOMPARE(row(facts, "ranks").value, std::string("2 (comm)"));
        QCOMPARE(row(facts, "NCCL version").value, std::string("2.27.7+cuda13.0"));
        QVERIFY(row(facts, "network").value.rfind("IB", 0) == 0);
        QVERIFY(row(facts, "transports (connections)").value.find("P2P/direct × 48") !=
                std::string::npos);
        QVERIFY(hasRow(facts, "NVLS"));
        // Frames are pure: the same at every t and after the set is emptied.
        inputs.imported = ImportedSet();
        QVERIFY(step->frames(1.0) == frames);
    }
};

QTEST_APPLESS_MAIN(TestImportedLessons)
#include "test_imported_lessons.moc"
