#include "import/watchdog_log_importer.h"

#include "import/importers.h"
#include "import/nccl_tests_importer.h"
#include "import/text_scan.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace wb {

namespace {

constexpr std::string_view kImlWatchdogPhrase = "Watchdog caught collective operation timeout";
constexpr std::string_view kImlProgressPhrase = "last completed NCCL work:";

// The leading digits of `s` (after spaces), or nullopt.
std::optional<std::int64_t> imlLeadingInt(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size() && s[i] == ' ')
        ++i;
    std::size_t j = i;
    if (j < s.size() && s[j] == '-')
        ++j;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9' && j - i < 18)
        ++j;
    return text::parseInt(s.substr(i, j - i));
}

// The rank the message is about: "[Rank 3]" or "[PG 1 Rank 3]" before `at`, else the
// "[rank3]:" prefix PyTorch 2.2+ puts on every line.
std::optional<int> imlRankBefore(std::string_view line, std::size_t at) {
    const auto head = line.substr(0, at);
    if (const auto r = head.rfind("Rank "); r != std::string_view::npos)
        if (const auto v = imlLeadingInt(head.substr(r + 5)); v && *v >= 0 && *v < 10'000'000)
            return static_cast<int>(*v);
    if (const auto r = head.find("[rank"); r != std::string_view::npos)
        if (const auto v = imlLeadingInt(head.substr(r + 5)); v && *v >= 0 && *v < 10'000'000)
            return static_cast<int>(*v);
    return std::nullopt;
}

// "Key=value" inside "WorkNCCL(…)": the value up to ',' or ')'.
std::string_view imlWorkField(std::string_view work, std::string_view key) {
    std::size_t p = 0;
    while ((p = work.find(key, p)) != std::string_view::npos) {
        if (p == 0 || work[p - 1] == '(' || work[p - 1] == ' ' || work[p - 1] == ',') {
            const auto v = work.substr(p + key.size());
            return text::trim(v.substr(0, v.find_first_of(",)")));
        }
        p += key.size();
    }
    return {};
}

std::optional<std::int64_t> imlWorkInt(std::string_view work, std::string_view key) {
    return text::parseInt(imlWorkField(work, key));
}

nlohmann::ordered_json imlOptJson(const std::optional<std::int64_t>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

// One line; true when it was a watchdog timeout (or progress) line. A timeout repeated (the
// watchdog thread's exception, "what():") is recorded once per rank, SeqNum and op.
bool imlReadWatchdogLine(std::string_view line, std::uint64_t lineNo, WatchdogResult& into,
                         std::set<std::tuple<int, std::int64_t, std::string>>& seen) {
    if (const auto at = line.find(kImlWatchdogPhrase); at != std::string_view::npos) {
        const auto rank = imlRankBefore(line, at);
        const auto w = line.find("WorkNCCL(", at);
        if (!rank || w == std::string_view::npos)
            return false; // cut or wrapped: not enough to place it
        const auto work = line.substr(w + 8);
        WatchdogTimeout t;
        t.rank = *rank;
        t.line = lineNo;
        t.seq = imlWorkInt(work, "SeqNum=");
        t.op = std::string(imlWorkField(work, "OpType="));
        t.numelIn = imlWorkInt(work, "NumelIn=");
        t.numelOut = imlWorkInt(work, "NumelOut=");
        t.timeoutMs = imlWorkInt(work, "Timeout(ms)=");
        if (const auto ran = work.find(" ran for "); ran != std::string_view::npos)
            t.ranForMs = imlLeadingInt(work.substr(ran + 9));
        if (seen.emplace(t.rank, t.seq.value_or(-1), t.op).second)
            into.timeouts.push_back(std::move(t));
        return true;
    }
    if (const auto at = line.find(kImlProgressPhrase); at != std::string_view::npos) {
        const auto rank = imlRankBefore(line, at);
        if (!rank)
            return false;
        auto& p = into.progress[*rank];
        p.lastCompleted = imlLeadingInt(line.substr(at + kImlProgressPhrase.size()));
        constexpr std::string_view enq = "last enqueued NCCL work:";
        if (const auto e = line.find(enq); e != std::string_view::npos)
            p.lastEnqueued = imlLeadingInt(line.substr(e + enq.size()));
        return true;
    }
    return false;
}

} // namespace

bool WatchdogLineReader::feed(std::string_view line, std::uint64_t lineNo) {
    return imlReadWatchdogLine(line, lineNo, *m_result, m_seen);
}

WatchdogAnalysis WatchdogResult::analyse() const {
    WatchdogAnalysis a;
    std::map<int, WatchdogRankStuck> byRank;
    for (const auto& t : timeouts) {
        auto [it, added] = byRank.try_emplace(t.rank);
        auto& s = it->second;
        // The lowest SeqNum is the collective the rank got stuck in first.
        if (added || (t.seq && (!s.seq || *t.seq < *s.seq)))
            s = {t.rank, t.seq, t.op, t.timeoutMs, t.ranForMs};
    }
    for (const auto& [rank, s] : byRank) {
        a.ranks.push_back(s);
        if (s.seq)
            a.highestSeq = std::max(a.highestSeq.value_or(*s.seq), *s.seq);
    }
    for (const auto& s : a.ranks)
        if (s.seq && a.highestSeq && *s.seq < *a.highestSeq)
            a.suspects.push_back(s.rank);
    if (!byRank.empty())
        for (int r = 0; r < byRank.rbegin()->first; ++r)
            if (!byRank.count(r))
                a.silentRanks.push_back(r);
    return a;
}

nlohmann::ordered_json WatchdogResult::summary() const {
    nlohmann::ordered_json out;
    out["path"] = path;
    out["format"] = format;
    const auto logSummary = log ? log->nestedSummary(out) : nlohmann::ordered_json();
    const auto a = analyse();
    out["timeouts"] = timeouts.size();
    out["ranks_timed_out"] = a.ranks.size();
    out["suspects"] = a.suspects;
    out["highest_seq"] = imlOptJson(a.highestSeq);
    out["silent_ranks"] = a.silentRanks;
    // Which ranks timed out on which SeqNum, lowest first.
    std::map<std::pair<std::int64_t, std::string>, std::vector<int>> bySeq;
    for (const auto& s : a.ranks)
        bySeq[{s.seq.value_or(-1), s.op}].push_back(s.rank);
    auto seqs = nlohmann::ordered_json::array();
    for (const auto& [key, ranks] : bySeq)
        seqs.push_back({{"seq", key.first < 0 ? nlohmann::ordered_json(nullptr)
                                              : nlohmann::ordered_json(key.first)},
                        {"op", key.second},
                        {"ranks", ranks}});
    out["stuck_at"] = std::move(seqs);
    auto rs = nlohmann::ordered_json::array();
    for (const auto& s : a.ranks) {
        nlohmann::ordered_json j;
        j["rank"] = s.rank;
        j["seq"] = imlOptJson(s.seq);
        j["op"] = s.op;
        j["timeout_ms"] = imlOptJson(s.timeoutMs);
        j["ran_for_ms"] = imlOptJson(s.ranForMs);
        if (const auto p = progress.find(s.rank); p != progress.end()) {
            j["last_enqueued"] = imlOptJson(p->second.lastEnqueued);
            j["last_completed"] = imlOptJson(p->second.lastCompleted);
        }
        rs.push_back(std::move(j));
    }
    out["ranks"] = std::move(rs);
    out["lines"] = lines;
    if (log)
        out["log"] = logSummary;
    return out;
}

namespace {

double probeWatchdog(std::string_view head, const std::string&) {
    if (!text::looksLikeText(head))
        return 0.0;
    // Above the NCCL log and nccl-tests probes: a hang's watchdog lines are what the file is
    // about even when NCCL INFO lines surround them.
    if (head.find(kImlWatchdogPhrase) != std::string_view::npos &&
        head.find("WorkNCCL(") != std::string_view::npos)
        return 0.95;
    return 0.0;
}

// The NCCL text reader reads every line (NCCL INFO/WARN lines and nccl-tests rows around
// the timeouts included) and hands back a watchdog result when it found a timeout.
std::variant<std::unique_ptr<ImportResult>, ImportError> parseWatchdog(ByteSource& source,
                                                                       const ImportControl& c) {
    auto parsed = parseNcclText(source, c);
    auto* result = std::get_if<std::unique_ptr<ImportResult>>(&parsed);
    if (result && dynamic_cast<WatchdogResult*>(result->get()))
        return parsed;
    ImportError e;
    e.path = source.path();
    if (result) {
        e.line = (*result)->endLine;
        e.byteOffset = (*result)->endByte;
    } else if (const auto* err = std::get_if<ImportError>(&parsed)) {
        if (err->message.find("binary data") != std::string::npos)
            return *err;
        e.line = err->line;
        e.byteOffset = err->byteOffset;
    }
    e.message = "no PyTorch watchdog timeout (\"[Rank N] Watchdog caught collective operation "
                "timeout: WorkNCCL(SeqNum=…, OpType=…)\") found";
    return e;
}

} // namespace

Importer pytorchWatchdogImporter() {
    return Importer{"pytorch-watchdog", probeWatchdog, parseWatchdog};
}

} // namespace wb
