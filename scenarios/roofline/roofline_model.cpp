#include "roofline/roofline_model.h"

#include "engine/sentence.h"

#include <algorithm>
#include <array>
#include <limits>
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

double bytesPerElement(Precision p) {
    switch (p) {
    case Precision::FP32:
    case Precision::TF32: // tensor cores read FP32 storage and round it
        return 4.0;
    case Precision::BF16:
    case Precision::FP16:
        return 2.0;
    case Precision::FP8:
        return 1.0;
    }
    throw std::invalid_argument("unknown precision");
}

const std::vector<DecoderShape>& decoderShapes() {
    // Table 3: layers, model dimension, attention heads, key/value heads; head dim =
    // model dimension ÷ heads = 128 for all three.
    static const std::vector<DecoderShape> shapes{
        {.id = "llama-3-8b",
         .name = "Llama 3 8B",
         .parameters = 8e9,
         .layers = 32,
         .heads = 32,
         .kvHeads = 8,
         .headDim = 128},
        {.id = "llama-3-70b",
         .name = "Llama 3 70B",
         .parameters = 70e9,
         .layers = 80,
         .heads = 64,
         .kvHeads = 8,
         .headDim = 128},
        {.id = "llama-3-405b",
         .name = "Llama 3 405B",
         .parameters = 405e9,
         .layers = 126,
         .heads = 128,
         .kvHeads = 8,
         .headDim = 128},
    };
    return shapes;
}

const DecoderShape* findDecoderShape(std::string_view id) {
    for (const auto& s : decoderShapes())
        if (s.id == id)
            return &s;
    return nullptr;
}

std::vector<std::string> decoderShapeIds() {
    std::vector<std::string> ids;
    for (const auto& s : decoderShapes())
        ids.push_back(s.id);
    return ids;
}

DecodeWorkload decodeWorkload(const DecoderShape& shape, Precision p, double batch, double seqLen) {
    DecodeWorkload w;
    w.shape = shape;
    w.batch = batch;
    w.seqLen = seqLen;
    w.weightBytes = w.kvBytes = bytesPerElement(p);
    return w;
}

double weightBytesTotal(const DecodeWorkload& w) {
    return w.shape.parameters * w.weightBytes;
}

double kvCacheBytes(const DecodeWorkload& w) {
    return w.batch * w.seqLen * 2.0 * w.shape.layers * w.shape.kvHeads * w.shape.headDim *
           w.kvBytes;
}

double decodeFlops(const DecodeWorkload& w) {
    const double attention =
        4.0 * w.batch * w.seqLen * w.shape.layers * w.shape.heads * w.shape.headDim;
    return 2.0 * w.shape.parameters * w.batch + attention;
}

double decodeIntensityLimit(const DecodeWorkload& w) {
    DecodeWorkload one = w;
    one.batch = 1.0;
    const double kvPerSequence = kvCacheBytes(one);
    if (!(kvPerSequence > 0.0))
        return std::numeric_limits<double>::infinity();
    // Both FLOPs and KV bytes are linear in B; the weights' bytes are not, so they vanish.
    return decodeFlops(one) / kvPerSequence;
}

DecodeFit decodeFit(const GpuSpec& gpu, const DecodeWorkload& w) {
    DecodeFit f;
    f.weightBytes = weightBytesTotal(w);
    f.kvBytes = kvCacheBytes(w);
    f.memoryBytes = gpu.value("memory_gb") * 1e9;
    while ((f.weightBytes + f.kvBytes) / f.tensorParallel > f.memoryBytes)
        f.tensorParallel *= 2;
    return f;
}

DecodeEstimate decodeEstimate(const GpuSpec& gpu, Precision precision, const DecodeWorkload& w,
                              int gpus) {
    if (!(w.shape.parameters > 0.0) || !(w.batch >= 1.0) || !(w.weightBytes > 0.0) ||
        !(w.seqLen >= 0.0) || !(w.kvBytes > 0.0) || gpus < 1)
        throw std::invalid_argument("decode needs parameters > 0, batch ≥ 1, bytes > 0, "
                                    "context ≥ 0 and at least one GPU");
    const auto peak = peakTflops(gpu, precision);
    if (!peak)
        throw std::invalid_argument(
            fill("%1 has no %2 peak", {gpu.name, precisionName(precision)}));
    DecodeEstimate d;
    d.weightBytes = weightBytesTotal(w);
    d.kvBytes = kvCacheBytes(w);
    d.bytes = d.weightBytes + d.kvBytes; // every weight and every cached K, V read once
    d.flops = decodeFlops(w);
    d.intensity = d.flops / d.bytes;
    d.point = roofline(*peak, bandwidthTBs(gpu), d.intensity);
    d.gpus = gpus;
    d.stepTimeS = d.flops / gpus / (d.point.attainableTflops * 1e12);
    d.maxTokensPerS = w.batch / d.stepTimeS;
    return d;
}

DecodeEstimate decodeEstimate(const GpuSpec& gpu, double parameters, double batch,
                              double weightBytes) {
    DecodeWorkload w;
    w.shape.parameters = parameters;
    w.batch = batch;
    w.weightBytes = weightBytes;
    return decodeEstimate(gpu, Precision::BF16, w);
}

std::vector<ReferenceKernel> referenceKernels() {
    auto gemm = [](int n) {
        // C = A·B, n×n BF16: 2n³ FLOPs over 3·n²·2 bytes if each matrix moves once = n/3.
        const double nn = n;
        return ReferenceKernel{.name = fill("GEMM %1³ (BF16)", {std::to_string(n)}),
                               .formula = "2n³ FLOP / (3·n²·2 B) = n/3, each matrix moved once",
                               .precision = Precision::BF16,
                               .intensity = nn / 3.0,
                               .estimate = false};
    };
    const double m = 8192.0;
    return {
        {.name = "Vector add (FP32)",
         .formula = "c = a + b: 1 FLOP / (2 loads + 1 store × 4 B) = 1/12",
         .precision = Precision::FP32,
         .intensity = 1.0 / 12.0,
         .estimate = false},
        {.name = "Softmax row (FP32)",
         .formula = "≈5 FLOP per element (max, subtract, exp, sum, divide) / (4 B in + 4 B out)",
         .precision = Precision::FP32,
         .intensity = 5.0 / 8.0,
         .estimate = true},
        {.name = "GEMV 8192² (BF16)",
         .formula = "y = A·x: 2mn FLOP / (2mn + 2n + 2m) B ≈ 1",
         .precision = Precision::BF16,
         .intensity = 2.0 * m * m / (2.0 * m * m + 4.0 * m),
         .estimate = false},
        gemm(256),
        gemm(1024),
        gemm(4096),
    };
}

} // namespace wb
