#pragma once
// DCQCN's reaction point (the sending NIC's rate limiter), as in Zhu et al., "Congestion
// Control for Large-Scale RDMA Deployments", SIGCOMM '15 §3.1, Figure 7 (FACTS.md §14):
// a CNP cuts the current rate RC by α/2 and remembers it as the target RT; a timer and a
// byte counter then raise it: fast recovery (F steps of RC = (RT + RC)/2), additive
// increase (RT += R_AI) and hyper increase (RT += R_HAI). Time is counted in slots.
#include "fabric/fabric_config.h"

#include <cstdint>

namespace wb {

class DcqcnRate {
public:
    DcqcnRate(const DcqcnParams& p, double lineRateBps, double slotS);

    double rateBps() const { return m_rc; }
    double targetBps() const { return m_rt; }
    double alpha() const { return m_alpha; }

    void onCnp(std::int64_t slot);  // equation (1)
    void onSent(double bytes);      // the byte counter B
    void onTick(std::int64_t slot); // α timer (equation 2) and rate timer T

private:
    void increase();

    DcqcnParams m_p;
    double m_line;
    double m_min;
    double m_rc;
    double m_rt;
    double m_alpha = 1.0; // "Initial value of α is 1" (§3.1, footnote 1)
    std::int64_t m_alphaSlots;
    std::int64_t m_rateSlots;
    std::int64_t m_nextAlpha = 0;
    std::int64_t m_nextRate = 0;
    double m_bytes = 0;
    int m_timerCount = 0; // T in Figure 7
    int m_byteCount = 0;  // BC in Figure 7
    bool m_cut = false;   // no CNP yet: the flow runs at line rate, no increase to do
};

} // namespace wb
