// Nsight Compute CSV importer against the corpus (RTX 5070, ncu 2026.2.1: BOM, CRLF, preamble,
// thousands separators) and hand-made rows for the 2020 column set and the FLOP counters.
#include "import/importers.h"
#include "import/ncu_csv_importer.h"
#include "log_import_helpers.h"

#include <QtTest>

using namespace wbtest;

class TestNcuCsvImporter : public QObject {
    Q_OBJECT

    static const wb::NcuLaunch& only(const wb::NcuCsvResult& r) { return r.launches.at(0); }

private slots:
    // Expected values: python3 csv.reader over the rows after the "ID" header (line 9), once.
    void corpusFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("durationNs");
        QTest::addColumn<double>("dramBytes"); // dram__bytes_op_read.sum + _op_write.sum
        QTest::addColumn<double>("sectorsLd"); // sectors_ld / requests_ld
        QTest::addColumn<double>("conflicts");
        QTest::addColumn<double>("achieved");
        QTest::newRow("gemm_naive")
            << "ncu_rtx5070_gemm_naive.csv" << 9589248.0 << 80808960.0 << 2.5 << 0.0 << 66.61;
        QTest::newRow("gemm_tiled") << "ncu_rtx5070_gemm_tiled.csv" << 10195552.0 << 56639232.0
                                    << 4.0 << 4695342.0 << 66.65;
        QTest::newRow("saxpy") << "ncu_rtx5070_saxpy.csv" << 292928.0 << 177852672.0 << 4.0 << 0.0
                               << 83.82;
    }
    void corpusFiles() {
        QFETCH(QString, file);
        QFETCH(double, durationNs);
        QFETCH(double, dramBytes);
        QFETCH(double, sectorsLd);
        QFETCH(double, conflicts);
        QFETCH(double, achieved);
        const auto parsed = parseFile(wb::ncuCsvImporter(), bundledFile(file.toStdString()));
        const auto* r = as<wb::NcuCsvResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->format, std::string("ncu-csv"));
        QVERIFY(r->columns2022);
        QCOMPARE(r->preambleLines, std::uint64_t(8)); // the header is line 9
        QCOMPARE(r->launches.size(), std::size_t(1));
        const auto& l = only(*r);
        QCOMPARE(l.id, std::int64_t(0));
        QVERIFY(l.name.rfind("unnamed>::", 0) == 0 || l.name.rfind("void unnamed>::", 0) == 0);
        QCOMPARE(l.metrics.size(), std::size_t(12));
        QCOMPARE(*l.durationNs, durationNs);
        QCOMPARE(*l.dramBytes, dramBytes);
        QCOMPARE(*l.sectorsPerRequestLoad, sectorsLd);
        QCOMPARE(*l.sharedBankConflicts, conflicts);
        QCOMPARE(*l.achievedOccupancyPct, achieved);
        QCOMPARE(l.cc, std::string("12.0"));
        QVERIFY(l.block && l.grid);
        // No sass FLOP counters in these runs: FLOPs and intensity stay absent, not zero.
        QVERIFY(!l.flops);
        QVERIFY(!l.intensity);
        QVERIFY(!l.theoreticalOccupancyPct);
        const auto s = r->summary();
        QVERIFY(s["kernels"][0]["flops"].is_null());
        QCOMPARE(s["kernels"][0]["duration_ns"].get<double>(), durationNs);
    }

    // ncu 2024+ for a new GPU: the program's own output (a CSV of its own included) and
    // ==PROF== lines before the header, the rule columns, and every row ending in a comma
    // the header does not have. Python's csv.reader on the rows gives the same 12 metrics.
    void rulesAndTrailingCommas() {
        const auto parsed = parseFile(
            wb::ncuCsvImporter(), bundledFile("ncu_rtx5070_saxpy_rules_trailing_comma.csv"));
        const auto* r = as<wb::NcuCsvResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->preambleLines, std::uint64_t(11)); // the header is line 12
        QVERIFY(r->columns2022);
        QVERIFY(r->ruleColumns);
        QCOMPARE(r->launches.size(), std::size_t(1));
        const auto& l = only(*r);
        QCOMPARE(l.metrics.size(), std::size_t(12));
        QCOMPARE(*l.durationNs, 292928.0);
        QCOMPARE(*l.dramBytes, 177852672.0);
        QCOMPARE(*l.achievedOccupancyPct, 83.82);
        QCOMPARE(l.rules.size(), std::size_t(2));
        QCOMPARE(l.rules[0].name, std::string("SOLBottleneck"));
        QCOMPARE(l.rules[0].type, std::string("OPT"));
        QVERIFY(!l.rules[0].estimatedSpeedup);
        QCOMPARE(l.rules[1].section, std::string("Occupancy"));
        QCOMPARE(*l.rules[1].estimatedSpeedup, 16.18);
        QCOMPARE(r->summary()["kernels"][0]["rules"].get<int>(), 2);
        // The registry picks ncu for it, and a file whose preamble hides the header from
        // the probe's head still goes to ncu by its ==PROF== lines.
        QVERIFY(wb::ncuCsvImporter().probe("==PROF== Connected to process 1 (/bin/app)\nhello\n",
                                           "x.csv") >= 0.5);
    }

    void rowsMayStopBeforeTheRuleColumns() {
        const std::string csv =
            "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\","
            "\"Rule Type\"\n"
            "\"0\",\"k\",\"gpu__time_duration.sum\",\"ns\",\"5\"\n"
            "\"0\",\"k\",\"dram__bytes.sum\",\"byte\",\"64\",\"\",\n";
        const auto parsed = parseBytes(wb::ncuCsvImporter(), csv);
        const auto* r = as<wb::NcuCsvResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(only(*r).metrics.size(), std::size_t(2));
        QCOMPARE(*only(*r).dramBytes, 64.0);
        // A field short of the metric columns, or one too many that is not empty, is an error.
        for (const char* bad : {"\"0\",\"k\",\"gpu__time_duration.sum\",\"ns\"\n",
                                "\"0\",\"k\",\"a\",\"ns\",\"5\",\"\",\"\",\"x\"\n"}) {
            const auto broken = parseBytes(wb::ncuCsvImporter(),
                                           "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\","
                                           "\"Metric Value\",\"Rule Name\",\"Rule Type\"\n" +
                                               std::string(bad));
            const auto* e = std::get_if<wb::ImportError>(&broken);
            QVERIFY(e);
            QCOMPARE(e->line, std::uint64_t(2));
            QVERIFY2(e->message.find("CSV fields") != std::string::npos, e->message.c_str());
        }
    }

    void saxpyDetails() {
        const auto parsed = parseFile(wb::ncuCsvImporter(), bundledFile("ncu_rtx5070_saxpy.csv"));
        const auto* r = as<wb::NcuCsvResult>(parsed);
        if (!r)
            QFAIL("no result");
        const auto& l = only(*r);
        QCOMPARE(*l.block, (std::array<std::int64_t, 3>{256, 1, 1}));
        QCOMPARE(*l.grid, (std::array<std::int64_t, 3>{65536, 1, 1}));
        QCOMPARE(*l.sectorsPerRequestStore, 4.0);
        QCOMPARE(l.name, std::string("unnamed>::saxpy_kernel(float, const float *, float *, int)"));
    }

    void percentAboveHundredKept() {
        const auto parsed =
            parseFile(wb::ncuCsvImporter(), bundledFile("ncu_rtx5070_gemm_naive.csv"));
        const auto* r = as<wb::NcuCsvResult>(parsed);
        if (!r)
            QFAIL("no result");
        const auto& l = only(*r);
        bool found = false;
        for (const auto& m : l.metrics)
            if (m.name == "lts__t_sector_hit_rate.pct") {
                QCOMPARE(m.value, 100.39);
                found = true;
            }
        QVERIFY(found);
    }

    // 2020 column set, two launches, units to normalise, and the FLOP counters. Hand-written
    // after the corpus README's description of the 2020 export.
    void columns2020AndFlops() {
        const std::string csv =
            "==PROF== Connected to process 1\n"
            "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Kernel "
            "Time\",\"Context\",\"Stream\",\"Section Name\",\"Metric Name\",\"Metric "
            "Unit\",\"Metric Value\"\n"
            "\"0\",\"1\",\"a\",\"h\",\"k1\",\"t\",\"1\",\"7\",\"GPU Speed Of Light\","
            "\"Duration\",\"usecond\",\"12.5\"\n"
            "\"0\",\"1\",\"a\",\"h\",\"k1\",\"t\",\"1\",\"7\",\"m\",\"dram__bytes_read.sum\","
            "\"Kbyte\",\"2\"\n"
            "\"0\",\"1\",\"a\",\"h\",\"k1\",\"t\",\"1\",\"7\",\"m\",\"dram__bytes_write.sum\","
            "\"Mbyte\",\"1.5\"\n"
            "\"0\",\"1\",\"a\",\"h\",\"k1\",\"t\",\"1\",\"7\",\"m\","
            "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"inst\",\"1,000\"\n"
            "\"0\",\"1\",\"a\",\"h\",\"k1\",\"t\",\"1\",\"7\",\"m\","
            "\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum\",\"inst\",\"10\"\n"
            "\"0\",\"1\",\"a\",\"h\",\"k1\",\"t\",\"1\",\"7\",\"m\","
            "\"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum\",\"\",\"5\"\n"
            "\"0\",\"1\",\"a\",\"h\",\"k1\",\"t\",\"1\",\"7\",\"m\","
            "\"dram__throughput.avg.bytes_per_second\",\"Gbyte/second\",\"2\"\n"
            "\"1\",\"1\",\"a\",\"h\",\"k2\",\"t\",\"1\",\"7\",\"Occupancy\",\"Achieved "
            "Occupancy\",\"%\",\"45.5\"\n"
            "\"1\",\"1\",\"a\",\"h\",\"k2\",\"t\",\"1\",\"7\",\"Occupancy\",\"Theoretical "
            "Occupancy\",\"%\",\"50\"\n"
            "\"1\",\"1\",\"a\",\"h\",\"k2\",\"t\",\"1\",\"7\",\"Occupancy\",\"Block Limit "
            "Registers\",\"block\",\"4\"\n"
            "\"1\",\"1\",\"a\",\"h\",\"k2\",\"t\",\"1\",\"7\",\"Occupancy\",\"Block Limit "
            "Warps\",\"block\",\"8\"\n";
        const auto parsed = parseBytes(wb::ncuCsvImporter(), csv);
        const auto* r = as<wb::NcuCsvResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QVERIFY(!r->columns2022);
        QCOMPARE(r->launches.size(), std::size_t(2));
        const auto& a = r->launches[0];
        QCOMPARE(*a.durationNs, 12500.0);
        QCOMPARE(*a.dramBytes, 2000.0 + 1.5e6);  // Kbyte/Mbyte are powers of 1000
        QCOMPARE(*a.flops, 2.0 * 1000 + 10 + 5); // fma twice, add and mul once
        QCOMPARE(*a.intensity, 2015.0 / 1502000.0);
        for (const auto& m : a.metrics)
            if (m.name == "dram__throughput.avg.bytes_per_second") {
                QCOMPARE(m.unit, std::string("byte/second"));
                QCOMPARE(m.value, 2e9);
            }
        const auto& b = r->launches[1];
        QCOMPARE(b.name, std::string("k2"));
        QVERIFY(!b.durationNs && !b.flops && !b.dramBytes && !b.intensity);
        QCOMPARE(*b.achievedOccupancyPct, 45.5);
        QCOMPARE(*b.theoreticalOccupancyPct, 50.0);
        QCOMPARE(*b.occupancyLimiter, std::string("registers"));
    }

    // A cut inside a value (every field is quoted) or between fields is detected; the message
    // names the line and byte of the broken row.
    void truncatedFails() {
        const std::string full = slurp(bundledFile("ncu_rtx5070_saxpy.csv"));
        for (std::size_t cut : {full.size() - 5, full.size() - 3, full.size() / 2 + 7}) {
            const auto parsed = parseBytes(wb::ncuCsvImporter(), full.substr(0, cut));
            const auto* e = std::get_if<wb::ImportError>(&parsed);
            if (!e) // a cut that lands exactly on a row end is a legal-looking shorter file
                continue;
            QVERIFY(e->line > 9);
            QVERIFY(e->byteOffset > 0);
            QVERIFY(e->describe().find("line") != std::string::npos);
        }
        const auto cutQuote = parseBytes(wb::ncuCsvImporter(), full.substr(0, full.size() - 5));
        QVERIFY(std::holds_alternative<wb::ImportError>(cutQuote));
        QVERIFY(errorText(cutQuote).find("quoted") != std::string::npos);
    }

    void corruptedFails() {
        std::string bad = slurp(bundledFile("ncu_rtx5070_saxpy.csv"));
        // Drop one field separator on the first data row: wrong field count on line 10.
        const auto pos = bad.find("\"0\",\"58960\"");
        bad.replace(pos, 11, "\"0\"\"58960\"");
        const auto parsed = parseBytes(wb::ncuCsvImporter(), bad);
        const auto* e = std::get_if<wb::ImportError>(&parsed);
        if (!e)
            QFAIL("expected an ImportError");
        QCOMPARE(e->line, std::uint64_t(10));
        QCOMPARE(e->byteOffset, std::uint64_t(pos));
    }

    // Found by a mutation run: a stray non-UTF-8 byte in a kernel name made summary().dump()
    // throw. Lines are repaired to U+FFFD when read.
    void invalidUtf8IsRepaired() {
        const std::string csv = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\","
                                "\"Metric Value\"\n\"0\",\"k\xff\xfe\",\"gpu__time_duration.sum\","
                                "\"ns\",\"5\"\n";
        const auto parsed = parseBytes(wb::ncuCsvImporter(), csv);
        const auto* r = as<wb::NcuCsvResult>(parsed);
        if (!r)
            QFAIL(errorText(parsed).c_str());
        QCOMPARE(r->launches.at(0).name, std::string("k\xEF\xBF\xBD\xEF\xBF\xBD"));
        QVERIFY(!r->summary().dump().empty());
    }

    void junkFails() {
        std::string junk;
        for (int i = 0; i < 5000; ++i)
            junk.push_back(static_cast<char>((i * 131 + 7) % 256));
        QCOMPARE(wb::ncuCsvImporter().probe(junk, "x.csv"), 0.0);
        QVERIFY(std::holds_alternative<wb::ImportError>(parseBytes(wb::ncuCsvImporter(), junk)));
        QVERIFY(std::holds_alternative<wb::ImportError>(parseBytes(wb::ncuCsvImporter(), "")));
        QVERIFY(std::holds_alternative<wb::ImportError>(
            parseBytes(wb::ncuCsvImporter(), "a,b,c\n1,2,3\n")));
    }
};

QTEST_APPLESS_MAIN(TestNcuCsvImporter)
#include "test_ncu_csv_importer.moc"
