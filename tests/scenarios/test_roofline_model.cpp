// Roofline numbers against FACTS.md §1.3 (ridge points) and the decode formula.
#include "catalogue/hardware_catalogue.h"
#include "roofline/roofline_model.h"

#include <QtTest>

using namespace wb;

namespace {
double ridge(const char* gpu, Precision p) {
    const GpuSpec& g = *HardwareCatalogue::builtin().find(gpu);
    return ridgeFlopPerByte(*peakTflops(g, p), bandwidthTBs(g));
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
