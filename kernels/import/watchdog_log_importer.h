#pragma once
// PyTorch's NCCL watchdog output, the first thing a user with a silent hang has:
//   [rank0]:[E1206 11:02:03.123456 1234 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught
//   collective operation timeout: WorkNCCL(SeqNum=1234, OpType=ALLREDUCE, NumelIn=…,
//   NumelOut=…, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.
// and the older "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught …" (no "[rankN]:"
// prefix; before SeqNum, "WorkNCCL(OpType=…, Timeout(ms)=…)"). One line per rank and timed-out
// collective; 2.2+ add "[PG … Rank 3] … last enqueued NCCL work: 1582, last completed NCCL work:
// 1579.". Other lines (NCCL INFO/WARN, tracebacks) may surround them: NCCL lines go to an
// NcclLogParser, so its warnings are listed too.
#include "import/nccl_log_importer.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace wb {

struct WatchdogTimeout {
    int rank = -1;
    std::optional<std::int64_t> seq; // SeqNum; PyTorch before 1.10 printed none
    std::string op;                  // OpType as printed: "ALLREDUCE", "_REDUCE_SCATTER_BASE"
    std::optional<std::int64_t> numelIn, numelOut, timeoutMs, ranForMs;
    std::uint64_t line = 0;
};

// "last enqueued NCCL work: 1582, last completed NCCL work: 1579" for one rank.
struct WatchdogProgress {
    std::optional<std::int64_t> lastEnqueued, lastCompleted;
};

// Each rank's first stuck collective: the lowest SeqNum it timed out on (a rank reports one
// timeout per outstanding collective).
struct WatchdogRankStuck {
    int rank = -1;
    std::optional<std::int64_t> seq;
    std::string op;
    std::optional<std::int64_t> timeoutMs, ranForMs;
};

struct WatchdogAnalysis {
    std::vector<WatchdogRankStuck> ranks; // by rank
    std::optional<std::int64_t> highestSeq;
    // Ranks stuck at a lower SeqNum than the highest any rank reached: the others called
    // further and wait for them, so they are the suspects.
    std::vector<int> suspects;
    // Ranks below the highest rank seen that printed no timeout: dead, or their output is not
    // in this file.
    std::vector<int> silentRanks;
};

struct WatchdogResult : ImportResult {
    std::vector<WatchdogTimeout> timeouts; // file order, one per (rank, SeqNum, op)
    std::map<int, WatchdogProgress> progress;
    std::optional<NcclLogData> log; // when the file also holds NCCL INFO/WARN lines
    std::uint64_t lines = 0;
    WatchdogAnalysis analyse() const;
    nlohmann::ordered_json summary() const override;
};

// The watchdog's lines picked out of a text log one line at a time. The NCCL text importer
// (nccl_tests_importer.cpp) feeds it every line it reads, so a long NCCL log whose watchdog
// timeouts come after the first 64 KiB the probes see still opens as a watchdog log.
class WatchdogLineReader {
public:
    // True when `line` was a watchdog timeout or progress line (it is then consumed).
    bool feed(std::string_view line, std::uint64_t lineNo);
    bool found() const { return !m_result->timeouts.empty(); }
    // What was read; the reader is spent afterwards.
    std::unique_ptr<WatchdogResult> take() { return std::move(m_result); }

private:
    std::unique_ptr<WatchdogResult> m_result = std::make_unique<WatchdogResult>();
    std::set<std::tuple<int, std::int64_t, std::string>> m_seen; // rank, SeqNum, op
};

} // namespace wb
