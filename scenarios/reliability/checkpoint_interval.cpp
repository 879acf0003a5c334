#include "reliability/checkpoint_interval.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace wb {

namespace {

void positive(double v, const char* what) {
    if (!std::isfinite(v) || !(v > 0.0))
        throw std::invalid_argument(std::string(what) + " must be a positive number");
}

void nonNegative(double v, const char* what) {
    if (!std::isfinite(v) || v < 0.0)
        throw std::invalid_argument(std::string(what) + " must be zero or a positive number");
}

void checkAll(double interval, double checkpoint, double mtbf, double restart) {
    positive(interval, "checkpoint interval");
    nonNegative(checkpoint, "checkpoint time");
    positive(mtbf, "MTBF");
    nonNegative(restart, "restart time");
}

} // namespace

double youngInterval(double checkpoint, double mtbf) {
    positive(checkpoint, "checkpoint time");
    positive(mtbf, "MTBF");
    return std::sqrt(2.0 * checkpoint * mtbf);
}

double dalyInterval(double checkpoint, double mtbf) {
    positive(checkpoint, "checkpoint time");
    positive(mtbf, "MTBF");
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
