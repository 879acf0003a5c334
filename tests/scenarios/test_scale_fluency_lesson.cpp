// scale-fluency as a lesson: the default resume line carries an inflated MFU and an improbable
// failure count that the checks catch with their reasons; Llama 3 405B stands on its published
// inputs (15.6T tokens, 3.8 × 10²⁵ FLOPs, 16K H100s, 41 % MFU, the model card's 30.84M
// H100-hours), not on numbers derived from the MFU it is checked against; GPU-days and tokens/s
// per GPU are computed and shown; the memory step shows its answer at a scale where it is
// visible; and a claimed MFU is a fraction or an explicit percentage. Expectations come from
// the formulas (6·N·D, MFU as PaLM defines it, Llama 3's interruption rate).
#include "engine/number_format.h"
#include "planning/claims_check.h"
#include "scenario_test_helpers.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <stdexcept>

using namespace wb;
using namespace wb::test;

namespace {

constexpr double kH100Peak = 989.4e12; // dense BF16, the catalogue's H100 SXM5
constexpr double kDay = 86400.0;

bool near(double a, double b, double rel) {
    return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b));
}

double total(const BarCategory& c) {
    double s = 0;
    for (const BarSegment& seg : c.segments)
        s += seg.value;
    return s;
}

std::string text(const Frames& frames) {
    std::string out;
    for (const FactsFrame& f : all<FactsFrame>(frames))
        for (const FactRow& r : f.rows)
            out += r.label + " | " + r.value + " | " + r.source + "\n";
    return out;
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

// Llama 3's unexpected interruptions per GPU-day: 419 in 54 days on 16,384 GPUs (§3.3.4).
double llamaRate() {
    return 419.0 / (16384.0 * 54.0);
}

} // namespace

class TestScaleFluencyLesson : public QObject {
    Q_OBJECT
private slots:
    // The default claims: 70B on 2T tokens, 2,048 H100s, 12 days, 55 % MFU, no failures.
    void theDefaultResumeCarriesInflatedClaimsTheChecksCatch() {
        const Story s = build("scale-fluency");
        const double flops = 6 * 70e9 * 2e12;
        const double implied = flops / (2048 * kH100Peak * 12 * kDay);
        const double daysAt55 = flops / (2048 * kH100Peak * 0.55) / kDay;
        // The days imply about 40 %, well under the 55 % claimed: at 55 % the run ends in 8.7
        // days, so 12 days leave only 73 % of the time training.
        QVERIFY(near(implied, 0.400, 0.01));
        QVERIFY(implied < 0.55 * 0.9);
        const Frames verdict = s.steps[5].frames(1.0);
        const std::string v = text(verdict);
        QVERIFY2(contains(v, "the MFU is inflated"), v.c_str());
        QVERIFY2(contains(v, formatSignificant(daysAt55)), v.c_str());
        QVERIFY2(contains(v, formatShare(implied / 0.55)), v.c_str());
        // Zero interruptions where Llama 3's rate predicts 11.6: improbable, with the chance.
        const double expected = llamaRate() * 2048 * 12;
        QVERIFY2(contains(v, "improbable"), v.c_str());
        QVERIFY2(contains(v, formatSignificant(expected)), v.c_str());
        QVERIFY2(contains(v, formatSignificant(std::exp(-expected), 2)), v.c_str());
        QCOMPARE(QString::fromStdString(s.steps[5].title), QString("Verdict: 2 inconsistencies"));
        // The compute step's title says it with the numbers, and the failures step's too.
        QVERIFY(contains(s.steps[1].title, formatShare(implied)));
        QVERIFY(contains(s.steps[1].title, "55 %"));
        QVERIFY(contains(s.steps[4].title, formatSignificant(expected, 3)));
        // A 140 GB checkpoint holds the BF16 weights (2 × 70B) but not Adam's state: a probe.
        QVERIFY(contains(v, "how did training resume"));
    }

    // Llama 3 405B on its published inputs: the checks compare independent numbers.
    void llamaStandsOnItsPublishedInputs() {
        const Story s = build("scale-fluency", {{"claims", "llama3-405b"}});
        const double flops = 6 * 405e9 * 15.6e12;
        // §1: 3.8 × 10²⁵ FLOPs stated; 6·N·D = 3.79 × 10²⁵.
        QVERIFY(near(flops, 3.8e25, 0.01));
        const std::string compute = text(s.steps[1].frames(1.0));
        QVERIFY2(contains(compute, "3.79 × 10²⁵ FLOP"), compute.c_str());
        QVERIFY2(contains(compute, formatShare(3.8e25 / flops)), compute.c_str());
        // The model card's 30.84M H100-hours: GPU-days, tokens/s per GPU and the implied MFU.
        const double gpuSeconds = 30.84e6 * 3600;
        const double gpuDays = 30.84e6 / 24;
        QVERIFY2(contains(compute, formatSignificant(gpuDays, 3)), compute.c_str());
        QVERIFY2(contains(compute, formatSignificant(15.6e12 / gpuSeconds, 3)), compute.c_str());
        const double implied = flops / (gpuSeconds * kH100Peak);
        QVERIFY(near(implied, 0.345, 0.01)); // under Table 4's 41 %: downtime, long context
        QVERIFY2(contains(compute, formatShare(implied)), compute.c_str());
        // At Table 4's 41 % the FLOPs take 66 days on 16,384 GPUs; the hours say 78.
        const double daysAt41 = flops / (16384 * kH100Peak * 0.41) / kDay;
        QVERIFY(near(daysAt41, 66.0, 0.01));
        QVERIFY2(contains(compute, formatSignificant(daysAt41, 3)), compute.c_str());
        QCOMPARE(QString::fromStdString(s.steps[5].title), QString("Verdict: the claims agree"));
        // The 419 interruptions are where the rate comes from: not checked against themselves.
        QVERIFY(contains(s.steps[4].narration, "cannot check themselves"));
        QVERIFY(contains(text(s.steps[4].frames(1.0)), "the reference rate itself"));
        const auto failures = first<BarChartFrame>(s.steps[4].frames(1.0));
        QVERIFY(near(failures->categories[0].segments[0].value, llamaRate() * gpuDays, 1e-9));
        // Edited, the same run is an ordinary claim again: zero failures is improbable.
        const Story edited = build("scale-fluency", {{"claims", "llama3-405b"}, {"failures", "0"}});
        QVERIFY(contains(text(edited.steps[4].frames(1.0)), "improbable"));
        // Change N and the stated FLOPs no longer describe the run: dropped, not flagged.
        const Story bigger =
            build("scale-fluency", {{"claims", "llama3-405b"}, {"params-b", "800"}});
        QVERIFY(!contains(text(bigger.steps[1].frames(1.0)), "stated"));
    }

    void aStatedFlopCountFarFrom6NDIsFlagged() {
        const ClaimsGpu h100{"H100", kH100Peak, 80e9};
        Claims c{.gpus = 16384,
                 .params = 405e9,
                 .tokens = 15.6e12,
                 .days = 78,
                 .mfu = {},
                 .statedFlops = 3.8e25,
                 .checkpointBytes = {},
                 .checkpointSeconds = {},
                 .failures = {}};
        QVERIFY(checkClaims(c, h100).consistent);
        c.statedFlops = 3.8e26; // ten times 6·N·D
        const ClaimsVerdict v = checkClaims(c, h100);
        QVERIFY(!v.consistent);
        QVERIFY(near(v.statedFlopsRatio, 3.8e26 / (6 * 405e9 * 15.6e12), 1e-12));
        QVERIFY(contains(v.issues.front(), "3.8 × 10²⁶ FLOP were stated"));
        QCOMPARE(formatTimesTenTo(3.79e25), std::string("3.79 × 10²⁵"));
        QCOMPARE(formatTimesTenTo(9.996e24), std::string("1 × 10²⁵"));
    }

    // 16 bytes × 175B over 1,024 GPUs is 2.73 GB: beside ZeRO-1's 702 GB it would be a sliver,
    // so an inset draws it at its own scale; HBM is a bar, labelled once.
    void theMemoryAnswerIsVisible() {
        const Story s = build("scale-fluency", {{"claims", "megatron-gpt3-175b"}});
        const auto bars = all<BarChartFrame>(s.steps[2].frames(1.0));
        QCOMPARE(bars.size(), std::size_t(2));
        const double z3 = 16 * 175e9 / 1024;
        const double z1 = (2 + 2) * 175e9 + 12 * 175e9 / 1024;
        QVERIFY(near(total(bars[0].categories[0]), z1, 1e-9));
        QVERIFY(near(total(bars[0].categories[1]), z3, 1e-9));
        QVERIFY(near(total(bars[0].categories[2]), 80e9, 1e-9));
        const BarChartFrame& zoom = bars[1];
        QVERIFY(near(total(zoom.categories[0]), z3, 1e-9));
        // The inset's axis is set by the answer (and HBM only when HBM is within 3× of it).
        double top = 0;
        for (const BarCategory& c : zoom.categories)
            top = std::max(top, total(c));
        QVERIFY(total(zoom.categories[0]) / top > 0.3);
        for (const BarChartFrame& b : bars) {
            QVERIFY(b.references.empty());
            for (const BarCategory& c : b.categories)
                QVERIFY2(c.label.find("80 GB") == std::string::npos, c.label.c_str());
        }
        // Over 16,384 GPUs Llama 3's states are 0.4 GB, a two-hundredth of HBM: still drawn
        // at their own scale.
        const Story l = build("scale-fluency", {{"claims", "llama3-405b"}});
        const auto lz = all<BarChartFrame>(l.steps[2].frames(1.0)).at(1);
        QCOMPARE(lz.categories.size(), std::size_t(1));
        QVERIFY(near(total(lz.categories[0]), 16 * 405e9 / 16384, 1e-9));
    }

    void aClaimedMfuIsAFractionOrAnExplicitPercentage() {
        QCOMPARE(parseClaimedMfu("0.41"), 0.41);
        QCOMPARE(parseClaimedMfu("41%"), 0.41);
        QCOMPARE(parseClaimedMfu(" 41 % "), 0.41);
        QCOMPARE(parseClaimedMfu("1"), 1.0);
        QCOMPARE(parseClaimedMfu("100%"), 1.0);
        for (const char* bad : {"41", "0", "-0.2", "120%", "0%", "abc", "", "%"})
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseClaimedMfu(bad));
        try {
            parseClaimedMfu("41");
            QFAIL("41 accepted as a fraction");
        } catch (const std::invalid_argument& e) {
            // The message says how to write what was meant.
            QVERIFY2(contains(e.what(), "0.41") && contains(e.what(), "41%"), e.what());
        }
        // The same through `warpboard calc claims --mfu`.
        const auto percent = runCalc("claims", {{"gpus", "1024"},
                                                {"params", "175e9"},
                                                {"tokens", "300e9"},
                                                {"days", "34"},
                                                {"mfu", "33.7%"},
                                                {"gpu", "a100-sxm-80gb"}});
        QCOMPARE(percent["claimed_mfu"].get<double>(), 0.337);
        QVERIFY(percent["consistent"].get<bool>());
        QVERIFY(near(percent["gpu_days"].get<double>(), 1024 * 34, 1e-12));
        QVERIFY(near(percent["tokens_per_gpu_s"].get<double>(), 300e9 / (1024 * 34 * kDay), 1e-12));
        QVERIFY_THROWS_EXCEPTION(CalcError, runCalc("claims", {{"gpus", "1024"},
                                                               {"params", "175e9"},
                                                               {"tokens", "300e9"},
                                                               {"days", "34"},
                                                               {"mfu", "41"},
                                                               {"gpu", "a100-sxm-80gb"}}));
    }
};

QTEST_GUILESS_MAIN(TestScaleFluencyLesson)
#include "test_scale_fluency_lesson.moc"
