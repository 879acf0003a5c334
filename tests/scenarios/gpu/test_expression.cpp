// The index-expression language: C precedence, wrap-around arithmetic, errors with columns.
#include "gpu/expr/expression.h"

#include <QtTest>
#include <limits>

using namespace wb;

namespace {
std::int64_t eval(const char* text, ExprEnv env = {}, std::vector<std::string> names = {}) {
    return Expression::parse(text, std::move(names)).evaluate(env);
}
ExprError parseError(const std::string& text, std::vector<std::string> names = {}) {
    try {
        Expression::parse(text, std::move(names));
    } catch (const ExprError& e) {
        return e;
    }
    return ExprError(0, "no error");
}
ExprError evalError(const char* text, ExprEnv env = {}) {
    try {
        (void)Expression::parse(text).evaluate(env);
    } catch (const ExprError& e) {
        return e;
    }
    return ExprError(0, "no error");
}
} // namespace

class TestExpression : public QObject {
    Q_OBJECT
private slots:
    void precedence() {
        QCOMPARE(eval("1 + 2 * 3"), 7);
        QCOMPARE(eval("(1 + 2) * 3"), 9);
        QCOMPARE(eval("1 << 2 + 1"), 8);
        QCOMPARE(eval("1 | 2 ^ 3 & 1"), 3); // 1 | (2 ^ (3 & 1))
        QCOMPARE(eval("1 < 2 == 1"), 1);
        QCOMPARE(eval("0 || 1 && 0"), 0);
        QCOMPARE(eval("1 ? 2 : 0 ? 3 : 4"), 2);
        QCOMPARE(eval("0 ? 2 : 0 ? 3 : 4"), 4);
        QCOMPARE(eval("-7 / 2"), -3);
        QCOMPARE(eval("-7 % 2"), -1);
        QCOMPARE(eval("!0 + ~0 + -(-3)"), 3);
        QCOMPARE(eval("10 - 3 - 2"), 5);
        QCOMPARE(eval("100 / 10 / 5"), 2);
        QCOMPARE(eval("0x1F & 0xf0"), 0x10);
        QCOMPARE(eval("3 != 3 | 4 >= 4"), 1);
        QCOMPARE(eval("-8 >> 1"), -4);
    }
    void variablesAndSubscript() {
        ExprEnv env;
        env.threadIdx = {5, 2, 0};
        env.blockIdx = {1, 0, 0};
        env.blockDim = {32, 8, 1};
        env.lane = 5;
        env.warp = 2;
        env.params = {64};
        const auto e = Expression::parse("a[(threadIdx.y*32 + threadIdx.x) * 33]");
        QCOMPARE(e.evaluate(env), (2 * 32 + 5) * 33);
        QCOMPARE(e.arrayName(), std::string("a"));
        QCOMPARE(e.variables(), (std::vector<std::string>{"threadIdx.y", "threadIdx.x"}));
        QCOMPARE(eval("blockIdx.x * blockDim.x + lane + warp * n", env, {"n"}), 32 + 5 + 128);
        QCOMPARE(eval("gridDim.x + blockDim.y", env), 1 + 8);
    }
    void shortCircuitAvoidsDivisionByZero() {
        QCOMPARE(eval("0 && 1 / 0"), 0);
        QCOMPARE(eval("1 || 1 % 0"), 1);
        QCOMPARE(eval("1 ? 4 : 1 / 0"), 4);
    }
    void wrapsInsteadOfOverflowing() {
        constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
        constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
        QCOMPARE(eval("9223372036854775807 + 1"), kMin);
        QCOMPARE(eval("-9223372036854775807 - 2"), kMax);
        QCOMPARE(eval("(-9223372036854775807 - 1) / -1"), kMin);
        QCOMPARE(eval("(-9223372036854775807 - 1) % -1"), 0);
        QCOMPARE(eval("4611686018427387904 * 4"), 0);
        QCOMPARE(eval("1 << 63"), kMin);
        QCOMPARE(eval("-(-9223372036854775807 - 1)"), kMin);
    }
    void parseErrorsHaveColumns() {
        auto e = parseError("(threadIdx.x + 1");
        QCOMPARE(e.column, 17);
        QCOMPARE(std::string(e.what()), std::string("column 17: expected ')'"));
        e = parseError("threadIdx.x * foo");
        QCOMPARE(e.column, 15);
        QVERIFY(e.message.find("unknown name 'foo'") != std::string::npos);
        QVERIFY(e.message.find("threadIdx.x") != std::string::npos);
        QVERIFY(e.message.find("tile") == std::string::npos);
        e = parseError("x + tile", {"tile"});
        QCOMPARE(e.column, 1);
        QVERIFY(e.message.find("tile") != std::string::npos);
        QCOMPARE(parseError("").column, 1);
        QCOMPARE(parseError("1 +").column, 4);
        QCOMPARE(parseError("1 2").column, 3);
        QCOMPARE(parseError("a[1").column, 4);
        QCOMPARE(parseError("1 ? 2").column, 6);
        QCOMPARE(parseError("3 $ 4").column, 3);
        QVERIFY(parseError("99999999999999999999").message.find("too large") != std::string::npos);
        QVERIFY(parseError("12ab").message.find("in a number") != std::string::npos);
        QCOMPARE(parseError("threadIdx.w").column, 1);
    }
    void limits() {
        const std::string tooLong(Expression::kMaxLength + 1, '1');
        QVERIFY(parseError(tooLong).message.find("longer than 500") != std::string::npos);
        const std::string deep = std::string(70, '(') + "1" + std::string(70, ')');
        QVERIFY(parseError(deep).message.find("nesting deeper than 64") != std::string::npos);
        const std::string ok = std::string(30, '(') + "1" + std::string(30, ')');
        QCOMPARE(eval(ok.c_str()), 1);
        QVERIFY(parseError(std::string(100, '-') + "1").message.find("nesting") !=
                std::string::npos);
    }
    void evaluationErrorsNameTheLane() {
        ExprEnv env;
        env.lane = 7;
        auto e = evalError("4 / (lane - 7)", env);
        QCOMPARE(e.column, 3);
        QVERIFY(e.message.find("division by zero in lane 7") != std::string::npos);
        e = evalError("4 % (lane - 7)", env);
        QVERIFY(e.message.find("modulo by zero in lane 7") != std::string::npos);
        e = evalError("1 << 64", env);
        QCOMPARE(e.column, 3);
        QVERIFY(e.message.find("shift by 64 in lane 7") != std::string::npos);
        QVERIFY(evalError("1 >> -1", env).message.find("0…63") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestExpression)
#include "test_expression.moc"
