#pragma once
// The parameter sweep every lesson is held to: each parameter at its minimum, default and
// maximum, every choice, plus seeded random combinations; every step builds, and every
// number its words quote is a value the model computed (Story::results, Step::results, or a
// parameter as the user set it).
#include "engine/number_format.h"
#include "engine/registry.h"
#include "engine/text_numbers.h"

#include <QtTest>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <variant>
#include <vector>

namespace wb::test {

// The scenarios held to the lesson mechanism so far (the sweep, the whiteboard answer, check
// yourself, resting frames that differ); the rest join as their lessons are rebuilt.
inline constexpr const char* kSweptScenarios[] = {
    "silicon-mapping", "memory-hierarchy",   "occupancy",
    "roofline",        "warp-divergence",    "coalescing-transpose",
    "ring-allreduce",  "fabric-mapping",     "parallelism-strategies",
    "nccl-topology",   "roce-vs-infiniband", "slowdown-triage",
    "moe-routing",     "silent-hang",        "failures-checkpoint",
    "memory-budget",   "scale-fluency",      "scheduler",
    "blast-radius",
};

struct SweepCase {
    std::string label; // "blocks=1", "random #3", "defaults"
    Params params;
};

// Minimum, default and maximum of each numeric parameter, each choice, and `randomCount`
// combinations from one seeded generator (reruns see the same cases).
inline std::vector<SweepCase> sweepCases(const Scenario& s, int randomCount = 6,
                                         unsigned seed = 20261205u) {
    std::vector<SweepCase> out{{"defaults", s.defaultParams()}};
    const std::vector<ParamSpec> specs = s.parameters();
    for (const ParamSpec& spec : specs) {
        if (spec.kind == ParamSpec::Kind::Text)
            continue;
        if (spec.kind == ParamSpec::Kind::Choice) {
            for (const std::string& c : spec.choices) {
                Params p = s.defaultParams();
                p.set(spec.name, c);
                out.push_back({spec.name + "=" + c, p});
            }
            continue;
        }
        for (double v : {spec.min, spec.max}) {
            Params p = s.defaultParams();
            p.setNumber(spec.name, v);
            out.push_back({spec.name + "=" + formatNumber(v), p});
        }
    }
    std::mt19937 rng(seed);
    for (int i = 0; i < randomCount; ++i) {
        Params p = s.defaultParams();
        for (const ParamSpec& spec : specs) {
            if (spec.kind == ParamSpec::Kind::Choice) {
                std::uniform_int_distribution<std::size_t> pick(0, spec.choices.size() - 1);
                p.set(spec.name, spec.choices[pick(rng)]);
            } else if (spec.kind != ParamSpec::Kind::Text) {
                std::uniform_real_distribution<double> u(0.0, 1.0);
                const double x = u(rng);
                double v = spec.logScale && spec.min > 0
                               ? spec.min * std::pow(spec.max / spec.min, x)
                               : spec.min + (spec.max - spec.min) * x;
                if (spec.kind == ParamSpec::Kind::Integer)
                    v = std::round(v);
                p.setNumber(spec.name, v);
            }
        }
        out.push_back({"random #" + std::to_string(i + 1), p});
    }
    return out;
}

// Builds, or nullopt when the model rejects the combination with a message (a block too
// big for the register file): rejecting is allowed, crashing or a silent failure is not.
inline std::optional<Story> sweepBuild(const Scenario& s, const Params& p) {
    try {
        // Parameters and the shipped inputs say everything: no test sets anything up first.
        return s.build(p, ScenarioInputs::shipped());
    } catch (const std::exception& e) {
        if (std::string(e.what()).empty())
            qFatal("%s rejected parameters without a message", s.id().c_str());
        return std::nullopt;
    }
}

// The words of a step at rest: its title and narration, and the text its frames carry
// (titles, fact labels and values, marker labels, captions). Sources are left out: they
// cite sections, tables and years, not results.
inline std::vector<std::string> restingWords(const Step& step) {
    std::vector<std::string> out{step.title, step.narration};
    const Frames frames = step.frames(1.0);
    for (const Frame& frame : frames.items) {
        std::visit(
            [&](const auto& f) {
                using F = std::decay_t<decltype(f)>;
                if constexpr (std::is_same_v<F, FactsFrame>) {
                    out.push_back(f.title);
                    for (const FactRow& r : f.rows) {
                        out.push_back(r.label);
                        out.push_back(r.value);
                    }
                } else if constexpr (std::is_same_v<F, ChartFrame>) {
                    out.push_back(f.title);
                    for (const ChartMarker& m : f.markers)
                        out.push_back(m.label);
                } else if constexpr (std::is_same_v<F, BarChartFrame>) {
                    out.push_back(f.title);
                    out.push_back(f.caption);
                    for (const BarCategory& c : f.categories)
                        out.push_back(c.label);
                } else if constexpr (std::is_same_v<F, LadderFrame>) {
                    out.push_back(f.title);
                    out.push_back(f.gaugeLabel);
                    for (const LadderLevel& l : f.levels) {
                        out.push_back(l.name);
                        out.push_back(l.capacity);
                        out.push_back(l.latencyLabel);
                        out.push_back(l.bandwidthLabel);
                    }
                } else if constexpr (std::is_same_v<F, ThreadMapFrame>) {
                    out.push_back(f.title);
                    out.push_back(f.note);
                } else if constexpr (requires { f.title; }) {
                    out.push_back(f.title);
                }
            },
            frame);
    }
    return out;
}

// Numbers in `words` that are none of `values`: "2.73 GB in “…”" per miss.
inline std::vector<std::string> unexplainedNumbers(const std::vector<std::string>& words,
                                                   const std::vector<double>& values) {
    std::vector<std::string> misses;
    for (const std::string& w : words)
        for (const QuotedNumber& q : quotedNumbers(w)) {
            bool found = false;
            for (double v : values)
                if (shows(q, v)) {
                    found = true;
                    break;
                }
            if (!found)
                misses.push_back(q.text + " in \"" + w + "\"");
        }
    return misses;
}

// What a step may quote: the story's and the step's results and the parameters' values.
inline std::vector<double> quotableValues(const Scenario& s, const Params& p, const Story& story,
                                          const Step& step) {
    std::vector<double> out;
    for (const ResultValue& r : story.results)
        out.push_back(r.value);
    for (const ResultValue& r : step.results)
        out.push_back(r.value);
    for (const ParamSpec& spec : s.parameters())
        if (spec.kind == ParamSpec::Kind::Integer || spec.kind == ParamSpec::Kind::Real)
            out.push_back(p.number(spec.name));
    return out;
}

} // namespace wb::test
