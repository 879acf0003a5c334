#pragma once
// The silent hang (silent-hang): ranks issue the same sequence of collectives; one fault makes a
// collective never complete, and every rank that entered it spins there forever.
//
// Matching follows NCCL: the k-th collective a rank calls on a communicator pairs with the
// k-th call of every other rank. So each rank's own call counter is its sequence number, as
// in PyTorch's NCCL flight recorder (collective_seq_id, op, sizes, state "scheduled/started/
// completed"). Collective k completes only when every rank called it with the same op and
// size; otherwise it hangs (NCCL may also corrupt data or crash; this model shows the hang).
//
// A rank inside a collective that cannot complete keeps its NCCL kernel resident, spinning on
// flags: NVML's GPU-Util counts any running kernel, so it reads 100% (FACTS.md §11), while
// only the few SMs holding that kernel's blocks are busy — one block per NCCL channel.
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

enum class HangFault { None, DeadRank, SkippedCollective, SizeMismatch, OrderMismatch };
std::string hangFaultName(HangFault f); // "none", "dead-rank", "skip", "size", "order"
const std::vector<std::string>& hangFaultNames();
HangFault parseHangFault(const std::string& name); // throws std::invalid_argument

struct CollectiveCall {
    std::string op; // "allreduce", "allgather", "reducescatter", "broadcast"
    long long bytes = 0;
    bool operator==(const CollectiveCall&) const = default;
};

struct HangConfig {
    int ranks = 16;       // at least 3, so a majority can name the odd one out
    int collectives = 24; // calls each healthy rank makes
    HangFault fault = HangFault::DeadRank;
    int culprit = 5;       // the rank the fault is injected into
    int faultAt = 10;      // the culprit's call (0-based) where it goes wrong
    int channels = 16;     // NCCL channels: SMs a spinning collective occupies
    int smCount = 132;     // SMs per GPU (H100 SXM)
    void validate() const; // throws std::invalid_argument naming the field
};

enum class CallState { Completed, Started, NotIssued };
std::string callStateName(CallState s); // "completed", "started", "not issued"

struct FlightEntry {
    int seq = 0; // the rank's own call counter, from 0
    CollectiveCall call;
    CallState state = CallState::Completed;
    bool operator==(const FlightEntry&) const = default;
};

struct RankFlightRecord {
    int rank = 0;
    bool alive = true;
    std::vector<FlightEntry> entries; // every call the rank made, oldest first
    double gpuUtil = 0;               // NVML GPU-Util, percent
    double smActivity = 0;            // fraction of SMs with a resident warp
    // The newest entry, or nullptr when the rank never called a collective.
    const FlightEntry* last() const { return entries.empty() ? nullptr : &entries.back(); }
    // The rank's state for sequence number `seq`.
    CallState stateAt(int seq) const;
    bool operator==(const RankFlightRecord&) const = default;
};

struct HangSimulation {
    HangConfig config;
    std::vector<CollectiveCall> program; // what healthy ranks call, in order
    std::vector<RankFlightRecord> ranks;
    bool hung = false;
    int stuckSeq = -1; // the first sequence number that never completed
};

// Builds the program from the seed (SeededRandom; ops and sizes drawn so neighbours differ),
// applies the fault to the culprit and runs the matching. Same config and seed, same result.
HangSimulation simulateHang(const HangConfig& c, std::uint64_t seed);

// What a triage step establishes; each kind has its own picture in the lesson.
enum class TriageKind {
    NoHang,          // every recorder complete: nothing to find
    FirstIncomplete, // the lowest sequence number not completed everywhere
    NeverIssued,     // the ranks that never called it
    AllIssued,       // every rank called it, so the calls must disagree
    CompareCalls,    // the calls at that number, against the majority's
    Culprit,         // one rank left: what to look at on it
};

struct TriageStep {
    TriageKind kind = TriageKind::NoHang;
    std::string title;
    std::string explanation;
    std::vector<int> suspects; // ranks still suspected after this step
};
struct HangTriage {
    std::vector<TriageStep> steps;
    int stuckSeq = -1;         // the number the triage found; -1 with no hang
    std::vector<int> culprits; // the final suspects (one when the data can name it)
};

// Narrows suspects from the flight-recorder entries alone (not from the config): find the
// lowest sequence number some rank has not completed; ranks that never issued it are the
// suspects; if every rank issued it, the ranks whose op or size disagrees with the majority
// are. Each step says why, with the suspects that remain.
HangTriage triageHang(const std::vector<RankFlightRecord>& ranks);

// Ranks whose recorders read the same (liveness, every entry, GPU-Util, SM activity), in
// order of their lowest rank: healthy ranks all read alike, so 32 of them are one group and
// the one that differs stands alone.
std::vector<std::vector<int>> identicalRankGroups(const std::vector<RankFlightRecord>& ranks);

} // namespace wb
