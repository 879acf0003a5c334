#include "fabric/dcqcn_rate.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {
std::int64_t slotsOf(double seconds, double slotS) {
    return std::max<std::int64_t>(1, std::llround(seconds / slotS));
}
} // namespace

DcqcnRate::DcqcnRate(const DcqcnParams& p, double lineRateBps, double slotS)
    : m_p(p)
    , m_line(lineRateBps)
    , m_min(lineRateBps * p.minRateFraction)
    , m_rc(lineRateBps) // no slow start: "When a flow starts, it sends at full line rate"
    , m_rt(lineRateBps)
    , m_alphaSlots(slotsOf(p.alphaTimerS, slotS))
    , m_rateSlots(slotsOf(p.rateTimerS, slotS)) {}

void DcqcnRate::onCnp(std::int64_t slot) {
    m_rt = m_rc;
    m_rc = std::max(m_min, m_rc * (1.0 - m_alpha / 2.0));
    m_alpha = (1.0 - m_p.g) * m_alpha + m_p.g;
    m_timerCount = 0;
    m_byteCount = 0;
    m_bytes = 0;
    m_nextAlpha = slot + m_alphaSlots;
    m_nextRate = slot + m_rateSlots;
    m_cut = true;
}

void DcqcnRate::onSent(double bytes) {
    if (!m_cut)
        return;
    m_bytes += bytes;
    if (m_bytes >= m_p.byteCounter) {
        m_bytes -= m_p.byteCounter;
        ++m_byteCount;
        increase();
    }
}

void DcqcnRate::onTick(std::int64_t slot) {
    if (!m_cut)
        return;
    if (slot >= m_nextAlpha) { // no CNP for τ': α decays (equation 2)
        m_alpha *= 1.0 - m_p.g;
        m_nextAlpha += m_alphaSlots;
    }
    if (slot >= m_nextRate) {
        ++m_timerCount;
        m_nextRate += m_rateSlots;
        increase();
    }
}

// Figure 7: max(T, BC) < F → fast recovery; min(T, BC) > F → hyper increase; else additive.
void DcqcnRate::increase() {
    const int f = m_p.fastRecoverySteps;
    if (std::max(m_timerCount, m_byteCount) >= f) {
        const bool hyper = std::min(m_timerCount, m_byteCount) > f;
        m_rt += m_line * (hyper ? m_p.rhaiPerLineRate : m_p.raiPerLineRate);
    }
    m_rt = std::min(m_rt, m_line);
    m_rc = std::min(m_line, (m_rt + m_rc) / 2.0); // equations (3) and (4)
}

} // namespace wb
