#pragma once
// Seeded random numbers that are the same on every standard library: mt19937_64's output is
// fixed by the standard, its distributions are not, so the transforms are written here.
#include <cmath>
#include <cstdint>
#include <random>

namespace wb {

class SeededRandom {
public:
    explicit SeededRandom(std::uint64_t seed)
        : m_engine(seed) {}

    // Uniform in [0, 1): the top 53 bits as a double's mantissa.
    double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }

    // Uniform integer in [0, n) for n ≥ 1 (the bias of the multiply is below 2⁻⁵³·n).
    std::uint64_t below(std::uint64_t n) {
        return static_cast<std::uint64_t>(uniform() * static_cast<double>(n)) % n;
    }

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
