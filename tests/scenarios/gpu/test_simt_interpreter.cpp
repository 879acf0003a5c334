// The SIMT interpreter: every branch kind run through the reconvergence stack.
#include "gpu/simt_interpreter.h"

#include <QtTest>

using namespace wb;

namespace {
SimtResult run(BranchKind kind, int warp = 0, int block = 0, double p = 0.5,
               std::string condition = {}) {
    SimtConfig c;
    c.kind = kind;
    c.warp = warp;
    c.blockIdx = block;
    c.p = p;
    c.condition = std::move(condition);
    return SimtInterpreter(c).run();
}
void checkConsistent(const SimtResult& r) {
    QCOMPARE(static_cast<int>(r.trace.size()), r.issued);
    QCOMPARE(r.simtEfficiency, static_cast<double>(r.activeLaneSlots) / (32.0 * r.issued));
    const WarpFrame& last = r.trace.back();
    QCOMPARE(last.issued, r.issued);
    QCOMPARE(last.activeLaneSlots, r.activeLaneSlots);
    QCOMPARE(last.efficiency, r.simtEfficiency);
    QVERIFY(last.stack.empty());
    for (const auto& lane : last.lanes)
        QVERIFY(lane.exited);
    for (const auto& f : r.trace) {
        QCOMPARE(f.lanes.size(), std::size_t{32});
        QCOMPARE(f.program, r.program);
        for (const auto& lane : f.lanes)
            QVERIFY(!lane.tip.empty());
    }
}
} // namespace

class TestSimtInterpreter : public QObject {
    Q_OBJECT
private slots:
    void oddEvenDivergesIntoTwoPaths() {
        const auto r = run(BranchKind::OddEven);
        checkConsistent(r);
        QVERIFY(r.diverges);
        QCOMPARE(r.paths, 2);
        // 2 before + branch + 3 then (incl. bra) + 2 else + join + exit.
        QCOMPARE(r.issued, 10);
        QCOMPARE(r.activeLaneSlots, 5 * 32 + 5 * 16);
        QCOMPARE(r.simtEfficiency, 0.75);
        const WarpFrame& br = r.trace[2];
        QCOMPARE(br.pc, 2);
        QCOMPARE(br.title, std::string("if (threadIdx.x % 2)"));
        QCOMPARE(br.lanes[5].tip,
                 std::string("lane 5: threadIdx.x = 5, threadIdx.x % 2 = 1 → then-path"));
        QCOMPARE(br.lanes[4].tip,
                 std::string("lane 4: threadIdx.x = 4, threadIdx.x % 2 = 0 → else-path"));
        QCOMPARE(br.stack.size(), std::size_t{3});
        QCOMPARE(br.stack[0].mask, 0xffffffffu);
        QCOMPARE(br.stack[0].pc, 8);
        QCOMPARE(br.stack[1].mask, 0x55555555u);
        QCOMPARE(br.stack[1].pc, 6);
        QCOMPARE(br.stack[1].label, std::string("else"));
        QCOMPARE(br.stack[2].mask, 0xaaaaaaaau);
        QCOMPARE(br.stack[2].pc, 3);
        QCOMPARE(br.stack[2].reconvergePc, 8);
        QVERIFY(br.diverged);
        const WarpFrame& then = r.trace[3];
        QCOMPARE(then.pc, 3);
        QVERIFY(then.lanes[5].active);
        QVERIFY(!then.lanes[4].active);
        QVERIFY(then.lanes[4].tip.find("inactive") != std::string::npos);
        QCOMPARE(r.trace[6].pc, 6); // else path after the then path
        QCOMPARE(r.trace[8].pc, 8); // reconverged
        QVERIFY(r.trace[8].lanes[4].active && r.trace[8].lanes[5].active);
        // Lane 5: 5 → 11 → 21 → 63 → 64; lane 4: 4 → 9 → -1 → -5 → -4.
        QCOMPARE(r.trace.back().lanes[5].value, 64);
        QCOMPARE(r.trace.back().lanes[4].value, -4);
    }
    void halfWarpDiverges() {
        const auto r = run(BranchKind::HalfWarp);
        checkConsistent(r);
        QVERIFY(r.diverges);
        QCOMPARE(r.paths, 2);
        QCOMPARE(r.simtEfficiency, 0.75);
        QCOMPARE(r.trace[2].stack.back().mask, 0x0000ffffu);
    }
    void warpUniformDoesNotDivergeInEitherWarp() {
        const auto w0 = run(BranchKind::WarpUniform, 0);
        const auto w1 = run(BranchKind::WarpUniform, 1);
        checkConsistent(w0);
        checkConsistent(w1);
        QVERIFY(!w0.diverges && !w1.diverges);
        QCOMPARE(w0.paths, 1);
        QCOMPARE(w0.simtEfficiency, 1.0);
        QCOMPARE(w1.simtEfficiency, 1.0);
        QCOMPARE(w0.trace[3].pc, 3); // warp 0 takes the then-path
        QCOMPARE(w1.trace[3].pc, 6); // warp 1 the else-path
        QCOMPARE(w0.issued, 8);
        QCOMPARE(w1.issued, 7);
        QVERIFY(w1.trace[2].lanes[0].tip.find("threadIdx.x = 32") != std::string::npos);
    }
    void blockUniformDoesNotDiverge() {
        for (int block : {0, 1}) {
            const auto r = run(BranchKind::BlockUniform, 0, block);
            checkConsistent(r);
            QVERIFY(!r.diverges);
            QCOMPARE(r.simtEfficiency, 1.0);
            QCOMPARE(r.trace[3].pc, block == 1 ? 3 : 6);
        }
    }
    void nestedGivesThreePaths() {
        const auto r = run(BranchKind::Nested);
        checkConsistent(r);
        QVERIFY(r.diverges);
        QCOMPARE(r.paths, 3);
        QCOMPARE(r.issued, 13);
        QCOMPARE(r.activeLaneSlots, 5 * 32 + 5 * 16 + 3 * 8);
        QCOMPARE(r.trace[4].stack.size(), std::size_t{5}); // outer and inner splits stacked
    }
    void dataBranch() {
        for (double p : {0.0, 1.0}) {
            const auto r = run(BranchKind::Data, 0, 0, p);
            checkConsistent(r);
            QVERIFY(!r.diverges);
            QCOMPARE(r.simtEfficiency, 1.0);
        }
        const auto half = run(BranchKind::Data, 0, 0, 0.5);
        checkConsistent(half);
        QVERIFY(half.diverges);
        QCOMPARE(half.paths, 2);
        int taken = 0;
        for (auto d : half.data) {
            QVERIFY(d >= 0 && d < 1000);
            taken += d < 500 ? 1 : 0;
        }
        QCOMPARE(half.trace[2].stack.back().mask != 0, true);
        QCOMPARE(std::popcount(half.trace[2].stack.back().mask), taken);
        QVERIFY(half.trace[2].lanes[0].tip.find("data = ") != std::string::npos);
    }
    void customCondition() {
        const auto r = run(BranchKind::Custom, 0, 0, 0.5, "lane < 8");
        checkConsistent(r);
        QVERIFY(r.diverges);
        QCOMPARE(r.paths, 2);
        QCOMPARE(r.trace[2].stack.back().mask, 0xffu);
        QCOMPARE(r.trace[2].title, std::string("if (lane < 8)"));
        try {
            run(BranchKind::Custom, 0, 0, 0.5, "lane < (8");
            QFAIL("expected an ExprError");
        } catch (const ExprError& e) {
            QCOMPARE(e.column, 10);
        }
        QVERIFY_THROWS_EXCEPTION(ExprError, run(BranchKind::Custom, 0, 0, 0.5, "bogus"));
    }
    void invalidConfigurations() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, run(BranchKind::OddEven, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, run(BranchKind::Data, 0, 0, 1.5));
    }
    void deterministic() {
        for (const auto& name : branchKindNames()) {
            const auto kind = *parseBranchKind(name);
            const std::string cond = kind == BranchKind::Custom ? "warp + lane % 3" : "";
            const auto a = run(kind, 0, 0, 0.3, cond);
            const auto b = run(kind, 0, 0, 0.3, cond);
            QCOMPARE(a.trace, b.trace);
            QCOMPARE(branchKindName(kind), name);
        }
        QVERIFY(!parseBranchKind("sideways"));
    }
};

QTEST_APPLESS_MAIN(TestSimtInterpreter)
#include "test_simt_interpreter.moc"
