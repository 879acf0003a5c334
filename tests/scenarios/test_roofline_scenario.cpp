// The roofline scenario's decode steps against the model: the slide names what a model that
// does not fit one GPU needs, decode follows the precision parameter, the KV cache and the
// context length reach the words, and the modeled probes are never called measured.
#include "catalogue/hardware_catalogue.h"
#include "engine/number_format.h"
#include "engine/recording_set.h"
#include "roofline/roofline_model.h"
#include "scenario_test_helpers.h"

#include <QtTest>
#include <set>

using namespace wb;
using namespace wb::test;

namespace {
const GpuSpec& h100() {
    return *HardwareCatalogue::builtin().find("h100-sxm");
}

DecodeWorkload workload(const char* model, Precision p, double batch, double seqLen) {
    return decodeWorkload(*findDecoderShape(model), p, batch, seqLen);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}
} // namespace

class TestRooflineScenario : public QObject {
    Q_OBJECT
private slots:
    void seventyBInBf16SaysWhatItNeeds() {
        const Story s = build("roofline", {{"model", "llama-3-70b"}, {"precision", "bf16"}});
        const std::string& text = s.steps[stepIndex(s, "Decode at batch 1")].narration;
        const auto seqLen =
            static_cast<double>(findScenario("roofline")->defaultParams().integer("seq-len"));
        const DecodeFit fit =
            decodeFit(h100(), workload("llama-3-70b", Precision::BF16, 1, seqLen));
        QVERIFY(!fit.fitsOneGpu());
        QVERIFY2(contains(text, "more than one") &&
                     contains(text, "tensor parallel over " + std::to_string(fit.tensorParallel) +
                                        " GPUs"),
                 text.c_str());
        QVERIFY2(contains(text, formatBytes(fit.weightBytes)), text.c_str());
        const bool fp8Fits =
            decodeFit(h100(), workload("llama-3-70b", Precision::FP8, 1, seqLen)).fitsOneGpu();
        QVERIFY2(contains(text, fp8Fits ? "In FP8" : "Even in FP8"), text.c_str());
        // The facts table says how many GPUs the estimate is split over.
        const auto facts = first<FactsFrame>(s.steps[stepIndex(s, "Decode at batch 1")].frames(1));
        bool gpus = false;
        for (const auto& row : facts->rows)
            gpus |= row.value == std::to_string(fit.tensorParallel) + ", tensor parallel";
        QVERIFY(gpus);

        const Story small = build("roofline");
        QVERIFY(
            contains(small.steps[stepIndex(small, "Decode at batch 1")].narration, "within one"));
    }

    void decodeFollowsThePrecision() {
        for (const char* name : {"bf16", "fp8", "fp32"}) {
            const Precision p = *parsePrecision(name);
            const Story s = build("roofline", {{"precision", name}, {"batch", "1024"}});
            const Frames frames =
                s.steps[stepIndex(s, "Batching slides decode toward the ridge")].frames(1.0);
            const auto chart = first<ChartFrame>(frames);
            QVERIFY(chart);
            QCOMPARE(chart->series.size(), size_t(1));
            QCOMPARE(chart->series.front().name, precisionTitle(p));
            QCOMPARE(chart->series.front().points.back().y, *peakTflops(h100(), p));
            const auto seqLen =
                static_cast<double>(findScenario("roofline")->defaultParams().integer("seq-len"));
            const DecodeEstimate d = decodeEstimate(
                h100(), p, workload("llama-3-8b", p, 1024, seqLen),
                decodeFit(h100(), workload("llama-3-8b", p, 1024, seqLen)).tensorParallel);
            const ChartMarker& dot = chart->markers.back();
            QCOMPARE(dot.at.x, d.intensity);
            QCOMPARE(dot.at.y, d.point.attainableTflops);
        }
    }

    void contextLengthReachesTheWords() {
        for (const char* seq : {"1024", "32768"}) {
            const Story s = build("roofline", {{"seq-len", seq}});
            const std::string& text =
                s.steps[stepIndex(s, "Batching slides decode toward the ridge")].narration;
            const DecodeWorkload w = workload("llama-3-8b", Precision::BF16, 64, std::stod(seq));
            QVERIFY2(contains(text, formatSignificant(decodeIntensityLimit(w), 3) + " FLOP/B"),
                     text.c_str());
            const DecodeEstimate d = decodeEstimate(h100(), Precision::BF16, w);
            QVERIFY2(contains(text, formatSignificant(d.intensity, 3) + " FLOP/B"), text.c_str());
            QVERIFY(contains(text, d.point.memoryBound ? "memory-bound" : "compute-bound"));
        }
    }

    void otherGpuLabelsAreDistinct() {
        for (const char* batch : {"1", "1024"}) {
            const Story s = build("roofline", {{"batch", batch}});
            const auto chart =
                first<ChartFrame>(s.steps[stepIndex(s, "Same model, other GPUs")].frames(1.0));
            std::set<std::string> labels;
            for (const auto& m : chart->markers)
                labels.insert(m.label);
            QCOMPARE(labels.size(), chart->markers.size());
            QCOMPARE(labels.size(), HardwareCatalogue::builtin().gpus().size());
        }
        // FP8 leaves out the GPUs without it and says so.
        const Story fp8 = build("roofline", {{"precision", "fp8"}});
        const size_t i = stepIndex(fp8, "Same model, other GPUs");
        QVERIFY(contains(fp8.steps[i].narration, "no FP8 tensor cores"));
        const auto chart = first<ChartFrame>(fp8.steps[i].frames(1.0));
        for (const auto& m : chart->markers)
            QVERIFY(!contains(m.label, "A100"));
    }

    void modeledProbesSayModeled() {
        const Story s = build("roofline"); // no recording for H100: modeled
        const size_t i = stepIndex(s, "Probes against the roofs");
        QVERIFY(contains(s.steps[i].narration, "modeled on CPU"));
        const auto facts = first<FactsFrame>(s.steps[i].frames(0.0));
        QVERIFY(contains(facts->title, "modeled on CPU"));
        for (const auto& row : facts->rows)
            if (row.label.rfind("modeled ", 0) == 0)
                QVERIFY(!contains(row.source, "measured"));
        const auto chart = first<ChartFrame>(s.steps[i].frames(0.0));
        for (const auto& series : chart->series)
            if (series.style == ChartSeries::Style::Line)
                QVERIFY(contains(series.name, "(modeled)"));
    }
};

QTEST_APPLESS_MAIN(TestRooflineScenario)
#include "test_roofline_scenario.moc"
