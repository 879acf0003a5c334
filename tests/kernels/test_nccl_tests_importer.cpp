// nccl-tests tables: the AWS README tables (srun "0: " and OpenMPI "[1,0]<stdout>:" prefixes),
// the 2.27 log whose rows are split by NCCL INFO lines, and the old `error` column.
#include "import/import_registry.h"
#include "import/importers.h"
#include "import/nccl_tests_importer.h"
#include "log_import_helpers.h"

#include <QtTest>

using namespace wbtest;

class TestNcclTestsImporter : public QObject {
    Q_OBJECT

private slots:
    // Expected values: the prefix stripped with sed, then awk over lines whose first field is
    // an integer and that have 13 fields (count, first/last size, last out/in busbw).
    void awsTables_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("rows");
        QTest::addColumn<qint64>("first");
        QTest::addColumn<qint64>("last");
        QTest::addColumn<double>("lastOutBusbw");
        QTest::addColumn<double>("lastInBusbw");
        QTest::addColumn<bool>("complete"); // footer present
        QTest::newRow("p4de srun") << "aws_2x_p4de_a100_efa_allreduce_srun.txt" << 29 << qint64(8)
                                   << qint64(2147483648) << 78.33 << 78.33 << false;
        QTest::newRow("p5 srun") << "aws_2x_p5_h100_efa_allreduce_srun.txt" << 32 << qint64(8)
                                 << qint64(17179869184) << 487.09 << 487.26 << false;
        QTest::newRow("p5 mpirun") << "aws_2x_p5_eks_mpirun_prefixed_excerpt.txt" << 7 << qint64(0)
                                   << qint64(2147483648) << 437.79 << 437.89 << true;
    }
    void awsTables() {
        QFETCH(QString, file);
        QFETCH(int, rows);
        QFETCH(qint64, first);
        QFETCH(qint64, last);
        QFETCH(double, lastOutBusbw);
        QFETCH(double, lastInBusbw);
        QFETCH(bool, complete);
        const auto parsed = parseFile(wb::ncclTestsImporter(), bundledFile(file.toStdString()));
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->format, std::string("nccl-tests"));
        QCOMPARE(int(r->rows.size()), rows);
        QCOMPARE(r->rows.front().size, first);
        QCOMPARE(r->rows.back().size, last);
        QCOMPARE(r->rows.back().outOfPlace.busbw, lastOutBusbw);
        QCOMPARE(r->rows.back().inPlace.busbw, lastInBusbw);
        QCOMPARE(r->rows.back().type, std::string("float"));
        QCOMPARE(r->rows.back().redop, std::string("sum"));
        QCOMPARE(r->rows.back().root.value_or(0), std::int64_t(-1));
        QCOMPARE(r->rows.back().outOfPlace.wrong.value_or(-1), std::int64_t(0));
        QCOMPARE(r->complete, complete);
        QVERIFY(!r->nranks); // these excerpts show no "#  Rank" lines
        const auto s = r->summary();
        QCOMPARE(s["rows"].size(), std::size_t(rows));
        QVERIFY(!s.contains("nranks"));
    }

    void mpirunExcerptDetails() {
        const auto parsed = parseFile(wb::ncclTestsImporter(),
                                      bundledFile("aws_2x_p5_eks_mpirun_prefixed_excerpt.txt"));
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL("no result");
        QCOMPARE(r->skippedLines, std::uint64_t(1)); // the literal "..." elision
        QCOMPARE(*r->avgBusbw, 52.9753);
        QCOMPARE(*r->outOfBounds, std::int64_t(0));
        QCOMPARE(r->rows[1].outOfPlace.timeUs, 996.0); // 67108864 row
        QCOMPARE(r->rows[1].inPlace.timeUs, 1001.7);
    }

    // Rows of the 2.27 run are split by NCCL INFO lines (stdout is not line-buffered); the
    // python3 re-join (drop everything from "host:pid:tid [d] NCCL", concatenate tokens, 13
    // per row) gives 11 rows, 8388608 … 8589934592, first row 83.33/100.66 and 80.98/103.59.
    void splicedRowsInLog() {
        const auto parsed =
            parseFile(wb::ncclTestsImporter(),
                      bundledFile("nccl2.27.7_2xA100pcie_nvlink_roce_subsys_all.log.gz"));
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->format, std::string("nccl-tests+nccl-log"));
        QCOMPARE(r->rows.size(), std::size_t(11));
        QCOMPARE(r->rows.front().size, std::int64_t(8388608));
        QCOMPARE(r->rows.back().size, std::int64_t(8589934592));
        QCOMPARE(r->rows.front().outOfPlace.timeUs, 83.33);
        QCOMPARE(r->rows.front().outOfPlace.busbw, 100.66);
        QCOMPARE(r->rows.front().inPlace.timeUs, 80.98);
        QCOMPARE(r->rows.front().inPlace.busbw, 103.59);
        QCOMPARE(r->rows.back().inPlace.timeUs, 39657.0);
        QCOMPARE(r->nranks.value_or(-1), 2); // two "#  Rank" lines
        QCOMPARE(r->test, std::string("all_reduce_perf"));
        QCOMPARE(*r->avgBusbw, 178.078);
        QVERIFY(r->complete);
        const auto s = r->summary();
        QCOMPARE(s["nranks"].get<int>(), 2);
        QCOMPARE(s["log"]["channels"].get<int>(), 24);
    }

    void oldErrorColumnAndNA() {
        const std::string t =
            "# nThread 1 nGpus 4 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 5 "
            "iters: 20 validation: 1\n"
            "#   Rank  0 Pid  1 on h device  0 [0x1a] Tesla V100\n"
            "#   Rank  1 Pid  1 on h device  1 [0x1b] Tesla V100\n"
            "#       size         count    type   redop     time   algbw   busbw  error     "
            "time   algbw   busbw  error\n"
            "            8             2   float     sum    40.12    0.00    0.00  4e-07    "
            "39.00    0.00    0.00  0e+00\n"
            "[0]          16             4   float     sum    41.00    0.00    0.00    N/A    "
            "40.00    0.00    0.00    N/A\n"
            "# Out of bounds values : 0 OK\n"
            "# Avg bus bandwidth    : 0.001\n";
        const auto parsed = parseBytes(wb::ncclTestsImporter(), t);
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->rows.size(), std::size_t(2));
        QVERIFY(!r->rows[0].root);
        QCOMPARE(*r->rows[0].outOfPlace.error, 4e-07);
        QVERIFY(!r->rows[1].outOfPlace.error && !r->rows[1].outOfPlace.wrong);
        QCOMPARE(r->nranks.value_or(-1), 2);
        QVERIFY(r->complete);
    }

    // A table may be cut (job killed): the rows read are kept and `complete` is false; a
    // half-written last row is dropped.
    void truncatedKeepsRows() {
        const std::string full = slurp(bundledFile("aws_2x_p5_eks_mpirun_prefixed_excerpt.txt"));
        const std::size_t midRow = full.find("3608.0");
        const auto parsed = parseBytes(wb::ncclTestsImporter(), full.substr(0, midRow));
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->rows.size(), std::size_t(4)); // 0, 67108864, 134217728, 268435456
        QVERIFY(!r->complete);
        QVERIFY(!r->summary()["complete"].get<bool>());
    }

    void corruptedRowFails() {
        std::string bad = slurp(bundledFile("aws_2x_p4de_a100_efa_allreduce_srun.txt"));
        const auto pos = bad.find("47.58");
        bad.replace(pos, 5, "4x.58");
        const auto parsed = parseBytes(wb::ncclTestsImporter(), bad);
        const auto* e = std::get_if<wb::ImportError>(&parsed);
        if (!e)
            QFAIL("expected an ImportError");
        QCOMPARE(e->line, std::uint64_t(26)); // the 67108864 row
        QVERIFY(e->message.find("busbw") != std::string::npos);
        QVERIFY(e->byteOffset > 0 && e->byteOffset < pos);
    }

    // `-J` output, hand-written after nccl-tests' src/util.cu JSON writer (config/devices,
    // results with out_of_place/in_place objects, root printed as a padded string).
    void jsonOutput() {
        const std::string j = R"({"argv": ["all_reduce_perf"], "nccl_version": 22707,
          "config": {"nthreads": 1, "ngpus": 1, "minimum_bytes": 8, "maximum_bytes": 16,
            "devices": [{"rank": 0, "hostname": "h"}, {"rank": 1, "hostname": "h"}]},
          "results": [
            {"size": 8, "count": 2, "type": "float", "redop": "sum", "root": "    -1",
             "out_of_place": {"time": 10.5, "alg_bw": 0.0, "bus_bw": 0.01, "nwrong": 0},
             "in_place": {"time": 9.5, "alg_bw": 0.0, "bus_bw": 0.02, "nwrong": null},
             "actual_iterations": 20, "experiment_name": "all_reduce"},
            {"size": 17179869184, "count": 4294967296, "type": "float", "redop": "sum",
             "root": "    -1", "out_of_place": null,
             "in_place": {"time": 66109, "alg_bw": 259.87, "bus_bw": 487.26, "nwrong": 0}}],
          "out_of_bounds": {"count": 0, "okay": true},
          "average_bus_bandwidth": {"bandwidth": 52.9, "okay": "unchecked"}})";
        QVERIFY(wb::ncclTestsImporter().probe(j, "r.json") > 0.8);
        QCOMPARE(wb::ncclLogImporter().probe(j, "r.json"), 0.0);
        QCOMPARE(wb::ncuCsvImporter().probe(j, "r.json"), 0.0);
        const auto parsed = parseBytes(wb::ncclTestsImporter(), j);
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->rows.size(), std::size_t(2));
        QCOMPARE(r->rows[0].root.value_or(0), std::int64_t(-1));
        QCOMPARE(r->rows[0].outOfPlace.busbw, 0.01);
        QVERIFY(!r->rows[0].inPlace.wrong);
        QCOMPARE(r->rows[1].size, std::int64_t(17179869184));
        QCOMPARE(r->rows[1].inPlace.busbw, 487.26);
        QCOMPARE(r->nranks.value_or(-1), 2);
        QCOMPARE(*r->avgBusbw, 52.9);
        QVERIFY(r->complete);
        // A cut JSON document is an error with its byte offset.
        const auto cut = parseBytes(wb::ncclTestsImporter(), j.substr(0, 300));
        const auto* e = std::get_if<wb::ImportError>(&cut);
        if (!e)
            QFAIL("expected an ImportError");
        QVERIFY(e->byteOffset > 0);
    }

    // Newer builds add columns (#bitdiff, per-iteration stats): the time/algbw/busbw/#wrong
    // groups are found by name in the header.
    void extraColumns() {
        const std::string t =
            "#       size   count   type  redop  root   time  algbw  busbw #wrong #bitdiff   "
            "time  algbw  busbw #wrong #bitdiff\n"
            "           8       2  float    sum    -1   10.0   0.00   0.01      0        0   "
            "11.0   0.00   0.02      0        0\n";
        const auto parsed = parseBytes(wb::ncclTestsImporter(), t);
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->rows.size(), std::size_t(1));
        QCOMPARE(r->rows[0].inPlace.timeUs, 11.0);
        QCOMPARE(r->rows[0].inPlace.busbw, 0.02);
        QVERIFY(!r->complete);
    }

    // In a file that interleaves NCCL INFO lines a damaged row is skipped and counted; the
    // same damage in a plain table is an error (corruptedRowFails).
    void garbledRowInLogIsSkipped() {
        std::string log = slurp(bundledFile("nccl2.27.7_2xA100pcie_nvlink_roce_subsys_all.log.gz"));
        const auto pos = log.find("216.61  216.61");
        log.replace(pos, 6, "2x6.61");
        const auto parsed = parseBytes(wb::ncclTestsImporter(), log);
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->rows.size(), std::size_t(10));
        QCOMPARE(r->badRows, std::uint64_t(1));
    }

    // mpirun captured nccl-tests and NCCL_DEBUG=INFO together, with a logging wrapper's
    // "run(), common.cu:1083, " before every "# …" header line: both parts are read.
    void callSitePrefixedHeadersWithLog() {
        const std::string file = bundledFile("nccl_tests_mpirun_debug_callsite_prefix.txt");
        for (const auto& importer : {wb::ncclTestsImporter(), wb::ncclLogImporter()}) {
            const auto parsed = parseFile(importer, file);
            const auto* r = as<wb::NcclTestsResult>(parsed);
            if (!r)
                QFAIL(errorText(parsed).c_str());
            QCOMPARE(r->format, std::string("nccl-tests+nccl-log"));
            QCOMPARE(r->rows.size(), std::size_t(9));
            QCOMPARE(r->rows.front().size, std::int64_t(8));
            QCOMPARE(r->rows.back().size, std::int64_t(134217728));
            QCOMPARE(r->rows.back().outOfPlace.timeUs, 3386.0);
            QCOMPARE(r->rows.back().inPlace.busbw, 39.72);
            QCOMPARE(r->nranks.value_or(-1), 2);
            QCOMPARE(*r->avgBusbw, 12.251);
            QVERIFY(r->complete);
            QVERIFY(r->log);
            QCOMPARE(r->log->rings.size(), std::size_t(2));
            QCOMPARE(r->log->edges.size(), std::size_t(4));
            QCOMPARE(r->log->version, std::string("2.18.5+cuda12.2"));
        }
        const auto res = wb::importFile(file);
        QVERIFY2(std::holds_alternative<std::unique_ptr<wb::ImportResult>>(res),
                 errorText(res).c_str());
        QCOMPARE(std::get<0>(res)->format, std::string("nccl-tests+nccl-log"));
    }

    // A WARN in a mixed file: listed first in the file's summary, not inside "log".
    void mixedFileWarningsFirst() {
        std::string t = slurp(bundledFile("nccl_tests_mpirun_debug_callsite_prefix.txt"));
        t += "[1,1]<stdout>:p5-node-0:10524:10594 [1] transport/net_socket.cc:474 NCCL WARN "
             "NET/Socket : peer 10.1.0.6<47823> message truncated\n";
        const auto parsed = parseBytes(wb::ncclTestsImporter(), t);
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        const auto s = r->summary();
        auto key = s.begin();
        ++key;
        ++key;
        QCOMPARE(key.key(), std::string("warnings"));
        QCOMPARE(s["warnings"].size(), std::size_t(1));
        QVERIFY(!s["log"].contains("warnings"));
        QCOMPARE(s["log"]["warn_lines"].get<int>(), 1);
    }

    // nccl-tests 2.0: rank lines without Group, no root column, an `error` column with N/A and
    // 0e+00, redop "none", a size-0 row, an NCCL INFO line between header and rows and the
    // footer printed without '#'.
    void oldAllGatherLayout() {
        const auto parsed = parseFile(wb::ncclTestsImporter(),
                                      bundledFile("nccl_tests_2.0_all_gather_old_layout.txt"));
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->rows.size(), std::size_t(6));
        QCOMPARE(r->rows[0].size, std::int64_t(0));
        QVERIFY(!r->rows[0].outOfPlace.error && !r->rows[0].outOfPlace.wrong); // N/A
        QCOMPARE(r->rows[0].redop, std::string("none"));
        QVERIFY(!r->rows[0].root);
        QCOMPARE(*r->rows[1].outOfPlace.error, 0.0);
        QCOMPARE(r->rows[5].inPlace.busbw, 7.77);
        QCOMPARE(r->nranks.value_or(-1), 4);
        QCOMPARE(*r->avgBusbw, 2.22333);
        QCOMPARE(*r->outOfBounds, std::int64_t(0));
        QVERIFY(r->complete);
        QCOMPARE(r->format, std::string("nccl-tests+nccl-log")); // the Launch mode line
    }

    // A table pasted from its units line on: the first row gives the columns. Both the old
    // layout (redop, error) and the current one (redop, root, #wrong).
    void tablePastedFromUnitsLine_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("rows");
        QTest::addColumn<bool>("root");
        QTest::addColumn<bool>("errorColumn");
        QTest::newRow("2.0 all_gather")
            << "nccl_tests_2.0_all_gather_old_layout.txt" << 6 << false << true;
        QTest::newRow("p5 mpirun")
            << "aws_2x_p5_eks_mpirun_prefixed_excerpt.txt" << 7 << true << false;
    }
    void tablePastedFromUnitsLine() {
        QFETCH(QString, file);
        QFETCH(int, rows);
        QFETCH(bool, root);
        QFETCH(bool, errorColumn);
        const std::string full = slurp(bundledFile(file.toStdString()));
        const auto units = full.rfind('\n', full.find("(B)")) + 1;
        const std::string pasted = full.substr(units);
        QVERIFY(wb::ncclTestsImporter().probe(pasted, "pasted.txt") > 0.5);
        const auto parsed = parseBytes(wb::ncclTestsImporter(), pasted);
        const auto* r = as<wb::NcclTestsResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(int(r->rows.size()), rows);
        QCOMPARE(r->rows.back().root.has_value(), root);
        QCOMPARE(r->rows.back().outOfPlace.error.has_value(), errorColumn);
        QCOMPARE(r->rows.back().outOfPlace.wrong.has_value(), !errorColumn);
        QVERIFY(!r->rows.back().redop.empty());
    }

    void junkFails() {
        std::string junk;
        for (int i = 0; i < 70000; ++i)
            junk.push_back(static_cast<char>((i * 31 + 3) % 256));
        QCOMPARE(wb::ncclTestsImporter().probe(junk, "x.txt"), 0.0);
        QVERIFY(std::holds_alternative<wb::ImportError>(parseBytes(wb::ncclTestsImporter(), junk)));
        QVERIFY(std::holds_alternative<wb::ImportError>(parseBytes(wb::ncclTestsImporter(), "")));
    }
};

QTEST_APPLESS_MAIN(TestNcclTestsImporter)
#include "test_nccl_tests_importer.moc"
