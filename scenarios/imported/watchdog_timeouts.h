#pragma once
// A user's PyTorch watchdog output in the silent-hang lesson: which SeqNum each rank timed out
// on (bars) and what that says (facts: the suspects, the ranks that printed nothing, what to
// run next). The analysis itself is the importer's (WatchdogResult::analyse), shared with
// `warpboard import --summary`.
#include "frames/bar_chart_frame.h"
#include "frames/facts_frame.h"
#include "import/watchdog_log_importer.h"

#include <string>

namespace wb {

BarChartFrame watchdogSeqBars(const WatchdogResult& log, const std::string& path);
FactsFrame watchdogFacts(const WatchdogResult& log, const std::string& path);
// One sentence for the step's narration: "Rank 3 stopped at #1579 while the others reached
// #1580: it is the suspect." or why the file names none.
std::string watchdogVerdict(const WatchdogResult& log);

} // namespace wb
