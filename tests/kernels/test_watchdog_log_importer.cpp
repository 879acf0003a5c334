// PyTorch's NCCL watchdog output: the 2.4+ form with "[rankN]:" prefixes and progress lines
// (pytorch_watchdog_torchrun_8ranks.log) and the 1.13 form mixed into an NCCL INFO log
// (pytorch_watchdog_1.13_with_nccl_info.log), both written for these tests after the lines
// quoted in public issues.
#include "import/import_registry.h"
#include "import/importers.h"
#include "import/watchdog_log_importer.h"
#include "log_import_helpers.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <fstream>

using namespace wbtest;

class TestWatchdogLogImporter : public QObject {
    Q_OBJECT

private slots:
    // Seven of eight ranks time out; rank 3 is at SeqNum 1579 while the others reached 1580,
    // rank 6 printed nothing, rank 0 also reports its next collective (1581), and the watchdog
    // thread's exception repeats rank 0's 1580 line.
    void torchrunEightRanks() {
        const auto parsed = parseFile(wb::pytorchWatchdogImporter(),
                                      bundledFile("pytorch_watchdog_torchrun_8ranks.log"));
        const auto* r = as<wb::WatchdogResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->format, std::string("pytorch-watchdog"));
        QCOMPARE(r->timeouts.size(), std::size_t(8));
        const auto& first = r->timeouts.front();
        QCOMPARE(first.rank, 0);
        QCOMPARE(first.seq.value_or(-1), std::int64_t(1580));
        QCOMPARE(first.op, std::string("ALLREDUCE"));
        QCOMPARE(first.numelIn.value_or(-1), std::int64_t(466119168));
        QCOMPARE(first.timeoutMs.value_or(-1), std::int64_t(600000));
        QCOMPARE(first.ranForMs.value_or(-1), std::int64_t(600060));
        QCOMPARE(first.line, std::uint64_t(3));
        QCOMPARE(r->progress.at(3).lastCompleted.value_or(-1), std::int64_t(1578));
        QCOMPARE(r->progress.at(3).lastEnqueued.value_or(-1), std::int64_t(1579));
        const auto a = r->analyse();
        QCOMPARE(a.ranks.size(), std::size_t(7));
        QCOMPARE(a.ranks[0].seq.value_or(-1), std::int64_t(1580)); // its lowest, not 1581
        QCOMPARE(a.highestSeq.value_or(-1), std::int64_t(1580));
        QCOMPARE(a.suspects, (std::vector<int>{3}));
        QCOMPARE(a.silentRanks, (std::vector<int>{6}));
        QVERIFY(!r->log);
        const auto s = r->summary();
        QCOMPARE(s["suspects"], nlohmann::ordered_json({3}));
        QCOMPARE(s["stuck_at"].size(), std::size_t(2));
        QCOMPARE(s["stuck_at"][0]["seq"].get<int>(), 1579);
        QCOMPARE(s["stuck_at"][0]["ranks"], nlohmann::ordered_json({3}));
        QCOMPARE(s["stuck_at"][1]["ranks"], nlohmann::ordered_json({0, 1, 2, 4, 5, 7}));
        QCOMPARE(s["ranks"][3]["last_completed"].get<int>(), 1578);
        QCOMPARE(s["silent_ranks"], nlohmann::ordered_json({6}));
    }

    // The older form has no "[rankN]:" prefix and no Numel fields; NCCL INFO lines around it
    // are read as a log (its WARN listed first).
    void oldFormInsideNcclLog() {
        const std::string file = bundledFile("pytorch_watchdog_1.13_with_nccl_info.log");
        const auto parsed = parseFile(wb::pytorchWatchdogImporter(), file);
        const auto* r = as<wb::WatchdogResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->timeouts.size(), std::size_t(4)); // the what() repeat is not counted
        QVERIFY(!r->timeouts[0].numelIn);
        QCOMPARE(r->timeouts[0].timeoutMs.value_or(-1), std::int64_t(1800000));
        const auto a = r->analyse();
        QCOMPARE(a.suspects, (std::vector<int>{2}));
        QVERIFY(a.silentRanks.empty());
        QVERIFY(r->log);
        QCOMPARE(r->log->nranks.value_or(-1), 4);
        QCOMPARE(r->log->warnLines, std::uint64_t(1));
        const auto s = r->summary();
        auto key = s.begin();
        ++key;
        ++key;
        QCOMPARE(key.key(), std::string("warnings"));
        QVERIFY(!s["log"].contains("warnings"));
        // The registry picks the watchdog over the NCCL log it is mixed into.
        QVERIFY(wb::ncclLogImporter().probe(slurp(file), file) > 0.5);
        const auto res = wb::importFile(file);
        QVERIFY2(std::holds_alternative<std::unique_ptr<wb::ImportResult>>(res),
                 errorText(res).c_str());
        QCOMPARE(std::get<0>(res)->format, std::string("pytorch-watchdog"));
    }

    // A long NCCL log whose timeouts come after the 64 KiB the probes read: the probes say
    // "NCCL log", the reader still finds every timeout and opens it as a watchdog log.
    void timeoutsPastTheProbedHead() {
        const std::string file = bundledFile("pytorch_watchdog_1.13_with_nccl_info.log");
        const std::string full = slurp(file);
        std::string info;
        for (int i = 0; info.size() < 100 * 1024; ++i)
            info += "node1:5120:5300 [0] NCCL INFO AllReduce: opCount " + std::to_string(i) +
                    " sendbuff 0x7f0 recvbuff 0x7f0 count 1024 datatype 7 op 0 root 0 comm "
                    "0x55d1c0a0 [nranks=4] stream 0x55d1\n";
        const std::string longLog = info + full;
        QTemporaryDir dir;
        const std::string path = dir.filePath("long.log").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            out << longLog;
        }
        QCOMPARE(wb::pytorchWatchdogImporter().probe(longLog.substr(0, 64 * 1024), path), 0.0);
        const auto res = wb::importFile(path);
        QVERIFY2(std::holds_alternative<std::unique_ptr<wb::ImportResult>>(res),
                 errorText(res).c_str());
        const auto* r = dynamic_cast<const wb::WatchdogResult*>(std::get<0>(res).get());
        QVERIFY(r);
        QCOMPARE(r->format, std::string("pytorch-watchdog"));
        const auto aloneParsed = parseFile(wb::pytorchWatchdogImporter(), file);
        const auto* alone = as<wb::WatchdogResult>(aloneParsed);
        QVERIFY(alone);
        QCOMPARE(r->timeouts.size(), alone->timeouts.size());
        QCOMPARE(r->analyse().suspects, alone->analyse().suspects);
        // The timeouts' line numbers count the lines before them.
        const auto before = static_cast<std::uint64_t>(std::count(info.begin(), info.end(), '\n'));
        QCOMPARE(r->timeouts[0].line, alone->timeouts[0].line + before);
        QVERIFY(r->log);
        QVERIFY(r->log->ncclLines > alone->log->ncclLines);
    }

    void withoutTimeoutsIsAnError() {
        const auto parsed = parseBytes(wb::pytorchWatchdogImporter(),
                                       "[E ProcessGroupNCCL.cpp:414] Some NCCL operations have "
                                       "failed or timed out.\nhello\n");
        const auto* e = std::get_if<wb::ImportError>(&parsed);
        if (!e)
            QFAIL("expected an ImportError");
        QVERIFY(e->message.find("Watchdog caught collective operation timeout") !=
                std::string::npos);
        QCOMPARE(e->line, std::uint64_t(2));
    }

    // Cut lines (a copy wrapped at the terminal's width) give what they hold, never a crash.
    void cutLinesAndJunk() {
        const std::string full = slurp(bundledFile("pytorch_watchdog_torchrun_8ranks.log"));
        for (std::size_t cut = 0; cut < full.size(); cut += 97)
            (void)parseBytes(wb::pytorchWatchdogImporter(), full.substr(0, cut));
        std::string junk;
        for (int i = 0; i < 70000; ++i)
            junk.push_back(static_cast<char>((i * 131 + 7) % 256));
        QCOMPARE(wb::pytorchWatchdogImporter().probe(junk, "x.log"), 0.0);
        QVERIFY(std::holds_alternative<wb::ImportError>(
            parseBytes(wb::pytorchWatchdogImporter(), junk)));
    }
};

QTEST_APPLESS_MAIN(TestWatchdogLogImporter)
#include "test_watchdog_log_importer.moc"
