// `warpboard calc access|banks|transpose|divergence`: arguments and JSON.
#include "calc/calc_models.h"

#include <QtTest>

using namespace wb;

namespace {
nlohmann::ordered_json run(const char* model,
                           std::initializer_list<std::pair<const char*, const char*>> args) {
    const CalcModel* m = findCalcModel(model);
    if (!m)
        throw std::runtime_error(std::string("no model ") + model);
    Params p(m->arguments);
    for (const auto& [k, v] : args)
        if (auto e = p.set(k, v))
            throw std::invalid_argument(*e);
    return m->run(p);
}
std::string calcError(const char* model,
                      std::initializer_list<std::pair<const char*, const char*>> args) {
    try {
        run(model, args);
    } catch (const CalcError& e) {
        return e.what();
    }
    return "no CalcError";
}
} // namespace

class TestAccessCalc : public QObject {
    Q_OBJECT
private slots:
    void access() {
        auto j = run("access", {{"elem-bytes", "4"}, {"stride", "1"}});
        QCOMPARE(j["requests"].get<int>(), 1);
        QCOMPARE(j["sectors"].get<int>(), 4);
        QCOMPARE(j["lines"].get<int>(), 1);
        QCOMPARE(j["sectors_per_request"].get<double>(), 4.0);
        QCOMPARE(j["efficiency"].get<double>(), 1.0);
        j = run("access", {{"elem-bytes", "4"}, {"stride", "1"}, {"offset", "1"}});
        QCOMPARE(j["sectors"].get<int>(), 5);
        j = run("access", {{"elem-bytes", "4"}, {"stride", "32"}});
        QCOMPARE(j["sectors_per_request"].get<double>(), 32.0);
        QCOMPARE(j["lines"].get<int>(), 32);
        j = run("access", {{"elem-bytes", "8"}, {"stride", "1"}});
        QCOMPARE(j["sectors"].get<int>(), 8);
        j = run("access", {{"elem-bytes", "4"}, {"stride", "1"}, {"base-bytes", "4"}});
        QCOMPARE(j["sectors"].get<int>(), 5);
        j = run("access", {{"elem-bytes", "4"}, {"expr", "a[threadIdx.x * elem]"}});
        QCOMPARE(j["sectors"].get<int>(), 16);
        QCOMPARE(j["pattern"].get<std::string>(), std::string("a[threadIdx.x * elem]"));
    }
    void banks() {
        auto j = run("banks", {{"elem-bytes", "4"}, {"stride", "1"}});
        QCOMPARE(j["wavefronts"].get<int>(), 1);
        QCOMPARE(j["conflict_wavefronts"].get<int>(), 0);
        QCOMPARE(j["banks_used"].get<int>(), 32);
        QCOMPARE(run("banks", {{"elem-bytes", "4"}, {"stride", "2"}})["wavefronts"].get<int>(), 2);
        j = run("banks", {{"elem-bytes", "4"}, {"stride", "32"}});
        QCOMPARE(j["wavefronts"].get<int>(), 32);
        QCOMPARE(j["conflict_wavefronts"].get<int>(), 31);
        QCOMPARE(run("banks", {{"elem-bytes", "4"}, {"stride", "33"}})["wavefronts"].get<int>(), 1);
        j = run("banks", {{"elem-bytes", "4"}, {"stride", "0"}});
        QCOMPARE(j["wavefronts"].get<int>(), 1);
        QCOMPARE(j["banks_used"].get<int>(), 1);
        j = run("banks",
                {{"elem-bytes", "4"}, {"expr", "tile[(threadIdx.y*32 + threadIdx.x) * 33]"}});
        QCOMPARE(j["wavefronts"].get<int>(), 1);
        // 32 × 8 bytes need two wavefronts at least: two, and no conflict.
        j = run("banks", {{"elem-bytes", "8"}, {"stride", "1"}});
        QCOMPARE(j["bytes_requested"].get<int>(), 256);
        QCOMPARE(j["wavefronts"].get<int>(), 2);
        QCOMPARE(j["min_wavefronts"].get<int>(), 2);
        QCOMPARE(j["conflict_wavefronts"].get<int>(), 0);
    }
    void transpose() {
        auto j = run("transpose", {{"n", "1024"}, {"variant", "naive"}});
        QCOMPARE(j["load_sectors_per_request"].get<double>(), 4.0);
        QCOMPARE(j["store_sectors_per_request"].get<double>(), 32.0);
        QCOMPARE(j["smem_worst_wavefronts"].get<int>(), 0);
        QCOMPARE(j["l1_l2_sector_bytes"].get<std::uint64_t>(), std::uint64_t{36} * 1024 * 1024);
        j = run("transpose", {{"n", "1024"}, {"variant", "tiled"}});
        QCOMPARE(j["smem_worst_wavefronts"].get<int>(), 32);
        QCOMPARE(j["smem_worst_conflict_wavefronts"].get<int>(), 31);
        QCOMPARE(j["l1_l2_sector_bytes"].get<std::uint64_t>(), std::uint64_t{8} * 1024 * 1024);
        QVERIFY(j["relative_time"].get<double>() > 1.0);
        j = run("transpose", {{"n", "1024"},
                              {"variant", "padded"},
                              {"elem-bytes", "4"},
                              {"tile", "32"},
                              {"block-rows", "8"}});
        QCOMPARE(j["smem_worst_wavefronts"].get<int>(), 1);
        QCOMPARE(j["smem_conflict_wavefronts"].get<int>(), 0);
        QCOMPARE(j["relative_time"].get<double>(), 1.0);
        QVERIFY(calcError("transpose", {{"n", "1000"}, {"variant", "copy"}}).find("multiple") !=
                std::string::npos);
        QVERIFY(calcError("transpose", {{"n", "1024"}, {"variant", "copy"}, {"tile", "12"}})
                    .find("8, 16 or 32") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 run("transpose", {{"n", "1024"}, {"variant", "sideways"}}));
    }
    void divergence() {
        auto j = run("divergence", {{"branch", "odd-even"}});
        QCOMPARE(j["diverges"].get<bool>(), true);
        QCOMPARE(j["paths"].get<int>(), 2);
        QCOMPARE(j["simt_efficiency"].get<double>(), 0.75);
        j = run("divergence", {{"branch", "warp-uniform"}, {"warp", "1"}});
        QCOMPARE(j["diverges"].get<bool>(), false);
        QCOMPARE(j["simt_efficiency"].get<double>(), 1.0);
        QCOMPARE(run("divergence", {{"branch", "nested"}})["paths"].get<int>(), 3);
        QCOMPARE(run("divergence", {{"branch", "block-uniform"}})["diverges"].get<bool>(), false);
        QCOMPARE(run("divergence", {{"branch", "data"}, {"p", "1"}})["diverges"].get<bool>(),
                 false);
        QCOMPARE(run("divergence", {{"branch", "data"}, {"p", "0"}})["diverges"].get<bool>(),
                 false);
        j = run("divergence", {{"condition", "lane < 8"}});
        QCOMPARE(j["diverges"].get<bool>(), true);
        QCOMPARE(j["branch"].get<std::string>(), std::string("custom"));
        QCOMPARE(run("divergence", {{"branch", "half-warp"}}),
                 run("divergence", {{"branch", "half-warp"}}));
    }
    void semanticErrors() {
        QVERIFY(calcError("access", {{"elem-bytes", "4"}, {"stride", "1"}, {"expr", "lane"}})
                    .find("not both") != std::string::npos);
        QVERIFY(calcError("access", {{"elem-bytes", "4"}}).find("--stride") != std::string::npos);
        const auto bad = calcError("banks", {{"elem-bytes", "4"}, {"expr", "(lane * 2"}});
        QVERIFY2(bad.find("column 10: expected ')'") != std::string::npos, bad.c_str());
        QVERIFY(calcError("access", {{"elem-bytes", "4"}, {"expr", "lane - 1"}})
                    .find("before address 0") != std::string::npos);
        QVERIFY(
            calcError("access", {{"elem-bytes", "4"}, {"expr", "4 / (lane - 3)"}}).find("lane 3") !=
            std::string::npos);
        QVERIFY(calcError("divergence", {{"branch", "odd-even"}, {"p", "0.5"}})
                    .find("--p applies only") != std::string::npos);
        QVERIFY(calcError("divergence", {{"condition", "lane <"}}).find("column 7") !=
                std::string::npos);
        QVERIFY(calcError("divergence", {{"branch", "custom"}}).find("--condition") !=
                std::string::npos);
        // Ranges live in the ParamSpecs: a negative stride is refused by Params.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 run("access", {{"elem-bytes", "4"}, {"stride", "-1"}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 run("access", {{"elem-bytes", "32"}, {"stride", "1"}}));
    }
};

QTEST_APPLESS_MAIN(TestAccessCalc)
#include "test_access_calc.moc"
