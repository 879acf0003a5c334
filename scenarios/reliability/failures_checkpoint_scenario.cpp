#include "reliability/failures_checkpoint_scenario.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "reliability/checkpoint_interval.h"
#include "reliability/llama3_interruptions.h"
#include "reliability/straggler_detection.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace wb {

namespace {

const char* kTable5 = "Llama 3, arXiv:2407.21783, Table 5";
const char* kSection334 = "Llama 3, arXiv:2407.21783, §3.3.4";
const char* kYoungDaly = "Young, CACM 17(9) 1974; Daly, FGCS 22(3) 2006";
const char* kDalyModel = "Daly, FGCS 22(3) 2006, full model with restarts";
const char* kOutliers = "Iglewicz & Hoaglin 1993, modified z-score";

// A duration in the unit a person would say it in, and the number it shows in that unit (the
// value a slide quoting it is checked against).
struct FailuresDuration {
    double perUnitS;
    const char* unit;
};
FailuresDuration failuresDurationUnit(double s) {
    if (s < 120)
        return {1, "s"};
    if (s < 7200)
        return {60, "min"};
    if (s < 3 * 86400)
        return {3600, "h"};
    return {86400, "days"};
}
std::string duration(double s) {
    const FailuresDuration u = failuresDurationUnit(s);
    return fill("%1 %2", {formatSignificant(s / u.perUnitS, 3), u.unit});
}
double durationShown(double s) {
    return s / failuresDurationUnit(s).perUnitS;
}

double sumRate(const std::vector<FailureSource>& s) {
    double r = 0;
    for (const FailureSource& f : s)
        r += 1.0 / f.mtbfHoursPerUnit;
    return r;
}

// Table 5's categories in the order the bars colour them.
const std::array<const char*, 6> kCauseCategories = {
    "GPU", "Dependency", "Network", "Unplanned Maintenance", "Host", "Unknown"};
int causeSeries(const std::string& category) {
    for (std::size_t i = 0; i < kCauseCategories.size(); ++i)
        if (category == kCauseCategories[i])
            return static_cast<int>(i);
    return static_cast<int>(kCauseCategories.size()) - 1;
}

// Table 5's rows drawn as a bar of their own, largest first; the rest share one bar.
constexpr int kFailuresOwnBars = 7;

// The published record's numbers, each a result the slides may quote.
struct Llama3Figures {
    double gpuShareByCount = 0; // the GPU rows' counts over 419
    double faultyGpuByCount = 0;
    double printedSum = 0;
    double hoursBetween = 0; // 54 × 24 h / 419
};
Llama3Figures llama3Figures() {
    const Llama3Record& rec = llama3Record();
    Llama3Figures f;
    int gpu = 0;
    for (const InterruptionCause& c : rec.causes) {
        gpu += c.category == "GPU" ? c.count : 0;
        f.printedSum += c.printedPercent;
    }
    f.gpuShareByCount = static_cast<double>(gpu) / rec.unexpected;
    f.faultyGpuByCount = static_cast<double>(rec.causes.front().count) / rec.unexpected;
    f.hoursBetween = rec.days * 24.0 / rec.unexpected;
    return f;
}

// Step 1: the published counts as bars by cause, coloured by category and revealed largest
// first, beside the paper's headline figures.
Frames llamaFrames(double t) {
    const Llama3Record& rec = llama3Record();
    const Llama3Figures fig = llama3Figures();
    // The largest rows one bar each, the rest in one bar stacked by category: eighteen bars
    // would not stay readable on a presenter's screen.
    const int n = kFailuresOwnBars + 1;
    const int shown = std::clamp(static_cast<int>(std::ceil(t * n)), 1, n);
    BarChartFrame b;
    b.title =
        fill("Table 5: the %1 unexpected interruptions by cause", {std::to_string(rec.unexpected)});
    b.caption =
        fill("Faulty GPU is printed as %1 % where %2/%3 = %4; the printed shares sum to %5 %",
             {formatSignificant(rec.causes.front().printedPercent, 3),
              std::to_string(rec.causes.front().count), std::to_string(rec.unexpected),
              formatShare(fig.faultyGpuByCount), formatSignificant(fig.printedSum, 3)});
    b.series.assign(kCauseCategories.begin(), kCauseCategories.end());
    b.axisTitle = fill("interruptions in the %1-day snapshot (count)", {std::to_string(rec.days)});
    b.horizontal = true;
    b.emphasis = 0;
    b.axisMax = rec.causes.front().count;
    const auto tipOf = [&](const InterruptionCause& c) {
        return fill("%1: %2 of %3, printed %4 % · %5",
                    {c.component, std::to_string(c.count), std::to_string(rec.unexpected),
                     formatSignificant(c.printedPercent, 3), kTable5});
    };
    for (int i = 0; i < kFailuresOwnBars; ++i) {
        const InterruptionCause& c = rec.causes[static_cast<std::size_t>(i)];
        b.categories.push_back({.label = c.component,
                                .segments = {{.value = i < shown ? double(c.count) : 0.0,
                                              .series = causeSeries(c.category),
                                              .tip = tipOf(c)}},
                                .tip = fill("%1 · %2", {c.category, kTable5})});
    }
    BarCategory rest{.label =
                         fill("%1 smaller causes",
                              {std::to_string(rec.causes.size() - std::size_t{kFailuresOwnBars})}),
                     .segments = {},
                     .tip = fill("one segment per cause, coloured by category · %1", {kTable5})};
    for (std::size_t i = std::size_t{kFailuresOwnBars}; i < rec.causes.size(); ++i)
        rest.segments.push_back({.value = shown == n ? double(rec.causes[i].count) : 0.0,
                                 .series = causeSeries(rec.causes[i].category),
                                 .tip = tipOf(rec.causes[i])});
    b.categories.push_back(rest);
    FactsFrame f;
    f.title = fill("Llama 3 405B on %1 GPUs, a %2-day snapshot",
                   {std::to_string(rec.gpus), std::to_string(rec.days)});
    f.rows = {
        {"job interruptions", std::to_string(rec.interruptions), kSection334},
        {"planned", std::to_string(rec.planned), "automated maintenance · Llama 3 §3.3.4"},
        {.label = "unexpected",
         .value = std::to_string(rec.unexpected),
         .source = kTable5,
         .emphasis = true},
        {.label = "one unexpected every",
         .value = fill("%1 h", {formatSignificant(fig.hoursBetween, 3)}),
         .source = fill("derived: %1 days × 24 h ÷ %2",
                        {std::to_string(rec.days), std::to_string(rec.unexpected)}),
         .emphasis = true},
        {"effective training time", "> 90 %", "useful training over elapsed time · Llama 3 §3.3.4"},
        {"significant manual interventions", std::to_string(rec.manualInterventions), kSection334},
        {"GPU rows, as printed", fill("%1 %", {formatSignificant(rec.printedGpuPercent, 3)}),
         fill("%1; Table 5's counts give %2", {kSection334, formatShare(fig.gpuShareByCount)})},
    };
    return Frames{{b, f}};
}

// What one run of the job spent up to a moment: the same split as wasteShares.
struct FailuresRunSoFar {
    double useful = 0, checkpoint = 0, lost = 0, restart = 0;
    int failures = 0; // every failure starts one restart segment
    double elapsed() const { return useful + checkpoint + lost + restart; }
};
FailuresRunSoFar failuresRunUpTo(const JobRun& run, double cursor) {
    FailuresRunSoFar r;
    for (const Segment& seg : run.segments) {
        const double upTo = std::clamp(cursor, seg.startS, seg.endS) - seg.startS;
        switch (seg.kind) {
        case SegmentKind::Run:
            r.useful += upTo;
            break;
        case SegmentKind::Checkpoint:
            r.checkpoint += upTo;
            break;
        case SegmentKind::Lost:
            r.lost += upTo;
            break;
        case SegmentKind::Restart:
            r.restart += upTo;
            r.failures += seg.startS < cursor ? 1 : 0;
            break;
        }
    }
    return r;
}

struct FailureCheckpointModel {
    JobConfig job;
    JobRun run;
    CheckpointSweep sweep;
    double youngS = 0, dalyS = 0, mtbfS = 0, gpuMtbfH = 0;
    int gpus = 0;
    int trials = 0;
    std::uint64_t seed = 1;
    StepTimeConfig steps;
    std::vector<std::vector<double>> times;
    double k = 3.5;
    // Daly's model at Young's τ and at the chosen τ, and goodputs where the chart marks them.
    WasteShares atYoung, atTau;
    double goodputYoung = 0, goodputDaly = 0, goodputTau = 0, bestSimulated = 0;
    // The intervals step 4 splits: Young × 1/8 … 8, and the chosen τ, ascending.
    std::vector<double> splitIntervals;
    int youngBar = 0, yourBar = 0;
    StragglerReport stragglers;
    double jobStepS = 0;
};

double analyticGoodput(const JobConfig& j, double interval) {
    return 1.0 - expectedWaste(interval, j.checkpointS, j.mtbfS(), j.restartS);
}

Frames timelineFrames(const FailureCheckpointModel& m, double t) {
    const double end = m.job.durationS;
    const double cursor = std::min(t, 1.0) * end;
    ScheduleFrame s;
    s.title = fill("One run of the job: %1, τ = %2, δ = %3, R = %4",
                   {formatCount(m.gpus, "GPU", "GPUs"), duration(m.job.intervalS),
                    duration(m.job.checkpointS), duration(m.job.restartS)});
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
    }
    s.rows.push_back(row);
    const FailuresRunSoFar so = failuresRunUpTo(m.run, cursor);
    const double elapsed = std::max(so.elapsed(), 1e-9);
    s.caption = fill("%1 so far, goodput %2 · Daly's model expects %3 at this τ",
                     {formatCount(so.failures, "failure", "failures"),
                      formatShare(so.useful / elapsed), formatShare(m.goodputTau)});
    FactsFrame f;
    f.title = fill("After %1 (seed %2)", {duration(cursor), std::to_string(m.seed)});
    f.rows = {
        {.label = "job MTBF M",
         .value = duration(m.mtbfS),
         .source = fill(
             "%1 h per GPU ÷ %2 · rate from %3",
             {formatSignificant(m.gpuMtbfH, 5), formatCount(m.gpus, "GPU", "GPUs"), kSection334}),
         .emphasis = true},
        {"lost work", duration(so.lost), "work since the last checkpoint"},
        {"restarting", duration(so.restart), "R per failure, failed restarts too"},
        {.label = "goodput so far",
         .value = formatShare(so.useful / elapsed),
         .source = fill("useful ÷ elapsed; Daly's model expects %1", {formatShare(m.goodputTau)}),
         .emphasis = true},
    };
    // The timeline and the split beside it; a presenter's screen has no room for a third panel.
    return Frames{{s, f}};
}

Frames goodputFrames(const FailureCheckpointModel& m, double t) {
    const CheckpointSweep& sw = m.sweep;
    const int n = static_cast<int>(sw.points.size());
    const int shown = std::clamp(static_cast<int>(std::ceil(t * n)), 1, n);
    ChartFrame c;
    c.title = fill("Goodput vs checkpoint interval, M = %1, δ = %2, R = %3",
                   {duration(m.mtbfS), duration(m.job.checkpointS), duration(m.job.restartS)});
    const double tau = m.job.intervalS;
    // A τ outside the sweep widens the axis a little past it, so its dot is not on the edge.
    const double lo = std::min(sw.points.front().intervalS, tau / 1.2) / 60.0;
    const double hi = std::max(sw.points.back().intervalS, tau * 1.2) / 60.0;
    c.x = {.title = "checkpoint interval τ (min)", .log = true, .min = lo, .max = hi};
    ChartSeries sim{.name = "simulated (mean of trials)",
                    .points = {},
                    .style = ChartSeries::Style::Line,
                    .colorIndex = 0};
    ChartSeries daly{.name = "Daly's full model",
                     .points = {},
                     .style = ChartSeries::Style::Dashed,
                     .colorIndex = 1};
    double ymin = 1.0, ymax = 0.0;
    for (int i = 0; i < n; ++i) {
        const SweepPoint& p = sw.points[static_cast<std::size_t>(i)];
        if (i < shown)
            sim.points.push_back({p.intervalS / 60.0, p.simulated * 100});
        daly.points.push_back({p.intervalS / 60.0, p.analytic * 100});
        ymin = std::min({ymin, p.simulated, p.analytic});
        ymax = std::max({ymax, p.simulated, p.analytic});
    }
    ymin = std::min(ymin, m.goodputTau);
    // Tens of percent around every point, the whole sweep's range so the axis stays put.
    c.y = {.title = "goodput (%)",
           .log = false,
           .min = std::floor(std::max(0.0, ymin) * 10) * 10,
           .max = std::min(100.0, (std::ceil(ymax * 10) + 1) * 10)};
    c.series = {daly, sim};
    // Young and Daly are intervals: a guide from the axis up to the curve, their dots on the
    // curve at the goodput Daly's model gives there.
    const double y0 = c.y.min;
    c.series.push_back({.name = "Young's τ",
                        .points = {{m.youngS / 60, y0}, {m.youngS / 60, m.goodputYoung * 100}},
                        .style = ChartSeries::Style::Faint,
                        .colorIndex = 2});
    c.series.push_back({.name = "Daly's τ",
                        .points = {{m.dalyS / 60, y0}, {m.dalyS / 60, m.goodputDaly * 100}},
                        .style = ChartSeries::Style::Faint,
                        .colorIndex = 3});
    c.markers = {
        {.at = {m.youngS / 60, m.goodputYoung * 100},
         .label = "Young",
         .tooltip = fill("Young √(2δM) = %1: goodput %2 · %3",
                         {duration(m.youngS), formatShare(m.goodputYoung), kYoungDaly}),
         .colorIndex = 2},
        {.at = {m.dalyS / 60, m.goodputDaly * 100},
         .label = "Daly",
         .tooltip = fill("Daly: %1, goodput %2 · %3",
                         {duration(m.dalyS), formatShare(m.goodputDaly), kYoungDaly}),
         .colorIndex = 3},
        {.at = {sw.simulatedBestS / 60, m.bestSimulated * 100},
         .label = "simulated best",
         .tooltip = fill("best simulated point: %1, %2",
                         {duration(sw.simulatedBestS), formatShare(m.bestSimulated)}),
         .colorIndex = 0,
         .estimate = false,
         .emphasis = true},
        {.at = {tau / 60, m.goodputTau * 100},
         .label = "your τ",
         .tooltip = fill("your τ = %1: goodput %2 (Daly's model)",
                         {duration(tau), formatShare(m.goodputTau)}),
         .colorIndex = 4},
    };
    c.footnote = fill("Young τ ≈ √(2δM); Daly adds higher-order terms · %1", {kYoungDaly});
    FactsFrame f;
    f.title = "Optimum interval";
    f.rows = {
        {.label = "Young √(2δM)",
         .value = duration(m.youngS),
         .source = "Young, CACM 17(9) 1974",
         .emphasis = true},
        {"Daly", duration(m.dalyS), "√(2δM)[1 + ⅓√(δ/2M) + (δ/2M)/9] − δ · Daly, FGCS 2006"},
        {.label = "simulated best",
         .value = duration(sw.simulatedBestS),
         .source = fill("%1 intervals, %2 trials of 54 days each, the same seed at each",
                        {std::to_string(n), std::to_string(m.trials)}),
         .emphasis = true},
        {"goodput at Young", formatShare(m.goodputYoung), "1 − Daly's expected waste"},
        {"goodput at your τ", formatShare(m.goodputTau), fill("τ = %1", {duration(tau)})},
    };
    return Frames{{c, f}};
}

// Step 4: Daly's waste split exactly into its parts at Young × 1/8 … 8 and the chosen τ; the
// stacked bar's length is the total waste.
Frames wasteFrames(const FailureCheckpointModel& m, double t) {
    const JobConfig& j = m.job;
    const int n = static_cast<int>(m.splitIntervals.size());
    const int shown = std::clamp(static_cast<int>(std::ceil(t * n)), 1, n);
    BarChartFrame b;
    b.title = "Where the wall time goes, by checkpoint interval";
    b.caption =
        fill("at Young's τ = %1: writing %2 + rework %3 + restart %4 = waste %5",
             {duration(m.youngS), formatShare(m.atYoung.checkpoint), formatShare(m.atYoung.rework),
              formatShare(m.atYoung.restart), formatShare(m.atYoung.total())});
    b.series = {"checkpoint writing", "rework: lost work", "restart"};
    b.axisTitle = "share of wall time (Daly's model)";
    b.unit = BarValueUnit::Percent;
    b.horizontal = true;
    b.emphasis = m.youngBar;
    double top = 0;
    for (int i = 0; i < n; ++i) {
        const double tau = m.splitIntervals[static_cast<std::size_t>(i)];
        const WasteShares w = wasteShares(tau, j.checkpointS, m.mtbfS, j.restartS);
        top = std::max(top, w.total());
        const std::string label = i == m.youngBar  ? fill("%1 (Young)", {duration(tau)})
                                  : i == m.yourBar ? fill("%1 (yours)", {duration(tau)})
                                                   : duration(tau);
        const double show = i < shown ? 1.0 : 0.0;
        b.categories.push_back(
            {.label = label,
             .segments = {{.value = show * w.checkpoint,
                           .series = 0,
                           .tip = fill("writing δ/T: %1", {formatShare(w.checkpoint)})},
                          {.value = show * w.rework,
                           .series = 1,
                           .tip = fill("rework: %1", {formatShare(w.rework)})},
                          {.value = show * w.restart,
                           .series = 2,
                           .tip = fill("restart: %1", {formatShare(w.restart)})}},
             .tip = fill("τ = %1: waste %2 · %3",
                         {duration(tau), formatShare(w.total()), kDalyModel})});
    }
    b.axisMax = top;
    FactsFrame f;
    f.title = fill("At Young's τ = %1", {duration(m.youngS)});
    f.rows = {
        {"checkpoint writing", formatShare(m.atYoung.checkpoint),
         "δ/T, T = M·e^(R/M)·(e^((τ+δ)/M) − 1) per interval τ"},
        {"rework: lost work", formatShare(m.atYoung.rework),
         "tries a failure cut short, work and partial checkpoints"},
        {"restart", formatShare(m.atYoung.restart),
         "1 − e^(−R/M): does not depend on τ, only a faster restart shrinks it"},
        {.label = "waste, the sum",
         .value = formatShare(m.atYoung.total()),
         .source = kDalyModel,
         .emphasis = true},
        {"waste at your τ", formatShare(m.atTau.total()),
         fill("τ = %1; goodput %2", {duration(j.intervalS), formatShare(m.goodputTau)})},
    };
    return Frames{{b, f}};
}

StragglerReport failuresStragglersSeen(const FailureCheckpointModel& m, int seen) {
    std::vector<std::vector<double>> times;
    for (const auto& r : m.times)
        times.emplace_back(r.begin(), r.begin() + seen);
    return detectStragglers(times, m.k);
}

double failuresSlowestMedian(const StragglerReport& rep) {
    double mx = 0;
    for (const RankStepStats& r : rep.ranks)
        mx = std::max(mx, r.medianS);
    return mx;
}

Frames stragglerFrames(const FailureCheckpointModel& m, double t) {
    // The detector sees the steps run so far: more steps, firmer medians.
    const int total = m.steps.steps;
    const int seen = std::clamp(static_cast<int>(std::ceil(t * total)), 3, total);
    const StragglerReport rep = failuresStragglersSeen(m, seen);
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
    ChartSeries thr{.name = "threshold m + k·σ",
                    .points = {{0, rep.thresholdS}, {n - 1, rep.thresholdS}},
                    .style = ChartSeries::Style::Dashed,
                    .colorIndex = 2};
    c.series = {med, p95, thr};
    const double pad = (ymax - ymin) * 0.05;
    c.y = {.title = "step time (s)", .log = false, .min = ymin - pad, .max = ymax + pad};
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
    }
    c.footnote =
        fill("modified z-score: flag a median above m + k·σ, σ = 1.4826·MAD · %1", {kOutliers});
    std::vector<int> flagged = rep.stragglers;
    std::sort(flagged.begin(), flagged.end());
    FactsFrame f;
    f.title = fill("Robust outlier rule, k = %1", {formatSignificant(m.k, 3)});
    f.rows = {
        {"median of medians m", formatSi(rep.medianS, "s"),
         fill("over %1 ranks", {std::to_string(rep.ranks.size())})},
        {"MAD", formatSi(rep.madS, "s"), "median absolute deviation of the medians"},
        {"threshold", formatSi(rep.thresholdS, "s"),
         "max(m + k·1.4826·MAD, 1.02·m) · Iglewicz & Hoaglin 1993"},
        {.label = "flagged ranks",
         .value = flagged.empty() ? std::string("none") : formatIndexRanges(flagged),
         .source = "every rank steps at the slowest one's pace",
         .emphasis = true},
        {"job step time", formatSi(failuresSlowestMedian(rep), "s"),
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
- Llama 3 405B on 16,384 H100s: **466 interruptions in 54 days**, 419 unexpected, one every **3.09 h**, yet **more than 90 % effective training time** and only **3** significant manual interventions (Llama 3 §3.3.4). GPUs cause most of them (Table 5); its "Faulty GPU" row prints 30.1 % where 148/419 = 35.3 %, so the printed shares sum to 94.9 %.
- A synchronous job fails when any one of its N GPUs does: its MTBF is M = MTBF_GPU / N (about 50,700 h per GPU for Llama 3's record).
- Checkpointing every τ costs δ per interval; each failure throws away the work since the last checkpoint and costs a restart R. The waste is smallest near **Young's τ ≈ √(2δM)** (CACM 1974); **Daly** (FGCS 2006) refines it and gives the exact split of the wall time into writing, rework and restart. With M = 3.09 h and δ = 1 min, τ ≈ 19 min.
- The curve is flat near the top, so being 2× off costs little, while the restart share is a floor no interval removes: make restarts fast.
- A synchronous step runs at its slowest rank's pace. Flag stragglers by median + k·1.4826·MAD over per-rank medians (Iglewicz & Hoaglin): a mean and standard deviation are dragged by the very outliers they should catch.)";
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
        ParamSpec::real("checkpoint-min", "Checkpoint write δ (assumed)", "min", 0.1, 60, 1, true,
                        "Llama 3 does not publish it"),
        ParamSpec::real("restart-min", "Restart R (assumed)", "min", 0, 120, 10, false,
                        "detect, reschedule, reload the checkpoint; Llama 3 does not publish it"),
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
    const JobConfig& job = m->job;
    m->mtbfS = job.mtbfS();
    m->youngS = youngInterval(job.checkpointS, m->mtbfS);
    m->dalyS = dalyInterval(job.checkpointS, m->mtbfS);
    m->run = simulateJob(job, m->seed);
    // The sweep runs Llama 3's 54-day snapshot, with as many trials as ~4·10⁶ failures allow.
    JobConfig sweepJob = job;
    sweepJob.durationS = 54 * 86400.0;
    const int points = 17;
    const double failuresPerTrial = sweepJob.durationS / m->mtbfS + 1;
    m->trials = static_cast<int>(std::clamp(4e6 / (points * failuresPerTrial), 4.0, 48.0));
    m->sweep = sweepCheckpointInterval(sweepJob, points, m->trials, m->seed);
    for (const SweepPoint& pt : m->sweep.points)
        if (pt.intervalS == m->sweep.simulatedBestS)
            m->bestSimulated = pt.simulated;
    m->atYoung = wasteShares(m->youngS, job.checkpointS, m->mtbfS, job.restartS);
    m->atTau = wasteShares(job.intervalS, job.checkpointS, m->mtbfS, job.restartS);
    m->goodputYoung = 1.0 - m->atYoung.total();
    m->goodputDaly = analyticGoodput(job, m->dalyS);
    m->goodputTau = 1.0 - m->atTau.total();
    // Young × 1/8 … 8 in factors of two, the chosen τ among them unless it is one of them.
    for (int e = -3; e <= 3; ++e)
        m->splitIntervals.push_back(m->youngS * std::pow(2.0, e));
    m->yourBar = -1;
    for (std::size_t i = 0; i < m->splitIntervals.size(); ++i)
        if (std::abs(m->splitIntervals[i] / job.intervalS - 1) < 0.02)
            m->yourBar = static_cast<int>(i);
    if (m->yourBar < 0) {
        const auto at =
            std::lower_bound(m->splitIntervals.begin(), m->splitIntervals.end(), job.intervalS);
        m->yourBar = static_cast<int>(at - m->splitIntervals.begin());
        m->splitIntervals.insert(at, job.intervalS);
    }
    m->youngBar =
        static_cast<int>(std::find(m->splitIntervals.begin(), m->splitIntervals.end(), m->youngS) -
                         m->splitIntervals.begin());
    m->steps.ranks = 64;
    m->steps.steps = 50;
    m->steps.stragglers = parseStragglers(p.text("stragglers"));
    m->steps.validate();
    m->k = p.number("k");
    m->times = generateStepTimes(m->steps, m->seed);
    m->stragglers = failuresStragglersSeen(*m, m->steps.steps);
    m->jobStepS = failuresSlowestMedian(m->stragglers);

    const Llama3Record& rec = llama3Record();
    const Llama3Figures fig = llama3Figures();
    const FailuresRunSoFar whole = failuresRunUpTo(m->run, job.durationS);
    const double expectedFailures = job.durationS / m->mtbfS;
    const WasteShares atHalf = wasteShares(m->youngS / 2, job.checkpointS, m->mtbfS, job.restartS);
    const WasteShares atDouble =
        wasteShares(m->youngS * 2, job.checkpointS, m->mtbfS, job.restartS);
    // What being 2× off Young's τ costs, the worse of half and double.
    const double extra2x =
        std::max(0.0, std::max(atHalf.total(), atDouble.total()) - m->atYoung.total());

    Story story;
    story.provenance = fill(
        "published: Llama 3 §3.3.4 and Table 5 (step 1); modeled on CPU: a Monte Carlo of a "
        "synchronous job, %1, failure causes in Table 5's shares, seed %2; %3 trials of 54 "
        "days per interval",
        {formatCount(m->gpus, "GPU", "GPUs"), std::to_string(m->seed), std::to_string(m->trials)});
    // Every number a slide quotes, in the unit it is shown in (durations as duration() says
    // them).
    story.results = {
        {"interruptions", rec.interruptions},
        {"planned", rec.planned},
        {"unexpected", rec.unexpected},
        {"days", rec.days},
        {"Llama 3 GPUs", rec.gpus},
        {"hours between unexpected interruptions", fig.hoursBetween},
        {"effective training time above, %", 90},
        {"manual interventions", rec.manualInterventions},
        {"GPU rows printed, %", rec.printedGpuPercent},
        {"GPU rows by count", fig.gpuShareByCount},
        {"Faulty GPU count", rec.causes.front().count},
        {"Faulty GPU printed, %", rec.causes.front().printedPercent},
        {"Faulty GPU by count", fig.faultyGpuByCount},
        {"printed shares sum, %", fig.printedSum},
        {"the 2 in √(2δM)", 2},
        {"smaller causes in one bar", rec.causes.size() - std::size_t{kFailuresOwnBars}},
        {"job MTBF M, shown", durationShown(m->mtbfS)},
        {"τ, shown", durationShown(job.intervalS)},
        {"δ, shown", durationShown(job.checkpointS)},
        {"R, shown", durationShown(job.restartS)},
        {"Young's τ, shown", durationShown(m->youngS)},
        {"Daly's τ, shown", durationShown(m->dalyS)},
        {"simulated best τ, shown", durationShown(m->sweep.simulatedBestS)},
        {"goodput at Young", m->goodputYoung},
        {"goodput at Daly", m->goodputDaly},
        {"goodput at your τ", m->goodputTau},
        {"best simulated goodput", m->bestSimulated},
        {"writing at Young", m->atYoung.checkpoint},
        {"rework at Young", m->atYoung.rework},
        {"restart at Young", m->atYoung.restart},
        {"waste at Young", m->atYoung.total()},
        {"waste at your τ", m->atTau.total()},
        {"waste at Young / 2", atHalf.total()},
        {"waste at Young × 2", atDouble.total()},
        {"extra waste 2× off Young", extra2x},
        {"expected failures in the run", expectedFailures},
        {"per-GPU MTBF, h", m->gpuMtbfH},
        {"job step time", m->jobStepS},
        {"straggler threshold", m->stragglers.thresholdS},
        {"sweep intervals", points},
    };
    for (int r : m->stragglers.stragglers)
        story.results.push_back({"flagged rank", r});
    std::vector<ResultValue> timelineResults = {
        {"run length, shown", durationShown(job.durationS)},
        {"failures in the run", whole.failures},
        {"lost work, shown", durationShown(whole.lost)},
        {"restarting, shown", durationShown(whole.restart)},
        {"goodput of the run", m->run.goodput()},
    };
    std::vector<ResultValue> splitResults;
    for (double tau : m->splitIntervals)
        splitResults.push_back({"τ split, shown", durationShown(tau)});
    std::vector<ResultValue> stragglerResults = {
        {"steps seen", m->steps.steps},
        {"ranks", m->steps.ranks},
        {"median of medians", m->stragglers.medianS},
        {"MAD", m->stragglers.madS},
    };

    const std::string gpus = formatCount(m->gpus, "GPU", "GPUs");
    story.steps.push_back(
        {fill("%1 interruptions in %2 days",
              {std::to_string(rec.interruptions), std::to_string(rec.days)}),
         fill("Llama 3's record as published: on %1 GPUs, %2 unexpected interruptions, one every "
              "%3 h, most of them GPUs; still more than %4 % of the time was effective training. "
              "The bars are Table 5's counts.",
              {std::to_string(rec.gpus), std::to_string(rec.unexpected),
               formatSignificant(fig.hoursBetween, 3), "90"}),
         6.0, [](double t) { return llamaFrames(t); }});
    const std::string expected = formatSignificant(expectedFailures, 3);
    const std::string met =
        whole.failures == 0
            ? fill("This run met none (%1 expected); a failure would throw away the work since "
                   "the last checkpoint and cost a restart.",
                   {expected})
            : fill("This run met %1, %2 the %3 expected; each threw away the work since the "
                   "last checkpoint and cost a restart.",
                   {formatCount(whole.failures, "failure", "failures"),
                    whole.failures > expectedFailures ? "more than" : "fewer than", expected});
    story.steps.push_back(
        {"The job's timeline: runs, checkpoints, lost work, restarts",
         fill("A failure of any one of %1 stops the job, so it fails every M = %2 on average. %3",
              {gpus, duration(m->mtbfS), met}),
         8.0, [m](double t) { return timelineFrames(*m, t); }, timelineResults});
    const double tau = job.intervalS;
    const std::string where =
        std::abs(tau / m->youngS - 1) < 0.02
            ? fill("Your τ = %1 is Young's", {duration(tau)})
            : fill("Your τ = %1 is %2 Young's %3 and gives %4 against %5",
                   {duration(tau), tau > m->youngS ? "longer than" : "shorter than",
                    duration(m->youngS), formatShare(m->goodputTau), formatShare(m->goodputYoung)});
    story.steps.push_back(
        {"Goodput against the checkpoint interval",
         fill("The same failures replayed at every interval: too often wastes time writing, too "
              "rarely loses more work per failure. %1.",
              {where}),
         6.0, [m](double t) { return goodputFrames(*m, t); }});
    const char* largest = m->atYoung.restart >= std::max(m->atYoung.checkpoint, m->atYoung.rework)
                              ? "restarts, which no interval removes"
                          : m->atYoung.checkpoint >= m->atYoung.rework ? "writing checkpoints"
                                                                       : "rework";
    story.steps.push_back(
        {"Where the waste goes",
         fill(
             "Writing shrinks as τ grows, rework grows with it, restarts stay. The three parts "
             "add up to the waste: at Young's τ = %1, %2 of the wall time; the largest part is %3.",
             {duration(m->youngS), formatShare(m->atYoung.total()), largest}),
         6.0, [m](double t) { return wasteFrames(*m, t); }, splitResults});
    story.steps.push_back(
        {"Finding the straggler",
         fill("Every rank waits for the slowest one each step. Each rank's median step time "
              "against a threshold from the median and MAD of all %1 ranks: the outliers "
              "cannot drag the rule that catches them.",
              {std::to_string(m->steps.ranks)}),
         6.0, [m](double t) { return stragglerFrames(*m, t); }, stragglerResults});

    std::vector<int> flagged = m->stragglers.stragglers;
    std::sort(flagged.begin(), flagged.end());
    // Flat when being 2× off adds less than half the waste at the optimum again.
    const std::string flatness =
        extra2x < 0.5 * m->atYoung.total()
            ? fill("the optimum is flat, being 2× off costs at most %1 more",
                   {formatShare(extra2x)})
            : fill("the optimum is sharp here, being 2× off costs %1 more", {formatShare(extra2x)});
    story.whiteboard.question =
        fill("A job on %1 fails every %2 on average. How often should it checkpoint, and how "
             "do you find the slow GPU?",
             {gpus, duration(m->mtbfS)});
    story.whiteboard.points = {
        {fill("Llama 3 on %1 GPUs met %2 interruptions in %3 days, %4 unexpected: one every %5 "
              "h. It still kept more than %6 % effective training time, with %7 manual "
              "interventions.",
              {std::to_string(rec.gpus), std::to_string(rec.interruptions),
               std::to_string(rec.days), std::to_string(rec.unexpected),
               formatSignificant(fig.hoursBetween, 3), "90",
               std::to_string(rec.manualInterventions)}),
         "Llama 3, arXiv:2407.21783, §3.3.4 and Table 5"},
        {fill("A synchronous job stops when any of its %1 fails: M = %2 h per GPU ÷ %3 = %4.",
              {gpus, formatSignificant(m->gpuMtbfH, 5), std::to_string(m->gpus),
               duration(m->mtbfS)}),
         kSection334},
        {fill("Checkpoint every τ ≈ √(2δM) = %1 (Young); Daly's higher-order optimum is %2, "
              "the simulated best %3.",
              {duration(m->youngS), duration(m->dalyS), duration(m->sweep.simulatedBestS)}),
         kYoungDaly},
        {fill("There the wall time splits exactly: writing %1 + rework %2 + restart %3 = %4 "
              "waste. Half or double that τ wastes %5 or %6: %7.",
              {formatShare(m->atYoung.checkpoint), formatShare(m->atYoung.rework),
               formatShare(m->atYoung.restart), formatShare(m->atYoung.total()),
               formatShare(atHalf.total()), formatShare(atDouble.total()), flatness}),
         kDalyModel},
        {job.restartS > 0
             ? fill("The restart share, %1, is a floor no interval removes: only a restart "
                    "faster than R = %2 shrinks it.",
                    {formatShare(m->atYoung.restart), duration(job.restartS)})
             : std::string("With an instant restart there is no restart share: the interval "
                           "only trades writing against rework."),
         kDalyModel},
        {fill("A step runs at the slowest rank's pace (%1): flag medians above m + k·σ = %2, "
              "σ estimated from the MAD, not the mean. Flagged: %3.",
              {formatSi(m->jobStepS, "s"), formatSi(m->stragglers.thresholdS, "s"),
               flagged.empty() ? std::string("none") : formatIndexRanges(flagged)}),
         kOutliers},
    };
    story.checks = {
        {fill("What is the job's MTBF M, in hours, for %1 at %2 h per GPU?",
              {gpus, formatSignificant(m->gpuMtbfH, 5)}),
         m->mtbfS / 3600, "h", 0.02,
         fill("M = %1 h ÷ %2 = %3 h.", {formatSignificant(m->gpuMtbfH, 5), std::to_string(m->gpus),
                                        formatSignificant(m->mtbfS / 3600, 3)})},
        {fill("What is Young's interval √(2δM), in minutes, for δ = %1 and M = %2?",
              {duration(job.checkpointS), duration(m->mtbfS)}),
         m->youngS / 60, "min", 0.03,
         fill("√(2 × %1 min × %2 min) = %3 min.",
              {formatSignificant(job.checkpointS / 60, 3), formatSignificant(m->mtbfS / 60, 4),
               formatSignificant(m->youngS / 60, 3)})},
        {fill("On average, how many failures does the job meet in %1 days?",
              {formatNumber(p.number("days"))}),
         expectedFailures, "failures", 0.05,
         fill("Failures arrive at rate 1/M all the time, restarts included: %1 h ÷ %2 h = %3.",
              {formatSignificant(job.durationS / 3600, 4), formatSignificant(m->mtbfS / 3600, 4),
               formatSignificant(expectedFailures, 3)})},
    };
    addWhiteboardStep(story, fill("Checkpoint every %1: %2 of the wall time is then wasted, %3 "
                                  "on restarts alone.",
                                  {duration(m->youngS), formatShare(m->atYoung.total()),
                                   formatShare(m->atYoung.restart)}));
    return story;
}

} // namespace wb
