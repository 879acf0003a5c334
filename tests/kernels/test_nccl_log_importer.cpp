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

    // NCCL 2.4 printed rings only as hops ("Ring 00 : 0[0] -> 1[1] via P2P/direct pointer");
    // the order is rebuilt by following each rank's next rank. Ring 01 runs backwards.
    void oldRingEdgesRebuildRings() {
        const auto parsed = parseFile(wb::ncclLogImporter(),
                                      bundledFile("nccl_log_2.4_single_node_ring_edges.log"));
        const auto* r = as<wb::NcclLogResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        const auto& log = r->log;
        QCOMPARE(log.edges.size(), std::size_t(8));
        QCOMPARE(log.rings.size(), std::size_t(2));
        QCOMPARE(log.rings[0].channel, 0);
        QCOMPARE(log.rings[0].ranks, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(log.rings[1].channel, 1);
        QCOMPARE(log.rings[1].ranks, (std::vector<int>{0, 3, 2, 1}));
        QCOMPARE(log.channels, 2);
        QVERIFY(log.ringProblems.empty());
        QCOMPARE(log.trees.size(), std::size_t(8)); // 2.4's parent->rank->children
        QCOMPARE(log.nranks.value_or(-1), 4);
        QCOMPARE(log.garbledLines, std::uint64_t(0));
        const auto s = r->summary();
        QCOMPARE(s["rings"].size(), std::size_t(2));
        QVERIFY(!s.contains("ring_problems"));
    }

    // One host's log of a two-host job: ranks 0-3 hand off to rank 4 over the network and the
    // log never says where rank 4 goes. The chain is reported, not closed by guessing.
    void brokenRingChainIsReported() {
        const auto parsed =
            parseFile(wb::ncclLogImporter(), bundledFile("nccl_log_2.6_two_nodes_node0_only.log"));
        const auto* r = as<wb::NcclLogResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        const auto& log = r->log;
        QCOMPARE(log.edges.size(), std::size_t(10));
        QVERIFY(log.rings.empty());
        QCOMPARE(log.ringProblems.size(), std::size_t(2));
        QCOMPARE(log.ringProblems[0],
                 std::string("ring 00: the chain 0 -> 1 -> 2 -> 3 -> 4 stops at rank 4: the log "
                             "shows no next rank for it"));
        // 2.5-2.6 trees "up|down": the first half is children->rank->parent.
        QCOMPARE(log.trees.size(), std::size_t(8));
        QCOMPARE(log.trees[0].rank, 0);
        QCOMPARE(log.trees[0].parent, -1);
        QCOMPARE(log.trees[0].children, (std::vector<int>{1, 4}));
        QCOMPARE(log.garbledLines, std::uint64_t(0));
        QCOMPARE(log.nranks.value_or(-1), 8);
        QCOMPARE(r->summary()["ring_problems"].size(), std::size_t(2));
    }

    // NCCL_GRAPH's "Ring 00 : prev -> rank -> next" lines rebuild a ring too; two next ranks
    // for one rank (two communicators on one channel) are a problem, not a guess.
    void ringNeighbourLinesAndConflicts() {
        std::string log;
        for (int r = 0; r < 4; ++r)
            log += "h:1:2 [" + std::to_string(r) +
                   "] NCCL INFO Ring 00 : " + std::to_string((r + 3) % 4) + " -> " +
                   std::to_string(r) + " -> " + std::to_string((r + 1) % 4) + "\n";
        log += "h:1:2 [0] NCCL INFO Ring 01 : 0[0] -> 1[1] via P2P/IPC\n"
               "h:1:2 [0] NCCL INFO Ring 01 : 0[0] -> 2[2] via P2P/IPC\n";
        const auto parsed = parseBytes(wb::ncclLogImporter(), log);
        const auto* r = as<wb::NcclLogResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->log.rings.size(), std::size_t(1));
        QCOMPARE(r->log.rings[0].ranks, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(r->log.ringProblems.size(), std::size_t(1));
        QVERIFY(r->log.ringProblems[0].find("ring 01: rank 0 has two next ranks, 1 and 2") == 0);
    }

    // NCCL 2.5-2.8 print WARN with its source location before the level; a WARN behind a
    // launcher tag without NCCL's header counts too, and PyTorch's "NCCL error in:" is listed.
    // The warnings come first in the summary, with their line numbers.
    void warnFormsAreCountedAndListedFirst() {
        const auto parsed =
            parseFile(wb::ncclLogImporter(), bundledFile("nccl_log_2.7_ibv_create_cq_warn.log"));
        const auto* r = as<wb::NcclLogResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        const auto& log = r->log;
        QCOMPARE(log.warnLines, std::uint64_t(3));
        QCOMPARE(log.garbledLines, std::uint64_t(0));
        QCOMPARE(log.warnings.size(), std::size_t(4));
        QCOMPARE(log.warnings[0].line, std::uint64_t(12));
        QCOMPARE(log.warnings[0].level, std::string("WARN"));
        QCOMPARE(log.warnings[0].text,
                 std::string("misc/ibvwrap.cc:268 Call to ibv_create_cq failed"));
        QCOMPARE(log.warnings[1].line, std::uint64_t(20));
        QCOMPARE(log.warnings[2].line, std::uint64_t(22));
        QCOMPARE(log.warnings[2].text, std::string("Cuda failure 'out of memory'"));
        QCOMPARE(log.warnings[3].level, std::string("error"));
        QCOMPARE(log.warnings[3].line, std::uint64_t(26));
        QVERIFY(log.warnings[3].text.rfind("RuntimeError: NCCL error in:", 0) == 0);
        QCOMPARE(log.rings.size(), std::size_t(2));
        const auto s = r->summary();
        auto key = s.begin();
        QCOMPARE((key++).key(), std::string("path"));
        QCOMPARE((key++).key(), std::string("format"));
        QCOMPARE(key.key(), std::string("warnings"));
        QCOMPARE(s["warnings"][0]["line"].get<int>(), 12);
        QCOMPARE(s["warn_lines"].get<int>(), 3);
    }

    // A log without warnings keeps today's summary: no "warnings" key, nothing moved.
    void cleanLogHasNoWarningsKey() {
        const auto parsed = parseFile(wb::ncclLogImporter(), bundledFile(kLog));
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        const auto s = r->summary();
        QVERIFY(!s.contains("warnings"));
        QVERIFY(!s["log"].contains("warnings"));
        QCOMPARE(s["log"]["warn_lines"].get<int>(), 0);
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
