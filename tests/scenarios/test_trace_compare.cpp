// compareTraces (warpboard analyze --compare) on hand-written Kineto traces whose differences
// are known: a kernel removed, one doubled, one added, one unchanged; operators nested;
// names that differ in one template argument; per-rank averages when the rank counts differ.
#include "analysis/trace_compare.h"
#include "triage/kineto_trace_generator.h"

#include <QtTest>
#include <memory>
#include <string>
#include <vector>

using namespace wb;

namespace {

// One slice of a hand-written trace, in µs as Kineto writes them.
struct CmpTestEvent {
    std::string cat; // "kernel" (GPU stream 7) or "cpu_op" (the Python thread)
    std::string name;
    double ts = 0.0;
    double dur = 0.0;
};

std::string kinetoText(const std::vector<CmpTestEvent>& events, int rank) {
    std::string out = "{\"schemaVersion\": 1, \"distributedInfo\": {\"backend\": \"nccl\", "
                      "\"rank\": ";
    out.append(std::to_string(rank)).append("}, \"traceEvents\": [");
    bool first = true;
    for (const auto& e : events) {
        const bool gpu = e.cat == "kernel";
        out += first ? "\n" : ",\n";
        first = false;
        out.append("{\"ph\": \"X\", \"cat\": \"").append(e.cat);
        out.append("\", \"name\": \"").append(e.name);
        out.append("\", \"pid\": ").append(gpu ? "0" : "100");
        out.append(", \"tid\": ").append(gpu ? "7" : "100");
        out.append(", \"ts\": ").append(std::to_string(e.ts));
        out.append(", \"dur\": ").append(std::to_string(e.dur)).append("}");
    }
    return out + "\n]}\n";
}

// Traces kept alive for the inputs that point into them.
struct CmpTestSide {
    std::vector<std::shared_ptr<const ChromeTraceResult>> traces;
    std::vector<CompareInput> inputs;
};

CmpTestSide side(const std::vector<std::vector<CmpTestEvent>>& ranks, const std::string& tag) {
    CmpTestSide s;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const std::string name = tag + "/rank-" + std::to_string(r) + ".json";
        s.traces.push_back(importKinetoText(kinetoText(ranks[r], static_cast<int>(r)), name));
        s.inputs.push_back({name, &s.traces.back()->store});
    }
    return s;
}

const CompareItem* itemNamed(const CompareTable& t, const std::string& name) {
    for (const auto& item : t.items)
        if (item.name == name)
            return &item;
    return nullptr;
}

const std::string kGemm = "void gemm<128, 64>(float const*, float*)";
const std::string kGemmWide = "void gemm<128, 128>(float const*, float*)";
const std::string kNccl =
    "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

} // namespace

class TestTraceCompare : public QObject {
    Q_OBJECT
private slots:
    // Before: gemm 2 × 100 µs, softmax 50 µs, layernorm 30 µs, one all-reduce 200 µs.
    // After: gemm doubled (4 × 100 µs), softmax removed, layernorm unchanged, a new
    // elementwise 10 µs, the all-reduce 150 µs.
    void knownDifferences() {
        const CmpTestSide before = side({{
                                            {"kernel", kGemm, 0, 100},
                                            {"kernel", kGemm, 200, 100},
                                            {"kernel", "softmax", 400, 50},
                                            {"kernel", "layernorm", 500, 30},
                                            {"kernel", kNccl, 600, 200},
                                        }},
                                        "before");
        const CmpTestSide after = side({{
                                           {"kernel", kGemm, 0, 100},
                                           {"kernel", kGemm, 200, 100},
                                           {"kernel", kGemm, 400, 100},
                                           {"kernel", kGemm, 600, 100},
                                           {"kernel", "layernorm", 800, 30},
                                           {"kernel", "elementwise", 900, 10},
                                           {"kernel", kNccl, 1000, 150},
                                       }},
                                       "after");
        const TraceComparison c = compareTraces(before.inputs, after.inputs);
        QCOMPARE(c.before.ranks, 1);
        QCOMPARE(c.after.ranks, 1);
        QVERIFY(!c.perRankAverage);
        QCOMPARE(c.before.files, std::vector<std::string>{"before/rank-0.json"});
        const CompareTable& k = c.kernels;
        QCOMPARE(k.changed, 2); // gemm, all-reduce
        QCOMPARE(k.added, 1);
        QCOMPARE(k.removed, 1);
        QCOMPARE(k.unchanged, 1); // layernorm: counted, not listed
        QCOMPARE(k.items.size(), std::size_t{4});
        // By impact: gemm +200 µs, all-reduce −50 µs, softmax −50 µs (ties by |Δ count|:
        // softmax lost an event, the all-reduce did not), elementwise +10 µs.
        QCOMPARE(k.items[0].name, kGemm);
        QCOMPARE(k.items[1].name, std::string("softmax"));
        QCOMPARE(k.items[2].name, kNccl);
        QCOMPARE(k.items[3].name, std::string("elementwise"));
        const CompareItem& gemm = k.items[0];
        QCOMPARE(gemm.status, CompareStatus::Changed);
        QCOMPARE(gemm.beforeCount, 2.0);
        QCOMPARE(gemm.afterCount, 4.0);
        QCOMPARE(gemm.beforeNs, std::int64_t{200'000});
        QCOMPARE(gemm.afterNs, std::int64_t{400'000});
        QCOMPARE(gemm.deltaNs(), std::int64_t{200'000});
        QCOMPARE(k.items[1].status, CompareStatus::Removed);
        QCOMPARE(k.items[1].afterCount, 0.0);
        QCOMPARE(k.items[1].deltaNs(), std::int64_t{-50'000});
        QCOMPARE(k.items[2].status, CompareStatus::Changed); // NCCL kernels are kernels
        QCOMPARE(k.items[2].deltaCount(), 0.0);
        QCOMPARE(k.items[3].status, CompareStatus::Added);
        QCOMPARE(k.items[3].beforeNs, std::int64_t{0});
        QVERIFY(!itemNamed(k, "layernorm"));
        // Totals over every kernel, layernorm included: 480 µs in 5 → 590 µs in 7.
        QCOMPARE(k.beforeCount, 5.0);
        QCOMPARE(k.afterCount, 7.0);
        QCOMPARE(k.beforeNs, std::int64_t{480'000});
        QCOMPARE(k.afterNs, std::int64_t{590'000});
        QVERIFY(c.operators.items.empty());
        QCOMPARE(c.operators.unchanged, 0);
    }

    // Operators are CPU ops with inclusive times; kernels and ops are separate tables.
    void operatorsAreInclusive() {
        const CmpTestSide before = side({{
                                            {"cpu_op", "aten::linear", 0, 100},
                                            {"cpu_op", "aten::addmm", 10, 80},
                                            {"kernel", kGemm, 20, 60},
                                        }},
                                        "b");
        const CmpTestSide after = side({{
                                           {"cpu_op", "aten::linear", 0, 60},
                                           {"cpu_op", "aten::addmm", 10, 40},
                                           {"kernel", kGemm, 20, 30},
                                       }},
                                       "a");
        const TraceComparison c = compareTraces(before.inputs, after.inputs);
        const CompareItem* linear = itemNamed(c.operators, "aten::linear");
        const CompareItem* addmm = itemNamed(c.operators, "aten::addmm");
        QVERIFY(linear && addmm);
        QCOMPARE(linear->deltaNs(), std::int64_t{-40'000});
        QCOMPARE(addmm->deltaNs(), std::int64_t{-40'000});
        // Equal impact: the tie goes by name.
        QCOMPARE(c.operators.items[0].name, std::string("aten::addmm"));
        QCOMPARE(c.operators.beforeNs, std::int64_t{180'000}); // nested time counted twice
        QCOMPARE(c.kernels.items.size(), std::size_t{1});
        QVERIFY(!itemNamed(c.kernels, "aten::linear"));
    }

    // Names match exactly: one template argument apart is another kernel.
    void namesMatchExactly() {
        const CmpTestSide before = side({{{"kernel", kGemm, 0, 100}}}, "b");
        const CmpTestSide after = side({{{"kernel", kGemmWide, 0, 100}}}, "a");
        const TraceComparison c = compareTraces(before.inputs, after.inputs);
        QCOMPARE(c.kernels.removed, 1);
        QCOMPARE(c.kernels.added, 1);
        QCOMPARE(itemNamed(c.kernels, kGemm)->status, CompareStatus::Removed);
        QCOMPARE(itemNamed(c.kernels, kGemmWide)->status, CompareStatus::Added);
        QCOMPARE(c.kernels.beforeNs, c.kernels.afterNs);
    }

    // Same rank counts: sums over the ranks. Rank 1 of "after" runs gemm once more.
    void sameRankCountsSum() {
        const std::vector<CmpTestEvent> one = {{"kernel", kGemm, 0, 100}};
        const std::vector<CmpTestEvent> two = {{"kernel", kGemm, 0, 100},
                                               {"kernel", kGemm, 200, 100}};
        const CmpTestSide before = side({one, one}, "b");
        const CmpTestSide after = side({one, two}, "a");
        const TraceComparison c = compareTraces(before.inputs, after.inputs);
        QVERIFY(!c.perRankAverage);
        QCOMPARE(c.before.ranks, 2);
        QCOMPARE(c.kernels.items.size(), std::size_t{1});
        QCOMPARE(c.kernels.items[0].beforeCount, 2.0);
        QCOMPARE(c.kernels.items[0].afterCount, 3.0);
        QCOMPARE(c.kernels.items[0].afterNs, std::int64_t{300'000});
    }

    // Different rank counts: per-rank averages. 4 ranks of the same work against 2 ranks of
    // it is no change; 3 ranks doing 1, 1 and 2 gemms average 4/3 per rank.
    void differentRankCountsAverage() {
        const std::vector<CmpTestEvent> one = {{"kernel", kGemm, 0, 100},
                                               {"cpu_op", "aten::mm", 0, 120}};
        const CmpTestSide four = side({one, one, one, one}, "four");
        const CmpTestSide two = side({one, one}, "two");
        const TraceComparison same = compareTraces(four.inputs, two.inputs);
        QVERIFY(same.perRankAverage);
        QCOMPARE(same.before.ranks, 4);
        QCOMPARE(same.after.ranks, 2);
        QVERIFY(same.kernels.items.empty());
        QCOMPARE(same.kernels.unchanged, 1);
        QCOMPARE(same.operators.unchanged, 1);
        QCOMPARE(same.kernels.beforeNs, std::int64_t{100'000});

        const std::vector<CmpTestEvent> doubled = {
            {"kernel", kGemm, 0, 100}, {"kernel", kGemm, 200, 100}, {"cpu_op", "aten::mm", 0, 120}};
        const CmpTestSide three = side({one, one, doubled}, "three");
        const TraceComparison c = compareTraces(two.inputs, three.inputs);
        QVERIFY(c.perRankAverage);
        const CompareItem* gemm = itemNamed(c.kernels, kGemm);
        QVERIFY(gemm);
        QCOMPARE(gemm->beforeCount, 1.0);
        QCOMPARE(gemm->afterCount, 4.0 / 3.0);
        QCOMPARE(gemm->afterNs, std::int64_t{133'333}); // 400 µs ÷ 3, to the nanosecond
        QVERIFY(!itemNamed(c.operators, "aten::mm"));   // 1 per rank on both sides
    }

    // The same inputs in either order of files give the same comparison (by name, not by
    // the order events or files came in), and comparing a side with itself lists nothing.
    void deterministicAndSelfEmpty() {
        const std::vector<CmpTestEvent> r0 = {{"kernel", "a", 0, 10}, {"kernel", "b", 20, 10}};
        const std::vector<CmpTestEvent> r1 = {{"kernel", "b", 0, 10}, {"kernel", "c", 20, 30}};
        const CmpTestSide s = side({r0, r1}, "s");
        const TraceComparison self = compareTraces(s.inputs, s.inputs);
        QVERIFY(self.kernels.items.empty());
        QCOMPARE(self.kernels.unchanged, 3);
        const CmpTestSide other = side({{{"kernel", "a", 0, 20}}, r1}, "o");
        const TraceComparison x = compareTraces(s.inputs, other.inputs);
        const CmpTestSide otherSwapped = side({r1, {{"kernel", "a", 0, 20}}}, "o");
        const TraceComparison y = compareTraces(s.inputs, otherSwapped.inputs);
        QCOMPARE(x.kernels.items.size(), y.kernels.items.size());
        for (std::size_t i = 0; i < x.kernels.items.size(); ++i) {
            QCOMPARE(x.kernels.items[i].name, y.kernels.items[i].name);
            QCOMPARE(x.kernels.items[i].afterNs, y.kernels.items[i].afterNs);
        }
    }

    void statusNames() {
        QCOMPARE(std::string(compareStatusName(CompareStatus::Added)), std::string("added"));
        QCOMPARE(std::string(compareStatusName(CompareStatus::Removed)), std::string("removed"));
        QCOMPARE(std::string(compareStatusName(CompareStatus::Changed)), std::string("changed"));
        QCOMPARE(std::string(compareStatusName(CompareStatus::Unchanged)),
                 std::string("unchanged"));
    }
};

QTEST_GUILESS_MAIN(TestTraceCompare)
#include "test_trace_compare.moc"
