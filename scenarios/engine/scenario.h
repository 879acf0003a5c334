#pragma once
// One interview question as a scenario: its texts, its sources, its parameters and a
// builder that turns parameter values into a Story.
#include "engine/params.h"
#include "engine/recording_choice.h"
#include "engine/story.h"

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
    virtual Story build(const Params& params) const = 0;

    // The parameter values a recording of this scenario was measured at: it replays only
    // where the parameters equal all of them (engine/recording_choice.h). nullopt: it cannot
    // replay here (its device is not in the catalogue). No inputs by default.
    virtual std::optional<std::vector<RecordingInput>> recordingInputs(const Trace&) const {
        return std::vector<RecordingInput>{};
    }

    Params defaultParams() const { return Params(parameters()); }
};

} // namespace wb
