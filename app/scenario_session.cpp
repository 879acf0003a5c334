#include "scenario_session.h"

#include "platform.h"

#include <algorithm>
#include <stdexcept>

namespace wb {

namespace {
// Every model runs through this session on the GUI thread, where Qt's one-off initialisations
// (platform plugin, first text layout) can leave the vector registers' upper halves set and
// slow plain x86-64 code about fivefold. Clearing them first costs a cycle.
Story buildStory(const Scenario& scenario, const Params& params, const ScenarioInputs& inputs) {
    clearVectorUpperState();
    return scenario.build(params, inputs);
}
} // namespace

ScenarioSession::ScenarioSession(const Scenario& scenario, Params params,
                                 std::shared_ptr<const ScenarioInputs> inputs)
    : m_scenario(&scenario)
    , m_params(std::move(params))
    , m_inputs(std::move(inputs))
    , m_story(buildStory(scenario, m_params, this->inputs())) {}

QString ScenarioSession::setParam(const std::string& name, const std::string& value) {
    return setParams({{name, value}});
}

QString ScenarioSession::setParams(const std::vector<std::pair<std::string, std::string>>& values) {
    Params next = m_params;
    for (const auto& [name, value] : values)
        if (auto err = next.set(name, value))
            return QString::fromStdString(*err);
    return replaceParams(std::move(next));
}

QString ScenarioSession::replaceParams(Params next) {
    // A model may reject a combination the specs allow (an expression that does not parse,
    // a block too large for the GPU): keep what was open and say why.
    try {
        m_story = buildStory(*m_scenario, next, inputs());
    } catch (const std::exception& e) { // invalid_argument, or an expression's ExprError
        return QString::fromUtf8(e.what());
    }
    m_params = std::move(next);
    return {};
}

Frames ScenarioSession::frames(int step, double t) const {
    if (m_story.steps.empty())
        return {};
    step = std::clamp(step, 0, stepCount() - 1);
    clearVectorUpperState(); // see buildStory
    return m_story.steps[static_cast<size_t>(step)].frames(std::clamp(t, 0.0, 1.0));
}

SlideText ScenarioSession::slideText(int step) const {
    SlideText text;
    text.scenarioTitle = QString::fromStdString(m_scenario->title());
    text.provenance = QString::fromStdString(m_story.provenance);
    if (m_story.steps.empty())
        return text;
    step = std::clamp(step, 0, stepCount() - 1);
    const Step& s = m_story.steps[static_cast<size_t>(step)];
    text.stepLabel = QString("Step %1/%2").arg(step + 1).arg(stepCount());
    text.stepTitle = QString::fromStdString(s.title);
    text.narration = QString::fromStdString(s.narration);
    return text;
}

} // namespace wb
