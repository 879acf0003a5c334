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

double expectedWaste(double interval, double checkpoint, double mtbf, double restart) {
    checkAll(interval, checkpoint, mtbf, restart);
    // Expected wall time to get one interval of work plus its checkpoint through, with every
    // failure costing a (failable) restart and a retry: M·e^{R/M}·(e^{(τ+δ)/M} − 1).
    // expm1 keeps the digits when (τ+δ)/M is small.
    const double wall =
        mtbf * std::exp(restart / mtbf) * std::expm1((interval + checkpoint) / mtbf);
    if (!std::isfinite(wall))
        return 1.0; // the job essentially never finishes an interval
    return 1.0 - interval / wall;
}

double firstOrderWaste(double interval, double checkpoint, double mtbf, double restart) {
    checkAll(interval, checkpoint, mtbf, restart);
    return checkpoint / interval + (interval + checkpoint) / (2.0 * mtbf) + restart / mtbf;
}

} // namespace wb
