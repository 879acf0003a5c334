#pragma once
// Ring all-reduce executed on real per-rank buffers. The ring view's frames are read from
// this simulation's snapshots, so what moves on screen is what the algorithm did, and
// the simulation proves that every rank ends with the element-wise sum.
#include "frames/ring_frame.h"

#include <cstdint>
#include <vector>

namespace wb {

class RingAllReduceSim {
public:
    static constexpr int kMaxRanks = 64; // ContributorMask has 64 bits

    struct Round {
        bool allGather = false;              // false: reduce-scatter
        int index = 0;                       // 1-based within its phase
        std::vector<RingTransfer> transfers; // progress 0; one per rank
    };

    // `bytes` is the message size K (only used for byte counters); the buffers hold
    // `elementsPerChunk` integers per chunk so the sums are exact.
    RingAllReduceSim(int ranks, double bytes, int elementsPerChunk = 4, std::uint64_t seed = 1);

    // The chunk rank `rank` holds fully reduced after reduce-scatter: the one it receives in
    // the last round, (rank + 1) mod N. All-gather starts by sending it.
    static int finishedChunkOf(int rank, int ranks);

    int ranks() const { return m_ranks; }
    double chunkBytes() const { return m_bytes / m_ranks; }
    double bytesTarget() const; // 2(N−1)K/N
    const std::vector<Round>& rounds() const { return m_rounds; }
    // Holdings before round r (r = rounds().size() gives the final state).
    const std::vector<std::vector<ContributorMask>>& holdingsBefore(size_t r) const {
        return m_snapshots.at(r);
    }
    // Did every rank end with the element-wise sum of all ranks' inputs?
    bool verified() const { return m_verified; }
    const std::vector<std::vector<std::int64_t>>& finalBuffers() const { return m_buffers; }
    const std::vector<std::int64_t>& expectedSum() const { return m_expected; }

    // The frame at round r (0-based over both phases) with its transfers at `progress`.
    // progress 1 of the last round shows the finished state.
    RingFrame frameAt(size_t round, double progress) const;
    RingFrame initialFrame() const;
    RingFrame finalFrame() const;

private:
    int m_ranks;
    double m_bytes;
    int m_elements;
    std::vector<Round> m_rounds;
    std::vector<std::vector<std::vector<ContributorMask>>> m_snapshots;
    std::vector<std::vector<std::int64_t>> m_buffers; // [rank][chunk*elements + i]
    std::vector<std::int64_t> m_expected;
    bool m_verified = false;
};

} // namespace wb
