#include "collectives/ring_allreduce_sim.h"

#include "collectives/collective_cost.h"
#include "engine/seeded_random.h"

#include <algorithm>
#include <stdexcept>

namespace wb {

namespace {
int mod(int a, int n) {
    return ((a % n) + n) % n;
}
} // namespace

RingAllReduceSim::RingAllReduceSim(int ranks, double bytes, int elementsPerChunk,
                                   std::uint64_t seed)
    : m_ranks(ranks)
    , m_bytes(bytes)
    , m_elements(elementsPerChunk) {
    if (ranks < 2 || ranks > kMaxRanks)
        throw std::invalid_argument("ring simulation needs 2…64 ranks");
    if (elementsPerChunk < 1 || !(bytes > 0.0))
        throw std::invalid_argument("ring simulation needs data to move");
    const int n = ranks;
    const auto chunkLen = static_cast<size_t>(m_elements);

    // Each rank's input: N chunks of small integers, different on every rank.
    SeededRandom draw(seed);
    m_buffers.assign(static_cast<size_t>(n),
                     std::vector<std::int64_t>(chunkLen * static_cast<size_t>(n)));
    m_expected.assign(chunkLen * static_cast<size_t>(n), 0);
    for (auto& buf : m_buffers) {
        for (size_t i = 0; i < buf.size(); ++i) {
            buf[i] = static_cast<std::int64_t>(draw.below(1000));
            m_expected[i] += buf[i];
        }
    }
    std::vector<std::vector<ContributorMask>> holdings(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r)
        holdings[static_cast<size_t>(r)].assign(static_cast<size_t>(n), ContributorMask{1} << r);

    auto runRound = [&](bool allGather, int s) {
        Round round;
        round.allGather = allGather;
        round.index = s + 1;
        // Reduce-scatter round s: rank r sends chunk (r−s) to r+1, which adds it.
        // All-gather round s: rank r sends its finished chunk (r+1−s) to r+1, which copies.
        std::vector<std::vector<std::int64_t>> outgoing(static_cast<size_t>(n));
        for (int r = 0; r < n; ++r) {
            const int chunk = allGather ? mod(finishedChunkOf(r, n) - s, n) : mod(r - s, n);
            const auto begin = static_cast<ptrdiff_t>(static_cast<size_t>(chunk) * chunkLen);
            const auto& src = m_buffers[static_cast<size_t>(r)];
            outgoing[static_cast<size_t>(r)].assign(src.begin() + begin,
                                                    src.begin() + begin + m_elements);
            round.transfers.push_back(
                RingTransfer{r, mod(r + 1, n), chunk,
                             holdings[static_cast<size_t>(r)][static_cast<size_t>(chunk)], 0.0});
        }
        // All sends of a round happen at once, so apply them after reading every sender.
        for (const auto& t : round.transfers) {
            auto& dst = m_buffers[static_cast<size_t>(t.to)];
            const size_t begin = static_cast<size_t>(t.chunk) * chunkLen;
            const auto& data = outgoing[static_cast<size_t>(t.from)];
            auto& mask = holdings[static_cast<size_t>(t.to)][static_cast<size_t>(t.chunk)];
            for (size_t i = 0; i < chunkLen; ++i)
                dst[begin + i] = allGather ? data[i] : dst[begin + i] + data[i];
            mask = allGather ? t.carried : (mask | t.carried);
        }
        m_snapshots.push_back(holdings);
        m_rounds.push_back(std::move(round));
    };

    m_snapshots.push_back(holdings);
    for (int s = 0; s < n - 1; ++s)
        runRound(false, s);
    for (int s = 0; s < n - 1; ++s)
        runRound(true, s);

    m_verified = std::all_of(m_buffers.begin(), m_buffers.end(),
                             [&](const auto& b) { return b == m_expected; });
}

int RingAllReduceSim::finishedChunkOf(int rank, int ranks) {
    return mod(rank + 1, ranks);
}

double RingAllReduceSim::bytesTarget() const {
    return allReduceCost(AllReduceAlgorithm::Ring, m_ranks, m_bytes, AlphaBeta{}).bytesSentPerRank;
}

RingFrame RingAllReduceSim::frameAt(size_t round, double progress) const {
    RingFrame f;
    f.ranks = m_ranks;
    f.bytesTarget = bytesTarget();
    progress = std::clamp(progress, 0.0, 1.0);
    round = std::min(round, m_rounds.size() - 1);
    const Round& r = m_rounds[round];
    const bool arrived = progress >= 1.0;
    f.holdings = m_snapshots[arrived ? round + 1 : round];
    if (!arrived) {
        f.transfers = r.transfers;
        for (auto& t : f.transfers)
            t.progress = progress;
    }
    // Every rank sends exactly one chunk per round, so the counter is linear in time.
    const double sent = (static_cast<double>(round) + progress) * chunkBytes();
    f.bytesSent.assign(static_cast<size_t>(m_ranks), sent);
    if (arrived && round + 1 == m_rounds.size()) {
        f.phase = "done"; // no round to show once everything has arrived
        return f;
    }
    f.phase = r.allGather ? "all-gather" : "reduce-scatter";
    f.round = r.index;
    f.roundsInPhase = m_ranks - 1;
    return f;
}

RingFrame RingAllReduceSim::initialFrame() const {
    RingFrame f;
    f.ranks = m_ranks;
    f.bytesTarget = bytesTarget();
    f.holdings = m_snapshots.front();
    f.bytesSent.assign(static_cast<size_t>(m_ranks), 0.0);
    return f;
}

RingFrame RingAllReduceSim::finalFrame() const {
    return frameAt(m_rounds.size() - 1, 1.0);
}

} // namespace wb
