// Sectors, lines and banks of one warp access against FACTS.md §13.
#include "gpu/memory_access_model.h"

#include <QtTest>

using namespace wb;

namespace {
MemoryAccessFrame global(std::int64_t stride, std::int64_t offset = 0, int elem = 4,
                         std::uint64_t base = 0) {
    return MemoryAccessModel::global(MemoryAccessModel::strided(stride, offset), {"a", elem, base},
                                     "t", "ld.global.f32");
}
MemoryAccessFrame shared(std::int64_t stride, int elem = 4) {
    return MemoryAccessModel::shared(MemoryAccessModel::strided(stride), {"s", elem, 0}, "t",
                                     "ld.shared.f32");
}
} // namespace

class TestMemoryAccessModel : public QObject {
    Q_OBJECT
private slots:
    void coalescing() {
        auto f = global(1);
        QCOMPARE(f.sectors.size(), std::size_t{4});
        QCOMPARE(f.lines.size(), std::size_t{1});
        QCOMPARE(f.requests, 1);
        QCOMPARE(f.sectorsPerRequest, 4.0);
        QCOMPARE(f.efficiency, 1.0);
        f = global(1, 1); // misaligned by one element
        QCOMPARE(f.sectorsPerRequest, 5.0);
        QCOMPARE(f.lines.size(), std::size_t{2});
        QCOMPARE(f.efficiency, 128.0 / 160.0);
        f = global(32);
        QCOMPARE(f.sectorsPerRequest, 32.0);
        QCOMPARE(f.lines.size(), std::size_t{32});
        QCOMPARE(f.efficiency, 128.0 / 1024.0);
        QCOMPARE(f.lanes[3].tip, std::string("lane 3: a[96] → byte 384, sector 12, line 3"));
        QCOMPARE(f.lanes[3].sector, 3);
        QCOMPARE(global(1, 0, 8).sectorsPerRequest, 8.0);
        QCOMPARE(global(2).sectorsPerRequest, 8.0);
        QCOMPARE(global(0).sectorsPerRequest, 1.0); // everyone reads one element
        QCOMPARE(global(0).efficiency, 4.0 / 32.0);
        QCOMPARE(global(1, 0, 4, 256).sectors.front(), std::uint64_t{8});
        // A 16-byte element at byte 24 straddles two sectors.
        QCOMPARE(global(0, 0, 16, 24).sectorsPerRequest, 2.0);
        QCOMPARE(f.space, MemoryAccessFrame::Space::Global);
        QCOMPARE(f.lanes.size(), std::size_t{32});
    }
    void banks() {
        QCOMPARE(shared(1).conflictDegree, 1);
        QCOMPARE(shared(1).banksUsed, 32);
        QCOMPARE(shared(2).conflictDegree, 2);
        QCOMPARE(shared(2).banksUsed, 16);
        QCOMPARE(shared(32).conflictDegree, 32);
        QCOMPARE(shared(32).banksUsed, 1);
        QCOMPARE(shared(33).conflictDegree, 1);
        QCOMPARE(shared(0).conflictDegree, 1); // broadcast
        QCOMPARE(shared(0).banksUsed, 1);
        QCOMPARE(shared(0).bankHits.size(), std::size_t{1});
        QCOMPARE(shared(0).bankHits[0].lanes.size(), std::size_t{32});
        QCOMPARE(shared(1, 1).conflictDegree, 1); // bytes within words: broadcast
        QCOMPARE(shared(1, 1).banksUsed, 8);
        QCOMPARE(shared(1, 8).conflictDegree, 2); // 256 bytes need two wavefronts
        const auto f = shared(32);
        QCOMPARE(f.space, MemoryAccessFrame::Space::Shared);
        QCOMPARE(f.lanes[3].bank, 0);
        QCOMPARE(f.lanes[3].word, std::uint64_t{96});
        QCOMPARE(f.bankHits[3].row, std::uint64_t{3});
        QVERIFY(f.lanes[3].tip.find("bank 0 (32 distinct words") != std::string::npos);
    }
    void expressionIndices() {
        const auto e = Expression::parse("a[threadIdx.x * 33]");
        const auto lanes = MemoryAccessModel::fromExpression(e, ExprEnv{});
        QCOMPARE(lanes[2].index, 66);
        QCOMPARE(MemoryAccessModel::shared(lanes, {"a", 4, 0}, "t", "ld").conflictDegree, 1);
        ExprEnv w1;
        w1.threadIdx.x = 32;
        w1.warp = 1;
        QCOMPARE(MemoryAccessModel::fromExpression(Expression::parse("threadIdx.x"), w1)[0].index,
                 32);
    }
    void inactiveLanesAndErrors() {
        auto lanes = MemoryAccessModel::strided(32);
        for (int i = 1; i < 32; ++i)
            lanes[static_cast<std::size_t>(i)].active = false;
        QCOMPARE(MemoryAccessModel::global(lanes, {}, "t", "ld").sectorsPerRequest, 1.0);
        QCOMPARE(MemoryAccessModel::shared(lanes, {}, "t", "ld").banksUsed, 1);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, global(-1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, global(1, 0, 17));
    }
};

QTEST_APPLESS_MAIN(TestMemoryAccessModel)
#include "test_memory_access_model.moc"
