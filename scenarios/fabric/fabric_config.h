#pragma once
// The roce-vs-infiniband fabric model's settings: one incast (N senders → one receiver) plus a
// victim flow, on InfiniBand (credit-based, lossless) or RoCEv2 (lossy Ethernet with optional PFC,
// ECN and DCQCN). Numbers come from FACTS.md §14 (DCQCN, Zhu et al., SIGCOMM '15) where the paper
// gives them; the rest are stated assumptions, named as such beside each field.
#include <cstdint>
#include <string>

namespace wb {

enum class FabricKind { InfiniBand, RoCE };

std::string fabricName(FabricKind k); // "ib" | "roce"

// DCQCN reaction-point and notification-point parameters (Zhu et al. 2015 §3.1, §5.2).
// The paper tuned them at 40 Gb/s; the rate steps scale with the link rate here
// (assumption: at 400 Gb/s a fixed 40 Mb/s step would take hours to matter).
struct DcqcnParams {
    double kminBytes = 5e3;        // RED-ECN Kmin = 5 KB (§5.2)
    double kmaxBytes = 200e3;      // Kmax = 200 KB (§5.2)
    double pmax = 0.01;            // Pmax = 1% (§5.2)
    double g = 1.0 / 256.0;        // α gain g = 1/256 (§5.2, Figure 12)
    double cnpIntervalS = 50e-6;   // NP sends at most one CNP per flow per N = 50 µs (§3.1)
    double alphaTimerS = 55e-6;    // α update interval τ' = 55 µs (§5.2)
    double rateTimerS = 55e-6;     // rate-increase timer T = 55 µs (§5.2)
    double byteCounter = 10e6;     // byte counter B = 10 MB (§5.2)
    int fastRecoverySteps = 5;     // F = 5 (§3.1, Table 2)
    double raiPerLineRate = 1e-3;  // R_AI = 40 Mb/s at 40 Gb/s (Table 2), scaled with the rate
    double rhaiPerLineRate = 1e-2; // R_HAI = 10 × R_AI: QCN's hyper increase, assumed
    double minRateFraction = 1e-3; // floor on the current rate (assumption)
};

struct FabricConfig {
    FabricKind kind = FabricKind::RoCE;
    int senders = 8;       // incast senders, all sending to one receiver
    double linkGbps = 400; // every link runs at this rate (one direction)
    bool pfc = true;       // RoCE: priority flow control on the lossless class
    bool ecn = true;       // RoCE: RED-ECN marking at switches + DCQCN at the NICs
    bool victim = true;    // a flow that shares the first sender's uplink but not its port
    double dropRate = 0;   // per-packet loss at the receiving NIC (bit errors), in [0, 1)
    std::uint64_t seed = 1;
    // Packet and path (assumptions: the RDMA MTU and a ~100 m fibre hop).
    int mtuBytes = 4096; // IB and RoCE's largest RDMA MTU; headers are not modeled
    double hopDelayS = 0.5e-6;
    // Switch buffers (assumptions, sized like a modern shared-buffer switch port).
    double egressCapBytes = 1e6; // lossy class: a packet arriving at a fuller egress is dropped
    double xoffBytes = 96e3;     // PFC: pause the upstream when an ingress holds this much
    double creditBytes = 128e3;  // IB: receive buffer per ingress port, advertised as credits
    double rtoS = 100e-6;        // retransmission timeout when no NAK arrives (assumption)
    DcqcnParams dcqcn;

    // The settings that tell the scenario's runs apart; the rest at their defaults.
    static FabricConfig incast(FabricKind kind, bool pfc, bool ecn, int senders,
                               std::uint64_t seed = 1);

    // One packet's serialisation time: the simulation's tick.
    double slotS() const { return mtuBytes * 8.0 / (linkGbps * 1e9); }
};

// The victim flow's max-min fair share, in Gb/s: it shares T's uplink with H0, the first incast
// sender. With N ≥ 2 senders H0 can use only 1/N of R's port, so the victim is owed the rest of
// the uplink, link·(1 − 1/N); a single sender is not held back at R, and it and the victim split
// the uplink in half. Both cases are link·(1 − 1/max(N, 2)). `calc fabric`, `calc
// fabric-decision` and the lesson's charts all quote this one formula.
double victimFairShareGbps(double linkGbps, int senders);

// Throws std::invalid_argument naming the field: 0 senders, NaN, negative rates, a drop
// rate outside [0, 1), or sizes the model cannot run (more than 1024 senders, ...).
void validateFabricConfig(const FabricConfig& c);

} // namespace wb
