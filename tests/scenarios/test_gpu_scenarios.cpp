// The "inside one GPU" scenarios show what their models compute: the frames carry the
// numbers of FACTS §12-13, and the user's own expressions drive the views.
#include "cuda/divergence_reference.h"
#include "engine/number_format.h"
#include "engine/registry.h"
#include "gpu/expr/expr_error.h"
#include "gpu/simt_interpreter.h"

#include <QtTest>
#include <algorithm>
#include <optional>
#include <set>

using namespace wb;

namespace {
Story build(const char* id, std::initializer_list<std::pair<const char*, const char*>> set = {}) {
    const Scenario& s = *findScenario(id);
    Params p = s.defaultParams();
    for (const auto& [k, v] : set)
        if (auto e = p.set(k, v))
            qFatal("%s", e->c_str());
    return s.build(p);
}
// A copy of the first frame of kind F (frames are built per call, so no pointers into them).
template <typename F> std::optional<F> first(const Frames& frames) {
    for (const auto& item : frames.items)
        if (const auto f = std::get_if<F>(&item))
            return *f;
    return std::nullopt;
}
} // namespace

class TestGpuScenarios : public QObject {
    Q_OBJECT
private slots:
    void allFiveAreRegisteredInTheirGroup() {
        for (const char* id : {"silicon-mapping", "warp-divergence", "memory-hierarchy",
                               "coalescing-transpose", "occupancy"}) {
            const Scenario* s = findScenario(id);
            QVERIFY2(s, id);
            QCOMPARE(s->group(), ScenarioGroup::InsideOneGpu);
        }
    }
    void divergenceShowsIdleLanesOnlyWhenLanesDisagree() {
        const Story odd = build("warp-divergence");
        const auto mid = first<WarpFrame>(odd.steps[2].frames(0.3));
        QVERIFY(mid);
        int active = 0;
        for (const auto& lane : mid->lanes)
            active += lane.active;
        QCOMPARE(active, 16); // one of the two serialized paths
        const Story uniform = build("warp-divergence", {{"branch", "warp-uniform"}});
        const auto end = first<WarpFrame>(uniform.steps[3].frames(1.0));
        QVERIFY(end && !end->diverged);
        QCOMPARE(end->efficiency, 1.0);
    }
    void serializedPathsStayOnScreenAtRest() {
        // "Serialized paths" rests on the last instruction before the join: the else-path's
        // even lanes run, and the record keeps the then-path's odd lanes beside the lines it
        // ran. "Reconverged" rests at the end, the record whole, the join with all 32 again.
        const Story odd = build("warp-divergence");
        const auto rest = first<WarpFrame>(odd.steps[2].frames(1.0));
        QVERIFY(rest);
        QCOMPARE(rest->pc, 7);
        QVERIFY(rest->lanes[4].active && !rest->lanes[5].active);
        const auto masksOf = [](const WarpFrame& f) {
            std::vector<std::uint32_t> masks;
            for (const IssuedMask& m : f.issuedMasks)
                masks.push_back(m.mask);
            return masks;
        };
        std::vector<std::uint32_t> expected{
            0xffffffffu, 0xffffffffu, 0xffffffffu, // before and the branch
            0xaaaaaaaau, 0xaaaaaaaau, 0xaaaaaaaau, // then-path: odd lanes
            0x55555555u, 0x55555555u};             // else-path: even lanes
        QCOMPARE(masksOf(*rest), expected);
        const auto end = first<WarpFrame>(odd.steps[3].frames(1.0));
        QVERIFY(end);
        expected.insert(expected.end(), {0xffffffffu, 0xffffffffu}); // joined, to the end
        QCOMPARE(masksOf(*end), expected);
        QCOMPARE(static_cast<int>(end->issuedMasks.size()), end->issued);
        // Mid-animation the record holds only what has issued.
        const auto mid = first<WarpFrame>(odd.steps[2].frames(0.3));
        QVERIFY(mid && mid->issuedMasks.size() < rest->issuedMasks.size());
        // Time only moves forward from step to step.
        QVERIFY(rest->issued < end->issued);
    }
    void theBranchHeaderAndPanelQuoteOneEfficiency() {
        // The lane view's counter and the panel beside it quote the same frame's efficiency
        // in the same words: 100 % at the branch, before either path has run.
        for (const char* kind : {"odd-even", "nested", "data"}) {
            const Story s = build("warp-divergence", {{"branch", kind}});
            for (int step : {1, 2}) {
                const Frames frames = s.steps[static_cast<size_t>(step)].frames(1.0);
                const auto warp = first<WarpFrame>(frames);
                const auto facts = first<FactsFrame>(frames);
                QVERIFY(warp && facts);
                const auto row =
                    std::find_if(facts->rows.begin(), facts->rows.end(), [](const FactRow& r) {
                        return r.label.rfind("SIMT efficiency so far", 0) == 0;
                    });
                QVERIFY2(row != facts->rows.end(), kind);
                QCOMPARE(row->value, formatShare(warp->efficiency));
                if (step == 1)
                    QCOMPARE(row->value, std::string("100 %"));
            }
        }
    }
    void everyCaseIsLabelledApart() {
        const Story s = build("warp-divergence", {{"branch", "custom"}});
        const auto facts = first<FactsFrame>(s.steps[4].frames(1.0));
        QVERIFY(facts);
        QCOMPARE(facts->rows.size(), size_t(7)); // six fixed kinds and the user's condition
        std::set<std::string> labels;
        for (const FactRow& r : facts->rows)
            labels.insert(r.label);
        QCOMPARE(labels.size(), facts->rows.size());
        QVERIFY(labels.contains("nested: if (threadIdx.x < 16) { if (threadIdx.x % 2) }"));
        QVERIFY(labels.contains("if (threadIdx.x < 16): a half-warp boundary"));
        QVERIFY(labels.contains("yours: if (lane < 8)"));
    }
    void theTrapShowsBothWarpsSideBySide() {
        for (const char* warp : {"0", "1"}) {
            const Story s = build("warp-divergence", {{"warp", warp}});
            const Frames frames = s.steps[5].frames(1.0);
            QCOMPARE(frames.arrangement, Arrangement::Grid);
            QCOMPARE(frames.items.size(), size_t(2));
            const auto& w0 = std::get<WarpFrame>(frames.items[0]);
            const auto& w1 = std::get<WarpFrame>(frames.items[1]);
            QCOMPARE(w0.title, std::string("Warp 0, threads 0–31: then-path only"));
            QCOMPARE(w1.title, std::string("Warp 1, threads 32–63: else-path only"));
            QVERIFY(!w0.diverged && !w1.diverged);
            // Warp 0 ran the then-path (line 3), warp 1 the else-path (line 6).
            const auto ran = [](const WarpFrame& f, int pc) {
                return std::any_of(f.issuedMasks.begin(), f.issuedMasks.end(),
                                   [pc](const IssuedMask& m) { return m.pc == pc; });
            };
            QVERIFY(ran(w0, 3) && !ran(w0, 6));
            QVERIFY(ran(w1, 6) && !ran(w1, 3));
        }
    }
    void customConditionsDriveTheInterpreterAndReportColumns() {
        const Story custom =
            build("warp-divergence", {{"branch", "custom"}, {"condition", "lane < 8"}});
        const auto end = first<WarpFrame>(custom.steps[3].frames(1.0));
        QVERIFY(end && end->diverged);
        const Scenario& s = *findScenario("warp-divergence");
        Params p = s.defaultParams();
        p.set("branch", "custom");
        p.set("condition", "lane < (8");
        try {
            s.build(p);
            QFAIL("a broken condition must be rejected");
        } catch (const ExprError& e) {
            QVERIFY(e.column > 0);
            QVERIFY(QString(e.what()).contains("column"));
        }
    }
    void interpreterDataIsWhatTheKernelReads() {
        // The data branch's values per lane must be the ones the CUDA kernel's array holds:
        // thread t of the block gets draw t, so warp 1 starts at draw 32.
        const auto reference = divergenceData(42, 64);
        for (int warp : {0, 1}) {
            SimtConfig c;
            c.kind = BranchKind::Data;
            c.warp = warp;
            c.seed = 42;
            const SimtResult r = SimtInterpreter(c).run();
            QCOMPARE(r.data.size(), size_t(32));
            for (size_t lane = 0; lane < 32; ++lane)
                QCOMPARE(r.data[lane], std::int64_t(reference[size_t(warp) * 32 + lane]));
        }
    }
    void transposeStepsCarryTheSectorCounts() {
        const Story t = build("coalescing-transpose");
        // Naive: the first instruction (load) coalesces, the store it rests on does not.
        const auto load = first<MemoryAccessFrame>(t.steps[1].frames(0.0));
        const auto store = first<MemoryAccessFrame>(t.steps[1].frames(1.0));
        QVERIFY(load && store);
        QCOMPARE(load->sectorsPerRequest, 4.0);
        QCOMPARE(store->sectorsPerRequest, 32.0);
        // The tiled step plays its four instructions, then rests on the column read and its
        // 32 wavefronts where one would do; the padded step rests on its conflict-free one.
        const auto tiled = first<MemoryAccessFrame>(t.steps[2].frames(1.0));
        const auto padded = first<MemoryAccessFrame>(t.steps[3].frames(1.0));
        QVERIFY(tiled && padded);
        QCOMPARE(tiled->space, MemoryAccessFrame::Space::Shared);
        QCOMPARE(tiled->instruction, std::string("ld.shared.f32"));
        QCOMPARE(tiled->wavefronts, 32);
        QCOMPARE(extraWavefronts(*tiled), 31);
        QCOMPARE(padded->space, MemoryAccessFrame::Space::Shared);
        QCOMPARE(padded->wavefronts, 1);
        QCOMPARE(extraWavefronts(*padded), 0);
        QVERIFY(t.steps[2].title.find("32 wavefronts where 1 would do") != std::string::npos);
        QVERIFY(t.steps[3].title.find("[32][33]: conflict-free") != std::string::npos);
        // Before it rests, the tiled step shows the kernel in program order.
        QCOMPARE(first<MemoryAccessFrame>(t.steps[2].frames(0.0))->instruction,
                 std::string("ld.global.f32"));
        QCOMPARE(first<MemoryAccessFrame>(t.steps[2].frames(0.6))->instruction,
                 std::string("st.global.f32"));
    }
    // 8-byte elements: 32 × 8 B = 256 B need two wavefronts, so the padded column read's two
    // are no conflict and the unpadded one's 32 are 30 beyond the minimum; the words follow.
    void transposeWordsFollowTheElementSize() {
        const Story t8 = build("coalescing-transpose", {{"elem-bytes", "8"}});
        const auto padded = first<MemoryAccessFrame>(t8.steps[3].frames(1.0));
        QVERIFY(padded);
        QCOMPARE(padded->wavefronts, 2);
        QCOMPARE(padded->minWavefronts, 2);
        QVERIFY2(t8.steps[3].title.find("conflict-free") != std::string::npos,
                 t8.steps[3].title.c_str());
        QVERIFY2(t8.steps[2].title.find("32 wavefronts where 2 would do") != std::string::npos,
                 t8.steps[2].title.c_str());
        QVERIFY(t8.steps[3].narration.find("No bank conflict") != std::string::npos);
        // Where the model's time hides the tiled kernel's conflicts, the bill says so instead of
        // claiming there are none.
        const std::string& bill = t8.steps[4].narration;
        QVERIFY2(bill.find("not the column read's 30 extra wavefronts") != std::string::npos,
                 bill.c_str());
        QVERIFY(bill.find("no bank conflict") == std::string::npos);
        // 1-byte elements: a warp asks for 32 B; the naive store still touches 32 sectors, the
        // load one, and the narration says so instead of 128 useful bytes.
        const Story t1 = build("coalescing-transpose", {{"elem-bytes", "1"}});
        QVERIFY2(t1.steps[1].narration.find("1 sector for 32 B") != std::string::npos,
                 t1.steps[1].narration.c_str());
        QVERIFY2(t1.steps[1].narration.find("the same 32 B take 32 sectors") != std::string::npos,
                 t1.steps[1].narration.c_str());
        QVERIFY(t1.steps[1].narration.find("128") == std::string::npos);
        QVERIFY(t1.steps[2].title.find("8 wavefronts where 1 would do") != std::string::npos);
        // The check-yourself answers are this run's.
        QCOMPARE(t1.checks.front().answer, 32.0);
        QCOMPARE(t8.checks.back().answer, 32.0);
        QCOMPARE(build("coalescing-transpose", {{"elem-bytes", "2"}}).checks.back().answer, 16.0);
    }
    void yourOwnPatternFollowsTheExpression() {
        const Story s = build("coalescing-transpose", {{"expr", "lane * 33"}});
        const auto global = first<MemoryAccessFrame>(s.steps[s.steps.size() - 2].frames(0.0));
        const auto shared = first<MemoryAccessFrame>(s.steps[s.steps.size() - 2].frames(1.0));
        QVERIFY(global && shared);
        QCOMPARE(global->sectorsPerRequest, 32.0);
        QCOMPARE(shared->wavefronts, 1);
        const Story misaligned = build("coalescing-transpose", {{"offset", "1"}});
        QCOMPARE(first<MemoryAccessFrame>(misaligned.steps[misaligned.steps.size() - 2].frames(0.0))
                     ->sectorsPerRequest,
                 5.0);
    }
    void wavesAndTheTail() {
        // 2,000 blocks of 256 threads, 32 registers: 8 blocks per SM on 132 SMs. The tail wave
        // is the step before the whiteboard answer.
        const Story s = build("silicon-mapping", {{"registers-per-thread", "32"}});
        const auto tail = first<SmGridFrame>(s.steps[s.steps.size() - 2].frames(1.0));
        QVERIFY(tail);
        QCOMPARE(tail->smCount, 132);
        QCOMPARE(tail->waves, 2);
        QCOMPARE(tail->maxBlocksPerSm, 8);
        QVERIFY(std::fabs(tail->tailUtilization - 944.0 / 1056.0) < 1e-12);
    }
    void occupancyStoryShowsTheLimiterAndTheIlpClaim() {
        const Story s = build("occupancy"); // 256 threads × 128 registers: 25 %
        const auto facts = first<FactsFrame>(s.steps[0].frames(1.0));
        QVERIFY(facts);
        QVERIFY(facts->rows.back().value.rfind("25 %", 0) == 0);
        const auto lowOcc = first<IssueTimelineFrame>(s.steps[6].frames(1.0));
        const auto highOcc = first<IssueTimelineFrame>(s.steps[5].frames(1.0));
        const auto single = first<IssueTimelineFrame>(s.steps[4].frames(1.0));
        QVERIFY(lowOcc && highOcc && single);
        QVERIFY(single->utilization < 0.1);
        QVERIFY(lowOcc->utilization >= highOcc->utilization * 0.95);
    }
    void memoryLadderHasEveryLevelAndAGauge() {
        const Story s = build("memory-hierarchy");
        const auto ladder = first<LadderFrame>(s.steps[3].frames(1.0));
        QVERIFY(ladder);
        QCOMPARE(ladder->levels.size(), size_t(7));
        // Per SM: 500 ns × 3.35 TB/s ÷ 132 ≈ 12.7 kB, against what the warps × ILP provide.
        QVERIFY(ladder->bytesInFlightNeeded > 5e3 && ladder->bytesInFlightNeeded < 3e4);
        QVERIFY(ladder->bytesInFlightProvided > 0.0);
        const auto stairs = first<ChartFrame>(s.steps[4].frames(1.0));
        QVERIFY(stairs && stairs->series.front().points.size() > 20);
    }
};

QTEST_APPLESS_MAIN(TestGpuScenarios)
#include "test_gpu_scenarios.moc"
