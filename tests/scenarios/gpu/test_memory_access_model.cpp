// Sectors, lines and banks of one warp access against FACTS.md §13.
#include "gpu/memory_access_model.h"

#include <QtTest>
#include <map>
#include <set>

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
        QCOMPARE(shared(1).wavefronts, 1);
        QCOMPARE(shared(1).banksUsed, 32);
        QCOMPARE(shared(2).wavefronts, 2);
        QCOMPARE(shared(2).banksUsed, 16);
        QCOMPARE(shared(32).wavefronts, 32);
        QCOMPARE(shared(32).banksUsed, 1);
        QCOMPARE(shared(33).wavefronts, 1);
        QCOMPARE(shared(0).wavefronts, 1); // broadcast
        QCOMPARE(shared(0).banksUsed, 1);
        QCOMPARE(shared(0).bankHits.size(), std::size_t{1});
        QCOMPARE(shared(0).bankHits[0].lanes.size(), std::size_t{32});
        QCOMPARE(shared(1, 1).wavefronts, 1); // bytes within words: broadcast
        QCOMPARE(shared(1, 1).banksUsed, 8);
        QCOMPARE(shared(1, 8).wavefronts, 2); // 256 bytes need two wavefronts
        QCOMPARE(shared(1, 8).minWavefronts, 2);
        QCOMPARE(extraWavefronts(shared(1, 8)), 0); // … and that is no conflict
        const auto f = shared(32);
        QCOMPARE(f.space, MemoryAccessFrame::Space::Shared);
        QCOMPARE(f.lanes[3].bank, 0);
        QCOMPARE(f.lanes[3].word, std::uint64_t{96});
        QCOMPARE(f.bankHits[3].row, std::uint64_t{3});
        QVERIFY(f.lanes[3].tip.find("bank 0 (32 distinct words") != std::string::npos);
    }
    // Wavefronts are the most distinct words one bank serves; bank conflicts are the ones
    // beyond ⌈bytes requested / 128⌉, whatever the element size.
    void wavefrontsAndConflictsByElementSize() {
        struct Case {
            std::int64_t stride;
            int elem;
            std::uint64_t bytes;
            int wavefronts, minimum;
        };
        for (const Case& c : {Case{1, 1, 32, 1, 1}, Case{1, 2, 64, 1, 1}, Case{1, 4, 128, 1, 1},
                              Case{1, 8, 256, 2, 2}, Case{2, 8, 256, 4, 2}, Case{16, 8, 256, 32, 2},
                              Case{32, 4, 128, 32, 1}, Case{128, 1, 32, 32, 1},
                              Case{64, 2, 64, 32, 1}, Case{0, 8, 8, 1, 1}, Case{8, 1, 32, 2, 1}}) {
            const auto f = shared(c.stride, c.elem);
            const QByteArray what = QByteArray::number(c.elem) + " B, stride " +
                                    QByteArray::number(static_cast<qlonglong>(c.stride));
            QVERIFY2(f.bytesRequested == c.bytes, what);
            QVERIFY2(f.wavefronts == c.wavefronts, what);
            QVERIFY2(f.minWavefronts == c.minimum, what);
        }
        // Against the formula for every stride and element size: the most distinct 4-byte words
        // in one bank, and never fewer than the bytes need.
        for (const int elem : {1, 2, 4, 8}) {
            for (std::int64_t stride = 0; stride <= 64; ++stride) {
                const auto f = shared(stride, elem);
                std::map<std::uint64_t, std::set<std::uint64_t>> wordsInBank;
                std::set<std::uint64_t> bytes;
                for (std::int64_t lane = 0; lane < 32; ++lane) {
                    const auto at = static_cast<std::uint64_t>(lane * stride * elem);
                    for (std::uint64_t b = at; b < at + static_cast<std::uint64_t>(elem); ++b) {
                        bytes.insert(b);
                        wordsInBank[(b / 4) % 32].insert(b / 4);
                    }
                }
                std::size_t most = 0;
                for (const auto& [bank, words] : wordsInBank)
                    most = std::max(most, words.size());
                QCOMPARE(f.bytesRequested, static_cast<std::uint64_t>(bytes.size()));
                QCOMPARE(f.wavefronts, static_cast<int>(most));
                QCOMPARE(f.minWavefronts,
                         static_cast<int>(std::max<std::size_t>(1, (bytes.size() + 127) / 128)));
                QVERIFY(extraWavefronts(f) >= 0);
            }
        }
    }
    void expressionIndices() {
        const auto e = Expression::parse("a[threadIdx.x * 33]");
        const auto lanes = MemoryAccessModel::fromExpression(e, ExprEnv{});
        QCOMPARE(lanes[2].index, 66);
        QCOMPARE(MemoryAccessModel::shared(lanes, {"a", 4, 0}, "t", "ld").wavefronts, 1);
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
