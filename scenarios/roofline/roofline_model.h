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

// LLM decode as one GEMM per layer stack: each step reads every weight once (P × bytes per
// weight) and does 2·P·B FLOPs for B sequences. KV-cache and activation traffic ignored.
struct DecodeEstimate {
    double intensity = 0.0; // FLOP/byte = 2B / bytes per weight
    RooflinePoint point;    // against the dense BF16 peak
    double stepTimeS = 0.0;
    double maxTokensPerS = 0.0; // all B sequences together
};
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
