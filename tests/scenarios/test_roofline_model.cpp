// Roofline numbers against the ridge points derived from the datasheets (peak ÷ bandwidth)
// and the decode formulas: weights + KV cache per step, the precision's roof, the fit.
#include "catalogue/hardware_catalogue.h"
#include "roofline/roofline_model.h"

#include <QtTest>
#include <cmath>
#include <stdexcept>

using namespace wb;

namespace {
double ridge(const char* gpu, Precision p) {
    const GpuSpec& g = *HardwareCatalogue::builtin().find(gpu);
    return ridgeFlopPerByte(*peakTflops(g, p), bandwidthTBs(g));
}

const GpuSpec& h100Spec() {
    return *HardwareCatalogue::builtin().find("h100-sxm");
}

// A decode step of the assumed model with weights and KV cache stored in precision p.
DecodeWorkload workload(const char* model, Precision p, double batch, double seqLen) {
    return decodeWorkload(*findDecoderShape(model), p, batch, seqLen);
}
} // namespace

class TestRooflineModel : public QObject {
    Q_OBJECT
private slots:
    void ridgePointsMatchFacts_data() {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<double>("expected");
        // FACTS.md §1.3, rounded to 0.1 FLOP/B there.
        QTest::newRow("H100 BF16") << "h100-sxm"
                                   << "bf16" << 295.3;
        QTest::newRow("H100 FP8") << "h100-sxm"
                                  << "fp8" << 590.7;
        QTest::newRow("H100 TF32") << "h100-sxm"
                                   << "tf32" << 147.7;
        QTest::newRow("H100 FP32") << "h100-sxm"
                                   << "fp32" << 20.0;
        QTest::newRow("H200 BF16") << "h200-sxm"
                                   << "bf16" << 206.1;
        QTest::newRow("H200 FP8") << "h200-sxm"
                                  << "fp8" << 412.3;
        QTest::newRow("A100 80 BF16") << "a100-sxm-80gb"
                                      << "bf16" << 153.0;
        QTest::newRow("A100 80 TF32") << "a100-sxm-80gb"
                                      << "tf32" << 76.5;
        QTest::newRow("A100 40 BF16") << "a100-sxm-40gb"
                                      << "bf16" << 200.6;
        QTest::newRow("A100 40 FP32") << "a100-sxm-40gb"
                                      << "fp32" << 12.5;
    }
    void ridgePointsMatchFacts() {
        QFETCH(QString, gpu);
        QFETCH(QString, precision);
        QFETCH(double, expected);
        const double r = ridge(gpu.toUtf8().constData(), *parsePrecision(precision.toStdString()));
        QVERIFY2(std::fabs(r - expected) <= 0.06, qPrintable(QString::number(r)));
    }
    void attainableIsTheLowerRoof() {
        QCOMPARE(attainableTflops(989.4, 3.35, 1.0), 3.35);
        QCOMPARE(attainableTflops(989.4, 3.35, 1000.0), 989.4);
        const RooflinePoint p = roofline(989.4, 3.35, 100.0);
        QVERIFY(p.memoryBound);
        QVERIFY(!roofline(989.4, 3.35, 300.0).memoryBound);
    }
    void noFp8BeforeHopper() {
        const GpuSpec& a100 = *HardwareCatalogue::builtin().find("a100-sxm-80gb");
        QVERIFY(!peakTflops(a100, Precision::FP8));
        QVERIFY(peakTflops(a100, Precision::BF16));
    }
    void decodeIntensityIsTheBatchInBf16() {
        const GpuSpec& h100 = *HardwareCatalogue::builtin().find("h100-sxm");
        for (double b : {1.0, 8.0, 64.0, 512.0}) {
            const DecodeEstimate d = decodeEstimate(h100, 70e9, b, 2.0);
            QCOMPARE(d.intensity, b);
            QCOMPARE(d.point.memoryBound, b < 295.3);
        }
        // Batch 1, 70B params in BF16 = 140 GB per step at 3.35 TB/s: ≈23.9 tokens/s.
        const DecodeEstimate one = decodeEstimate(h100, 70e9, 1, 2.0);
        QVERIFY(std::fabs(one.maxTokensPerS - 3.35e12 / 140e9) < 1e-6);
        QVERIFY(std::fabs(one.stepTimeS - 140e9 / 3.35e12) < 1e-12);
        // Compute-bound batches stop gaining: tokens/s saturates at peak / (2P).
        const DecodeEstimate huge = decodeEstimate(h100, 70e9, 4096, 2.0);
        QVERIFY(std::fabs(huge.maxTokensPerS - 989.4e12 / (2 * 70e9)) < 1e-3);
    }
    void decodeBytesAreWeightsPlusKvCache() {
        const GpuSpec& h100 = h100Spec();
        const DecodeWorkload w = workload("llama-3-8b", Precision::BF16, 64, 4096);
        const DecoderShape& m = w.shape;
        const double weights = m.parameters * 2.0;
        const double kv = 64.0 * 4096.0 * 2.0 * m.layers * m.kvHeads * m.headDim * 2.0;
        const double flops =
            2.0 * m.parameters * 64.0 + 4.0 * 64.0 * 4096.0 * m.layers * m.heads * m.headDim;
        const DecodeEstimate d = decodeEstimate(h100, Precision::BF16, w);
        QCOMPARE(d.weightBytes, weights);
        QCOMPARE(d.kvBytes, kv);
        QCOMPARE(d.bytes, weights + kv);
        QCOMPARE(d.flops, flops);
        QCOMPARE(d.intensity, flops / (weights + kv));
        // Memory-bound: the step takes bytes ÷ bandwidth.
        QVERIFY(d.point.memoryBound);
        QVERIFY(std::fabs(d.stepTimeS - (weights + kv) / 3.35e12) < 1e-12);
        QVERIFY(std::fabs(d.maxTokensPerS - 64.0 / d.stepTimeS) < 1e-6);
        // The KV cache pulls the point left of the weights-only intensity (≈ batch in BF16).
        QVERIFY(d.intensity < 64.0);
    }
    void kvCacheCapsTheIntensityAsTheBatchGrows() {
        DecodeWorkload w = workload("llama-3-70b", Precision::BF16, 1, 8192);
        const DecoderShape& m = w.shape;
        const double limit = (2.0 * m.parameters / 8192.0 + 4.0 * m.layers * m.heads * m.headDim) /
                             (2.0 * m.layers * m.kvHeads * m.headDim * 2.0);
        QVERIFY(std::fabs(decodeIntensityLimit(w) - limit) < 1e-9 * limit);
        const GpuSpec& h100 = h100Spec();
        double last = 0.0;
        for (double b : {1.0, 16.0, 256.0, 1e6}) {
            w.batch = b;
            const double i = decodeEstimate(h100, Precision::BF16, w).intensity;
            QVERIFY(i > last && i < limit);
            last = i;
        }
        QVERIFY(last > 0.99 * limit);
        w.seqLen = 0; // no context: weights only, no ceiling
        QVERIFY(std::isinf(decodeIntensityLimit(w)));
    }
    void fp8DecodeUsesTheFp8RoofAndOneByteWeights() {
        const GpuSpec& h100 = h100Spec();
        const DecodeWorkload w = workload("llama-3-8b", Precision::FP8, 1024, 1);
        QCOMPARE(w.weightBytes, 1.0);
        const DecodeEstimate fp8 = decodeEstimate(h100, Precision::FP8, w);
        QCOMPARE(fp8.point.peakTflops, *peakTflops(h100, Precision::FP8));
        QCOMPARE(fp8.point.ridge, ridge("h100-sxm", Precision::FP8));
        QCOMPARE(fp8.weightBytes, w.shape.parameters);
        // Batch 1024 at one token of context is past the FP8 ridge: the FP8 peak limits it.
        QVERIFY(!fp8.point.memoryBound);
        QCOMPARE(fp8.point.attainableTflops, *peakTflops(h100, Precision::FP8));
        QVERIFY(std::fabs(fp8.stepTimeS - fp8.flops / (fp8.point.peakTflops * 1e12)) < 1e-15);
        // The same workload against the BF16 roof is twice as slow once compute-bound.
        const DecodeEstimate bf16 = decodeEstimate(h100, Precision::BF16, w);
        QVERIFY(std::fabs(bf16.stepTimeS / fp8.stepTimeS -
                          *peakTflops(h100, Precision::FP8) / *peakTflops(h100, Precision::BF16)) <
                1e-9);
        const GpuSpec& a100 = *HardwareCatalogue::builtin().find("a100-sxm-80gb");
        bool threw = false;
        try {
            decodeEstimate(a100, Precision::FP8, w); // A100 has no FP8 roof to place it on
        } catch (const std::invalid_argument&) {
            threw = true;
        }
        QVERIFY(threw);
    }
    void seventyBInBf16NeedsMoreThanOneH100() {
        const GpuSpec& h100 = h100Spec();
        DecodeWorkload w = workload("llama-3-70b", Precision::BF16, 1, 4096);
        const DecodeFit bf16 = decodeFit(h100, w);
        QCOMPARE(bf16.weightBytes, 140e9);
        QVERIFY(bf16.weightBytes + bf16.kvBytes > h100.value("memory_gb") * 1e9);
        QVERIFY(!bf16.fitsOneGpu());
        // The fewest power-of-two GPUs whose share fits, from the formula.
        int tp = 1;
        while ((bf16.weightBytes + bf16.kvBytes) / tp > h100.value("memory_gb") * 1e9)
            tp *= 2;
        QCOMPARE(bf16.tensorParallel, tp);
        QCOMPARE(tp, 2);
        w.weightBytes = w.kvBytes = 1.0;
        QVERIFY(decodeFit(h100, w).fitsOneGpu()); // 70 GB in FP8
        w.shape = *findDecoderShape("llama-3-8b");
        w.weightBytes = w.kvBytes = 2.0;
        QVERIFY(decodeFit(h100, w).fitsOneGpu());
        // Split over TP GPUs each reads its share: same intensity, 1/TP the step time.
        const DecodeEstimate one = decodeEstimate(h100, Precision::BF16, w, 1);
        const DecodeEstimate two = decodeEstimate(h100, Precision::BF16, w, 2);
        QCOMPARE(two.intensity, one.intensity);
        QVERIFY(std::fabs(two.stepTimeS * 2.0 - one.stepTimeS) < 1e-15);
    }
    void referenceKernelsFollowTheirFormulas() {
        const auto kernels = referenceKernels();
        QVERIFY(kernels.size() >= 5);
        bool sawEstimate = false;
        for (const auto& k : kernels) {
            QVERIFY(k.intensity > 0);
            QVERIFY(!k.formula.empty());
            sawEstimate |= k.estimate;
            if (k.name.rfind("GEMM 1024", 0) == 0)
                QVERIFY(std::fabs(k.intensity - 1024.0 / 3.0) < 1e-9);
            if (k.name.rfind("Vector add", 0) == 0)
                QCOMPARE(k.intensity, 1.0 / 12.0);
        }
        QVERIFY(sawEstimate);
    }
};

QTEST_APPLESS_MAIN(TestRooflineModel)
#include "test_roofline_model.moc"
