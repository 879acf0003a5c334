// The calc models' JSON, computed from the same functions the scenarios use.
#include "calc/calc_models.h"
#include "collectives/collective_cost.h"
#include "scenario_test_helpers.h"

#include <QtTest>

using namespace wb;

namespace {
using wb::test::runCalc;
} // namespace

class TestCalcModels : public QObject {
    Q_OBJECT
private slots:
    void ringAllReduce() {
        const auto j =
            runCalc("ring-allreduce",
                    {{"ranks", "8"}, {"bytes", "1e9"}, {"alpha-us", "5"}, {"bandwidth-gbs", "50"}});
        QCOMPARE(j["bytes_sent_per_rank"].get<double>(), 1.75e9);
        QCOMPARE(j["steps"].get<int>(), 14);
        const double t = 14 * 5e-6 + 1.75e9 / 50e9;
        QVERIFY(std::fabs(j["time_s"].get<double>() - t) < 1e-12);
        QVERIFY(std::fabs(j["algbw_gbs"].get<double>() - 1.0 / t) < 1e-9);
        QCOMPARE(j["busbw_factor"].get<double>(), 1.75);
        QVERIFY(std::fabs(j["busbw_gbs"].get<double>() - 1.75 / t) < 1e-9);
        const auto tree = runCalc("ring-allreduce", {{"ranks", "8"},
                                                     {"bytes", "1e9"},
                                                     {"alpha-us", "5"},
                                                     {"bandwidth-gbs", "50"},
                                                     {"algorithm", "tree"}});
        QCOMPARE(tree["steps"].get<int>(), 6);
    }
    void busbw() {
        QCOMPARE(
            runCalc("busbw", {{"collective", "allreduce"}, {"ranks", "4"}})["factor"].get<double>(),
            1.5);
        QCOMPARE(
            runCalc("busbw", {{"collective", "allgather"}, {"ranks", "8"}})["factor"].get<double>(),
            0.875);
    }
    void roofline() {
        const auto j =
            runCalc("roofline", {{"gpu", "h100-sxm"}, {"precision", "bf16"}, {"intensity", "10"}});
        QVERIFY(std::fabs(j["ridge_flop_per_byte"].get<double>() - 295.34) < 0.01);
        QCOMPARE(j["attainable_tflops"].get<double>(), 33.5);
        QCOMPARE(j["bound"].get<std::string>(), std::string("memory"));
        const auto noX = runCalc("roofline", {{"gpu", "h100-sxm"}, {"precision", "fp8"}});
        QVERIFY(!noX.contains("attainable_tflops"));
        QCOMPARE(noX["peak_tflops"].get<double>(), 1978.9);
        QVERIFY_THROWS_EXCEPTION(
            CalcError, runCalc("roofline", {{"gpu", "a100-sxm-40gb"}, {"precision", "fp8"}}));
    }
    void decode() {
        const auto j = runCalc("decode", {{"gpu", "h100-sxm"}, {"params", "70e9"}, {"batch", "1"}});
        QCOMPARE(j["intensity_flop_per_byte"].get<double>(), 1.0);
        QCOMPARE(j["bound"].get<std::string>(), std::string("memory"));
        QVERIFY(std::fabs(j["max_tokens_per_s"].get<double>() - 3350e9 / 140e9) < 1e-9);
    }
    void everyModelDocumentsItsArguments() {
        for (const auto& m : calcModels()) {
            QVERIFY(!m.summary.empty());
            QVERIFY(!m.arguments.empty());
            QVERIFY(m.run);
        }
    }
};

QTEST_APPLESS_MAIN(TestCalcModels)
#include "test_calc_models.moc"
