#pragma once
// The roofline (Williams, Waterman & Patterson, CACM 2009): attainable FLOP/s is the lower
// of the compute peak and bandwidth × arithmetic intensity. All peaks are dense (no 2:4
// sparsity) and come from the hardware catalogue.
#include "catalogue/hardware_catalogue.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

enum class Precision { FP32, TF32, BF16, FP16, FP8 };

std::optional<Precision> parsePrecision(std::string_view name);
std::string precisionName(Precision p);  // "fp32", ...
std::string precisionTitle(Precision p); // "FP32 (CUDA cores)", "BF16 tensor", ...
const std::vector<std::string>& precisionNames();
std::string peakField(Precision p); // catalogue field holding the dense peak

// Dense peak in TFLOP/s, or nullopt when the GPU lacks the precision (FP8 before Hopper).
std::optional<double> peakTflops(const GpuSpec& gpu, Precision p);
double bandwidthTBs(const GpuSpec& gpu); // HBM, decimal TB/s

// Ridge point in FLOP/byte: peak (TFLOP/s) ÷ bandwidth (TB/s).
double ridgeFlopPerByte(double peakTflops, double bandwidthTBs);
// min(peak, bandwidth × intensity), TFLOP/s.
double attainableTflops(double peakTflops, double bandwidthTBs, double intensityFlopPerByte);

struct RooflinePoint {
    double peakTflops = 0.0;
    double bandwidthTBs = 0.0;
    double ridge = 0.0;
    double intensity = 0.0;
    double attainableTflops = 0.0;
    bool memoryBound = true;
};
RooflinePoint roofline(double peakTflops, double bandwidthTBs, double intensity);

// Bytes one element of the precision occupies in memory (TF32 is stored as FP32).
double bytesPerElement(Precision p);

// The transformer shape decode needs beyond its parameter count: the KV cache holds K and V
// for every layer, KV head and context token (grouped-query attention shares each KV head
// among heads ÷ kvHeads query heads).
struct DecoderShape {
    std::string id;   // "llama-3-8b"
    std::string name; // "Llama 3 8B"
    double parameters = 0.0;
    int layers = 0;
    int heads = 0; // query heads
    int kvHeads = 0;
    int headDim = 0;
};
// Llama 3 8B, 70B and 405B (Grattafiori et al., arXiv:2407.21783, Table 3), nominal sizes.
const std::vector<DecoderShape>& decoderShapes();
const DecoderShape* findDecoderShape(std::string_view id);
std::vector<std::string> decoderShapeIds();
inline constexpr const char* kDecoderShapeSource = "Llama 3 paper (arXiv:2407.21783), Table 3";

// One decode step of B sequences with S tokens of context each.
struct DecodeWorkload {
    DecoderShape shape; // layers == 0: no attention, weights only
    double batch = 1.0;
    double seqLen = 0.0;      // context tokens per sequence held in the KV cache
    double weightBytes = 2.0; // bytes per weight
    double kvBytes = 2.0;     // bytes per KV-cache element
};

// B sequences of S context tokens on `shape`, weights and KV cache stored in precision p.
DecodeWorkload decodeWorkload(const DecoderShape& shape, Precision p, double batch, double seqLen);

double weightBytesTotal(const DecodeWorkload& w); // P × bytes per weight
// batch × seqLen × 2 (K and V) × layers × kvHeads × headDim × bytes per element.
double kvCacheBytes(const DecodeWorkload& w);
// 2·P·B (one multiply-add per weight per sequence) + 4·B·S·L·H·d (Q·Kᵀ and scores·V over the
// context, every query head).
double decodeFlops(const DecodeWorkload& w);

// The intensity decode approaches as the batch grows without bound: weights are shared, but
// every sequence brings S tokens of KV cache, so FLOPs and bytes both grow with B and their
// ratio levels off at (2P/S + 4·L·H·d) ÷ (2·L·kvHeads·d·bytes per KV element). Infinite
// with no context (weights only).
double decodeIntensityLimit(const DecodeWorkload& w);

// Memory one decode step needs, and the smallest power-of-two tensor-parallel degree whose
// per-GPU share (weights + KV cache) ÷ TP fits the GPU's HBM. Activations, workspace and
// fragmentation are ignored, so the real need is higher.
struct DecodeFit {
    double weightBytes = 0.0;
    double kvBytes = 0.0;
    double memoryBytes = 0.0; // one GPU's HBM
    int tensorParallel = 1;
    bool fitsOneGpu() const { return tensorParallel == 1; }
};
DecodeFit decodeFit(const GpuSpec& gpu, const DecodeWorkload& w);

// A decode step on the roofline of `precision`, split over `gpus` tensor-parallel GPUs: each
// reads 1/gpus of the bytes and does 1/gpus of the FLOPs, so the intensity does not change;
// the all-reduces between them are not modelled.
struct DecodeEstimate {
    double weightBytes = 0.0; // all GPUs together
    double kvBytes = 0.0;
    double bytes = 0.0;
    double flops = 0.0;
    double intensity = 0.0; // FLOP/byte
    RooflinePoint point;    // against the precision's dense peak, one GPU
    int gpus = 1;
    double stepTimeS = 0.0;
    double maxTokensPerS = 0.0; // all B sequences together
};
DecodeEstimate decodeEstimate(const GpuSpec& gpu, Precision precision, const DecodeWorkload& w,
                              int gpus = 1);
// Weights only against the BF16 roof: P parameters, batch B (the calculator's decode model).
DecodeEstimate decodeEstimate(const GpuSpec& gpu, double parameters, double batch,
                              double weightBytes);

// Reference kernels placed by formula-derived arithmetic intensity.
struct ReferenceKernel {
    std::string name;
    std::string formula; // how the intensity was derived
    Precision precision;
    double intensity; // FLOP/byte
    bool estimate;    // FLOP count is a convention, not exact
};
std::vector<ReferenceKernel> referenceKernels();

} // namespace wb
