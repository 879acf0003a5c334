// The memory ladder against the catalogue, and the modeled staircase's shape.
#include "gpu/memory_ladder.h"

#include <QtTest>

using namespace wb;

class TestMemoryLadder : public QObject {
    Q_OBJECT
private slots:
    void levelsComeFromTheCatalogue() {
        const GpuSpec& h100 = *HardwareCatalogue::builtin().find("h100-sxm");
        const MemoryLadder ladder(h100);
        QCOMPARE(ladder.levels().size(), size_t(7));
        QCOMPARE(ladder.levels().front().name, std::string("Registers"));
        QCOMPARE(ladder.level("HBM").bandwidthBytesPerS, 3.35e12);
        QCOMPARE(ladder.level("HBM").capacityBytes, 80e9);
        QCOMPARE(ladder.level("L2 cache").capacityBytes, 50e6);
        // 64K 32-bit registers per SM × 132 SMs = 33,792 KB (CUDA C++ Programming Guide, Table 27).
        QCOMPARE(ladder.level("Registers").capacityBytes, 65536.0 * 4 * 132);
        // 128 B/clk/SM × 132 × 1.98 GHz ≈ 33.4 TB/s (derived).
        QVERIFY(std::fabs(ladder.level("Shared memory / L1").bandwidthBytesPerS - 33.45e12) <
                0.01e12);
        QCOMPARE(ladder.level("NVLink peer").bandwidthBytesPerS, 450e9);
        QCOMPARE(ladder.level("Network (NIC)").bandwidthBytesPerS, 50e9);
        // No published Hopper HBM latency: the middle of the 400–600 ns range, labelled so.
        QVERIFY(std::fabs(ladder.latencyNs(ladder.level("HBM")) - 500.0) < 1e-9);
        QVERIFY(ladder.level("HBM").latencyAssumed);
        QCOMPARE(ladder.level("HBM").latencyLowNs, 400.0);
        // Links: per direction, with the datasheets' bidirectional figure beside it.
        QCOMPARE(ladder.level("NVLink peer").bidirectionalBytesPerS, 900e9);
        QCOMPARE(ladder.level("PCIe host").bandwidthBytesPerS, 63e9);
        QCOMPARE(ladder.level("PCIe host").bidirectionalBytesPerS, 128e9);
        // H100's L2 bandwidth is not published: an assumed value, flagged so.
        QVERIFY(ladder.level("L2 cache").bandwidthBytesPerS > 0.0);
        QVERIFY(ladder.level("L2 cache").bandwidthAssumed);
        for (const auto& l : ladder.levels())
            QVERIFY2(!l.bandwidthSource.empty() || l.bandwidthBytesPerS == 0.0, l.name.c_str());
    }
    void eachLevelIsSlowerThanTheOneAbove() {
        for (const auto& gpu : HardwareCatalogue::builtin().gpus()) {
            const MemoryLadder ladder(gpu);
            // In time, not cycles: the papers counted some levels at another GPU's clock.
            double previous = 0.0;
            for (const auto& l : ladder.levels()) {
                if (l.latencyCycles <= 0)
                    continue;
                QVERIFY2(ladder.latencyNs(l) > previous, (gpu.id + " " + l.name).c_str());
                previous = std::max(ladder.latencyNs(l), ladder.farLatencyNs(l));
            }
        }
    }
    void staircaseClimbsFromL1ToHbm() {
        const GpuSpec& a100 = *HardwareCatalogue::builtin().find("a100-sxm-80gb");
        const MemoryLadder ladder(a100);
        QCOMPARE(ladder.modeledChaseLatencyCycles(4096), a100.value("l1_latency_cycles"));
        double previous = 0.0;
        for (double ws = 4096; ws < 1e10; ws *= 1.3) {
            const double c = ladder.modeledChaseLatencyCycles(ws);
            QVERIFY(c >= previous - 1e-9);
            previous = c;
        }
        // Far beyond L2 almost every load pays the HBM latency.
        QVERIFY(std::fabs(ladder.modeledChaseLatencyCycles(1e12) -
                          a100.value("hbm_latency_cycles")) < 1.0);
        // Hopper's L2 cycles were counted on an H800 PCIe at 1.755 GHz: in ns at that clock
        // (147 / 236 ns), then in this GPU's cycles for the chase.
        const MemoryLadder h100(*HardwareCatalogue::builtin().find("h100-sxm"));
        const MemoryLevel& l2 = h100.level("L2 cache");
        QVERIFY(std::fabs(h100.latencyNs(l2) - 258.0 / 1.755) < 1e-9);
        QVERIFY(std::fabs(h100.farLatencyNs(l2) - 414.1 / 1.755) < 1e-9);
        const double h100Mid = h100.modeledChaseLatencyCycles(10e6);
        QVERIFY(h100Mid > 258.0 / 1.755 * 1.98 * 0.95 && h100Mid < 258.0 / 1.755 * 1.98 * 1.05);
        // Inside the near half of L2 (and beyond L1) the chase sees near-L2 latency.
        const double mid = ladder.modeledChaseLatencyCycles(10e6);
        QVERIFY(mid > a100.value("l2_latency_cycles") * 0.95 &&
                mid < a100.value("l2_latency_cycles") * 1.05);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ladder.modeledChaseLatencyCycles(0));
    }
};

QTEST_APPLESS_MAIN(TestMemoryLadder)
#include "test_memory_ladder.moc"
