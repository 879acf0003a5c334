// NCCL_DEBUG=INFO logs: the 2.27.7 corpus log (2× A100, NVLink, nccl-tests run alongside) and
// small hand-written logs in the other syntaxes the corpus README lists.
#include "import/importers.h"
#include "import/nccl_tests_importer.h"
#include "log_import_helpers.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using namespace wbtest;

namespace {
const char* kLog = "nccl2.27.7_2xA100pcie_nvlink_roce_subsys_all.log.gz";
}

class TestNcclLogImporter : public QObject {
    Q_OBJECT

private slots:
    // Expected values counted once with grep/python3 over the plain log:
    // - grep -c "NCCL INFO Channel [0-9]*/24 : " gives 24 ring orders, all "0 1";
    // - the unique "Channel NN/N : a[a] -> b[b] via ..." lines are 48, all via
    //   "P2P/direct pointer/read";
    // - unique (channel, rank, parent, children) over "Trees [c] ..." and "Tree c : ..." are 48;
    // - grep -c "NCCL INFO AllReduce: opCount" gives 990;
    // - "ncclCommInitRankConfig comm ... rank 0|1 nranks 2": 2 communicators.
    void the227LogRingsAndTransports() {
        const auto parsed = parseFile(wb::ncclLogImporter(), bundledFile(kLog));
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        // The file also holds the nccl-tests table, so both parts are reported.
        QCOMPARE(r->format, std::string("nccl-tests+nccl-log"));
        QVERIFY(r->log);
        const auto& log = *r->log;
        QCOMPARE(log.nranks.value_or(-1), 2);
        QCOMPARE(log.nranksSource, std::string("comm"));
        QCOMPARE(log.channels, 24);
        QCOMPARE(log.rings.size(), std::size_t(24));
        for (const auto& ring : log.rings)
            QCOMPARE(ring.ranks, (std::vector<int>{0, 1}));
        QCOMPARE(log.edges.size(), std::size_t(48));
        for (const auto& e : log.edges)
            QCOMPARE(e.transport, std::string("P2P/direct"));
        QCOMPARE(log.trees.size(), std::size_t(48));
        QCOMPARE(log.trees[0].channel, 0);
        QCOMPARE(log.trees[0].rank, 0);
        QCOMPARE(log.trees[0].parent, -1);
        QCOMPARE(log.trees[0].children, (std::vector<int>{1}));
        QCOMPARE(log.comms.size(), std::size_t(2));
        QCOMPARE(log.comms[1].busId, std::string("65000"));
        QCOMPARE(log.collectives.at("AllReduce"), std::uint64_t(990));
        QCOMPARE(log.network, std::string("IB"));
        QCOMPARE(log.nvlsChannels.value_or(-1), 0);
        QCOMPARE(log.version, std::string("2.27.7+cuda13.0"));
        QCOMPARE(log.garbledLines, std::uint64_t(0));
        QVERIFY(log.complete);
        const auto s = r->summary();
        QCOMPARE(s["log"]["transports"]["P2P/direct"].get<int>(), 48);
        QCOMPARE(s["log"]["rings"].size(), std::size_t(24));
    }

    void oldSyntaxAndTransports() {
        const std::string log =
            "h1:10:11 [0] NCCL INFO Ring 00 : 0 1 2 3\n"
            "h1:10:11 [0] NCCL INFO Ring 00 : 3 -> 0 [receive] via NET/IB/0/GDRDMA\n"
            "h1:10:11 [0] NCCL INFO Ring 00 : 0[0] -> 1[1] via P2P/IPC\n"
            "h1:10:12 [1] NCCL INFO Channel 01/02 : 1[1] -> 2[2] via SHM/direct/direct\n"
            "h2:20:21 [0] NCCL INFO Channel 01/0 : 2[0] -> 3[1] via NET/Socket/0\n"
            "h2:20:21 [0] NCCL INFO Trees [0] 4->5->6/-1/-1 [1] -1->5->-1/-1/-1\n"
            "h2:20:21 [0] NCCL INFO NVLS multicast support is not available on dev 0\n"
            "h2:20:21 [0] NCCL INFO Using network Socket\n";
        const auto parsed = parseBytes(wb::ncclLogImporter(), log);
        const auto* r = as<wb::NcclLogResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->format, std::string("nccl-log"));
        QCOMPARE(r->log.rings.size(), std::size_t(1));
        QCOMPARE(r->log.edges.size(), std::size_t(4));
        QCOMPARE(r->log.edges[0].transport, std::string("NET/IB/GDRDMA"));
        QCOMPARE(r->log.edges[1].transport, std::string("P2P/IPC"));
        QCOMPARE(r->log.edges[2].transport, std::string("SHM"));
        QCOMPARE(r->log.edges[3].transport, std::string("NET/Socket"));
        // Old tree syntax: parent->rank->children.
        QCOMPARE(r->log.trees[0].parent, 4);
        QCOMPARE(r->log.trees[0].rank, 5);
        QCOMPARE(r->log.trees[0].children, (std::vector<int>{6}));
        QCOMPARE(*r->log.nvlsAvailable, false);
        QCOMPARE(r->log.network, std::string("Socket"));
        // No nranks line: the highest rank shown (6, a tree child) + 1.
        QCOMPARE(r->log.nranks.value_or(-1), 7);
        QCOMPARE(r->log.nranksSource, std::string("inferred"));
    }

    void prefixesAndGarbledLinesSkipped() {
        const std::string log =
            "[1,0]<stdout>:h1:10:11 [0] NCCL INFO Channel 00/01 : 0 1\n"
            "0: h1:10:12 [1] NCCL INFO comm 0x1 rank 1 nranks 2 cudaDev 1 busId 2000 - Init "
            "COMPLETE\n"
            "h1:10:11 [0] NCCL INFO Channel 00/0 : 0[0] -h1:10:12 [1] NCCL INFO Channel 00/0 "
            ": 1[1] -> 0[0] via P2P/IPC\n"
            "h1:10:11 [0] NCCL INFO Trees [0] 1/-1/-1->0->\n"
            "h1:10:11 [0] NCC\n"
            "application output line\n";
        const auto parsed = parseBytes(wb::ncclLogImporter(), log);
        const auto* r = as<wb::NcclLogResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->log.rings.size(), std::size_t(1));
        QCOMPARE(r->log.comms.size(), std::size_t(1));
        QCOMPARE(r->log.nranks.value_or(-1), 2);
        QCOMPARE(r->log.edges.size(), std::size_t(1)); // the second half of the spliced line
        QCOMPARE(r->log.edges[0].from, 1);
        // The spliced first half and the cut Trees line are garbled; "NCC" has no level.
        QCOMPARE(r->log.garbledLines, std::uint64_t(3));
    }

    // A log may legitimately end anywhere (a crashed job): the part read is reported, and a
    // last line without its end is flagged as incomplete.
    void truncatedReportsWhatWasRead() {
        const std::string full = slurp(bundledFile(kLog));
        const std::size_t cut = full.find("Channel 10/24 : 0 1") + 9;
        const auto parsed = parseBytes(wb::ncclLogImporter(), full.substr(0, cut));
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QVERIFY(r->log);
        QCOMPARE(r->log->rings.size(), std::size_t(10)); // channels 00..09 before the cut
        QVERIFY(!r->log->complete);
        QVERIFY(!r->complete); // the table never started
        QCOMPARE(r->rows.size(), std::size_t(0));
    }

    void junkFails() {
        std::string junk;
        for (int i = 0; i < 100000; ++i)
            junk.push_back(static_cast<char>((i * 7919 + 13) % 256));
        QCOMPARE(wb::ncclLogImporter().probe(junk, "x.log"), 0.0);
        const auto parsed = parseBytes(wb::ncclLogImporter(), junk);
        QVERIFY(std::holds_alternative<wb::ImportError>(parsed));
        QVERIFY(!errorText(parsed).empty());
        QVERIFY(std::holds_alternative<wb::ImportError>(
            parseBytes(wb::ncclLogImporter(), "hello\nworld\n")));
    }

    void gzipAndPlainReadTheSame() {
        // The bundled log is gzip-compressed; a plain copy of its bytes must import to the same
        // result (gzip's chunked reads against one plain read).
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string plain = dir.filePath("nccl.log").toStdString();
        {
            std::ofstream out(plain, std::ios::binary);
            out << slurp(bundledFile(kLog));
        }
        const auto parsed = parseFile(wb::ncclLogImporter(), plain);
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r || !r->log)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->log->edges.size(), std::size_t(48));
        const auto gz = parseFile(wb::ncclLogImporter(), bundledFile(kLog));
        const auto* g = as<wb::NcclTestsResult>(gz);
        if (!g)
            QFAIL(errorText(gz).c_str());
        auto a = r->summary(), b = g->summary();
        a.erase("path");
        b.erase("path");
        QCOMPARE(a.dump(), b.dump());
    }
};

QTEST_APPLESS_MAIN(TestNcclLogImporter)
#include "test_nccl_log_importer.moc"
