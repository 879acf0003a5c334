#pragma once
// The memory hierarchy of one GPU as data: each level's capacity, load latency and
// bandwidth with the source of every number, read from the hardware catalogue. The memory-hierarchy
// ladder, its Little's-law gauge and the modeled latency staircase all come from here.
#include "catalogue/hardware_catalogue.h"

#include <string>
#include <vector>

namespace wb {

struct MemoryLevel {
    std::string name;
    std::string scope;          // "per SM" (capacity is per SM × SMs), "per GPU", "per direction"
    double capacityBytes = 0.0; // whole GPU; 0 = not a capacity (links)
    double latencyCycles = 0.0; // 0 = not modeled here
    double latencyClockGHz = 0.0;  // the clock the cycles were counted at (a paper's GPU)
    double farLatencyCycles = 0.0; // L2: a line in the other partition; 0 = one latency
    // A latency known only as a range (HBM on Hopper): latencyCycles is then assumed inside it.
    double latencyLowNs = 0.0;
    double latencyHighNs = 0.0;
    bool latencyAssumed = false;
    double bandwidthBytesPerS = 0.0;     // aggregate, decimal; links: per direction; 0 = unknown
    double bidirectionalBytesPerS = 0.0; // links: both directions, as datasheets quote them
    bool bandwidthAssumed = false;
    std::string capacitySource;
    std::string latencySource;
    std::string bandwidthSource;
};

class MemoryLadder {
public:
    explicit MemoryLadder(const GpuSpec& gpu,
                          const HardwareCatalogue& catalogue = HardwareCatalogue::builtin());

    const GpuSpec& gpu() const { return *m_gpu; }
    const std::vector<MemoryLevel>& levels() const { return m_levels; }
    const MemoryLevel& level(const std::string& name) const; // throws std::out_of_range
    // The clock that turns cycles into time: the GPU's vector (boost) clock.
    double clockGHz() const;
    // A level's latency in ns, at the clock its cycles were counted at (a paper's GPU may
    // run another clock than this one).
    double latencyNs(const MemoryLevel& level) const;
    double farLatencyNs(const MemoryLevel& level) const;

    // Modeled load latency (cycles) of a pointer chase over `workingSetBytes` on one SM:
    // the hit fraction of each cache is capacity / working set (a random cyclic chase),
    // and half of L2 lies in the far partition once the set outgrows the near half.
    double modeledChaseLatencyCycles(double workingSetBytes) const;

private:
    double countedAtGHz(const MemoryLevel& level) const; // the clock its cycles were counted at

    const GpuSpec* m_gpu;
    const HardwareCatalogue* m_catalogue;
    std::vector<MemoryLevel> m_levels;
};

} // namespace wb
