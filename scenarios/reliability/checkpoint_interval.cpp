#include "reliability/checkpoint_interval.h"

#include "reliability/argument_checks.h"

#include <cmath>

namespace wb {

namespace {

void checkAll(double interval, double checkpoint, double mtbf, double restart) {
    requirePositive(interval, "checkpoint interval");
    requireNonNegative(checkpoint, "checkpoint time");
    requirePositive(mtbf, "MTBF");
    requireNonNegative(restart, "restart time");
}

} // namespace

double youngInterval(double checkpoint, double mtbf) {
    requirePositive(checkpoint, "checkpoint time");
    requirePositive(mtbf, "MTBF");
    return std::sqrt(2.0 * checkpoint * mtbf);
}

double dalyInterval(double checkpoint, double mtbf) {
    requirePositive(checkpoint, "checkpoint time");
    requirePositive(mtbf, "MTBF");
    // Past δ = 2M a checkpoint takes longer than two failure gaps: Daly's answer is to
    // checkpoint once per MTBF, the formula's second branch (FACTS.md §5).
    if (checkpoint >= 2.0 * mtbf)
        return mtbf;
    const double x = checkpoint / (2.0 * mtbf);
    return youngInterval(checkpoint, mtbf) * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) - checkpoint;
}

WasteShares wasteShares(double interval, double checkpoint, double mtbf, double restart) {
    checkAll(interval, checkpoint, mtbf, restart);
    // Each share of T = n·M·e^{R/M} written with T divided out, so that a job that essentially
    // never finishes an interval (n overflows) gives finite shares: rework e^{−R/M}, restart
    // 1 − e^{−R/M}. expm1 keeps the digits when (τ+δ)/M or R/M is small.
    const double cycle = interval + checkpoint;
    const double tries = std::expm1(cycle / mtbf); // n, failures per completed cycle
    const double keep = std::exp(-restart / mtbf); // e^{−R/M}
    const double perWall = keep / (tries * mtbf);  // 1 / T
    WasteShares w;
    w.checkpoint = checkpoint * perWall;
    // n·M − (τ+δ) over n·M·e^{R/M}: (1 − (τ+δ)/(n·M))·e^{−R/M}.
    w.rework = keep * (1.0 - cycle / (tries * mtbf));
    w.restart = -std::expm1(-restart / mtbf);
    return w;
}

double expectedWaste(double interval, double checkpoint, double mtbf, double restart) {
    return wasteShares(interval, checkpoint, mtbf, restart).total();
}

double firstOrderWaste(double interval, double checkpoint, double mtbf, double restart) {
    checkAll(interval, checkpoint, mtbf, restart);
    return checkpoint / interval + (interval + checkpoint) / (2.0 * mtbf) + restart / mtbf;
}

} // namespace wb
