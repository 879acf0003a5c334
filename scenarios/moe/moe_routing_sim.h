#pragma once
// A toy mixture-of-experts router trained on its own routing, small enough to watch step by
// step (moe-routing, FACTS.md §8).
//
// Tokens: T vectors of dimension d drawn once from a seeded mixture of clusters that share a
// common direction (real embeddings are anisotropic), so routing has structure to find.
// Router: a linear gate W (E × d); logits s = W·x, probabilities p = softmax(s); each token
// goes to the k experts with the largest s + bias + noise (noisy top-k gating, Shazeer et al.
// 2017, arXiv:1701.06538: the noise lets the router try experts it does not yet prefer).
// Experts: expert e's quality on token x is q_e(x) = skill_e + specialisation·max(0, cos(u_e,
// x)). skill_e = h_e/(h_e + 1) grows with h_e, the running mean of the expert's kept load
// relative to a fair share, and u_e moves towards the tokens it processes: an expert improves
// on what it is given — the rich-get-richer loop.
// Task: the layer's output is Σ_{e∈kept(x)} p_e(x)·expert_e(x), so the router's loss is
// −taskWeight·Σ_{e∈kept(x)} p_e·q_e per token; its gradient reaches only the chosen experts' gate
// values, raising them by how good the expert already is. Left alone this collapses: the experts
// that got tokens early get better, get chosen more, and the rest starve. Balancing:
//   aux-loss: Switch Transformer's α·E·Σ f_i·P_i added to the loss (f_i: fraction of the k·T
//             assignments sent to expert i, P_i: mean router probability of expert i; equals
//             α at uniform routing; Fedus et al. Eqs. 4–6, α = 10⁻²).
//   bias:     DeepSeek-V3's auxiliary-loss-free balancing (arXiv:2412.19437 §2.1.2): a bias
//             b_i added to the logits for top-k selection only (gate values keep the raw p),
//             lowered by γ after a step in which expert i was over the mean load and raised
//             by γ when under it.
// Either one, switched on after a collapse (setBalancing), brings it back within ~100 steps
// with the defaults.
// Capacity: with capacity factor C > 0 each expert keeps its first ⌈k·T/E·C⌉ assignments in
// token order; the rest are dropped (no output, no gradient, no training of the expert).
#include "engine/seeded_random.h"
#include "engine/to_index.h"
#include "moe/capacity_dispatcher.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

enum class Balancing { None, AuxLoss, Bias };
std::string balancingName(Balancing b); // "none", "aux-loss", "bias"
std::optional<Balancing> parseBalancing(std::string_view name);
const std::vector<std::string>& balancingNames();

struct MoeRoutingConfig {
    int tokens = 512;
    int dim = 32;
    int experts = 16;
    int topK = 2;
    int clusters = 8;
    double capacityFactor = 0.0; // ≤ 0: no capacity limit
    Balancing balancing = Balancing::None;
    double learningRate = 3.0;   // SGD on the gate, per unit of E (see step())
    double routerNoise = 0.1;    // std of the selection noise on the logits
    double specialisation = 2.0; // weight of the prototype match in an expert's quality
    // Scale of q in the router's loss. Real routers see a small task gradient next to the
    // aux loss, which is why Switch's α = 10⁻² is enough; 0.005 gives our toy that balance.
    double taskWeight = 0.005;
    double usageMemory = 0.9; // decay of the running load behind an expert's skill
    double auxAlpha = 1e-2;   // Switch's α
    double biasGamma = 0.05;  // DeepSeek's γ (theirs, 0.001, acted over 14.3T tokens)
    std::uint64_t seed = 1;

    // Throws std::invalid_argument naming the field when a value is out of range.
    void validate() const;
};

// One training step as the views show it.
struct MoeStepRecord {
    int step = 0;                   // 1 for the first step
    std::vector<long long> load;    // assignments routed to each expert (Σ = k·T)
    std::vector<long long> dropped; // of those, over capacity
    double maxLoadFraction = 0.0;   // max load / (k·T); 1/E when uniform, 1/k when collapsed
    double loadEntropy = 0.0;       // −Σ f ln f of the load fractions, ln E when uniform
    double auxLoss = 0.0;           // α·E·Σ f_i·P_i, computed in every mode
    double taskLoss = 0.0;          // mean over tokens of −Σ_{kept} p_e·q_e
    int activeExperts = 0;          // experts that received any token
};

// The trained router applied to a fresh batch of requests (one token each, as in decode):
// every expert runs one batched matmul, so the layer waits for the largest expert batch.
// The batch is routed as in training, noisy top-k with the trained σ: the toy's tokens come
// in tight clusters that a linear gate can split over experts only through that noise, so
// routing without it would send each cluster's tokens to the same k experts, a collision
// that real routers, whose tokens differ, do not show. What is left of the straggler is the
// trained imbalance plus the randomness of a finite batch (uniformServingBatch).
struct MoeServingBatch {
    std::vector<long long> perExpert; // tokens each expert must process
    long long largest = 0;
    double mean = 0.0;      // k·B/E
    double straggler = 0.0; // largest / mean: 1 when balanced
    int idleExperts = 0;
};

// A router that picks k distinct experts uniformly at random for each of B requests: the
// straggler a perfectly balanced router still shows from the randomness of one batch (each
// expert's count is binomial with mean k·B/E, and the layer waits for the largest).
MoeServingBatch uniformServingBatch(int requests, int experts, int topK, std::uint64_t seed);

class MoeRoutingSim {
public:
    explicit MoeRoutingSim(MoeRoutingConfig config); // validates; throws std::invalid_argument

    // One SGD step of the gate over all T tokens; returns its record (also in history()).
    const MoeStepRecord& step();
    void run(int steps);
    // Switches balancing from the next step on (collapse first, then pull it back).
    void setBalancing(Balancing b);

    const MoeRoutingConfig& config() const { return m_config; }
    const std::vector<MoeStepRecord>& history() const { return m_history; }
    int stepsDone() const { return static_cast<int>(m_history.size()); }

    // State for the views.
    const std::vector<double>& tokens() const { return m_tokens; } // T × d, row-major
    const std::vector<int>& tokenCluster() const { return m_cluster; }
    const std::vector<int>& choices() const { return m_choices; } // T × k of the last step
    // 1 where that choice was processed, 0 where the expert was full (same layout).
    const std::vector<std::uint8_t>& keptChoices() const { return m_kept; }
    const std::vector<double>& bias() const { return m_bias; }
    std::vector<double> skill() const;
    const std::vector<double>& gate() const { return m_gate; } // E × d, row-major

    MoeServingBatch servingBatch(int requests, std::uint64_t seed) const;

private:
    void drawTokens(SeededRandom& rng, int count, std::vector<double>& out,
                    std::vector<int>* cluster) const;
    double quality(std::size_t expert, const double* unitX) const; // unitX: a unit token
    // Top-k of logits (+ bias when selecting) for one token, written to out[0..k).
    void selectTopK(const double* score, int* out) const;

    MoeRoutingConfig m_config;
    SeededRandom m_rng;
    std::vector<double> m_centres;    // clusters × d, the shared direction included
    std::vector<double> m_tokens;     // T × d
    std::vector<double> m_unitTokens; // T × d, each of length 1
    std::vector<int> m_cluster;       // T
    std::vector<double> m_gate;       // E × d
    std::vector<double> m_bias;       // E
    std::vector<double> m_usage;      // E, running kept load ÷ fair share (1 when balanced)
    std::vector<double> m_prototype;  // E × d, unit length
    std::vector<int> m_choices;       // T × k
    std::vector<std::uint8_t> m_kept; // T × k, 1 where the expert had room
    std::vector<MoeStepRecord> m_history;
    // Scratch reused every step (no allocation per frame).
    std::vector<double> m_gateT, m_logits, m_probs, m_grad, m_score, m_gateStep, m_protoSum;
};

} // namespace wb
