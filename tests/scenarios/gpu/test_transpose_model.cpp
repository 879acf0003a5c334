// The cuda-samples transpose kernels as address arithmetic.
#include "gpu/transpose_model.h"

#include <QtTest>

using namespace wb;

namespace {
TransposeSummary summary(TransposeVariant v, int n = 1024, int elem = 4, int tile = 32,
                         int rows = 8) {
    return TransposeModel({n, v, elem, tile, rows}).summary();
}
} // namespace

class TestTransposeModel : public QObject {
    Q_OBJECT
private slots:
    void summaries() {
        const double n2 = 1024.0 * 1024.0;
        const auto copy = summary(TransposeVariant::Copy);
        QCOMPARE(copy.loadSectorsPerRequest, 4.0);
        QCOMPARE(copy.storeSectorsPerRequest, 4.0);
        QCOMPARE(copy.smemWorstWavefronts, 0);
        QCOMPARE(static_cast<double>(copy.l1l2Bytes), 2 * n2 * 4);
        QCOMPARE(copy.relativeTime, 1.0);
        QCOMPARE(copy.loadRequests, std::uint64_t{1024 * 1024 / 32});

        const auto naive = summary(TransposeVariant::Naive);
        QCOMPARE(naive.loadSectorsPerRequest, 4.0);
        QCOMPARE(naive.storeSectorsPerRequest, 32.0);
        QCOMPARE(naive.smemWorstWavefronts, 0);
        QCOMPARE(static_cast<double>(naive.l1l2Bytes), n2 * 4 + n2 * 32);
        QVERIFY(std::abs(naive.relativeTime - 4.5) < 1e-12);

        const auto tiled = summary(TransposeVariant::Tiled);
        QCOMPARE(tiled.loadSectorsPerRequest, 4.0);
        QCOMPARE(tiled.storeSectorsPerRequest, 4.0);
        QCOMPARE(tiled.smemWorstWavefronts, 32);
        QCOMPARE(static_cast<double>(tiled.l1l2Bytes), 2 * n2 * 4);
        // Per 32 × 32 tile: 32 conflict-free row stores + 32 column loads of 32 passes.
        QCOMPARE(tiled.smemWavefronts, std::uint64_t{1024} * (32 + 32 * 32));
        QVERIFY(tiled.relativeTime > 1.5 && tiled.relativeTime < naive.relativeTime);

        const auto padded = summary(TransposeVariant::Padded);
        QCOMPARE(padded.smemWorstWavefronts, 1);
        QCOMPARE(padded.smemExtraWavefronts, std::uint64_t{0});
        QCOMPARE(tiled.smemWorstExtraWavefronts, 31);
        QCOMPARE(padded.smemWavefronts, std::uint64_t{1024} * 64);
        QCOMPARE(static_cast<double>(padded.l1l2Bytes), 2 * n2 * 4);
        QCOMPARE(padded.relativeTime, 1.0);
    }
    void otherShapes() {
        // 8-byte elements: a 32-lane row is 256 B = 8 sectors; the naive store still 32.
        const auto naive8 = summary(TransposeVariant::Naive, 256, 8);
        QCOMPARE(naive8.loadSectorsPerRequest, 8.0);
        QCOMPARE(naive8.storeSectorsPerRequest, 32.0);
        // Tile 16: a warp covers two 16-wide rows of the tile.
        const auto tiled16 = summary(TransposeVariant::Tiled, 256, 4, 16, 4);
        QCOMPARE(tiled16.loadSectorsPerRequest, 4.0);
        // Column read: word tx·16 + ty puts even tx in banks ty and odd tx in banks 16 + ty,
        // 8 distinct words each.
        QCOMPARE(tiled16.smemWorstWavefronts, 8);
        // Padding to 17 leaves a 2-way conflict: a warp spans two tile rows, and the column
        // read's word 15·17 + 1 = 256 (tx 15, ty 1) shares bank 0 with word 0 (tx 0, ty 0).
        QCOMPARE(summary(TransposeVariant::Padded, 256, 4, 16, 4).smemWorstWavefronts, 2);
        // Rows of 40 one-byte elements are not sector aligned: counted block by block.
        const auto odd = summary(TransposeVariant::Copy, 40, 1, 8, 8);
        QVERIFY(odd.l1l2Bytes >= 2u * 40u * 40u);
    }
    // The column read of the tile by element size: wavefronts beyond ⌈bytes / 128⌉ are the
    // conflicts. Unpadded, lane tx reads word (tx·32 + c)·e/4, so 4-byte elements put all 32
    // lanes in one bank; padded, 8-byte elements need two wavefronts for 256 B and take two.
    void columnReadConflictsByElementSize() {
        struct Case {
            TransposeVariant variant;
            int elem;
            int wavefronts, minimum;
        };
        for (const Case& c :
             {Case{TransposeVariant::Tiled, 1, 8, 1}, Case{TransposeVariant::Tiled, 2, 16, 1},
              Case{TransposeVariant::Tiled, 4, 32, 1}, Case{TransposeVariant::Tiled, 8, 32, 2},
              Case{TransposeVariant::Padded, 4, 1, 1}, Case{TransposeVariant::Padded, 8, 2, 2}}) {
            const auto column = TransposeModel({1024, c.variant, c.elem, 32, 8}).warpFrames()[2];
            const QByteArray what = QByteArray::number(c.elem) + " B";
            QVERIFY2(column.wavefronts == c.wavefronts, what);
            QVERIFY2(column.minWavefronts == c.minimum, what);
            QVERIFY2(column.bytesRequested == std::uint64_t(32) * std::uint64_t(c.elem), what);
        }
        const auto padded8 = summary(TransposeVariant::Padded, 1024, 8);
        QCOMPARE(padded8.smemWorstWavefronts, 2);
        QCOMPARE(padded8.smemWorstExtraWavefronts, 0);
        QCOMPARE(padded8.smemExtraWavefronts, std::uint64_t{0});
        const auto tiled8 = summary(TransposeVariant::Tiled, 1024, 8);
        QCOMPARE(tiled8.smemWorstExtraWavefronts, 30);
        // Per 32 × 32 tile: 32 column reads of 30 extra wavefronts each.
        QCOMPARE(tiled8.smemExtraWavefronts, std::uint64_t{32 * 32} * 32 * 30);
    }
    void warpFrames() {
        const TransposeModel m({1024, TransposeVariant::Tiled, 4, 32, 8});
        const auto frames = m.warpFrames(0, 0, 0, 0);
        QCOMPARE(frames.size(), std::size_t{4});
        QCOMPARE(frames[0].instruction, std::string("ld.global.f32"));
        QCOMPARE(frames[1].instruction, std::string("st.shared.f32"));
        QCOMPARE(frames[2].instruction, std::string("ld.shared.f32"));
        QCOMPARE(frames[3].instruction, std::string("st.global.f32"));
        QCOMPARE(frames[0].sectorsPerRequest, 4.0);
        QCOMPARE(frames[1].wavefronts, 1);
        QCOMPARE(frames[2].wavefronts, 32);
        QCOMPARE(frames[3].sectorsPerRequest, 4.0);
        QCOMPARE(frames[2].title,
                 std::string("tiled transpose · load tile[threadIdx.x][threadIdx.y]"));
        QVERIFY(m.warpFrames(0, 0, 0, 1)[2].title.find("tile[threadIdx.x][threadIdx.y + 8]") !=
                std::string::npos);
        // Warp 1 at iteration 1 reads row 1 + 8 of the block.
        const auto f = m.warpFrames(0, 0, 1, 1);
        QCOMPARE(f[0].lanes[0].address, std::uint64_t{9 * 1024 * 4});
        const TransposeModel naive({1024, TransposeVariant::Naive, 4, 32, 8});
        const auto nf = naive.warpFrames(1, 0, 0, 0);
        QCOMPARE(nf.size(), std::size_t{2});
        QCOMPARE(nf[1].sectorsPerRequest, 32.0);
        QVERIFY(nf[1].lanes[1].tip.find("odata[33792]") != std::string::npos);
        QCOMPARE(m.warpFrames(), m.warpFrames());
    }
    void validation() {
        auto message = [](TransposeConfig c) {
            try {
                TransposeModel m(c);
            } catch (const std::invalid_argument& e) {
                return std::string(e.what());
            }
            return std::string();
        };
        QVERIFY(message({1000, TransposeVariant::Naive, 4, 32, 8}).find("multiple") !=
                std::string::npos);
        QVERIFY(message({16, TransposeVariant::Naive, 4, 8, 8}).find("between 32") !=
                std::string::npos);
        QVERIFY(message({1024, TransposeVariant::Naive, 4, 24, 8}).find("8, 16 or 32") !=
                std::string::npos);
        QVERIFY(message({1024, TransposeVariant::Naive, 4, 32, 5}).find("divide") !=
                std::string::npos);
        QVERIFY(message({1024, TransposeVariant::Naive, 3, 32, 8}).find("1, 2, 4 or 8") !=
                std::string::npos);
        QVERIFY(message({1024, TransposeVariant::Naive, 4, 32, 8}).empty());
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            TransposeModel({64, TransposeVariant::Copy, 4, 32, 8}).warpFrames(2, 0, 0, 0));
    }
};

QTEST_APPLESS_MAIN(TestTransposeModel)
#include "test_transpose_model.moc"
