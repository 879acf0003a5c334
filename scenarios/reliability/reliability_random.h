#pragma once
// Random draws for the reliability models, built on std::mt19937_64 only. The standard
// distributions (std::exponential_distribution, std::normal_distribution, ...) are
// implementation-defined, so the same seed would give different runs under libstdc++ and
// libc++; the inverse-CDF and Box–Muller forms below give the same numbers everywhere.
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace wb {

// SplitMix64 (Steele, Lea & Flood 2014): turns a seed and an index into an independent seed,
// so trial k of a Monte Carlo run can be replayed on its own.
inline std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t index) {
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (index + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Uniform in [0, 1) with 53 random bits.
inline double uniform01(std::mt19937_64& g) {
    return static_cast<double>(g() >> 11) * 0x1.0p-53;
}

// Exponential with the given rate: −ln(1 − U)/rate; 1 − U lies in (0, 1], so the log is finite.
inline double exponential(std::mt19937_64& g, double rate) {
    return -std::log1p(-uniform01(g)) / rate;
}

// Standard normal by Box–Muller (one of the pair is used; simplicity over speed).
inline double standardNormal(std::mt19937_64& g) {
    const double u1 = 1.0 - uniform01(g); // (0, 1]
    const double u2 = uniform01(g);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

} // namespace wb
