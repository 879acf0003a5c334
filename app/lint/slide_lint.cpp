#include "lint/slide_lint.h"

#include "engine/number_format.h"
#include "engine/scenario.h"
#include "scenario_session.h"
#include "step_exporter.h"
#include "text/type_scale.h"

#include <QPainter>

namespace wb {

std::vector<LintVariant> lintVariants(const Scenario& scenario) {
    std::vector<LintVariant> out;
    out.push_back({"defaults", {}, {}, false});
    for (const ParamSpec& p : scenario.parameters()) {
        std::vector<std::string> values;
        switch (p.kind) {
        case ParamSpec::Kind::Integer:
        case ParamSpec::Kind::Real:
            values = {formatNumber(p.min), formatNumber(p.max)};
            break;
        case ParamSpec::Kind::Choice:
            if (!p.choices.empty())
                values = {p.choices.front(), p.choices.back()};
            break;
        case ParamSpec::Kind::Text:
            break;
        }
        for (const std::string& v : values)
            out.push_back({p.name + "=" + v, p.name, v, false});
    }
    out.push_back({"presentation", {}, {}, true});
    return out;
}

double lintFloorPx(QSize size, bool presentation) {
    return TypeScale::forSlide(size.height(),
                               presentation ? Theme::presentation(false).fontScale : 1.0)
        .floor();
}

std::vector<SlideFinding> lintScenario(const Scenario& scenario, const std::vector<QSize>& sizes) {
    std::vector<SlideFinding> out;
    for (const LintVariant& variant : lintVariants(scenario)) {
        Params params = scenario.defaultParams();
        if (!variant.name.empty() && params.set(variant.name, variant.value))
            continue;
        std::unique_ptr<ScenarioSession> session;
        try {
            session = std::make_unique<ScenarioSession>(scenario, params);
        } catch (const std::exception&) {
            continue; // the model rejects this corner; the panel would refuse it too
        }
        for (int step = 0; step < session->stepCount(); ++step) {
            ExportRequest request;
            request.text = session->slideText(step);
            request.frames = session->frames(step, 1.0);
            request.theme = variant.presentation ? Theme::presentation(false) : Theme::light();
            request.presentation = variant.presentation;
            for (const QSize& size : sizes) {
                request.size = size;
                PaintRecorder recorder(size);
                {
                    QPainter painter(&recorder);
                    renderSlide(painter, request);
                }
                const auto findings = lintLayout(recorder.record(), QRectF(QPointF(0, 0), size),
                                                 lintFloorPx(size, variant.presentation));
                for (const LintFinding& f : findings)
                    out.push_back({scenario.id(), step + 1, variant.label, size, f});
            }
        }
    }
    return out;
}

} // namespace wb
