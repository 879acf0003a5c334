// The built-in catalogue against FACTS.md §1.1, and malformed catalogues giving errors that
// say where and what.
#include "catalogue/hardware_catalogue.h"

#include <QFile>
#include <QtTest>

using namespace wb;

namespace {
QString errorOf(std::string_view json) {
    auto r = HardwareCatalogue::parse(json);
    if (auto* e = std::get_if<CatalogueError>(&r))
        return QString::fromStdString(e->message);
    return {};
}
const char* kMinimalSources = R"("sources": {"s": {"label": "L", "url": "https://x"}})";
} // namespace

class TestHardwareCatalogue : public QObject {
    Q_OBJECT
private slots:
    void builtinHasTheFourGpus() {
        const auto& cat = HardwareCatalogue::builtin();
        for (const char* id : {"h100-sxm", "h200-sxm", "a100-sxm-40gb", "a100-sxm-80gb"})
            QVERIFY2(cat.find(id), id);
        QVERIFY(!cat.find("h100"));
    }
    void valuesMatchFacts() {
        const auto& cat = HardwareCatalogue::builtin();
        const GpuSpec& h100 = *cat.find("h100-sxm");
        QCOMPARE(h100.value("sm_count"), 132.0);
        QCOMPARE(h100.value("bf16_dense_tflops"), 989.4);
        QCOMPARE(h100.value("memory_bandwidth_gbs"), 3350.0);
        QCOMPARE(h100.value("l2_cache_mb"), 50.0);
        QCOMPARE(h100.value("max_shared_per_block_kb"), 227.0);
        QCOMPARE(h100.value("nvlink_bidirectional_gbs"), 900.0);
        const GpuSpec& h200 = *cat.find("h200-sxm");
        QCOMPARE(h200.value("memory_gb"), 141.0);
        QCOMPARE(h200.value("memory_bandwidth_gbs"), 4800.0);
        const GpuSpec& a40 = *cat.find("a100-sxm-40gb");
        QCOMPARE(a40.value("memory_bandwidth_gbs"), 1555.0);
        QCOMPARE(a40.value("sm_count"), 108.0);
        QCOMPARE(cat.find("a100-sxm-80gb")->value("memory_bandwidth_gbs"), 2039.0);
        // A100 SXM BF16 dense is 312, the sparse number 624 must not be the dense field.
        QCOMPARE(a40.value("bf16_dense_tflops"), 312.0);
    }
    void everyNumberHasASource() {
        const auto& cat = HardwareCatalogue::builtin();
        for (const auto& g : cat.gpus()) {
            for (const auto& [name, v] : g.fields) {
                const SpecSource* s = cat.source(v.sourceId);
                QVERIFY2(s, qPrintable(QString::fromStdString(g.id + "/" + name)));
                // A public page, or a recording this repository ships (a measurement made here).
                const bool shipped = s->url.rfind("resources/traces/", 0) == 0 &&
                                     QFile::exists(QStringLiteral(WB_SOURCE_DIR "/") +
                                                   QString::fromStdString(s->url));
                QVERIFY2(s->url.rfind("https://", 0) == 0 || shipped, s->url.c_str());
                QVERIFY(!v.unit.empty());
            }
            QVERIFY(!cat.citation(g, "memory_bandwidth_gbs").empty());
        }
    }
    void truncatedJsonSaysWhere() {
        const QString e = errorOf(R"({"sources": {"s": {"label": )");
        QVERIFY2(e.contains("not valid JSON at byte"), qPrintable(e));
    }
    void wrongShapesNameThePath() {
        QVERIFY(errorOf("[]").contains("expected an object"));
        QVERIFY(errorOf(R"({"gpus": []})").contains("/sources"));
        QVERIFY(errorOf(std::string("{") + kMinimalSources + R"(, "gpus": []})").contains("/gpus"));
        const QString missing = errorOf(std::string("{") + kMinimalSources +
                                        R"(, "gpus": [{"id": "x1", "name": "X", "architecture": "A",
            "compute_capability": "9.0", "fields": {"sm_count": {"value": 1, "unit": "SMs", "source": "s"}}}]})");
        QVERIFY2(missing.contains("x1") && missing.contains("missing required field"),
                 qPrintable(missing));
        const QString badSource =
            errorOf(std::string("{") + kMinimalSources +
                    R"(, "gpus": [{"id": "x1", "name": "X", "architecture": "A",
            "compute_capability": "9.0", "fields": {"sm_count": {"value": 1, "unit": "SMs", "source": "nope"}}}]})");
        QVERIFY2(badSource.contains("/fields/sm_count") &&
                     badSource.contains("unknown source 'nope'"),
                 qPrintable(badSource));
        const QString badType = errorOf(std::string("{") + kMinimalSources +
                                        R"(, "gpus": [{"id": "x1", "name": "X", "architecture": "A",
            "compute_capability": "9.0", "fields": {"sm_count": {"value": "many", "unit": "SMs", "source": "s"}}}]})");
        QVERIFY2(badType.contains("/fields/sm_count") &&
                     badType.contains("expected {value: number"),
                 qPrintable(badType));
        QVERIFY(errorOf(std::string("{") + kMinimalSources + R"(, "gpus": [{"name": "X"}]})")
                    .contains("/gpus/0/id"));
    }
    // What CUDA reports for each part (name, CC, SMs, decimal GB of HBM) finds its entry;
    // parts that share a model name but not SMs, clocks or memory do not.
    void devicesMatchTheirCatalogueGpu() {
        const auto& c = wb::HardwareCatalogue::builtin();
        auto id = [&](const char* name, const char* cc, int sms, double gb) {
            const wb::GpuSpec* g = c.matchDevice(name, cc, sms, gb);
            return g ? g->id : std::string("none");
        };
        QCOMPARE(id("NVIDIA H200", "9.0", 132, 150.11), std::string("h200-sxm"));
        QCOMPARE(id("NVIDIA H100 80GB HBM3", "9.0", 132, 85.03), std::string("h100-sxm"));
        QCOMPARE(id("NVIDIA A100-SXM4-40GB", "8.0", 108, 42.51), std::string("a100-sxm-40gb"));
        QCOMPARE(id("NVIDIA A100-SXM4-80GB", "8.0", 108, 85.1), std::string("a100-sxm-80gb"));
        QCOMPARE(id("NVIDIA H100 PCIe", "9.0", 114, 85.03), std::string("none"));
        QCOMPARE(id("NVIDIA A100 80GB PCIe", "8.0", 108, 85.1), std::string("none"));
        QCOMPARE(id("NVIDIA H200 NVL", "9.0", 132, 150.1), std::string("none"));
        QCOMPARE(id("NVIDIA H100 NVL", "9.0", 132, 100.0), std::string("none")); // 94 GB part
        QCOMPARE(id("NVIDIA GeForce RTX 4090", "8.9", 128, 25.4), std::string("none"));
        QCOMPARE(id("NVIDIA H200", "8.0", 132, 150.11), std::string("none")); // wrong CC
    }

    void binaryJunkIsAnError() {
        const std::string junk("\x00\xff\xfe{\x01", 5);
        QVERIFY(!errorOf(junk).isEmpty());
    }
};

QTEST_APPLESS_MAIN(TestHardwareCatalogue)
#include "test_hardware_catalogue.moc"
