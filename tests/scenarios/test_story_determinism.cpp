// Every registered scenario: well-formed metadata, 4-10 steps, and frames that are a pure
// function of (parameters, step, t) — two independent builds give identical frames.
//
// Building stories is the cost (a MoE router or a fabric simulation runs in build()), so each
// parameter set is built once for the shape checks and the first side of the determinism
// check, and once more, independently, for the second side. ctest runs the scenarios in
// shards (WB_TEST_SHARD=k/n: the scenarios whose registry index is k modulo n), in parallel.
#include "engine/registry.h"
#include "scenario_sweep.h"

#include <QtTest>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>

using namespace wb;

namespace {
struct Variation {
    Params params;
    Story story;
};

// The defaults and a few non-default parameter sets, built: every choice of each choice
// parameter, each numeric parameter at its min and max (extremes a model rejects, such as a
// block too big for the register file, are left out).
std::vector<Variation> buildVariations(const Scenario& s) {
    std::vector<Params> candidates{s.defaultParams()};
    for (const auto& spec : s.parameters()) {
        if (spec.kind == ParamSpec::Kind::Text)
            continue; // free text is exercised by each scenario's own tests
        if (spec.kind == ParamSpec::Kind::Choice) {
            for (const auto& c : spec.choices) {
                Params p = s.defaultParams();
                p.set(spec.name, c);
                candidates.push_back(p);
            }
            continue;
        }
        for (double v : {spec.min, spec.max}) {
            Params p = s.defaultParams();
            p.setNumber(spec.name, v);
            candidates.push_back(p);
        }
    }
    std::vector<Variation> out;
    for (auto& p : candidates)
        if (auto story = wb::test::sweepBuild(s, p))
            out.push_back({std::move(p), std::move(*story)});
    return out;
}

// This process's share of the scenarios (all of them without WB_TEST_SHARD).
std::vector<const Scenario*> shardScenarios() {
    int k = 0;
    int n = 1;
    if (const char* shard = std::getenv("WB_TEST_SHARD")) {
        if (std::sscanf(shard, "%d/%d", &k, &n) != 2 || n < 1 || k < 0 || k >= n)
            qFatal("WB_TEST_SHARD must be k/n with 0 <= k < n, got %s", shard);
    }
    std::vector<const Scenario*> out;
    for (std::size_t i = 0; i < allScenarios().size(); ++i)
        if (static_cast<int>(i % static_cast<std::size_t>(n)) == k)
            out.push_back(allScenarios()[i].get());
    return out;
}

// Built once per process and shared by the test functions.
const std::map<const Scenario*, std::vector<Variation>>& variations() {
    static const auto built = [] {
        std::map<const Scenario*, std::vector<Variation>> m;
        for (const Scenario* s : shardScenarios())
            m[s] = buildVariations(*s);
        return m;
    }();
    return built;
}
} // namespace

class TestStoryDeterminism : public QObject {
    Q_OBJECT
private slots:
    void metadataIsComplete() {
        // Registry-wide facts are cheap: every shard checks them; the per-scenario ones are
        // this shard's.
        QVERIFY(allScenarios().size() >= 2);
        const std::regex kebab("^[a-z0-9]+(-[a-z0-9]+)*$");
        for (const Scenario* s : shardScenarios()) {
            const QString id = QString::fromStdString(s->id());
            QVERIFY2(std::regex_match(s->id(), kebab), qPrintable(id));
            QVERIFY(!s->title().empty());
            QVERIFY(!s->question().empty());
            QVERIFY(s->answer().size() > 200);
            QVERIFY(!s->sources().empty());
            for (const auto& src : s->sources())
                QVERIFY2(src.url.rfind("https://", 0) == 0, qPrintable(id));
            QCOMPARE(findScenario(s->id()), s);
        }
        QVERIFY(findScenario("ring-allreduce"));
        QVERIFY(findScenario("roofline"));
        QVERIFY(!findScenario("nope"));
    }
    void stepsAreWellFormed() {
        for (const auto& [s, built] : variations()) {
            QVERIFY2(!built.empty(), qPrintable(QString::fromStdString(s->id())));
            for (const auto& [p, story] : built) {
                QVERIFY2(story.steps.size() >= 4 && story.steps.size() <= 10,
                         qPrintable(QString::fromStdString(s->id())));
                QVERIFY(!story.provenance.empty());
                for (const auto& step : story.steps) {
                    QVERIFY(!step.title.empty());
                    QVERIFY(!step.narration.empty());
                    QVERIFY(step.durationS > 0);
                    QVERIFY(!step.frames(0.0).items.empty());
                }
            }
        }
    }
    void sameParamsAndTimeGiveSameFrames() {
        for (const auto& [s, built] : variations()) {
            for (const auto& [p, a] : built) {
                // A second, independent build, from inputs made afresh (no imports, no live
                // recordings): equal inputs, not the same object, give the same frames.
                const ScenarioInputs fresh;
                const Story b = s->build(p, fresh);
                QCOMPARE(a.steps.size(), b.steps.size());
                for (size_t i = 0; i < a.steps.size(); ++i) {
                    for (double t : {0.0, 0.13, 0.5, 0.77, 1.0}) {
                        const Frames fa = a.steps[i].frames(t);
                        const std::string where =
                            s->id() + " step " + std::to_string(i + 1) + " t " + std::to_string(t);
                        QVERIFY2(fa == b.steps[i].frames(t), where.c_str());
                        // No hidden state in the step.
                        QVERIFY2(fa == a.steps[i].frames(t), where.c_str());
                    }
                }
            }
        }
    }
    void parametersChangeWhatMoves() {
        // Changing a parameter must change some frame: nothing is a canned picture.
        for (const auto& [s, built] : variations()) {
            const Story& base = built.front().story; // the defaults
            for (const auto& spec : s->parameters()) {
                if (spec.kind == ParamSpec::Kind::Text)
                    continue;
                // A built variation when there is one (every choice, min and max), else a
                // build of its own.
                auto storyOf = [&](const Params& q) -> std::optional<Story> {
                    for (const auto& v : built)
                        if (v.params == q)
                            return v.story;
                    return wb::test::sweepBuild(*s, q);
                };
                std::optional<Story> changed;
                if (spec.kind == ParamSpec::Kind::Choice) {
                    const auto other =
                        std::find_if(spec.choices.begin(), spec.choices.end(),
                                     [&](const auto& c) { return c != spec.defaultChoice; });
                    Params p = s->defaultParams();
                    p.set(spec.name, *other);
                    changed = storyOf(p);
                } else {
                    // The first of max, min, midpoint that differs from the default and that
                    // the model accepts.
                    for (double v : {spec.max, spec.min, (spec.min + spec.max) / 2}) {
                        if (v == spec.defaultValue)
                            continue;
                        Params q = s->defaultParams();
                        q.setNumber(spec.name,
                                    spec.kind == ParamSpec::Kind::Integer ? std::round(v) : v);
                        if ((changed = storyOf(q)))
                            break;
                    }
                }
                QVERIFY2(changed, qPrintable(QString::fromStdString(s->id() + ": " + spec.name)));
                bool differs = changed->steps.size() != base.steps.size();
                for (size_t i = 0; !differs && i < base.steps.size(); ++i)
                    for (double t : {0.5, 1.0})
                        differs |= !(base.steps[i].frames(t) == changed->steps[i].frames(t));
                QVERIFY2(differs, qPrintable(QString::fromStdString(s->id() + ": " + spec.name)));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestStoryDeterminism)
#include "test_story_determinism.moc"
