#include "moe/moe_routing_sim.h"

#include "engine/sentence.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace wb {

namespace {

constexpr std::array<const char*, 3> kBalancingNames = {"none", "aux-loss", "bias"};

void require(bool ok, const char* field, const char* what) {
    if (!ok)
        throw std::invalid_argument(fill("%1 %2", {field, what}));
}

double dot(const double* a, const double* b, std::size_t n) {
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        s += a[i] * b[i];
    return s;
}

void normalise(double* v, std::size_t n) {
    const double len = std::sqrt(dot(v, v, n));
    if (len > 0.0)
        for (std::size_t i = 0; i < n; ++i)
            v[i] /= len;
}

// Largest, mean k·B/E, straggler and idle experts of a filled perExpert.
void summariseServing(MoeServingBatch& out, int requests, int topK) {
    out.largest = *std::max_element(out.perExpert.begin(), out.perExpert.end());
    out.mean = static_cast<double>(requests) * static_cast<double>(topK) /
               static_cast<double>(out.perExpert.size());
    out.straggler = static_cast<double>(out.largest) / out.mean;
    out.idleExperts = static_cast<int>(std::count(out.perExpert.begin(), out.perExpert.end(), 0LL));
}

} // namespace

std::string balancingName(Balancing b) {
    return kBalancingNames[static_cast<std::size_t>(b)];
}

std::optional<Balancing> parseBalancing(std::string_view name) {
    for (std::size_t i = 0; i < kBalancingNames.size(); ++i)
        if (name == kBalancingNames[i])
            return static_cast<Balancing>(i);
    return std::nullopt;
}

const std::vector<std::string>& balancingNames() {
    static const std::vector<std::string> names(kBalancingNames.begin(), kBalancingNames.end());
    return names;
}

void MoeRoutingConfig::validate() const {
    require(tokens >= 1 && tokens <= 65536, "tokens", "must be 1…65536");
    require(dim >= 1 && dim <= 1024, "dim", "must be 1…1024");
    require(experts >= 2 && experts <= 1024, "experts", "must be 2…1024");
    require(topK >= 1 && topK <= experts, "top-k", "must be between 1 and the number of experts");
    require(clusters >= 1 && clusters <= 1024, "clusters", "must be 1…1024");
    require(std::isfinite(capacityFactor), "capacity factor", "must be a finite number");
    require(std::isfinite(learningRate) && learningRate > 0.0, "learning rate",
            "must be a positive finite number");
    require(std::isfinite(routerNoise) && routerNoise >= 0.0, "router noise",
            "must be a finite number ≥ 0");
    require(std::isfinite(specialisation) && specialisation >= 0.0, "specialisation",
            "must be a finite number ≥ 0");
    require(std::isfinite(taskWeight) && taskWeight > 0.0, "task weight",
            "must be a positive finite number");
    require(usageMemory >= 0.0 && usageMemory < 1.0, "usage memory", "must be in [0, 1)");
    require(std::isfinite(auxAlpha) && auxAlpha >= 0.0, "aux alpha", "must be a finite number ≥ 0");
    require(std::isfinite(biasGamma) && biasGamma >= 0.0, "bias gamma",
            "must be a finite number ≥ 0");
}

MoeRoutingSim::MoeRoutingSim(MoeRoutingConfig config)
    : m_config(config)
    , m_rng(config.seed) {
    m_config.validate();
    const std::size_t d = toIndex(m_config.dim), e = toIndex(m_config.experts);
    const double scale = 1.0 / std::sqrt(static_cast<double>(d));
    // Cluster centres: one shared direction plus a per-cluster offset, both of length ≈ 1.
    std::vector<double> common(d);
    for (double& v : common)
        v = m_rng.normal() * scale;
    m_centres.resize(toIndex(m_config.clusters) * d);
    for (std::size_t i = 0; i < m_centres.size(); ++i)
        m_centres[i] = common[i % d] + m_rng.normal() * scale;
    drawTokens(m_rng, m_config.tokens, m_tokens, &m_cluster);
    m_unitTokens = m_tokens;
    for (std::size_t t = 0; t < toIndex(m_config.tokens); ++t)
        normalise(&m_unitTokens[t * d], d);
    // A near-zero gate: every expert starts equally likely; the noise breaks the tie.
    m_gate.resize(e * d);
    for (double& w : m_gate)
        w = 0.01 * m_rng.normal();
    m_prototype.resize(e * d);
    for (double& u : m_prototype)
        u = m_rng.normal();
    for (std::size_t i = 0; i < e; ++i)
        normalise(&m_prototype[i * d], d);
    m_bias.assign(e, 0.0);
    m_usage.assign(e, 1.0);
    m_choices.assign(toIndex(m_config.tokens) * toIndex(m_config.topK), 0);
}

void MoeRoutingSim::drawTokens(SeededRandom& rng, int count, std::vector<double>& out,
                               std::vector<int>* cluster) const {
    const std::size_t d = toIndex(m_config.dim);
    const double noise = 0.3 / std::sqrt(static_cast<double>(d));
    out.resize(toIndex(count) * d);
    if (cluster)
        cluster->resize(toIndex(count));
    for (std::size_t t = 0; t < toIndex(count); ++t) {
        const auto c = static_cast<std::size_t>(rng.below(toIndex(m_config.clusters)));
        if (cluster)
            (*cluster)[t] = static_cast<int>(c);
        for (std::size_t i = 0; i < d; ++i)
            out[t * d + i] = m_centres[c * d + i] + noise * rng.normal();
    }
}

double MoeRoutingSim::quality(std::size_t expert, const double* unitX) const {
    const std::size_t d = toIndex(m_config.dim);
    const double usage = m_usage[expert];
    const double match = dot(&m_prototype[expert * d], unitX, d);
    return usage / (usage + 1.0) + m_config.specialisation * std::max(0.0, match);
}

void MoeRoutingSim::selectTopK(const double* score, int* out) const {
    // Insertion into a sorted list of k: E·k work, and k is small.
    const int k = m_config.topK;
    std::array<double, 64> bestScore{};
    std::vector<double> big;
    double* best = bestScore.data();
    if (k > static_cast<int>(bestScore.size())) {
        big.resize(toIndex(k));
        best = big.data();
    }
    int filled = 0;
    for (int e = 0; e < m_config.experts; ++e) {
        const double s = score[e];
        if (filled == k && s <= best[k - 1])
            continue;
        int pos = filled < k ? filled++ : k - 1;
        while (pos > 0 && best[pos - 1] < s) {
            best[pos] = best[pos - 1];
            out[pos] = out[pos - 1];
            --pos;
        }
        best[pos] = s;
        out[pos] = e;
    }
}

std::vector<double> MoeRoutingSim::skill() const {
    std::vector<double> s(m_usage.size());
    for (std::size_t i = 0; i < s.size(); ++i)
        s[i] = m_usage[i] / (m_usage[i] + 1.0);
    return s;
}

void MoeRoutingSim::setBalancing(Balancing b) {
    m_config.balancing = b;
}

void MoeRoutingSim::run(int steps) {
    for (int i = 0; i < steps; ++i)
        step();
}

const MoeStepRecord& MoeRoutingSim::step() {
    const MoeRoutingConfig& c = m_config;
    const std::size_t T = toIndex(c.tokens), E = toIndex(c.experts), K = toIndex(c.topK),
                      d = toIndex(c.dim);
    m_logits.resize(T * E);
    // The gate transposed (d × E): the logits then accumulate over i into E independent sums,
    // which the compiler vectorises (a dot product per expert is a serial reduction).
    m_gateT.resize(d * E);
    for (std::size_t e = 0; e < E; ++e)
        for (std::size_t i = 0; i < d; ++i)
            m_gateT[i * E + e] = m_gate[e * d + i];
    m_probs.resize(T * E);
    m_grad.assign(T * E, 0.0);
    m_score.resize(E);
    const bool useBias = c.balancing == Balancing::Bias;

    // Route: logits, softmax, noisy top-k on logits + bias, capacity in token order.
    const long long capacity = c.capacityFactor > 0.0
                                   ? expertCapacity(c.tokens, c.experts, c.topK, c.capacityFactor)
                                   : kUnlimitedCapacity;
    CapacityDispatcher dispatch(c.experts, capacity);
    m_kept.assign(T * K, 0);
    std::vector<std::uint8_t>& kept = m_kept;
    std::vector<double> meanProb(E, 0.0);
    for (std::size_t t = 0; t < T; ++t) {
        const double* x = &m_tokens[t * d];
        double* s = &m_logits[t * E];
        double* p = &m_probs[t * E];
        std::fill(s, s + E, 0.0);
        for (std::size_t i = 0; i < d; ++i) {
            const double xi = x[i];
            const double* column = &m_gateT[i * E];
            for (std::size_t e = 0; e < E; ++e)
                s[e] += column[e] * xi;
        }
        const double top = *std::max_element(s, s + E);
        double sum = 0.0;
        for (std::size_t e = 0; e < E; ++e) {
            p[e] = std::exp(s[e] - top);
            sum += p[e];
        }
        for (std::size_t e = 0; e < E; ++e) {
            p[e] /= sum;
            meanProb[e] += p[e];
            m_score[e] = s[e] + (useBias ? m_bias[e] : 0.0) + c.routerNoise * m_rng.normal();
        }
        int* chosen = &m_choices[t * K];
        selectTopK(m_score.data(), chosen);
        for (std::size_t j = 0; j < K; ++j)
            kept[t * K + j] = dispatch.admit(chosen[j]) ? 1 : 0;
        dispatch.finishToken();
    }
    const ExpertDispatch& routed = dispatch.result();
    const double assignments = static_cast<double>(T * K);
    std::vector<double> f(E);
    double aux = 0.0;
    for (std::size_t e = 0; e < E; ++e) {
        f[e] = static_cast<double>(routed.routed[e]) / assignments;
        meanProb[e] /= static_cast<double>(T);
        aux += f[e] * meanProb[e];
    }
    aux *= c.auxAlpha * static_cast<double>(E);

    // Gradient of the mean loss over tokens with respect to each token's logits (× T), with
    // q_e already scaled by taskWeight:
    //   task  −Σ_{e∈kept} q_e·p_e:   ∂/∂s_j = −Σ_{e∈kept} q_e·p_e·(δ_ej − p_j)
    //   aux   α·E·Σ f_i·P_i:         ∂/∂s_j = α·E·p_j·(f_j − Σ_i f_i·p_i)   (f is a constant)
    double taskLoss = 0.0;
    m_protoSum.assign(E * d, 0.0);
    const double auxScale =
        c.balancing == Balancing::AuxLoss ? c.auxAlpha * static_cast<double>(E) : 0.0;
    for (std::size_t t = 0; t < T; ++t) {
        const double* unitX = &m_unitTokens[t * d];
        const double* p = &m_probs[t * E];
        double* g = &m_grad[t * E];
        double weighted = 0.0;
        for (std::size_t j = 0; j < K; ++j) {
            if (!kept[t * K + j])
                continue;
            const auto e = toIndex(m_choices[t * K + j]);
            const double qp = c.taskWeight * quality(e, unitX) * p[e];
            g[e] -= qp;
            weighted += qp;
            // The expert learns the direction of what it is given.
            for (std::size_t i = 0; i < d; ++i)
                m_protoSum[e * d + i] += unitX[i];
        }
        taskLoss -= weighted;
        double fp = 0.0;
        if (auxScale > 0.0)
            for (std::size_t e = 0; e < E; ++e)
                fp += f[e] * p[e];
        for (std::size_t e = 0; e < E; ++e)
            g[e] += p[e] * weighted + auxScale * p[e] * (f[e] - fp);
    }

    // SGD: W_e −= lr·E/T · Σ_t g_te·x_t. Every gradient above carries a factor p ≈ 1/E, so the
    // step is scaled by E: the collapse then takes about as many steps with 8 experts as 64.
    m_gateStep.assign(E * d, 0.0);
    for (std::size_t t = 0; t < T; ++t) {
        const double* x = &m_tokens[t * d];
        const double* g = &m_grad[t * E];
        for (std::size_t e = 0; e < E; ++e) {
            double* w = &m_gateStep[e * d];
            for (std::size_t i = 0; i < d; ++i)
                w[i] += g[e] * x[i];
        }
    }
    const double lr = c.learningRate * static_cast<double>(E) / static_cast<double>(T);
    for (std::size_t i = 0; i < m_gate.size(); ++i)
        m_gate[i] -= lr * m_gateStep[i];

    // Experts: skill follows the kept load, the prototype the tokens kept.
    const double fair = assignments / static_cast<double>(E);
    for (std::size_t e = 0; e < E; ++e) {
        const double keptHere = static_cast<double>(routed.kept[e]);
        m_usage[e] = c.usageMemory * m_usage[e] + (1.0 - c.usageMemory) * keptHere / fair;
        if (routed.kept[e] == 0)
            continue;
        double* u = &m_prototype[e * d];
        for (std::size_t i = 0; i < d; ++i)
            u[i] = c.usageMemory * u[i] + (1.0 - c.usageMemory) * m_protoSum[e * d + i] / keptHere;
        normalise(u, d);
    }
    // DeepSeek-V3: after the step, overloaded experts' bias −γ, underloaded +γ.
    if (useBias)
        for (std::size_t e = 0; e < E; ++e) {
            const double load = static_cast<double>(routed.routed[e]);
            if (load > fair)
                m_bias[e] -= c.biasGamma;
            else if (load < fair)
                m_bias[e] += c.biasGamma;
        }

    MoeStepRecord r;
    r.step = stepsDone() + 1;
    r.load = routed.routed;
    r.dropped = routed.dropped;
    r.auxLoss = aux;
    r.taskLoss = taskLoss / static_cast<double>(T);
    for (std::size_t e = 0; e < E; ++e) {
        r.maxLoadFraction = std::max(r.maxLoadFraction, f[e]);
        if (f[e] > 0.0) {
            r.loadEntropy -= f[e] * std::log(f[e]);
            ++r.activeExperts;
        }
    }
    m_history.push_back(std::move(r));
    return m_history.back();
}

MoeServingBatch MoeRoutingSim::servingBatch(int requests, std::uint64_t seed) const {
    if (requests < 1 || requests > 1'000'000)
        throw std::invalid_argument("requests must be 1…1000000");
    const std::size_t E = toIndex(m_config.experts), K = toIndex(m_config.topK),
                      d = toIndex(m_config.dim);
    SeededRandom rng(seed);
    std::vector<double> batch;
    drawTokens(rng, requests, batch, nullptr);
    MoeServingBatch out;
    out.perExpert.assign(E, 0);
    std::vector<double> score(E);
    std::vector<int> chosen(K);
    const bool useBias = m_config.balancing == Balancing::Bias;
    for (std::size_t t = 0; t < toIndex(requests); ++t) {
        for (std::size_t e = 0; e < E; ++e)
            score[e] = dot(&m_gate[e * d], &batch[t * d], d) + (useBias ? m_bias[e] : 0.0) +
                       m_config.routerNoise * rng.normal();
        selectTopK(score.data(), chosen.data());
        for (int e : chosen)
            ++out.perExpert[toIndex(e)];
    }
    summariseServing(out, requests, m_config.topK);
    return out;
}

MoeServingBatch uniformServingBatch(int requests, int experts, int topK, std::uint64_t seed) {
    if (requests < 1 || requests > 1'000'000)
        throw std::invalid_argument("requests must be 1…1000000");
    if (experts < 1 || topK < 1 || topK > experts)
        throw std::invalid_argument("top-k must be between 1 and the number of experts");
    SeededRandom rng(seed);
    MoeServingBatch out;
    out.perExpert.assign(toIndex(experts), 0);
    // k distinct experts per token: a partial Fisher–Yates shuffle of the expert indices.
    std::vector<int> order(toIndex(experts));
    for (std::size_t e = 0; e < order.size(); ++e)
        order[e] = static_cast<int>(e);
    for (int t = 0; t < requests; ++t)
        for (std::size_t j = 0; j < toIndex(topK); ++j) {
            const std::size_t pick = j + rng.below(order.size() - j);
            std::swap(order[j], order[pick]);
            ++out.perExpert[toIndex(order[j])];
        }
    summariseServing(out, requests, topK);
    return out;
}

} // namespace wb
