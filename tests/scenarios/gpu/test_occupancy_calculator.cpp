// The occupancy calculator against hand-worked cases (FACTS.md §12) on sm_90 and sm_80.
#include "catalogue/hardware_catalogue.h"
#include "gpu/occupancy_calculator.h"

#include <QtTest>
#include <stdexcept>

using namespace wb;

namespace {
const GpuSpec& gpu(const char* id) {
    return *HardwareCatalogue::builtin().find(id);
}
OccupancyCalculator sm90() {
    return OccupancyCalculator(gpu("h100-sxm"));
}
OccupancyCalculator sm80() {
    return OccupancyCalculator(gpu("a100-sxm-80gb"));
}

// The message of the std::invalid_argument `k` raises, or "" when it raises none.
std::string rejection(const OccupancyCalculator& c, KernelResources k) {
    try {
        c.compute(k);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}
} // namespace

class TestOccupancyCalculator : public QObject {
    Q_OBJECT
private slots:
    void rulesAndLimits() {
        const ArchitectureRules* r = architectureRules("9.0");
        QVERIFY(r);
        QCOMPARE(r->registerAllocationUnit, 256);
        QCOMPARE(r->warpAllocationGranularity, 4);
        QCOMPARE(r->sharedAllocationGranularity, 128);
        QCOMPARE(r->reservedSharedPerBlock, 1024);
        QVERIFY(architectureRules("8.0"));
        QVERIFY(!architectureRules("7.0"));
        QCOMPARE(sm90().limits().sharedPerSmBytes, 228 * 1024);
        QCOMPARE(sm80().limits().sharedPerSmBytes, 164 * 1024);
        QCOMPARE(sm90().limits().maxSharedPerBlockBytes, 227 * 1024);
        QCOMPARE(sm90().limits().maxWarpsPerSm, 64);
        QCOMPARE(sm90().limits().maxBlocksPerSm, 32);
        GpuSpec volta = gpu("h100-sxm");
        volta.computeCapability = "7.0";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, OccupancyCalculator{volta});
    }

    // FACTS.md §12: 128 registers/thread → 4,096 per warp → 16 warps → 25 %.
    void registerLimited128() {
        for (const auto& c : {sm90(), sm80()}) {
            const OccupancyResult r = c.compute({256, 128, 0});
            QCOMPARE(r.registersPerWarp, 4096);
            QCOMPARE(r.blocksByRegisters, 2);
            QCOMPARE(r.blocksByWarps, 8);
            QCOMPARE(r.blocksPerSm, 2);
            QCOMPARE(r.warpsPerSm, 16);
            QCOMPARE(r.occupancy, 0.25);
            QCOMPARE(limiterName(r.limiter), std::string("registers"));
        }
    }

    void fullOccupancy() {
        const OccupancyResult r = sm90().compute({256, 32, 0});
        QCOMPARE(r.blocksByRegisters, 8);
        QCOMPARE(r.blocksByWarps, 8);
        QCOMPARE(r.blocksBySharedMemory, 228); // 1 KB reserved per block, nothing else
        QCOMPARE(r.blocksByBlockLimit, 32);
        QCOMPARE(r.blocksPerSm, 8);
        QCOMPARE(r.warpsPerSm, 64);
        QCOMPARE(r.occupancy, 1.0);
        QCOMPARE(r.limiter, OccupancyLimiter::Warps);
        QCOMPARE(r.limiters, (std::vector<OccupancyLimiter>{OccupancyLimiter::Warps,
                                                            OccupancyLimiter::Registers}));
    }

    // 32 threads per block: 32 blocks × 1 warp = 32 warps = 50 %.
    void blockLimited() {
        const OccupancyResult r = sm90().compute({32, 32, 0});
        QCOMPARE(r.blocksByWarps, 64);
        QCOMPARE(r.blocksPerSm, 32);
        QCOMPARE(r.warpsPerSm, 32);
        QCOMPARE(r.occupancy, 0.5);
        QCOMPARE(limiterName(r.limiter), std::string("blocks"));
    }

    // FACTS.md §12 worked check: 256 threads, 64 registers, 48 KB → 4 blocks = 50 % on sm_90;
    // on sm_80 164 KB / 49 KB gives 3 blocks.
    void factsExample() {
        const OccupancyResult h = sm90().compute({256, 64, 48 * 1024});
        QCOMPARE(h.blocksByRegisters, 4);
        QCOMPARE(h.sharedPerBlockAllocated, 49 * 1024);
        QCOMPARE(h.blocksBySharedMemory, 4);
        QCOMPARE(h.blocksPerSm, 4);
        QCOMPARE(h.occupancy, 0.5);
        QCOMPARE(h.limiters, (std::vector<OccupancyLimiter>{OccupancyLimiter::Registers,
                                                            OccupancyLimiter::SharedMemory}));
        const OccupancyResult a = sm80().compute({256, 64, 48 * 1024});
        QCOMPARE(a.blocksPerSm, 3);
        QCOMPARE(a.occupancy, 24.0 / 64.0);
        QCOMPARE(limiterName(a.limiter), std::string("shared_memory"));
    }

    void sharedMemoryLimited() {
        // 100 KB + 1 KB reserved = 103,424 B: 233,472 / 103,424 → 2 blocks on sm_90.
        const OccupancyResult h = sm90().compute({256, 32, 100 * 1024});
        QCOMPARE(h.blocksBySharedMemory, 2);
        QCOMPARE(h.occupancy, 0.25);
        QCOMPARE(h.limiter, OccupancyLimiter::SharedMemory);
        QCOMPARE(sm80().compute({256, 32, 100 * 1024}).blocksPerSm, 1);
        // The per-block maximum plus the reservation is exactly the carveout: one block.
        QCOMPARE(sm90().compute({256, 32, 227 * 1024}).blocksBySharedMemory, 1);
        QCOMPARE(sm80().compute({256, 32, 163 * 1024}).blocksBySharedMemory, 1);
    }

    void granularities() {
        // 33 registers: 1,056 per warp → 1,280; 16,384 / 1,280 = 12 per sub-partition → 48.
        const OccupancyResult r = sm90().compute({256, 33, 0});
        QCOMPARE(r.registersPerWarp, 1280);
        QCOMPARE(r.blocksPerSm, 6);
        QCOMPARE(r.occupancy, 0.75);
        // 40 registers, 1-warp blocks: 65,536 / 1,280 = 51 warps, rounded down to 4 → 48.
        QCOMPARE(sm90().compute({32, 40, 0}).blocksByRegisters, 48);
        // 1 B of shared memory still costs 1,024 + 128.
        QCOMPARE(sm90().compute({256, 32, 1}).sharedPerBlockAllocated, 1152);
        // 3-warp blocks at 255 registers: 8,192 per warp → 8 warps → 2 blocks.
        const OccupancyResult odd = sm90().compute({96, 255, 0});
        QCOMPARE(odd.warpsPerBlock, 3);
        QCOMPARE(odd.blocksPerSm, 2);
        // A partial warp takes a whole warp slot.
        QCOMPARE(sm90().compute({33, 32, 0}).warpsPerBlock, 2);
        // 0 registers = unknown: registers do not limit.
        QCOMPARE(sm90().compute({256, 0, 0}).blocksByRegisters, 32);
    }

    void blockThatDoesNotFit() {
        // 1,024 threads × 128 registers = 131,072 > 65,536.
        const OccupancyResult r = sm90().compute({1024, 128, 0});
        QCOMPARE(r.blocksPerSm, 0);
        QCOMPARE(r.occupancy, 0.0);
        QCOMPARE(r.limiter, OccupancyLimiter::Registers);
    }

    void invalidInputs() {
        const auto c = sm90();
        QVERIFY(rejection(c, {0, 32, 0}).find("1…1024") != std::string::npos);
        QVERIFY(rejection(c, {2000, 32, 0}).find("1…1024") != std::string::npos);
        QVERIFY(rejection(c, {256, 300, 0}).find("0…255") != std::string::npos);
        QVERIFY(rejection(c, {256, -1, 0}).find("0…255") != std::string::npos);
        QVERIFY(rejection(c, {256, 32, -1}).find("0…232448 B") != std::string::npos);
        QVERIFY(rejection(c, {256, 32, 300000}).find("0…232448 B") != std::string::npos);
        QVERIFY(rejection(sm80(), {256, 32, 227 * 1024}).find("0…166912 B") != std::string::npos);
        QVERIFY(rejection(c, {1024, 255, 227 * 1024}).empty());
    }

    void sweeps() {
        const auto c = sm90();
        const auto regs = c.sweepRegisters({256, 32, 0});
        QCOMPARE(regs.size(), std::size_t(256));
        QCOMPARE(regs.front().x, 0);
        QCOMPARE(regs.back().x, 255);
        QCOMPARE(regs[128].occupancy, 0.25);
        QCOMPARE(regs[32].occupancy, 1.0);
        for (std::size_t i = 1; i < regs.size(); ++i)
            QVERIFY(regs[i].occupancy <= regs[i - 1].occupancy);

        const auto threads = c.sweepThreadsPerBlock({256, 32, 0});
        QCOMPARE(threads.size(), std::size_t(32));
        QCOMPARE(threads.front().x, 32);
        QCOMPARE(threads.front().occupancy, 0.5);
        QCOMPARE(threads.back().x, 1024);
        QCOMPARE(threads.back().blocksPerSm, 2);

        const auto smem = c.sweepSharedMemory({256, 32, 0});
        QCOMPARE(smem.size(), std::size_t(228)); // 0, 1 KB, …, 227 KB
        QCOMPARE(smem.back().x, 227 * 1024);
        QCOMPARE(smem.back().blocksPerSm, 1);
        QCOMPARE(smem[100].occupancy, 0.25); // 100 KB: 2 blocks
        for (std::size_t i = 1; i < smem.size(); ++i)
            QVERIFY(smem[i].occupancy <= smem[i - 1].occupancy);
        QCOMPARE(c.sweepSharedMemory({256, 32, 0}, 5000).back().x, 227 * 1024);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.sweepSharedMemory({256, 32, 0}, 0));
        // Sweeps are pure: equal inputs, equal points.
        QCOMPARE(c.sweepRegisters({128, 0, 4096}), c.sweepRegisters({128, 0, 4096}));
    }
};

QTEST_APPLESS_MAIN(TestOccupancyCalculator)
#include "test_occupancy_calculator.moc"
