// calc occupancy, waves and littles-law through the calc registry.
#include "calc/calc_models.h"

#include <QtTest>
#include <cmath>

using namespace wb;

namespace {
using Args = std::initializer_list<std::pair<const char*, const char*>>;

nlohmann::ordered_json run(const char* model, Args args) {
    const CalcModel* m = findCalcModel(model);
    if (!m)
        throw std::runtime_error(std::string("no calc model ") + model);
    Params p(m->arguments);
    for (const auto& [k, v] : args)
        if (auto e = p.set(k, v))
            throw std::runtime_error(*e);
    return m->run(p);
}

std::optional<std::string> setError(const char* model, const char* key, const char* value) {
    Params p(findCalcModel(model)->arguments);
    return p.set(key, value);
}
} // namespace

class TestOccupancyCalc : public QObject {
    Q_OBJECT
private slots:
    void occupancy() {
        const auto j = run("occupancy", {{"gpu", "h100-sxm"},
                                         {"threads-per-block", "256"},
                                         {"registers-per-thread", "128"},
                                         {"smem-per-block", "0"}});
        QCOMPARE(j["model"].get<std::string>(), std::string("occupancy"));
        QCOMPARE(j["blocks_per_sm"].get<int>(), 2);
        QCOMPARE(j["warps_per_sm"].get<int>(), 16);
        QCOMPARE(j["occupancy"].get<double>(), 0.25);
        QCOMPARE(j["limiter"].get<std::string>(), std::string("registers"));
        QCOMPARE(j["limits"]["registers"].get<int>(), 2);
        QCOMPARE(j["limits"]["warps"].get<int>(), 8);
        QCOMPARE(j["limits"]["shared_memory"].get<int>(), 228);
        QCOMPARE(j["limits"]["blocks"].get<int>(), 32);

        const auto a = run("occupancy", {{"gpu", "a100-sxm-80gb"},
                                         {"threads-per-block", "256"},
                                         {"registers-per-thread", "64"},
                                         {"smem-per-block", "49152"}});
        QCOMPARE(a["blocks_per_sm"].get<int>(), 3);
        QCOMPARE(a["limiter"].get<std::string>(), std::string("shared_memory"));
        QCOMPARE(a["compute_capability"].get<std::string>(), std::string("8.0"));
    }

    void rejections() {
        // Ranges come from the ParamSpecs, as on the command line.
        QVERIFY(setError("occupancy", "threads-per-block", "2000").has_value());
        QVERIFY(setError("occupancy", "threads-per-block", "0").has_value());
        QVERIFY(setError("occupancy", "registers-per-thread", "300").has_value());
        QVERIFY(setError("occupancy", "smem-per-block", "-1").has_value());
        // 227 KB is fine on Hopper but above the A100's 163 KB: the model rejects it.
        try {
            run("occupancy", {{"gpu", "a100-sxm-40gb"},
                              {"threads-per-block", "256"},
                              {"registers-per-thread", "32"},
                              {"smem-per-block", "232448"}});
            QFAIL("expected CalcError");
        } catch (const CalcError& e) {
            QVERIFY(std::string(e.what()).find("0…166912 B") != std::string::npos);
        }
        // A block that needs more registers than the SM has.
        QVERIFY_THROWS_EXCEPTION(CalcError, run("occupancy", {{"gpu", "h100-sxm"},
                                                              {"threads-per-block", "1024"},
                                                              {"registers-per-thread", "128"},
                                                              {"smem-per-block", "0"}}));
    }

    void waves() {
        // 256 threads × 32 registers: 8 blocks per SM, 1,056 per wave on an H100.
        const auto j = run("waves", {{"gpu", "h100-sxm"},
                                     {"blocks", "2000"},
                                     {"threads-per-block", "256"},
                                     {"registers-per-thread", "32"},
                                     {"smem-per-block", "0"}});
        QCOMPARE(j["blocks_per_sm"].get<int>(), 8);
        QCOMPARE(j["blocks_per_wave"].get<int>(), 1056);
        QCOMPARE(j["waves"].get<int>(), 2);
        QCOMPARE(j["tail_utilization"].get<double>(), 944.0 / 1056.0);
        QCOMPARE(j["sm_count"].get<int>(), 132);
        QVERIFY_THROWS_EXCEPTION(CalcError, run("waves", {{"gpu", "h100-sxm"},
                                                          {"blocks", "10"},
                                                          {"threads-per-block", "1024"},
                                                          {"registers-per-thread", "255"},
                                                          {"smem-per-block", "0"}}));
    }

    void littlesLaw() {
        const auto j = run("littles-law", {{"gpu", "h100-sxm"}, {"latency-ns", "600"}});
        QVERIFY(std::fabs(j["bytes_in_flight"].get<double>() - 2.01e6) < 1e-3);
        QVERIFY(std::fabs(j["bytes_in_flight_per_sm"].get<double>() - 2.01e6 / 132) < 1e-6);
        QCOMPARE(j["latency_ns"].get<double>(), 600.0);
        QCOMPARE(j["bandwidth_gbs"].get<double>(), 3350.0);
        QCOMPARE(j["warp_loads_in_flight_per_sm"].get<int>(), 119);
        QVERIFY(!j.contains("ilp_needed"));
        QVERIFY(j.contains("latency_source") && j.contains("bandwidth_source"));
        const auto w = run("littles-law",
                           {{"gpu", "h100-sxm"}, {"latency-ns", "600"}, {"warps-per-sm", "16"}});
        QCOMPARE(w["ilp_needed"].get<int>(), 8);
        // Without --latency-ns: a documented default, and the law still holds.
        const auto d = run("littles-law", {{"gpu", "a100-sxm-80gb"}});
        const double expected = d["latency_ns"].get<double>() * 1e-9 * 2039e9;
        QVERIFY(std::fabs(d["bytes_in_flight"].get<double>() - expected) < 1e-6 * expected);
        QVERIFY(setError("littles-law", "latency-ns", "0").has_value());
    }
};

QTEST_APPLESS_MAIN(TestOccupancyCalc)
#include "test_occupancy_calc.moc"
