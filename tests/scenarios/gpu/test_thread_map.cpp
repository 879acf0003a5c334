// A block's threads as lanes of warps on schedulers: thread t is lane t mod 32 of warp
// ⌊t/32⌋ (CUDA C++ Programming Guide, SIMT architecture), a partial last warp keeps idle lanes,
// and warps reach schedulers by the same rule the SM grid counts with.
#include "gpu/thread_map.h"
#include "gpu/wave_model.h"

#include <QtTest>
#include <stdexcept>

using namespace wb;

class TestThreadMap : public QObject {
    Q_OBJECT
private slots:
    void everyThreadHasOneLane_data() {
        QTest::addColumn<int>("threads");
        for (const int t : {1, 31, 32, 33, 48, 100, 256, 1000, 1024})
            QTest::addRow("%d threads", t) << t;
    }
    void everyThreadHasOneLane() {
        QFETCH(int, threads);
        const ThreadMapFrame f = threadMapFrame(0, threads, 32, 4);
        QCOMPARE(static_cast<int>(f.warps.size()), (threads + 31) / 32);
        int covered = 0;
        for (const ThreadMapWarp& w : f.warps) {
            // Thread t sits in warp ⌊t/32⌋ at lane t mod 32: the warp's first thread is 32·w.
            QCOMPARE(w.firstThread, 32 * w.warp);
            QCOMPARE(w.firstThread, covered);
            QVERIFY(w.threads >= 1 && w.threads <= 32);
            QCOMPARE(w.scheduler, schedulerOfWarpSlot(w.warp, 4));
            covered += w.threads;
        }
        QCOMPARE(covered, threads);
        // Only the last warp may be partial, and the note says how many lanes idle.
        for (std::size_t i = 0; i + 1 < f.warps.size(); ++i)
            QCOMPARE(f.warps[i].threads, 32);
        const int idle = static_cast<int>(f.warps.size()) * 32 - threads;
        QCOMPARE(f.note.find("idle lane") != std::string::npos, idle > 0);
        if (idle > 0)
            QVERIFY(f.note.find(std::to_string(idle) +
                                (idle == 1 ? " idle lane:" : " idle lanes")) != std::string::npos);
    }

    void schedulersMatchTheSmGridCounts() {
        // The SM grid counts warps per scheduler with the same rule the map draws: one block of
        // 10 warps on an SM puts 3, 3, 2, 2 warps on its schedulers.
        const ThreadMapFrame f = threadMapFrame(0, 320, 32, 4);
        std::vector<int> perScheduler(4, 0);
        for (const ThreadMapWarp& w : f.warps)
            ++perScheduler[static_cast<std::size_t>(w.scheduler)];
        const SmGridFrame grid = smGridFrame(waveSummary(1, 1, 1), 1, {{0, 0}}, 10, 64, 4);
        QCOMPARE(grid.sms.at(0).subPartitionWarps, perScheduler);
        QCOMPARE(perScheduler, (std::vector<int>{3, 3, 2, 2}));
    }

    void titleCountsThreadsWarpsAndSchedulers() {
        QCOMPARE(threadMapFrame(0, 1, 32, 4).title,
                 std::string("Block 0: 1 thread → 1 warp of 32 lanes → 4 schedulers"));
        QCOMPARE(threadMapFrame(0, 256, 32, 4).title,
                 std::string("Block 0: 256 threads → 8 warps of 32 lanes → 4 schedulers"));
    }

    void rejectsNonsense() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, threadMapFrame(0, 0, 32, 4));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, threadMapFrame(0, 32, 0, 4));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, threadMapFrame(0, 32, 32, 0));
    }
};

QTEST_APPLESS_MAIN(TestThreadMap)
#include "test_thread_map.moc"
