#pragma once
// The optimum checkpoint interval and the time a job wastes around failures (FACTS.md §5).
// All arguments share one time unit (minutes in, minutes out; hours in, hours out).
//  - Young, CACM 17(9) 1974: τ ≈ √(2δM), δ = checkpoint write time, M = mean time between
//    failures of the whole job.
//  - Daly, FGCS 22(3) 2006: τ = √(2δM)·[1 + ⅓·√(δ/2M) + (1/9)·(δ/2M)] − δ for δ < 2M, and
//    τ = M for δ ≥ 2M. Daly's full model of the wall time for failure-free work T_s is
//    T_w(τ) = M·e^{R/M}·(e^{(τ+δ)/M} − 1)·T_s/τ (R = restart time), exact for Poisson
//    failures that may strike during work, checkpoint and restart alike.
// Every function throws std::invalid_argument for a non-finite, negative or zero input
// where a positive one is needed.

namespace wb {

double youngInterval(double checkpoint, double mtbf);
double dalyInterval(double checkpoint, double mtbf);

// Where the wall time goes under Daly's full model, as shares of it that sum exactly to the
// waste. Per interval of work τ the job meets n = e^{(τ+δ)/M} − 1 failures on average (a
// geometric number of tries at a τ + δ cycle). Its wall time T = M·e^{R/M}·n splits into
//   τ            useful work,
//   δ            the checkpoint that completes the cycle (checkpoint),
//   n·M − (τ+δ)  the tries a failure cut short, work and partial checkpoints (rework),
//   n·M·(e^{R/M} − 1)  restarts, a failed restart counted with the one that follows (restart),
// which add up to T exactly. The simulator's run / checkpoint / lost / restart segments
// converge to these shares.
struct WasteShares {
    double checkpoint = 0; // δ / T
    double rework = 0;     // lost work and partial checkpoints
    double restart = 0;    // restarting, failed restarts included
    double total() const { return checkpoint + rework + restart; }
};
WasteShares wasteShares(double interval, double checkpoint, double mtbf, double restart);

// Fraction of wall time that is not useful work under Daly's full model:
// 1 − τ / (M·e^{R/M}·(e^{(τ+δ)/M} − 1)), the total of wasteShares. The Monte Carlo simulator
// converges to it.
double expectedWaste(double interval, double checkpoint, double mtbf, double restart);

// The first-order expansion: δ/τ (writing) + (τ+δ)/2M (rework) + R/M (restart). At Young's τ
// the first two terms give about √(2δ/M). Good while τ + δ ≪ M. It counts overhead per unit
// of work, so it reads a little above expectedWaste (a share of wall time) as the terms grow.
double firstOrderWaste(double interval, double checkpoint, double mtbf, double restart);

} // namespace wb
