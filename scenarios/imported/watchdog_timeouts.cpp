#include "imported/watchdog_timeouts.h"

#include "engine/number_format.h"
#include "engine/sentence.h"
#include "imported/ncu_kernels.h"

#include <algorithm>
#include <cctype>

namespace wb {

namespace {

constexpr const char* kImlWatchdogSource = "PyTorch ProcessGroupNCCL watchdog lines";

std::string imlSeqText(const std::optional<std::int64_t>& seq) {
    return seq ? fill("#%1", {std::to_string(*seq)}) : std::string("no SeqNum");
}

std::string imlRanksText(const std::vector<int>& ranks) {
    return fill(ranks.size() == 1 ? "rank %1" : "ranks %1", {formatIndexRanges(ranks)});
}

} // namespace

BarChartFrame watchdogSeqBars(const WatchdogResult& log, const std::string& path) {
    const WatchdogAnalysis a = log.analyse();
    BarChartFrame f;
    f.title = fill("Where each rank timed out · %1", {fileNameOf(path)});
    // Bars start at the lowest SeqNum seen, so a rank one collective behind is one bar unit
    // shorter instead of a hair's width on a scale of thousands.
    std::int64_t lowest = a.highestSeq.value_or(0);
    for (const auto& s : a.ranks)
        if (s.seq)
            lowest = std::min(lowest, *s.seq);
    f.caption = fill("collectives past #%1 each rank called before its watchdog fired",
                     {std::to_string(lowest > 0 ? lowest - 1 : 0)});
    f.series = {"collectives called"};
    f.axisTitle = "SeqNum";
    f.horizontal = true;
    for (const auto& s : a.ranks) {
        BarCategory c;
        c.label = fill("rank %1", {std::to_string(s.rank)});
        const double v = s.seq ? static_cast<double>(*s.seq - lowest + 1) : 0.0;
        c.segments.push_back(
            {.value = v, .series = 0, .tip = fill("%1 %2", {imlSeqText(s.seq), s.op})});
        c.tip =
            fill("rank %1 timed out in %2 %3", {std::to_string(s.rank), s.op, imlSeqText(s.seq)});
        if (std::find(a.suspects.begin(), a.suspects.end(), s.rank) != a.suspects.end() &&
            f.emphasis < 0)
            f.emphasis = static_cast<int>(f.categories.size());
        f.categories.push_back(std::move(c));
    }
    return f;
}

FactsFrame watchdogFacts(const WatchdogResult& log, const std::string& path) {
    const WatchdogAnalysis a = log.analyse();
    FactsFrame f;
    f.title = fill("What the watchdog says · %1", {fileNameOf(path)});
    std::vector<int> ranks;
    for (const auto& s : a.ranks)
        ranks.push_back(s.rank);
    f.rows.push_back(
        {.label = "ranks that timed out",
         .value = fill("%1 (%2)", {std::to_string(ranks.size()), formatIndexRanges(ranks)}),
         .source = kImlWatchdogSource});
    f.rows.push_back({.label = "highest SeqNum reached",
                      .value = imlSeqText(a.highestSeq),
                      .source = "WorkNCCL(SeqNum=…)"});
    f.rows.push_back({.label = "suspects (stuck at a lower SeqNum)",
                      .value = a.suspects.empty() ? std::string("none among these ranks")
                                                  : imlRanksText(a.suspects),
                      .source = "the lowest SeqNum each rank timed out on",
                      .emphasis = true});
    f.rows.push_back(
        {.label = "ranks below the highest that printed nothing",
         .value = a.silentRanks.empty() ? std::string("none") : imlRanksText(a.silentRanks),
         .source = "dead, or their output is in another file",
         .emphasis = !a.silentRanks.empty()});
    if (!a.ranks.empty() && a.ranks.front().timeoutMs) {
        const std::int64_t ms = *a.ranks.front().timeoutMs;
        f.rows.push_back({.label = "watchdog timeout",
                          .value = ms > 0 && ms % 60000 == 0
                                       ? fill("%1 min", {std::to_string(ms / 60000)})
                                       : formatSi(static_cast<double>(ms) / 1000.0, "s"),
                          .source = "WorkNCCL(Timeout(ms)=…)"});
    }
    return f;
}

std::string watchdogVerdict(const WatchdogResult& log) {
    const WatchdogAnalysis a = log.analyse();
    std::string s;
    if (!a.suspects.empty())
        s = fill("%1 stopped below %2 while the others reached it: the others wait for %3, so "
                 "start there.",
                 {imlRanksText(a.suspects), imlSeqText(a.highestSeq),
                  a.suspects.size() == 1 ? std::string("it") : std::string("them")});
    else if (!a.silentRanks.empty())
        s = fill("Every rank that printed a timeout waits in %1; %2 printed none: a rank that "
                 "never called it is the suspect.",
                 {imlSeqText(a.highestSeq), imlRanksText(a.silentRanks)});
    else
        s = fill("Every rank here waits in %1: the file cannot name the culprit, so compare the "
                 "flight recorders as the steps above do.",
                 {imlSeqText(a.highestSeq)});
    s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

} // namespace wb
