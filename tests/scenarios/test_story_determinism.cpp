// Every registered scenario: well-formed metadata, 4-10 steps, and frames that are a pure
// function of (parameters, step, t) — two independent builds give identical frames.
#include "engine/registry.h"

#include <QtTest>
#include <cmath>
#include <optional>
#include <regex>

using namespace wb;

namespace {
// Builds, or reports why the model rejected the parameters (never crashes).
std::optional<Story> tryBuild(const Scenario& s, const Params& p) {
    try {
        return s.build(p);
    } catch (const std::exception& e) {
        if (std::string(e.what()).empty())
            qFatal("%s rejected parameters without a message", s.id().c_str());
        return std::nullopt;
    }
}

// A few non-default parameter sets: each numeric parameter at its min and max (extremes a
// model rejects, such as a block too big for the register file, are left out).
std::vector<Params> variations(const Scenario& s) {
    std::vector<Params> out{s.defaultParams()};
    for (const auto& spec : s.parameters()) {
        if (spec.kind == ParamSpec::Kind::Text)
            continue; // free text is exercised by each scenario's own tests
        if (spec.kind == ParamSpec::Kind::Choice) {
            for (const auto& c : spec.choices) {
                Params p = s.defaultParams();
                p.set(spec.name, c);
                out.push_back(p);
            }
            continue;
        }
        for (double v : {spec.min, spec.max}) {
            Params p = s.defaultParams();
            p.setNumber(spec.name, v);
            if (tryBuild(s, p))
                out.push_back(p);
        }
    }
    return out;
}
} // namespace

class TestStoryDeterminism : public QObject {
    Q_OBJECT
private slots:
    void metadataIsComplete() {
        QVERIFY(allScenarios().size() >= 2);
        const std::regex kebab("^[a-z0-9]+(-[a-z0-9]+)*$");
        for (const auto& s : allScenarios()) {
            const QString id = QString::fromStdString(s->id());
            QVERIFY2(std::regex_match(s->id(), kebab), qPrintable(id));
            QVERIFY(!s->title().empty());
            QVERIFY(!s->question().empty());
            QVERIFY(s->answer().size() > 200);
            QVERIFY(!s->sources().empty());
            for (const auto& src : s->sources())
                QVERIFY2(src.url.rfind("https://", 0) == 0, qPrintable(id));
            QCOMPARE(findScenario(s->id()), s.get());
        }
        QVERIFY(findScenario("ring-allreduce"));
        QVERIFY(findScenario("roofline"));
        QVERIFY(!findScenario("nope"));
    }
    void stepsAreWellFormed() {
        for (const auto& s : allScenarios()) {
            for (const Params& p : variations(*s)) {
                const Story story = s->build(p);
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
        for (const auto& s : allScenarios()) {
            for (const Params& p : variations(*s)) {
                const Story a = s->build(p);
                const Story b = s->build(p);
                QCOMPARE(a.steps.size(), b.steps.size());
                for (size_t i = 0; i < a.steps.size(); ++i) {
                    for (double t : {0.0, 0.13, 0.5, 0.77, 1.0}) {
                        const Frames fa = a.steps[i].frames(t);
                        QVERIFY(fa == b.steps[i].frames(t));
                        QVERIFY(fa == a.steps[i].frames(t)); // no hidden state in the step
                    }
                }
            }
        }
    }
    void parametersChangeWhatMoves() {
        // Changing a parameter must change some frame: nothing is a canned picture.
        for (const auto& s : allScenarios()) {
            const Story base = s->build(s->defaultParams());
            for (const auto& spec : s->parameters()) {
                if (spec.kind == ParamSpec::Kind::Text)
                    continue;
                Params p = s->defaultParams();
                if (spec.kind == ParamSpec::Kind::Choice) {
                    const auto other =
                        std::find_if(spec.choices.begin(), spec.choices.end(),
                                     [&](const auto& c) { return c != spec.defaultChoice; });
                    p.set(spec.name, *other);
                } else {
                    // The first of max, min, midpoint that differs from the default and that
                    // the model accepts.
                    for (double v : {spec.max, spec.min, (spec.min + spec.max) / 2}) {
                        Params q = p;
                        q.setNumber(spec.name,
                                    spec.kind == ParamSpec::Kind::Integer ? std::round(v) : v);
                        if (v != spec.defaultValue && tryBuild(*s, q)) {
                            p = q;
                            break;
                        }
                    }
                }
                const Story changed = s->build(p);
                bool differs = changed.steps.size() != base.steps.size();
                for (size_t i = 0; !differs && i < base.steps.size(); ++i)
                    for (double t : {0.5, 1.0})
                        differs |= !(base.steps[i].frames(t) == changed.steps[i].frames(t));
                QVERIFY2(differs, qPrintable(QString::fromStdString(s->id() + ": " + spec.name)));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestStoryDeterminism)
#include "test_story_determinism.moc"
