#pragma once
// One interview question as a scenario: its texts, its sources, its parameters and a
// builder that turns parameter values and explicit inputs (imported files, recordings) into a
// Story. The same parameters and the same inputs always give the same story.
#include "engine/params.h"
#include "engine/recording_choice.h"
#include "engine/scenario_inputs.h"
#include "engine/story.h"

#include <optional>
#include <string>
#include <vector>

namespace wb {

struct SourceRef {
    std::string label;
    std::string url;
};

enum class ScenarioGroup { InsideOneGpu, CollectivesAndFabrics, ReliabilityAtScale };

std::string groupTitle(ScenarioGroup g);
std::string groupKey(ScenarioGroup g); // "inside-one-gpu", ... (used in --list --json)

class Scenario {
public:
    virtual ~Scenario() = default;
    virtual std::string id() const = 0; // kebab-case, stable: used on the command line
    virtual ScenarioGroup group() const = 0;
    virtual std::string title() const = 0;
    virtual std::string question() const = 0;
    virtual std::string answer() const = 0; // markdown-ish answer card
    virtual std::vector<SourceRef> sources() const = 0;
    virtual std::vector<ParamSpec> parameters() const = 0;
    // The story for `params`, drawing imported files and recordings only from `inputs`.
    virtual Story build(const Params& params, const ScenarioInputs& inputs) const = 0;
    // The story with what ships with the program: no imported files, no live recordings.
    // (A subclass that overrides build() adds `using Scenario::build;` to keep this one.)
    Story build(const Params& params) const { return build(params, ScenarioInputs::shipped()); }

    // The parameter values a click on the scenario's picture stands for (`current` with the
    // clicked selection set), or nullopt when a click there changes nothing. The app calls it
    // for every scenario; none maps a click by default.
    virtual std::optional<Params> paramsForClick(const Params& /*current*/,
                                                 const ClickTarget& /*click*/) const {
        return std::nullopt;
    }

    // The parameter values a recording of this scenario was measured at: it replays only
    // where the parameters equal all of them (engine/recording_choice.h). nullopt: it cannot
    // replay here (its device is not in the catalogue). No inputs by default.
    virtual std::optional<std::vector<RecordingInput>> recordingInputs(const Trace&) const {
        return std::vector<RecordingInput>{};
    }

    Params defaultParams() const { return Params(parameters()); }
};

} // namespace wb
