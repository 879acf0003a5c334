// failures-checkpoint failures-checkpoint and silent-hang silent-hang: the Llama 3 table as
// published, the job timeline tiling the run with the simulator's lost work, Young's and Daly's
// optima where the formulas put them, and the hang triage ending at the injected culprit with every
// waiting GPU at 100 %.
#include "engine/number_format.h"
#include "engine/scenario.h"
#include "reliability/failures_checkpoint_scenario.h"
#include "reliability/llama3_interruptions.h"
#include "scenario_test_helpers.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>

using namespace wb;
using wb::test::all;
using wb::test::build;
using wb::test::first;

namespace {

std::optional<ChartMarker> marker(const ChartFrame& c, const std::string& label) {
    for (const ChartMarker& m : c.markers)
        if (m.label == label)
            return m;
    return std::nullopt;
}

// The series' y at x, read off its polyline with log-spaced x (the goodput chart's axis).
double curveAt(const ChartSeries& s, double x) {
    for (std::size_t i = 1; i < s.points.size(); ++i) {
        const ChartPoint a = s.points[i - 1], b = s.points[i];
        if (x >= a.x && x <= b.x) {
            const double f = std::log(x / a.x) / std::log(b.x / a.x);
            return a.y + f * (b.y - a.y);
        }
    }
    return std::nan("");
}

} // namespace

class TestReliabilityScenarios : public QObject {
    Q_OBJECT
private slots:
    void llamaTableAsPublished() {
        // Published counts are bars by cause, not a line over a numeric axis.
        const Story s = build("failures-checkpoint");
        QVERIFY(!first<ChartFrame>(s.steps[0].frames(1.0)));
        const auto b = first<BarChartFrame>(s.steps[0].frames(1.0));
        QVERIFY(b);
        const Llama3Record& rec = llama3Record();
        QCOMPARE(rec.causes.size(), std::size_t{18}); // Table 5 has 18 rows
        // The seven largest rows one bar each, the other eleven stacked in one bar, every
        // segment coloured by its row's category; the counts add up to 419.
        QCOMPARE(b->categories.size(), std::size_t{8});
        QCOMPARE(b->categories.back().label, std::string("11 smaller causes"));
        std::vector<BarSegment> segments;
        for (std::size_t i = 0; i < b->categories.size(); ++i) {
            if (i < 7) {
                QCOMPARE(b->categories[i].label, rec.causes[i].component);
                QCOMPARE(b->categories[i].segments.size(), std::size_t{1});
            }
            for (const BarSegment& g : b->categories[i].segments)
                segments.push_back(g);
        }
        QCOMPARE(segments.size(), rec.causes.size());
        int sum = 0;
        for (std::size_t i = 0; i < rec.causes.size(); ++i) {
            QCOMPARE(segments[i].value, double(rec.causes[i].count));
            QCOMPARE(b->series[static_cast<std::size_t>(segments[i].series)],
                     rec.causes[i].category);
            sum += static_cast<int>(segments[i].value);
        }
        QCOMPARE(sum, 419);
        QCOMPARE(b->emphasis, 0); // "Faulty GPU", printed 30.1 % for 148/419 = 35.3 %
        QVERIFY(b->caption.find("30.1 %") != std::string::npos);
        QVERIFY(b->caption.find("35.3 %") != std::string::npos);
        QVERIFY(b->caption.find("94.9 %") != std::string::npos);
        // Mid-play the bars appear largest first on a fixed axis.
        const auto half = first<BarChartFrame>(s.steps[0].frames(0.3));
        QCOMPARE(half->axisMax, b->axisMax);
        QCOMPARE(half->categories[0].segments[0].value, 148.0);
        QCOMPARE(half->categories[7].segments[0].value, 0.0);
        // §3.3.4's headline figures, as published.
        const auto f = first<FactsFrame>(s.steps[0].frames(1.0));
        QVERIFY(f);
        std::map<std::string, std::string> row;
        for (const FactRow& r : f->rows)
            row[r.label] = r.value;
        QCOMPARE(row["job interruptions"], std::string("466"));
        QCOMPARE(row["planned"], std::string("47"));
        QCOMPARE(row["unexpected"], std::string("419"));
        QCOMPARE(row["one unexpected every"], std::string("3.09 h"));
        QCOMPARE(row["effective training time"], std::string("> 90 %"));
        QCOMPARE(row["significant manual interventions"], std::string("3"));
        QCOMPARE(row["GPU rows, as printed"], std::string("58.7 %"));
        // Step 1 is published data: the provenance says so before it says Monte Carlo.
        QVERIFY(s.provenance.starts_with("published: Llama 3 §3.3.4 and Table 5"));
    }

    void youngAndDalyWhereTheFormulasPutThem() {
        for (const char* ckpt : {"1", "5"})
            for (const char* restart : {"10", "120"}) {
                const Story s = build("failures-checkpoint",
                                      {{"checkpoint-min", ckpt}, {"restart-min", restart}});
                const double delta = std::stod(ckpt) * 60, r = std::stod(restart) * 60;
                // Llama 3's rate: M = 54 × 24 h / 419 at 16,384 GPUs (Llama 3 §3.3.4).
                const double M = 54 * 24 * 3600.0 / 419;
                const double young = std::sqrt(2 * delta * M);
                const double x = delta / (2 * M);
                const double daly =
                    std::sqrt(2 * delta * M) * (1 + std::sqrt(x) / 3 + x / 9) - delta;
                const auto c = first<ChartFrame>(s.steps[2].frames(1.0));
                QVERIFY(c);
                const auto y = marker(*c, "Young"), d = marker(*c, "Daly");
                const auto b = marker(*c, "simulated best");
                QVERIFY(y && d && b);
                QVERIFY(std::abs(y->at.x * 60 / young - 1) < 1e-3);
                QVERIFY(std::abs(d->at.x * 60 / daly - 1) < 1e-3);
                if (delta == 60) // √(2 · 1 min · 3.09 h): about 19.3 min
                    QVERIFY(std::abs(y->at.x - 19.3) < 0.1);
                // The dots sit on the goodput curve (Daly's model, written out here), not
                // below it where they read as goodput values.
                // The job's M is the default 50,677 h per GPU ÷ 16,384, Llama 3's rate rounded.
                const double jobM = 50677 * 3600.0 / 16384;
                for (const auto& [mk, tau] : {std::pair{*y, young}, std::pair{*d, daly}}) {
                    const double t = jobM * std::exp(r / jobM) * std::expm1((tau + delta) / jobM);
                    QVERIFY(std::abs(mk.at.y - 100 * tau / t) < 1e-3);
                    QVERIFY(std::abs(mk.at.y - curveAt(c->series[0], mk.at.x)) < 0.5);
                }
                // The simulated optimum lands near the analytic one (the curve is flat there).
                QVERIFY(b->at.x * 60 > young / 2.5 && b->at.x * 60 < young * 2.5);
            }
    }

    void wasteDecompositionAddsUp() {
        // Each bar is Daly's waste at its τ split into writing, rework and restart: the parts
        // sum to the waste (written out here), and the resting frame points at Young's τ.
        for (const char* restart : {"10", "120", "0"})
            for (const char* gpus : {"16384", "131072"}) {
                const Story s =
                    build("failures-checkpoint", {{"restart-min", restart}, {"gpus", gpus}});
                const auto b = first<BarChartFrame>(s.steps[3].frames(1.0));
                QVERIFY(b);
                const double M = 50677 * 3600.0 / std::stod(gpus), d = 60;
                const double r = std::stod(restart) * 60;
                const double young = std::sqrt(2 * d * M);
                QCOMPARE(b->series.size(), std::size_t{3});
                // Young × 1/8 … 8 and the chosen 30 min, ascending.
                std::vector<double> taus;
                for (int e = -3; e <= 3; ++e)
                    taus.push_back(young * std::pow(2.0, e));
                taus.push_back(30 * 60.0);
                std::sort(taus.begin(), taus.end());
                QCOMPARE(b->categories.size(), taus.size());
                for (std::size_t i = 0; i < taus.size(); ++i) {
                    const BarCategory& cat = b->categories[i];
                    QCOMPARE(cat.segments.size(), std::size_t{3});
                    double sum = 0;
                    for (const BarSegment& g : cat.segments)
                        sum += g.value;
                    const double t = M * std::exp(r / M) * std::expm1((taus[i] + d) / M);
                    QVERIFY(std::abs(sum - (1 - taus[i] / t)) < 1e-12);
                }
                // The emphasised bar is Young's τ and its parts sum to Daly's waste there.
                QVERIFY(b->emphasis >= 0);
                const BarCategory& at = b->categories[static_cast<std::size_t>(b->emphasis)];
                QVERIFY(at.label.find("(Young)") != std::string::npos);
                const double t = M * std::exp(r / M) * std::expm1((young + d) / M);
                double sum = 0;
                for (const BarSegment& g : at.segments)
                    sum += g.value;
                QVERIFY2(std::abs(sum - (1 - young / t)) < 1e-12,
                         qPrintable(QString("%1 vs %2").arg(sum).arg(1 - young / t)));
                QVERIFY(std::abs(at.segments[0].value - d / t) < 1e-12);
                QVERIFY(std::abs(at.segments[2].value - (1 - std::exp(-r / M))) < 1e-12);
                // The facts beside it: the three parts and their sum, as shown.
                const auto f = first<FactsFrame>(s.steps[3].frames(1.0));
                QVERIFY(f && f->rows.size() >= 4);
                QCOMPARE(f->rows[3].value, formatShare(sum));
            }
    }

    void titlesFollowTheGpuCount() {
        const Scenario& sc = *findScenario("failures-checkpoint");
        QVERIFY(sc.title().find_first_of("0123456789") == std::string::npos);
        for (const char* gpus : {"8", "131072"}) {
            const Story s = build("failures-checkpoint", {{"gpus", gpus}});
            const std::string n = std::string(gpus) + (std::string(gpus) == "1" ? " GPU" : " GPUs");
            QVERIFY(s.whiteboard.question.find(n) != std::string::npos);
            const auto sched = first<ScheduleFrame>(s.steps[1].frames(1.0));
            QVERIFY(sched && sched->title.find(n) != std::string::npos);
            for (const Step& st : s.steps)
                QVERIFY2(st.title.find("16K") == std::string::npos, st.title.c_str());
        }
    }

    void timelineTilesTheRunWithTheModelsLostWork() {
        for (const char* seed : {"1", "7"}) {
            const Story s = build("failures-checkpoint", {{"seed", seed}, {"days", "3"}});
            const auto f = first<ScheduleFrame>(s.steps[1].frames(1.0));
            QVERIFY(f);
            QCOMPARE(f->categories,
                     (std::vector<std::string>{"run", "checkpoint", "restart", "lost work"}));
            QCOMPARE(f->rows.size(), std::size_t{1});
            const auto& bars = f->rows[0].bars;
            QVERIFY(bars.size() > 10);
            QCOMPARE(bars.front().startS, 0.0);
            double lost = 0, run = 0;
            int lostBars = 0;
            for (std::size_t i = 0; i < bars.size(); ++i) {
                QVERIFY(bars[i].endS > bars[i].startS);
                if (i > 0) // no gap, no overlap
                    QVERIFY(std::abs(bars[i].startS - bars[i - 1].endS) < 1e-6);
                if (bars[i].category == 3) {
                    lost += bars[i].endS - bars[i].startS;
                    ++lostBars;
                }
                if (bars[i].category == 0)
                    run += bars[i].endS - bars[i].startS;
            }
            QVERIFY(std::abs(bars.back().endS - 3 * 86400.0) < 1e-6);
            QVERIFY(lostBars > 0); // ~23 failures expected in 3 days at M = 3.09 h
            // The same job run by the simulator itself.
            const JobConfig job =
                failuresCheckpointJob(16384, 50677, 30 * 60, 60, 600, 3 * 86400.0);
            QVERIFY(std::abs(job.mtbfS() - 50677 * 3600.0 / 16384) < 1e-6 * job.mtbfS());
            const JobRun r = simulateJob(job, std::stoull(seed));
            double modelLost = 0;
            for (const Segment& g : r.segments)
                if (g.kind == SegmentKind::Lost)
                    modelLost += g.endS - g.startS;
            QVERIFY(std::abs(lost - modelLost) < 1e-6);
            QVERIFY(std::abs(run - r.usefulS) < 1e-6);
            // Failures counted the same way in the narration, the caption and the model.
            const auto facts = first<FactsFrame>(s.steps[1].frames(1.0));
            QVERIFY(facts);
            QCOMPARE(facts->rows[0].label, std::string("job MTBF M"));
            QVERIFY(s.steps[1].narration.find(std::to_string(r.failures) + " failures") !=
                    std::string::npos);
            QVERIFY(f->caption.starts_with(std::to_string(r.failures) + " failures"));
        }
    }

    void stragglersFlagged() {
        const Story s = build("failures-checkpoint");
        const auto c = first<ChartFrame>(s.steps[4].frames(1.0));
        QVERIFY(c);
        QVERIFY(marker(*c, "rank 5"));
        const auto f = first<FactsFrame>(s.steps[4].frames(1.0));
        QVERIFY(f && f->rows[3].value == "5, 41"); // injected at 1.3×: far above the threshold
        const Story none = build("failures-checkpoint", {{"stragglers", ""}});
        QVERIFY(first<ChartFrame>(none.steps[4].frames(1.0))->markers.empty());
    }

    void hangTriageEndsAtTheCulprit() {
        for (const char* fault : {"dead-rank", "skip", "size", "order"})
            for (const char* seed : {"1", "2", "9", "42", "777"})
                for (const char* culprit : {"0", "5", "15"}) {
                    const Story s = build("silent-hang",
                                          {{"fault", fault}, {"seed", seed}, {"culprit", culprit}});
                    const std::string what = std::string(fault) + " seed " + seed;
                    // The triage's last step names the culprit; the whiteboard answer follows.
                    QVERIFY(s.steps.size() >= 4);
                    const Step& found = s.steps[s.steps.size() - 2];
                    QVERIFY2(found.title == std::string("Culprit: rank ") + culprit,
                             qPrintable(QString::fromStdString(what + ": " + found.title)));
                    QCOMPARE(QString::fromStdString(s.steps.back().title),
                             QString(kWhiteboardTitle));
                    // Its recorder view names the culprit's row alone; the step before marked
                    // it a suspect.
                    const auto seq = first<ScheduleFrame>(found.frames(1.0));
                    QVERIFY(seq);
                    for (const ScheduleRow& r : seq->rows)
                        QCOMPARE(r.label.ends_with(" · culprit"),
                                 r.label == std::string("rank ") + culprit + " · culprit");
                    const auto before =
                        first<ScheduleFrame>(s.steps[s.steps.size() - 3].frames(1.0));
                    QVERIFY(before);
                    for (const ScheduleRow& r : before->rows)
                        QCOMPARE(r.label.ends_with(" ?"),
                                 r.label == std::string("rank ") + culprit + " ?");
                    // The first triage step's recorders: waiting ranks read 100 %, a dead
                    // culprit has no process, and ranks that read the same share a row.
                    const auto u = first<FactsFrame>(s.steps[2].frames(1.0));
                    QVERIFY(u);
                    QCOMPARE(u->rows.size(), std::size_t{2});
                    bool deadRow = false;
                    for (const FactRow& r : u->rows) {
                        const bool dead = std::string(fault) == "dead-rank" &&
                                          r.label.starts_with(std::string("rank ") + culprit + ":");
                        deadRow = deadRow || dead;
                        QVERIFY2(r.value.ends_with(dead ? "· no process" : "· 100 %"),
                                 qPrintable(QString::fromStdString(r.label + " " + r.value)));
                        QVERIFY(!r.emphasis); // nobody is singled out yet
                    }
                    QCOMPARE(deadRow, std::string(fault) == "dead-rank");
                }
    }

    // Review: the first steps show the symptom only. Nothing on them names, colours or
    // emphasises a rank: every rank is stuck and no one is obviously guilty.
    void hangSymptomStepsSingleOutNoRank() {
        for (const char* fault : {"dead-rank", "skip", "size", "order"}) {
            const Story s = build("silent-hang", {{"fault", fault}});
            for (std::size_t i : {std::size_t{0}, std::size_t{1}}) {
                const Frames f = s.steps[i].frames(1.0);
                QVERIFY(all<ScheduleFrame>(f).empty());
                for (const FactsFrame& facts : all<FactsFrame>(f))
                    for (const FactRow& r : facts.rows)
                        QVERIFY2(r.label.find("rank") == std::string::npos,
                                 qPrintable(QString::fromStdString(r.label)));
                for (const BarChartFrame& bars : all<BarChartFrame>(f))
                    for (const BarCategory& c : bars.categories)
                        QVERIFY(c.label.find("rank") == std::string::npos);
                QVERIFY(s.steps[i].narration.find("rank 5") == std::string::npos);
            }
            // GPU-Util against SM activity is a bar chart, never a line across ranks.
            for (const Step& step : s.steps)
                for (const ChartFrame& c : all<ChartFrame>(step.frames(1.0)))
                    QVERIFY(c.x.title != "rank");
            const auto bars = first<BarChartFrame>(s.steps[1].frames(1.0));
            QVERIFY(bars);
            QCOMPARE(bars->categories.size(), std::size_t{2});
            QCOMPARE(bars->categories[0].segments.front().value, 1.0);
            QCOMPARE(bars->categories[1].segments.front().value, 16.0 / 132.0);
        }
    }

    // Review: every step rests on its own picture, for every fault.
    void hangStepsRestOnDifferentFrames() {
        for (const char* fault : {"dead-rank", "skip", "size", "order"})
            for (const char* ranks : {"4", "16", "32"}) {
                const Story s =
                    build("silent-hang", {{"fault", fault}, {"ranks", ranks}, {"culprit", "3"}});
                for (std::size_t i = 1; i < s.steps.size(); ++i)
                    QVERIFY2(!(s.steps[i].frames(1.0) == s.steps[i - 1].frames(1.0)),
                             qPrintable(QString::fromStdString(std::string(fault) + ": " +
                                                               s.steps[i - 1].title + " / " +
                                                               s.steps[i].title)));
            }
    }

    // Review: an order mismatch is drawn, not only told: the recorder view puts the culprit's
    // call at the stuck number beside the majority's, marked, with both ops written on them.
    void hangOrderMismatchIsOnTheTimeline() {
        for (const char* seed : {"1", "2", "9", "42"}) {
            const Story s = build("silent-hang", {{"fault", "order"}, {"seed", seed}});
            const Step& compare = s.steps[s.steps.size() - 3];
            QVERIFY2(compare.title.starts_with("Compare the calls at #"),
                     qPrintable(QString::fromStdString(compare.title)));
            const auto seq = first<ScheduleFrame>(compare.frames(1.0));
            QVERIFY(seq);
            QCOMPARE(seq->rows.size(), std::size_t{2});
            const ScheduleBar& majority = seq->rows[0].bars.back();
            const ScheduleBar& odd = seq->rows[1].bars.back();
            QCOMPARE(seq->rows[1].label, std::string("rank 5 ?"));
            QCOMPARE(odd.startS, majority.startS);
            QVERIFY(odd.label != majority.label);
            QVERIFY(seq->categories[static_cast<std::size_t>(odd.category)] ==
                    "disagrees with the majority");
            QVERIFY(majority.category == 1);
        }
    }

    // Review: at 32 ranks identical ranks share one row, so every label fits.
    void hangAggregatesIdenticalRanks() {
        const Story s = build("silent-hang", {{"ranks", "32"}});
        for (const Step& step : s.steps) {
            for (const ScheduleFrame& f : all<ScheduleFrame>(step.frames(1.0))) {
                QCOMPARE(f.rows.size(), std::size_t{2});
                QCOMPARE(f.rows[0].label, std::string("ranks 0–4, 6–31"));
            }
            if (step.title.starts_with("Find the first"))
                QVERIFY(first<FactsFrame>(step.frames(1.0))
                            ->rows.front()
                            .label.starts_with("ranks 0–4, 6–31: "));
        }
    }

    // Review: the tools a candidate names are on the slides, with primary sources.
    void hangNamesTheTools() {
        const Scenario& sc = *findScenario("silent-hang");
        const Story s = build("silent-hang");
        std::string words = sc.answer();
        for (const WhiteboardPoint& p : s.whiteboard.points)
            words += p.text + " " + p.source + "\n";
        for (const char* tool : {"watchdog", "TORCH_NCCL_TRACE_BUFFER_SIZE",
                                 "TORCH_NCCL_DUMP_ON_TIMEOUT", "sequence number", "py-spy dump"})
            QVERIFY2(words.find(tool) != std::string::npos, tool);
        std::string urls;
        for (const SourceRef& r : sc.sources())
            urls += r.url + " ";
        for (const char* url : {"pytorch.org/tutorials", "torch_nccl_environment_variables",
                                "github.com/benfred/py-spy", "docs.nvidia.com/deploy/nvml-api"})
            QVERIFY2(urls.find(url) != std::string::npos, url);
        // The culprit's step says what to run on it: its logs when the process is gone,
        // py-spy when it is alive.
        const auto gone = first<FactsFrame>(s.steps[s.steps.size() - 2].frames(1.0));
        QVERIFY(gone);
        QCOMPARE(gone->rows.front().value, std::string("gone"));
        const Story size = build("silent-hang", {{"fault", "size"}});
        const auto alive = first<FactsFrame>(size.steps[size.steps.size() - 2].frames(1.0));
        QVERIFY(alive);
        QCOMPARE(alive->rows[1].value, std::string("py-spy dump --pid"));
    }

    void badParametersRefused() {
        const Scenario& c1 = *findScenario("failures-checkpoint");
        Params p = c1.defaultParams();
        QVERIFY(p.set("gpus", "0").has_value());
        QVERIFY(p.set("gpu-mtbf-h", "0").has_value());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 failuresCheckpointJob(0, 50677, 1800, 60, 600, 86400));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 failuresCheckpointJob(16384, 0, 1800, 60, 600, 86400));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 failuresCheckpointJob(16384, -5, 1800, 60, 600, 86400));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 build("failures-checkpoint", {{"stragglers", "99:1.5"}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 build("silent-hang", {{"ranks", "8"}, {"culprit", "12"}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 build("silent-hang", {{"collectives", "8"}, {"fault-at", "20"}}));
    }
};

QTEST_APPLESS_MAIN(TestReliabilityScenarios)
#include "test_reliability_scenarios.moc"
