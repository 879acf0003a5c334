#include "roofline/roofline_model.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace wb {

namespace {
struct PrecisionInfo {
    Precision precision;
    const char* name;
    const char* title;
    const char* field;
};
constexpr std::array<PrecisionInfo, 5> kPrecisions{{
    {Precision::FP32, "fp32", "FP32 (CUDA cores)", "fp32_tflops"},
    {Precision::TF32, "tf32", "TF32 tensor", "tf32_dense_tflops"},
    {Precision::BF16, "bf16", "BF16 tensor", "bf16_dense_tflops"},
    {Precision::FP16, "fp16", "FP16 tensor", "fp16_dense_tflops"},
    {Precision::FP8, "fp8", "FP8 tensor", "fp8_dense_tflops"},
}};
const PrecisionInfo& info(Precision p) {
    for (const auto& i : kPrecisions)
        if (i.precision == p)
            return i;
    throw std::invalid_argument("unknown precision");
}
} // namespace

std::optional<Precision> parsePrecision(std::string_view name) {
    for (const auto& i : kPrecisions)
        if (name == i.name)
            return i.precision;
    return std::nullopt;
}

std::string precisionName(Precision p) {
    return info(p).name;
}
std::string precisionTitle(Precision p) {
    return info(p).title;
}
std::string peakField(Precision p) {
    return info(p).field;
}

const std::vector<std::string>& precisionNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& i : kPrecisions)
            v.emplace_back(i.name);
        return v;
    }();
    return names;
}

std::optional<double> peakTflops(const GpuSpec& gpu, Precision p) {
    const std::string field = peakField(p);
    if (!gpu.has(field))
        return std::nullopt;
    return gpu.value(field);
}

double bandwidthTBs(const GpuSpec& gpu) {
    return gpu.value("memory_bandwidth_gbs") / 1000.0;
}

double ridgeFlopPerByte(double peak, double bw) {
    // TFLOP/s ÷ TB/s = FLOP/byte: the intensity at which both roofs meet.
    return peak / bw;
}

double attainableTflops(double peak, double bw, double intensity) {
    return std::min(peak, bw * intensity);
}

RooflinePoint roofline(double peak, double bw, double intensity) {
    RooflinePoint p;
    p.peakTflops = peak;
    p.bandwidthTBs = bw;
    p.ridge = ridgeFlopPerByte(peak, bw);
    p.intensity = intensity;
    p.attainableTflops = attainableTflops(peak, bw, intensity);
    p.memoryBound = intensity < p.ridge;
    return p;
}

DecodeEstimate decodeEstimate(const GpuSpec& gpu, double parameters, double batch,
                              double weightBytes) {
    if (!(parameters > 0.0) || !(batch >= 1.0) || !(weightBytes > 0.0))
        throw std::invalid_argument("decode needs parameters > 0, batch ≥ 1, weight bytes > 0");
    DecodeEstimate d;
    const double flops = 2.0 * parameters * batch; // one multiply-add per weight per sequence
    const double bytes = parameters * weightBytes; // every weight read once per step
    d.intensity = flops / bytes;
    d.point = roofline(*peakTflops(gpu, Precision::BF16), bandwidthTBs(gpu), d.intensity);
    d.stepTimeS = flops / (d.point.attainableTflops * 1e12);
    d.maxTokensPerS = batch / d.stepTimeS;
    return d;
}

std::vector<ReferenceKernel> referenceKernels() {
    auto gemm = [](int n) {
        // C = A·B, n×n BF16: 2n³ FLOPs over 3·n²·2 bytes if each matrix moves once = n/3.
        const double nn = n;
        return ReferenceKernel{"GEMM " + std::to_string(n) + "³ (BF16)",
                               "2n³ FLOP / (3·n²·2 B) = n/3, each matrix moved once",
                               Precision::BF16, nn / 3.0, false};
    };
    const double m = 8192.0;
    return {
        {"Vector add (FP32)", "c = a + b: 1 FLOP / (2 loads + 1 store × 4 B) = 1/12",
         Precision::FP32, 1.0 / 12.0, false},
        {"Softmax row (FP32)",
         "≈5 FLOP per element (max, subtract, exp, sum, divide) / (4 B in + 4 B out)",
         Precision::FP32, 5.0 / 8.0, true},
        {"GEMV 8192² (BF16)", "y = A·x: 2mn FLOP / (2mn + 2n + 2m) B ≈ 1", Precision::BF16,
         2.0 * m * m / (2.0 * m * m + 4.0 * m), false},
        gemm(256),
        gemm(1024),
        gemm(4096),
    };
}

} // namespace wb
