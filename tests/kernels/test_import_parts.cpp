// The small pieces of the trace importer: exact µs-text → ns, NCCL kernel names of the three
// NCCL eras, ranks from file names, and the streaming JSON reader's errors.
#include "import/json_pull_reader.h"
#include "import/micros_text.h"
#include "import/nccl_kernel_name.h"
#include "import/rank_from_path.h"

#include <QtTest>

using namespace wb;

class TestImportParts : public QObject {
    Q_OBJECT
private slots:
    void microsTextKeepsNanoseconds() {
        // Kineto 2024+ writes 3 decimals at ~1.7e15 µs: a double would lose the last digits.
        QCOMPARE(microsTextToNs("1712195495505582.988").value(), INT64_C(1712195495505582988));
        QCOMPARE(microsTextToNs("1665536373729077").value(), INT64_C(1665536373729077000));
        QCOMPARE(microsTextToNs("4.928").value(), INT64_C(4928));
        QCOMPARE(microsTextToNs("0").value(), INT64_C(0));
        QCOMPARE(microsTextToNs("-2.5").value(), INT64_C(-2500));
        QCOMPARE(microsTextToNs("1.5e3").value(), INT64_C(1500000));
        QCOMPARE(microsTextToNs("15E-1").value(), INT64_C(1500));
        QCOMPARE(microsTextToNs("0.0004").value(), INT64_C(0)); // below 1 ns rounds
        QCOMPARE(microsTextToNs("0.0005").value(), INT64_C(1));
        QCOMPARE(microsTextToNs("1.23456789").value(), INT64_C(1235));
        QVERIFY(!microsTextToNs("abc"));
        QVERIFY(!microsTextToNs(""));
        QVERIFY(!microsTextToNs("1."));
        QVERIFY(!microsTextToNs("1e30"));                     // beyond int64 ns
        QVERIFY(!microsTextToNs("123456789012345678901234")); // ditto
    }

    void ncclKernelNamesOfAllEras() {
        const auto old =
            parseNcclKernelName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)");
        QVERIFY(old);
        QCOMPARE(old->collective, std::string("AllReduce"));
        QCOMPARE(old->algorithm, std::string("RING"));
        QCOMPARE(old->protocol, std::string("LL"));
        QCOMPARE(old->era, std::string("<=2.12"));

        const auto mid = parseNcclKernelName(
            "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)");
        QVERIFY(mid);
        QCOMPARE(mid->collective, std::string("SendRecv"));
        QCOMPARE(mid->algorithm, std::string("RING"));
        QCOMPARE(mid->protocol, std::string("SIMPLE"));
        QCOMPARE(mid->era, std::string("2.13-2.18"));

        const auto now = parseNcclKernelName(
            "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)");
        QVERIFY(now);
        QCOMPARE(now->collective, std::string("AllGather"));
        QCOMPARE(now->algorithm, std::string("RING"));
        QCOMPARE(now->protocol, std::string("LL"));
        QCOMPARE(now->era, std::string("2.19+"));

        const auto direct = parseNcclKernelName("ncclDevKernel_AllReduce_COLLNET_DIRECT_LL128_Sum_"
                                                "bf16(ncclDevKernelArgsStorage<4096ul>)");
        QVERIFY(direct);
        QCOMPARE(direct->algorithm, std::string("COLLNET_DIRECT"));
        QCOMPARE(direct->protocol, std::string("LL128"));

        const auto generic =
            parseNcclKernelName("ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)");
        QVERIFY(generic);
        QCOMPARE(generic->collective, std::string("Generic"));
        QVERIFY(generic->algorithm.empty());

        const auto bare = parseNcclKernelName("ncclKernel_AllReduce"); // HTA's fixture
        QVERIFY(bare);
        QCOMPARE(bare->collective, std::string("AllReduce"));

        QVERIFY(!parseNcclKernelName("void at::native::elementwise_kernel<128, 4>(int)"));
        QVERIFY(!parseNcclKernelName("nccl:all_reduce")); // the CPU annotation, not a kernel
    }

    // One row per naming era (and RCCL's), as profilers print them.
    void ncclKernelNameTable_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("collective");
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<QString>("protocol");
        QTest::addColumn<QString>("era");
        QTest::newRow("2.4 ring LL") << "ncclAllReduceRingLLKernel_sum_f32(ncclColl)"
                                     << "AllReduce"
                                     << "RING"
                                     << "LL"
                                     << "<=2.7";
        QTest::newRow("2.4 broadcast") << "ncclBroadcastRingLLKernel_copy_i8(ncclColl)"
                                       << "Broadcast"
                                       << "RING"
                                       << "LL"
                                       << "<=2.7";
        QTest::newRow("2.5 LL128") << "ncclReduceScatterRingLL128Kernel_sum_f16(ncclColl)"
                                   << "ReduceScatter"
                                   << "RING"
                                   << "LL128"
                                   << "<=2.7";
        QTest::newRow("2.5 tree") << "void ncclAllReduceTreeLLKernel_sum_f32(ncclColl)"
                                  << "AllReduce"
                                  << "TREE"
                                  << "LL"
                                  << "<=2.7";
        QTest::newRow("2.7 collnet") << "ncclAllReduceCollNetLLKernel_sum_bf16(ncclColl)"
                                     << "AllReduce"
                                     << "COLLNET"
                                     << "LL"
                                     << "<=2.7";
        QTest::newRow("2.7 sendrecv") << "ncclSendRecvKernel_copy_i8(ncclColl)"
                                      << "SendRecv"
                                      << ""
                                      << ""
                                      << "<=2.7";
        QTest::newRow("2.3 no algorithm") << "ncclAllGatherLLKernel_copy_i8(ncclColl)"
                                          << "AllGather"
                                          << ""
                                          << "LL"
                                          << "<=2.7";
        QTest::newRow("2.8-2.12") << "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"
                                  << "AllReduce"
                                  << "RING"
                                  << "LL"
                                  << "<=2.12";
        QTest::newRow("2.13-2.18")
            << "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, "
               "ncclWork*)"
            << "SendRecv"
            << "RING"
            << "SIMPLE"
            << "2.13-2.18";
        QTest::newRow("2.19+")
            << "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
            << "AllGather"
            << "RING"
            << "LL"
            << "2.19+";
        QTest::newRow("2.19+ by reduction")
            << "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
            << "AllReduce"
            << "RING"
            << "LL"
            << "2.19+";
        QTest::newRow("2.19+ NVLS_TREE")
            << "ncclDevKernel_AllReduce_Sum_f32_NVLS_TREE_SIMPLE(ncclDevKernelArgsStorage<4096ul>)"
            << "AllReduce"
            << "NVLS_TREE"
            << "SIMPLE"
            << "2.19+";
        QTest::newRow("RCCL generic") << "ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)"
                                      << "Generic"
                                      << ""
                                      << ""
                                      << "2.19+";
        QTest::newRow("RCCL 2.13-2.18")
            << "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"
            << "AllReduce"
            << "RING"
            << "LL"
            << "2.13-2.18";
        QTest::newRow("2.27 symmetric")
            << "ncclSymDevKernel_AllReduce_RSxLD_AGxST_sum_bf16(ncclSymDevArgs)"
            << "AllReduce"
            << ""
            << ""
            << "2.27+";
        QTest::newRow("2.27 symmetric LL") << "ncclSymDevKernel_AllGather_LL(ncclSymDevArgs)"
                                           << "AllGather"
                                           << ""
                                           << "LL"
                                           << "2.27+";
    }

    void ncclKernelNameTable() {
        QFETCH(QString, name);
        QFETCH(QString, collective);
        QFETCH(QString, algorithm);
        QFETCH(QString, protocol);
        QFETCH(QString, era);
        const auto parsed = parseNcclKernelName(name.toStdString());
        QVERIFY(parsed);
        QCOMPARE(QString::fromStdString(parsed->collective), collective);
        QCOMPARE(QString::fromStdString(parsed->algorithm), algorithm);
        QCOMPARE(QString::fromStdString(parsed->protocol), protocol);
        QCOMPARE(QString::fromStdString(parsed->era), era);
    }

    void notNcclKernels_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("host call") << "ncclAllReduce";
        QTest::newRow("host group") << "ncclGroupEnd";
        QTest::newRow("bare word") << "ncclKernel";
        QTest::newRow("lower case") << "nccl_kernel_helper(int)";
        QTest::newRow("annotation") << "nccl:all_reduce";
        QTest::newRow("compute") << "void at::native::elementwise_kernel<128, 4>(int)";
    }

    void notNcclKernels() {
        QFETCH(QString, name);
        QVERIFY(!parseNcclKernelName(name.toStdString()));
    }

    void rankFromFileNames() {
        QCOMPARE(rankFromPath("/x/rank-3.pt.trace.json.gz").value(), 3L);
        QCOMPARE(rankFromPath("hta_sampled_rank-1.json.gz").value(), 1L);
        QCOMPARE(rankFromPath("hta_old_kineto_inference_rank_1.json.gz").value(), 1L);
        QCOMPARE(rankFromPath("worker12.1700000000123.pt.trace.json.gz").value(), 12L);
        QCOMPARE(rankFromPath("dir_rank-9/rank-2.json").value(), 2L); // the base name only
        QVERIFY(!rankFromPath("trace.json"));
        QVERIFY(!rankFromPath("ranking.json"));
    }

    void readerReportsWhatWasExpected() {
        auto errorOf = [](std::string text) -> std::pair<std::string, std::uint64_t> {
            auto source = ByteSource::fromMemory(std::move(text));
            ImportControl control;
            JsonPullReader reader(*source, control);
            try {
                reader.skipValue();
                reader.expectEnd();
            } catch (const JsonSyntaxError& e) {
                return {e.what(), e.byteOffset};
            }
            return {"", 0};
        };
        auto [m1, b1] = errorOf("[1, 2");
        QVERIFY2(m1.find("expected ',' or ']'") != std::string::npos, m1.c_str());
        QCOMPARE(b1, std::uint64_t(5));
        auto [m2, b2] = errorOf("{\"a\": 1 \"b\": 2}");
        QVERIFY2(m2.find("expected ',' or '}'") != std::string::npos, m2.c_str());
        QCOMPARE(b2, std::uint64_t(8));
        auto [m3, b3] = errorOf("{\"a\": \"unterminated");
        QVERIFY2(m3.find("unterminated string") != std::string::npos, m3.c_str());
        auto [m4, b4] = errorOf("[01]");
        QVERIFY2(m4.find("malformed number") != std::string::npos, m4.c_str());
        auto [m5, b5] = errorOf("[1] x");
        QVERIFY2(m5.find("end of the input") != std::string::npos, m5.c_str());
        QCOMPARE(b5, std::uint64_t(4));
        QCOMPARE(errorOf("{\"a\": [true, false, null, -1.5e3, \"\\u00e9\\ud83d\\ude00\"]}").first,
                 std::string());
        // Deep nesting is walked iteratively: no stack overflow.
        QCOMPARE(errorOf(std::string(100000, '[') + std::string(100000, ']')).first, std::string());
    }
};

QTEST_APPLESS_MAIN(TestImportParts)
#include "test_import_parts.moc"
