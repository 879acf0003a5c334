// Waves of blocks and the round-robin dispatch snapshots.
#include "gpu/wave_model.h"

#include <QtTest>
#include <set>
#include <stdexcept>

using namespace wb;

class TestWaveModel : public QObject {
    Q_OBJECT
private slots:
    void summary() {
        // H100: 132 SMs × 8 blocks = 1,056 blocks per wave.
        const WaveSummary one = waveSummary(1000, 132, 8);
        QCOMPARE(one.slotsPerWave, 1056);
        QCOMPARE(one.waves, 1);
        QCOMPARE(one.tailUtilization, 1000.0 / 1056.0);
        const WaveSummary two = waveSummary(2000, 132, 8);
        QCOMPARE(two.waves, 2);
        QCOMPARE(two.tailUtilization, 944.0 / 1056.0);
        QCOMPARE(waveSummary(1056, 132, 8).tailUtilization, 1.0);
        const WaveSummary tail = waveSummary(1057, 132, 8);
        QCOMPARE(tail.waves, 2);
        QCOMPARE(tail.tailUtilization, 1.0 / 1056.0);
        QCOMPARE(waveSummary(2147483647, 132, 32).waves, 508401); // ⌈(2^31 − 1) / 4224⌉
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, waveSummary(100, 132, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, waveSummary(0, 132, 8));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, waveSummary(10, 0, 8));
    }

    void roundRobinDispatch() {
        const WaveModel m(300, 132, 2, 8); // 264 per wave: 2 waves, 36 blocks in the tail
        QCOMPARE(m.summary().waves, 2);
        QCOMPARE(m.smOf(0), 0);
        QCOMPARE(m.smOf(131), 131);
        QCOMPARE(m.smOf(132), 0);
        QCOMPARE(m.smOf(264), 0);
        QCOMPARE(m.waveOf(263), 1);
        QCOMPARE(m.waveOf(264), 2);

        const SmGridFrame w1 = m.waveFrame(1);
        QCOMPARE(w1.sms.size(), std::size_t(132));
        QCOMPARE(w1.sms[0].blocks, (std::vector<int>{0, 132}));
        QCOMPARE(w1.sms[131].blocks, (std::vector<int>{131, 263}));
        QCOMPARE(w1.sms[0].subPartitionWarps, (std::vector<int>{4, 4, 4, 4}));
        QVERIFY(w1.sms[0].tip.find("16 of 64 warps") != std::string::npos);
        QCOMPARE(w1.blocksDone, 0);
        QCOMPARE(w1.wave, 1);
        QCOMPARE(w1.waves, 2);
        QCOMPARE(w1.maxBlocksPerSm, 2);
        QCOMPARE(w1.tailUtilization, 36.0 / 264.0);

        const SmGridFrame w2 = m.waveFrame(2);
        QCOMPARE(w2.blocksDone, 264);
        QCOMPARE(w2.sms[0].blocks, (std::vector<int>{264}));
        QCOMPARE(w2.sms[35].blocks, (std::vector<int>{299}));
        QVERIFY(w2.sms[36].blocks.empty());
        QCOMPARE(w2.sms[36].subPartitionWarps, (std::vector<int>{0, 0, 0, 0}));
        QCOMPARE(w2.sms[0].subPartitionWarps, (std::vector<int>{2, 2, 2, 2}));

        // Every block runs exactly once.
        std::set<int> seen;
        for (int w = 1; w <= 2; ++w)
            for (const auto& sm : m.waveFrame(w).sms)
                for (int b : sm.blocks)
                    QVERIFY(seen.insert(b).second);
        QCOMPARE(seen.size(), std::size_t(300));

        QVERIFY(m.waveFrame(0).sms[0].blocks.empty());
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, m.waveFrame(3));
    }

    void unevenWarps() {
        const WaveModel m(1, 4, 1, 3); // one 3-warp block on SM 0
        QCOMPARE(m.waveFrame(1).sms[0].subPartitionWarps, (std::vector<int>{1, 1, 1, 0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, WaveModel(1, 4, 1, 0));
    }

    void frameAtTime() {
        const WaveModel m(300, 132, 2, 8);
        QCOMPARE(m.frameAt(0.0).wave, 1);
        QCOMPARE(m.frameAt(0.49).wave, 1);
        QCOMPARE(m.frameAt(0.5).wave, 2);
        QCOMPARE(m.frameAt(1.0).wave, 2);
        QCOMPARE(m.frameAt(7.0).wave, 2);
        QCOMPARE(m.frameAt(0.3), m.frameAt(0.3));
        QCOMPARE(m.frameAt(0.3), m.waveFrame(1));
    }
};

QTEST_APPLESS_MAIN(TestWaveModel)
#include "test_wave_model.moc"
