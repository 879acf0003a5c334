#pragma once
// One scenario with its parameter values and inputs (imported files, recordings) and the Story
// built from them: the unit the main window, presentation mode and `warpboard export` all work
// on.
#include "engine/scenario.h"
#include "frames/frame.h"
#include "slide_widget.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace wb {

class ScenarioSession {
public:
    // Throws (std::invalid_argument, ExprError) when the model rejects the parameters.
    // `inputs` null: ScenarioInputs::shipped() (no imports, no live recordings).
    ScenarioSession(const Scenario& scenario, Params params,
                    std::shared_ptr<const ScenarioInputs> inputs = nullptr);

    const Scenario& scenario() const { return *m_scenario; }
    const Params& params() const { return m_params; }
    const ScenarioInputs& inputs() const {
        return m_inputs ? *m_inputs : ScenarioInputs::shipped();
    }
    const Story& story() const { return m_story; }
    int stepCount() const { return static_cast<int>(m_story.steps.size()); }

    // Rebuilds the story; returns an error message (and changes nothing) when the value is
    // not allowed or the model rejects it.
    QString setParam(const std::string& name, const std::string& value);
    // Several values at once, applied in order and built once: all of them or none.
    QString setParams(const std::vector<std::pair<std::string, std::string>>& values);
    // A whole new set of values (a click the scenario maps to parameters), built once.
    QString replaceParams(Params next);
    Frames frames(int step, double t) const;
    SlideText slideText(int step) const;

private:
    const Scenario* m_scenario;
    Params m_params;
    std::shared_ptr<const ScenarioInputs> m_inputs;
    Story m_story;
};

} // namespace wb
