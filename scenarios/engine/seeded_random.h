#pragma once
// The project's one seeded random generator: a seed gives the same numbers with every compiler
// and standard library. std::mt19937_64's output sequence is fixed by the standard (its
// 10,000th value from the default seed is even written there), but std::uniform_real_distribution,
// std::exponential_distribution, std::normal_distribution and the rest are
// implementation-defined: libstdc++ and libc++ turn the same engine output into different
// numbers. So only the raw engine is used, and every transform below is written by hand.
#include <cmath>
#include <cstdint>
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

class SeededRandom {
public:
    explicit SeededRandom(std::uint64_t seed)
        : m_engine(seed) {}

    // The engine's next raw 64-bit value: what code that must match another program's data
    // (a CUDA kernel's input, drawn from mt19937_64 as well) takes directly.
    std::uint64_t next() { return m_engine(); }

    // Skips n raw draws, as std::mt19937_64::discard; a normal kept from the last pair stays.
    void discard(unsigned long long n) { m_engine.discard(n); }

    // Uniform in [0, 1): the top 53 bits as a double's mantissa, so every value is exact.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    // Uniform integer in [0, n) for n ≥ 1 (the bias of the multiply is below 2⁻⁵³·n).
    std::uint64_t below(std::uint64_t n) {
        return static_cast<std::uint64_t>(uniform() * static_cast<double>(n)) % n;
    }

    // Exponential with the given rate, by the inverse CDF −ln(1 − U)/rate; 1 − U lies in
    // (0, 1], so the log is finite. A mean m is m · exponential(1.0), bit for bit.
    double exponential(double rate) { return -std::log1p(-uniform()) / rate; }

    // Standard normal by Marsaglia's polar method (Box–Muller without the sine and cosine);
    // the second value of each pair is kept for the next call.
    double normal() {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        double u = 0.0, v = 0.0, s = 0.0;
        do {
            u = 2.0 * uniform() - 1.0;
            v = 2.0 * uniform() - 1.0;
            s = u * u + v * v;
        } while (s >= 1.0 || s == 0.0);
        const double f = std::sqrt(-2.0 * std::log(s) / s);
        m_spare = v * f;
        m_hasSpare = true;
        return u * f;
    }

private:
    std::mt19937_64 m_engine;
    double m_spare = 0.0;
    bool m_hasSpare = false;
};

} // namespace wb
