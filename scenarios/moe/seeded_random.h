#pragma once
// Seeded random numbers that are the same on every standard library: mt19937_64's output is
// fixed by the standard, its distributions are not, so the transforms are written here.
#include <cmath>
#include <cstdint>
#include <numbers>
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

    // Standard normal by Box–Muller; the second value of each pair is kept for the next call.
    double normal() {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        const double u1 = 1.0 - uniform(); // (0, 1]: log stays finite
        const double u2 = uniform();
        const double r = std::sqrt(-2.0 * std::log(u1));
        const double a = 2.0 * std::numbers::pi * u2;
        m_spare = r * std::sin(a);
        m_hasSpare = true;
        return r * std::cos(a);
    }

private:
    std::mt19937_64 m_engine;
    double m_spare = 0.0;
    bool m_hasSpare = false;
};

} // namespace wb
