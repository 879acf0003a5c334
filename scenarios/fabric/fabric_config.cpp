#include "fabric/fabric_config.h"

#include "engine/sentence.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wb {

std::string fabricName(FabricKind k) {
    return k == FabricKind::InfiniBand ? "ib" : "roce";
}

double victimFairShareGbps(double linkGbps, int senders) {
    return linkGbps * (1.0 - 1.0 / std::max(senders, 2));
}

namespace {

// Every fabric message names the model it comes from.
void requireFabric(bool ok, const char* what) {
    if (!ok)
        throw std::invalid_argument(fill("fabric model: %1", {what}));
}

bool finite(double x) {
    return std::isfinite(x);
}

} // namespace

FabricConfig FabricConfig::incast(FabricKind kind, bool pfc, bool ecn, int senders,
                                  std::uint64_t seed) {
    FabricConfig c;
    c.kind = kind;
    c.pfc = pfc;
    c.ecn = ecn;
    c.senders = senders;
    c.seed = seed;
    return c;
}

void validateFabricConfig(const FabricConfig& c) {
    requireFabric(c.senders >= 1, "senders must be at least 1");
    requireFabric(c.senders <= 1024, "senders must be at most 1024 (one switch's worth of ports)");
    requireFabric(finite(c.linkGbps) && c.linkGbps > 0,
                  "link rate must be a positive number of Gb/s");
    requireFabric(c.linkGbps <= 3200, "link rate must be at most 3200 Gb/s");
    requireFabric(finite(c.dropRate) && c.dropRate >= 0 && c.dropRate < 1,
                  "drop rate must be in [0, 1)");
    requireFabric(c.mtuBytes >= 256 && c.mtuBytes <= 65536, "MTU must be 256…65536 bytes");
    requireFabric(finite(c.hopDelayS) && c.hopDelayS > 0 && c.hopDelayS <= 1e-3,
                  "hop delay must be in (0, 1 ms]");
    requireFabric(c.hopDelayS / c.slotS() <= 1e5, "hop delay is more than 100,000 packet times");
    requireFabric(finite(c.egressCapBytes) && c.egressCapBytes >= c.mtuBytes,
                  "egress buffer must hold at least one MTU");
    requireFabric(finite(c.xoffBytes) && c.xoffBytes >= 3.0 * c.mtuBytes,
                  "PFC XOFF threshold must be at least three MTU (XON is two MTU below it)");
    requireFabric(finite(c.creditBytes) && c.creditBytes >= c.mtuBytes,
                  "IB credit buffer must hold at least one MTU");
    requireFabric(finite(c.rtoS) && c.rtoS > 0 && c.rtoS <= 1,
                  "retransmission timeout must be in (0, 1 s]");
    const DcqcnParams& d = c.dcqcn;
    requireFabric(finite(d.kminBytes) && finite(d.kmaxBytes) && d.kminBytes >= 0 &&
                      d.kmaxBytes > d.kminBytes,
                  "ECN needs 0 <= Kmin < Kmax");
    requireFabric(finite(d.pmax) && d.pmax > 0 && d.pmax <= 1, "ECN Pmax must be in (0, 1]");
    requireFabric(finite(d.g) && d.g > 0 && d.g < 1, "DCQCN g must be in (0, 1)");
    requireFabric(finite(d.cnpIntervalS) && d.cnpIntervalS >= 0, "CNP interval must be >= 0");
    requireFabric(finite(d.alphaTimerS) && d.alphaTimerS > 0 && finite(d.rateTimerS) &&
                      d.rateTimerS > 0 && finite(d.byteCounter) && d.byteCounter > 0,
                  "DCQCN timers and byte counter must be positive");
    requireFabric(d.fastRecoverySteps >= 1, "DCQCN F must be at least 1");
    requireFabric(finite(d.raiPerLineRate) && d.raiPerLineRate > 0 && finite(d.rhaiPerLineRate) &&
                      d.rhaiPerLineRate > 0 && finite(d.minRateFraction) && d.minRateFraction > 0 &&
                      d.minRateFraction <= 1,
                  "DCQCN rate steps and floor must be positive fractions of the line rate");
}

} // namespace wb
