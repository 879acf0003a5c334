#pragma once
// Helpers the scenario tests share: build a scenario with parameters (and, where a test needs
// them, explicit inputs: imported files, live recordings), pick frames of a kind, find a step,
// make a "recorded" trace, round-trip it through JSON, compare whole stories. No test sets a
// global: what a story draws besides its parameters is the ScenarioInputs it is given.
#include "calc/calc_models.h"
#include "engine/registry.h"
#include "engine/scenario_inputs.h"
#include "trace/trace_json.h"

#include <QtTest>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace wb::test {

// One `warpboard calc` model run in-process with --key value arguments; a rejected
// argument is a test bug (qFatal), a rejected combination throws CalcError.
inline nlohmann::ordered_json
runCalc(const char* model, std::initializer_list<std::pair<const char*, const char*>> args) {
    const CalcModel* m = findCalcModel(model);
    if (!m)
        qFatal("no calc model %s", model);
    Params p(m->arguments);
    for (const auto& [k, v] : args)
        if (auto e = p.set(k, v))
            qFatal("%s", e->c_str());
    return m->run(p);
}

inline Params paramsOf(const char* id,
                       std::initializer_list<std::pair<const char*, const char*>> set = {}) {
    Params p = findScenario(id)->defaultParams();
    for (const auto& [k, v] : set)
        if (auto e = p.set(k, v))
            qFatal("%s", e->c_str());
    return p;
}

// The story from `inputs` (imported files, live recordings) and the parameters.
inline Story build(const ScenarioInputs& inputs, const char* id,
                   std::initializer_list<std::pair<const char*, const char*>> set = {}) {
    return findScenario(id)->build(paramsOf(id, set), inputs);
}

// The story from what ships: no imports, no live recordings.
inline Story build(const char* id,
                   std::initializer_list<std::pair<const char*, const char*>> set = {}) {
    return build(ScenarioInputs::shipped(), id, set);
}

template <typename F> std::vector<F> all(const Frames& frames) {
    std::vector<F> out;
    for (const auto& item : frames.items)
        if (const auto f = std::get_if<F>(&item))
            out.push_back(*f);
    return out;
}

template <typename F> std::optional<F> first(const Frames& frames) {
    auto v = all<F>(frames);
    return v.empty() ? std::nullopt : std::optional<F>(v.front());
}

inline size_t stepIndex(const Story& s, const std::string& title) {
    for (size_t i = 0; i < s.steps.size(); ++i)
        if (s.steps[i].title == title)
            return i;
    qFatal("no step %s", title.c_str());
}

// A recording as warpboard-record writes it on an H100 SXM (what CUDA reports for one), so
// that it replays under the scenarios' default GPU, h100-sxm.
inline Trace recorded(const char* kind, const char* scenario) {
    Trace t;
    t.kind = kind;
    t.provenance.source = TraceSource::Recorded;
    t.provenance.device = "NVIDIA H100 80GB HBM3";
    t.provenance.computeCapability = "9.0";
    t.metadata["sm_count"] = "132";
    t.metadata["memory_gb"] = "85.0299";
    t.provenance.driverVersion = "555.1";
    t.provenance.runtimeVersion = "12.5";
    t.provenance.date = "2026-12-01T10:00:00Z";
    t.metadata["scenario"] = scenario;
    return t;
}

inline Trace saveAndLoad(const Trace& t) {
    const std::string json = traceToJson(t);
    if (json.empty())
        qFatal("trace does not serialise");
    auto back = traceFromJson(json);
    if (!std::holds_alternative<Trace>(back))
        qFatal("%s", std::get<TraceError>(back).message.c_str());
    return std::get<Trace>(back);
}

// Every frame of every step at several times: replay must reproduce all of them.
inline void compareFrames(const Story& a, const Story& b) {
    QCOMPARE(a.steps.size(), b.steps.size());
    for (size_t i = 0; i < a.steps.size(); ++i)
        for (double t : {0.0, 0.4, 1.0})
            QVERIFY2(a.steps[i].frames(t) == b.steps[i].frames(t), a.steps[i].title.c_str());
}

inline void compareStories(const Story& a, const Story& b) {
    QCOMPARE(a.provenance, b.provenance);
    compareFrames(a, b);
}

// `modeled` was drawn from the model beside a shipped recording of other parameters; `live`
// from the same model's trace set as the live recording. The same frames, and the same
// provenance less the note that names the shipped recording.
inline void compareModeledWithLive(const Story& modeled, const Story& live) {
    QVERIFY2(modeled.provenance.rfind(live.provenance + "; a recording from ", 0) == 0,
             (modeled.provenance + " | " + live.provenance).c_str());
    compareFrames(modeled, live);
}

} // namespace wb::test
