#pragma once
// The pipeline bubble of GPipe, 1F1B and the interleaved schedule (Narayanan et al., SC'21,
// §2.2): with P stages, M micro-batches and V model chunks per device,
//   bubble time / ideal compute time = (P−1)/(V·M)        (Megatron-LM; V = 1: GPipe, 1F1B)
// GPipe's paper quotes the bubble as a share of the *total* time instead, (P−1)/(M+P−1) for
// V = 1; the two are the same quantity, x and x/(1+x).
namespace wb {

struct PipelineBubble {
    double ofIdeal = 0.0; // bubble ÷ ideal compute time, (P−1)/(V·M)
    double ofTotal = 0.0; // bubble ÷ (ideal + bubble), (P−1)/(V·M + P−1)
};

// Throws std::invalid_argument unless stages ≥ 1, microbatches ≥ 1, interleave ≥ 1.
PipelineBubble pipelineBubble(int stages, int microbatches, int interleave = 1);

} // namespace wb
