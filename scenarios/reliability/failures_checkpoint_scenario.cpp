#include "reliability/failures_checkpoint_scenario.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "reliability/checkpoint_interval.h"
#include "reliability/llama3_interruptions.h"
#include "reliability/straggler_detection.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

const char* kTable5 = "Llama 3, arXiv:2407.21783, Table 5";
const char* kFacts5 = "Young, CACM 1974; Daly, FGCS 2006";

// A duration in the unit a person would say it in.
std::string duration(double s) {
    if (s < 120)
        return fill("%1 s", {formatSignificant(s, 3)});
    if (s < 7200)
        return fill("%1 min", {formatSignificant(s / 60, 3)});
    if (s < 3 * 86400)
        return fill("%1 h", {formatSignificant(s / 3600, 3)});
    return fill("%1 days", {formatSignificant(s / 86400, 3)});
}

double sumRate(const std::vector<FailureSource>& s) {
    double r = 0;
    for (const FailureSource& f : s)
        r += 1.0 / f.mtbfHoursPerUnit;
    return r;
}

// Step 1: the causes as published, revealed one by one; the cumulative share by count
// reaches 100 % while the printed percentages stop at 94.9 % (the paper's inconsistency).
Frames llamaFrames(double t) {
    const Llama3Record& rec = llama3Record();
    const int n = static_cast<int>(rec.causes.size());
    const int shown = std::clamp(static_cast<int>(std::ceil(t * n)), 1, n);
    ChartFrame c;
    c.title = "Unexpected interruptions, cumulative share (Pareto)";
    c.x = {.title = "cause, largest first (Table 5 order)",
           .log = false,
           .min = 0,
           .max = static_cast<double>(n)};
    c.y = {.title = "cumulative share of the 419 (%)", .log = false, .min = 0, .max = 100};
    ChartSeries counted{.name = "100·count/419",
                        .points = {{0, 0}},
                        .style = ChartSeries::Style::Line,
                        .colorIndex = 0};
    ChartSeries printed{.name = "printed %",
                        .points = {{0, 0}},
                        .style = ChartSeries::Style::Dashed,
                        .colorIndex = 1};
    FactsFrame f;
    f.title = fill("Table 5 as published: %1 unexpected of %2 in %3 days",
                   {std::to_string(rec.unexpected), std::to_string(rec.interruptions),
                    std::to_string(rec.days)});
    double cumCount = 0, cumPrinted = 0;
    for (int i = 0; i < shown; ++i) {
        const InterruptionCause& cause = rec.causes[static_cast<std::size_t>(i)];
        cumCount += cause.count;
        cumPrinted += cause.printedPercent;
        const double x = i + 1;
        counted.points.push_back({x, 100.0 * cumCount / rec.unexpected});
        printed.points.push_back({x, cumPrinted});
        if (i < 3)
            c.markers.push_back(
                {.at = {x, 100.0 * cumCount / rec.unexpected},
                 .label = cause.component,
                 .tooltip =
                     fill("%1: %2 · %3", {cause.component, std::to_string(cause.count), kTable5}),
                 .colorIndex = 0,
                 .estimate = false,
                 .emphasis = i == 0});
        const bool odd =
            std::abs(100.0 * cause.count / rec.unexpected - cause.printedPercent) > 0.1;
        const std::string source =
            odd ? fill("%1 · %2 · %3", {cause.category, kTable5, llama3TableNote()})
                : fill("%1 · %2", {cause.category, kTable5});
        f.rows.push_back({.label = cause.component,
                          .value = fill("%1 · %2 %", {std::to_string(cause.count),
                                                      formatSignificant(cause.printedPercent, 3)}),
                          .source = source,
                          .emphasis = odd});
    }
    c.series = {counted, printed};
    c.footnote = fill("printed shares sum to 94.9 %: Faulty GPU prints 30.1 % for 148/419 = 35.3 "
                      "% · %1",
                      {kTable5});
    return Frames{{c, f}};
}

struct FailureCheckpointModel {
    JobConfig job;
    JobRun run;
    CheckpointSweep sweep;
    double youngS = 0, dalyS = 0, mtbfS = 0, gpuMtbfH = 0;
    int gpus = 0;
    std::uint64_t seed = 1;
    StepTimeConfig steps;
    std::vector<std::vector<double>> times;
    double k = 3.5;
};

double analyticGoodput(const JobConfig& j, double interval) {
    return 1.0 - expectedWaste(interval, j.checkpointS, j.mtbfS(), j.restartS);
}

Frames timelineFrames(const FailureCheckpointModel& m, double t) {
    const double end = m.job.durationS;
    const double cursor = t * end;
    ScheduleFrame s;
    s.title = fill("One run of the job: %1 GPUs, τ = %2, δ = %3, R = %4",
                   {std::to_string(m.gpus), duration(m.job.intervalS), duration(m.job.checkpointS),
                    duration(m.job.restartS)});
    // Palette order: blue, orange, green, red; lost work takes the red.
    s.categories = {"run", "checkpoint", "restart", "lost work"};
    s.endS = end;
    s.cursorS = t >= 1.0 ? -1.0 : cursor;
    if (end > 3 * 86400) {
        s.axisUnit = "days";
        s.axisUnitS = 86400;
    } else {
        s.axisUnit = "h";
        s.axisUnitS = 3600;
    }
    ScheduleRow row;
    row.label = "job";
    double useful = 0, lost = 0, restart = 0, ckpt = 0;
    int failures = 0;
    for (const Segment& seg : m.run.segments) {
        const int cat = seg.kind == SegmentKind::Run          ? 0
                        : seg.kind == SegmentKind::Checkpoint ? 1
                        : seg.kind == SegmentKind::Restart    ? 2
                                                              : 3;
        const std::string tip =
            seg.cause.empty()
                ? fill("%1 %2", {segmentKindName(seg.kind), duration(seg.endS - seg.startS)})
                : fill("%1 %2, cause: %3",
                       {segmentKindName(seg.kind), duration(seg.endS - seg.startS), seg.cause});
        row.bars.push_back({.startS = seg.startS,
                            .endS = seg.endS,
                            .kind = ScheduleKind::Compute,
                            .label = "",
                            .shade = 0,
                            .tip = tip,
                            .category = cat});
        const double upTo = std::clamp(cursor, seg.startS, seg.endS) - seg.startS;
        switch (seg.kind) {
        case SegmentKind::Run:
            useful += upTo;
            break;
        case SegmentKind::Checkpoint:
            ckpt += upTo;
            break;
        case SegmentKind::Lost:
            lost += upTo;
            if (seg.startS < cursor || t >= 1.0)
                ++failures;
            break;
        case SegmentKind::Restart:
            restart += upTo;
            break;
        }
    }
    s.rows.push_back(row);
    // Work kept against wall time, up to the cursor: the gap to the diagonal is the waste.
    ChartFrame w;
    w.title = "Work kept vs wall time";
    w.x = {.title = "wall time (h)", .log = false, .min = 0, .max = end / 3600};
    w.y = {.title = "useful work (h)", .log = false, .min = 0, .max = end / 3600};
    ChartSeries ideal{.name = "no failures, no checkpoints",
                      .points = {{0, 0}, {end / 3600, end / 3600}},
                      .style = ChartSeries::Style::Faint,
                      .colorIndex = 0};
    ChartSeries kept{
        .name = "this run", .points = {{0, 0}}, .style = ChartSeries::Style::Line, .colorIndex = 0};
    double acc = 0;
    for (const Segment& seg : m.run.segments) {
        if (seg.startS >= cursor)
            break;
        const double stop = std::min(seg.endS, cursor);
        if (seg.kind == SegmentKind::Run)
            acc += stop - seg.startS;
        kept.points.push_back({stop / 3600, acc / 3600});
    }
    w.series = {ideal, kept};
    w.footnote = "flat stretches: checkpoints, lost work, restarts";
    const double elapsed = std::max(cursor, 1e-9);
    s.caption = fill("goodput so far %1 · %2 interruptions · the whole run: %3, %4 failures",
                     {formatShare(useful / elapsed), std::to_string(failures),
                      formatShare(m.run.goodput()), std::to_string(m.run.failures)});
    FactsFrame f;
    f.title = fill("At %1 (seed %2)", {duration(cursor), std::to_string(m.seed)});
    f.rows = {
        {.label = "job MTBF M",
         .value = duration(m.mtbfS),
         .source = fill("%1 h per GPU ÷ %2 GPUs; derived from Llama 3 §3.3.4: 54 × 24 h / 419 = "
                        "3.09 h at 16,384",
                        {formatSignificant(m.gpuMtbfH, 5), std::to_string(m.gpus)}),
         .emphasis = true},
        {"useful work", duration(useful), "run segments later kept by a checkpoint"},
        {"checkpoint writing", duration(ckpt), "δ per interval τ"},
        {"lost work", duration(lost), "work since the last checkpoint when a failure struck"},
        {"restarting", duration(restart), "R per failure; a failure during it starts it over"},
        {.label = "goodput so far",
         .value = formatShare(useful / elapsed),
         .source = "useful ÷ elapsed",
         .emphasis = true},
    };
    return Frames{{s, w, f}};
}

Frames goodputFrames(const FailureCheckpointModel& m, double t) {
    const CheckpointSweep& sw = m.sweep;
    const int n = static_cast<int>(sw.points.size());
    const int shown = std::clamp(static_cast<int>(std::ceil(t * n)), 1, n);
    ChartFrame c;
    c.title = fill("Goodput vs checkpoint interval, M = %1, δ = %2, R = %3",
                   {duration(m.mtbfS), duration(m.job.checkpointS), duration(m.job.restartS)});
    const double tau = m.job.intervalS;
    double lo = std::min(sw.points.front().intervalS, tau) / 60.0;
    double hi = std::max(sw.points.back().intervalS, tau) / 60.0;
    c.x = {.title = "checkpoint interval τ (min)", .log = true, .min = lo, .max = hi};
    ChartSeries sim{.name = "simulated (mean of trials)",
                    .points = {},
                    .style = ChartSeries::Style::Line,
                    .colorIndex = 0};
    ChartSeries daly{.name = "Daly's full model",
                     .points = {},
                     .style = ChartSeries::Style::Dashed,
                     .colorIndex = 1};
    double ymin = 1.0;
    for (int i = 0; i < n; ++i) {
        const SweepPoint& p = sw.points[static_cast<std::size_t>(i)];
        if (i < shown)
            sim.points.push_back({p.intervalS / 60.0, p.simulated * 100});
        daly.points.push_back({p.intervalS / 60.0, p.analytic * 100});
        ymin = std::min({ymin, p.simulated, p.analytic});
    }
    const double yourG = analyticGoodput(m.job, tau);
    ymin = std::min(ymin, yourG);
    c.y = {.title = "goodput (%)",
           .log = false,
           .min = std::floor(std::max(0.0, ymin) * 10) * 10,
           .max = 100};
    c.series = {daly, sim};
    const double gy = analyticGoodput(m.job, m.youngS), gd = analyticGoodput(m.job, m.dalyS);
    double bestSim = 0;
    for (const SweepPoint& p : sw.points)
        if (p.intervalS == sw.simulatedBestS)
            bestSim = p.simulated;
    // Young and Daly nearly coincide with the best point: vertical guides, their labels low
    // on the chart at two heights so they stay readable; the goodputs are in the tooltips.
    const double y0 = c.y.min, span = c.y.max - c.y.min;
    c.series.push_back({.name = "Young √(2δM)",
                        .points = {{m.youngS / 60, y0}, {m.youngS / 60, gy * 100}},
                        .style = ChartSeries::Style::Faint,
                        .colorIndex = 2});
    c.series.push_back({.name = "Daly",
                        .points = {{m.dalyS / 60, y0}, {m.dalyS / 60, gd * 100}},
                        .style = ChartSeries::Style::Faint,
                        .colorIndex = 3});
    c.markers = {
        {.at = {m.youngS / 60, y0 + 0.22 * span},
         .label = "Young √(2δM)",
         .tooltip =
             fill("Young: %1, goodput %2 · %3", {duration(m.youngS), formatShare(gy), kFacts5}),
         .colorIndex = 2},
        {.at = {m.dalyS / 60, y0 + 0.08 * span},
         .label = "Daly",
         .tooltip =
             fill("Daly: %1, goodput %2 · %3", {duration(m.dalyS), formatShare(gd), kFacts5}),
         .colorIndex = 3},
        {.at = {sw.simulatedBestS / 60, bestSim * 100},
         .label = "simulated best",
         .tooltip = fill("best simulated point: %1, %2",
                         {duration(sw.simulatedBestS), formatShare(bestSim)}),
         .colorIndex = 0,
         .estimate = false,
         .emphasis = true},
        {.at = {tau / 60, yourG * 100},
         .label = "your τ",
         .tooltip =
             fill("your τ = %1: goodput %2 (Daly's model)", {duration(tau), formatShare(yourG)}),
         .colorIndex = 4},
    };
    c.footnote = fill("Young τ ≈ √(2δM); Daly adds higher-order terms · %1", {kFacts5});
    FactsFrame f;
    f.title = "Optimum interval";
    f.rows = {
        {.label = "Young √(2δM)", .value = duration(m.youngS), .source = kFacts5, .emphasis = true},
        {"Daly", duration(m.dalyS), "√(2δM)[1 + ⅓√(δ/2M) + (δ/2M)/9] − δ · Daly 2006"},
        {.label = "simulated best",
         .value = duration(sw.simulatedBestS),
         .source =
             fill("%1 intervals, same seed at each (common random numbers)", {std::to_string(n)}),
         .emphasis = true},
        {"goodput at Young", formatShare(gy), "1 − Daly's expected waste"},
        {"goodput at your τ", formatShare(yourG), fill("τ = %1", {duration(tau)})},
    };
    return Frames{{c, f}};
}

Frames wasteFrames(const FailureCheckpointModel& m, double t) {
    const JobConfig& j = m.job;
    const double M = m.mtbfS;
    const double lo = m.sweep.points.front().intervalS, hi = m.sweep.points.back().intervalS;
    ChartFrame c;
    c.title = "Where the time goes (first order, share of wall time)";
    c.x = {.title = "checkpoint interval τ (min)", .log = true, .min = lo / 60, .max = hi / 60};
    ChartSeries write{
        .name = "δ/τ writing", .points = {}, .style = ChartSeries::Style::Line, .colorIndex = 2};
    ChartSeries rework{.name = "(τ+δ)/2M rework",
                       .points = {},
                       .style = ChartSeries::Style::Line,
                       .colorIndex = 3};
    ChartSeries restart{
        .name = "R/M restart", .points = {}, .style = ChartSeries::Style::Faint, .colorIndex = 4};
    ChartSeries total{
        .name = "Daly's waste", .points = {}, .style = ChartSeries::Style::Dashed, .colorIndex = 0};
    double ymax = 0;
    for (int i = 0; i <= 40; ++i) {
        const double tau = lo * std::pow(hi / lo, i / 40.0);
        const double x = tau / 60;
        write.points.push_back({x, 100 * j.checkpointS / tau});
        rework.points.push_back({x, 100 * (tau + j.checkpointS) / (2 * M)});
        restart.points.push_back({x, 100 * j.restartS / M});
        const double w = expectedWaste(tau, j.checkpointS, M, j.restartS);
        total.points.push_back({x, 100 * w});
        ymax = std::max(ymax, w);
    }
    c.y = {.title = "waste (%)",
           .log = false,
           .min = 0,
           .max = std::min(100.0, std::ceil(ymax * 10) * 10)};
    c.series = {write, rework, restart, total};
    // The cursor walks the interval axis: the waste terms at that τ.
    const double tau = lo * std::pow(hi / lo, t);
    const double w = expectedWaste(tau, j.checkpointS, M, j.restartS);
    c.markers = {{.at = {tau / 60, 100 * w},
                  .label = fill("τ = %1", {duration(tau)}),
                  .tooltip = fill("Daly's waste %1; first order %2",
                                  {formatShare(w), formatShare(firstOrderWaste(tau, j.checkpointS,
                                                                               M, j.restartS))}),
                  .colorIndex = 0,
                  .estimate = false,
                  .emphasis = true}};
    c.footnote = fill("waste ≈ δ/τ + (τ+δ)/2M + R/M; at Young's τ the first two give √(2δ/M) · %1",
                      {kFacts5});
    FactsFrame f;
    f.title = fill("At τ = %1", {duration(tau)});
    f.rows = {
        {"writing δ/τ", formatShare(j.checkpointS / tau), "shrinks as τ grows"},
        {"rework (τ+δ)/2M", formatShare((tau + j.checkpointS) / (2 * M)),
         "half an interval lost per failure, on average"},
        {"restart R/M", formatShare(j.restartS / M),
         "does not depend on τ: only faster restarts help"},
        {.label = "Daly's waste", .value = formatShare(w), .source = kFacts5, .emphasis = true},
        {"√(2δ/M) at Young", formatShare(std::sqrt(2 * j.checkpointS / M)),
         "derived: δ/τ + τ/2M at Young's τ (Young, CACM 1974)"},
    };
    return Frames{{c, f}};
}

Frames stragglerFrames(const FailureCheckpointModel& m, double t) {
    // The detector sees the steps run so far: more steps, firmer medians.
    const int total = m.steps.steps;
    const int seen = std::clamp(static_cast<int>(std::ceil(t * total)), 3, total);
    std::vector<std::vector<double>> times;
    for (const auto& r : m.times)
        times.emplace_back(r.begin(), r.begin() + seen);
    const StragglerReport rep = detectStragglers(times, m.k);
    ChartFrame c;
    c.title = fill("Per-rank step time after %1 steps", {std::to_string(seen)});
    const double n = static_cast<double>(rep.ranks.size());
    c.x = {.title = "rank", .log = false, .min = 0, .max = n - 1};
    ChartSeries med{.name = "median per rank",
                    .points = {},
                    .style = ChartSeries::Style::Line,
                    .colorIndex = 0};
    ChartSeries p95{
        .name = "p95 per rank", .points = {}, .style = ChartSeries::Style::Faint, .colorIndex = 1};
    double ymin = rep.thresholdS, ymax = rep.thresholdS;
    for (const RankStepStats& r : rep.ranks) {
        med.points.push_back({static_cast<double>(r.rank), r.medianS});
        p95.points.push_back({static_cast<double>(r.rank), r.p95S});
        ymin = std::min(ymin, r.p5S);
        ymax = std::max(ymax, r.p95S);
    }
    ChartSeries thr{.name = "threshold m + k·1.4826·MAD",
                    .points = {{0, rep.thresholdS}, {n - 1, rep.thresholdS}},
                    .style = ChartSeries::Style::Dashed,
                    .colorIndex = 2};
    c.series = {med, p95, thr};
    const double pad = (ymax - ymin) * 0.05;
    c.y = {.title = "step time (s)", .log = false, .min = ymin - pad, .max = ymax + pad};
    std::string flagged;
    for (int r : rep.stragglers) {
        const RankStepStats& s = rep.ranks[static_cast<std::size_t>(r)];
        c.markers.push_back(
            {.at = {static_cast<double>(r), s.medianS},
             .label = fill("rank %1", {std::to_string(r)}),
             .tooltip = fill("median %1, robust z %2",
                             {formatSi(s.medianS, "s"), formatSignificant(s.robustZ, 3)}),
             .colorIndex = 3,
             .estimate = false,
             .emphasis = true});
        flagged += (flagged.empty() ? "" : ", ") + std::to_string(r);
    }
    c.footnote = "modified z-score (Iglewicz & Hoaglin 1993): flag median > m + k·σ̂, σ̂ = "
                 "1.4826·MAD";
    FactsFrame f;
    f.title = fill("Robust outlier rule, k = %1", {formatSignificant(m.k, 3)});
    f.rows = {
        {"median of medians m", formatSi(rep.medianS, "s"),
         fill("over %1 ranks", {std::to_string(rep.ranks.size())})},
        {"MAD", formatSi(rep.madS, "s"), "median absolute deviation of the medians"},
        {"threshold", formatSi(rep.thresholdS, "s"), "max(m + k·1.4826·MAD, 1.02·m)"},
        {.label = "flagged",
         .value = flagged.empty() ? std::string("none") : flagged,
         .source = "every rank steps at the slowest one's pace",
         .emphasis = true},
        {"job step time", formatSi(rep.ranks.empty() ? 0.0 : [&] {
             double mx = 0;
             for (const RankStepStats& r : rep.ranks)
                 mx = std::max(mx, r.medianS);
             return mx;
         }(), "s"),
         "synchronous: the slowest median sets the pace"},
    };
    return Frames{{c, f}};
}

} // namespace

JobConfig failuresCheckpointJob(int gpus, double gpuMtbfHours, double intervalS, double checkpointS,
                                double restartS, double durationS) {
    if (!std::isfinite(gpuMtbfHours) || !(gpuMtbfHours > 0))
        throw std::invalid_argument("per-GPU MTBF must be a positive number of hours");
    JobConfig c;
    c.sources = llama3FailureSources(gpus); // throws for gpus < 1
    // Keep each cause's share, set the total: one GPU fails every gpuMtbfHours on average.
    const double scale = gpuMtbfHours * sumRate(c.sources);
    for (FailureSource& s : c.sources)
        s.mtbfHoursPerUnit *= scale;
    c.intervalS = intervalS;
    c.checkpointS = checkpointS;
    c.restartS = restartS;
    c.durationS = durationS;
    c.validate();
    return c;
}

std::string FailuresCheckpointScenario::question() const {
    return "A 16,384-GPU training job is interrupted every three hours. How often should it "
           "checkpoint, and how do you find the one slow GPU?";
}

std::string FailuresCheckpointScenario::answer() const {
    return R"(**Failures are a rate you plan for, not an accident.**
- Llama 3 405B on 16,384 H100s: **466 interruptions in 54 days**, 419 unexpected, one every **3.09 h**; GPUs (Faulty GPU, HBM3, SRAM, ...) cause most of them (Llama 3 §3.3.4 and Table 5). The table's "Faulty GPU" prints 30.1 % where 148/419 = 35.3 %: the printed shares sum to 94.9 % (derived from Table 5's counts).
- Per GPU that is one failure in ~50,700 h (~6 years); a synchronous job fails when any one of its N GPUs does, so its MTBF is M = MTBF_GPU / N.
- Each failure loses the work since the last checkpoint (τ/2 on average) and a restart R. Checkpointing every τ costs δ/τ. The sum is smallest near **Young's τ ≈ √(2δM)** (1974); **Daly** (2006) refines it. With M = 3.09 h and δ = 1 min, τ ≈ 19 min (derived: √(2 · 1 min · 3.09 h)).
- The simulated optimum sits beside both; the curve is flat near the top, so being 2× off costs little, while R/M is a floor no interval removes: make restarts fast.
- A synchronous step runs at its slowest rank's pace. Flag stragglers by median + k·1.4826·MAD over per-rank medians: a mean and standard deviation are dragged by the very outliers they should catch.)";
}

std::vector<SourceRef> FailuresCheckpointScenario::sources() const {
    return {
        {"Grattafiori et al., The Llama 3 Herd of Models, §3.3.4 and Table 5",
         "https://arxiv.org/abs/2407.21783"},
        {"Young, A first order approximation to the optimum checkpoint interval (CACM 1974)",
         "https://doi.org/10.1145/361147.361115"},
        {"Daly, A higher order estimate of the optimum checkpoint interval (FGCS 2006)",
         "https://doi.org/10.1016/j.future.2004.11.016"},
        {"Iglewicz & Hoaglin, How to Detect and Handle Outliers (1993): modified z-score",
         "https://www.itl.nist.gov/div898/handbook/eda/section3/eda35h.htm"},
    };
}

std::vector<ParamSpec> FailuresCheckpointScenario::parameters() const {
    return {
        ParamSpec::integer("gpus", "GPUs in the job", "", 8, 131072, 16384, true,
                           "a failure of any one stops the synchronous job"),
        ParamSpec::real("gpu-mtbf-h", "MTBF per GPU, all causes", "h", 1000, 1e7, 50677, true,
                        "Llama 3: 16,384 × 54 × 24 h / 419 ≈ 50,677 h; causes keep Table 5's "
                        "shares"),
        ParamSpec::real("interval-min", "Checkpoint interval τ", "min", 1, 600, 30, true),
        ParamSpec::real("checkpoint-min", "Checkpoint write δ", "min", 0.1, 60, 1, true),
        ParamSpec::real("restart-min", "Restart R", "min", 0, 120, 10, false,
                        "detect, reschedule, reload the checkpoint"),
        ParamSpec::real("days", "Simulated run", "days", 0.25, 14, 2, false),
        ParamSpec::integer("seed", "Seed", "", 1, 1000, 1),
        ParamSpec::text("stragglers", "Injected stragglers", "5:1.3,41:1.06",
                        "rank:slowdown, comma-separated, among 64 ranks"),
        ParamSpec::real("k", "Outlier cut-off k", "", 1.5, 8, 3.5, false,
                        "modified z-score; 3.5 is customary"),
    };
}

Story FailuresCheckpointScenario::build(const Params& p, const ScenarioInputs&) const {
    auto m = std::make_shared<FailureCheckpointModel>();
    m->gpus = static_cast<int>(p.integer("gpus"));
    m->gpuMtbfH = p.number("gpu-mtbf-h");
    m->seed = static_cast<std::uint64_t>(p.integer("seed"));
    m->job = failuresCheckpointJob(m->gpus, m->gpuMtbfH, p.number("interval-min") * 60,
                                   p.number("checkpoint-min") * 60, p.number("restart-min") * 60,
                                   p.number("days") * 86400);
    m->mtbfS = m->job.mtbfS();
    m->youngS = youngInterval(m->job.checkpointS, m->mtbfS);
    m->dalyS = dalyInterval(m->job.checkpointS, m->mtbfS);
    m->run = simulateJob(m->job, m->seed);
    // The sweep runs Llama 3's 54-day snapshot, with as many trials as ~4·10⁶ failures allow.
    JobConfig sweepJob = m->job;
    sweepJob.durationS = 54 * 86400.0;
    const int points = 17;
    const double failuresPerTrial = sweepJob.durationS / m->mtbfS + 1;
    const int trials = static_cast<int>(std::clamp(4e6 / (points * failuresPerTrial), 4.0, 48.0));
    m->sweep = sweepCheckpointInterval(sweepJob, points, trials, m->seed);
    m->steps.ranks = 64;
    m->steps.steps = 50;
    m->steps.stragglers = parseStragglers(p.text("stragglers"));
    m->steps.validate();
    m->k = p.number("k");
    m->times = generateStepTimes(m->steps, m->seed);

    Story story;
    story.provenance =
        fill("modeled on CPU: Monte Carlo of a synchronous job, %1 GPUs, failure causes in Llama "
             "3 Table 5's shares, seed %2; %3 trials of 54 days per interval",
             {std::to_string(m->gpus), std::to_string(m->seed), std::to_string(trials)});
    story.steps.push_back(
        {"466 interruptions in 54 days",
         "Llama 3's record as published: 419 unexpected interruptions, most of them GPUs. The "
         "solid line counts them; the dashed one adds the printed percentages, which stop at "
         "94.9 % because one row is misprinted.",
         6.0, [](double t) { return llamaFrames(t); }});
    story.steps.push_back(
        {"The job's timeline: runs, checkpoints, lost work, restarts",
         "Failures arrive at random with the job's rate, N GPUs ÷ per-GPU MTBF. Each one throws "
         "away the work since the last checkpoint and costs a restart; the cursor is simulated "
         "time.",
         8.0, [m](double t) { return timelineFrames(*m, t); }});
    story.steps.push_back(
        {"Goodput against the checkpoint interval",
         "The same failures replayed at every interval: too often wastes time writing, too "
         "rarely loses more work per failure. Young's and Daly's optima sit next to the "
         "simulated best.",
         6.0, [m](double t) { return goodputFrames(*m, t); }});
    story.steps.push_back(
        {"Where the waste goes",
         "Writing falls as 1/τ, rework grows with τ, restarts are a floor no interval removes. "
         "The cursor walks τ across the sweep.",
         6.0, [m](double t) { return wasteFrames(*m, t); }});
    story.steps.push_back(
        {"Finding the straggler",
         "Every rank waits for the slowest one each step. Each rank's median step time against "
         "a threshold from the median and MAD of all ranks: the outliers cannot drag the rule "
         "that catches them.",
         6.0, [m](double t) { return stragglerFrames(*m, t); }});
    return story;
}

} // namespace wb
