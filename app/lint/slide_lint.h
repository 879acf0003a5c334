#pragma once
// `warpboard lint`: every step of a scenario rendered as a slide (at t = 1, where a step
// rests) with the defaults, with each parameter at its minimum and at its maximum (one at a
// time), and in presentation mode, at each asked size; every slide's layout linted.
#include "lint/layout_lint.h"

#include <QSize>
#include <string>
#include <vector>

namespace wb {

class Scenario;

struct SlideFinding {
    std::string scenario;
    int step = 0;       // 1-based, as the slide says
    std::string params; // "defaults", "presentation", or "name=value"
    QSize size;
    LintFinding finding;
};

// One way a scenario is linted: a label and the assignments that make it.
struct LintVariant {
    std::string label;
    std::string name, value; // the parameter changed; empty for defaults and presentation
    bool presentation = false;
};

// Defaults, then each numeric parameter at min and max and each choice at its first and last
// value, then presentation mode.
std::vector<LintVariant> lintVariants(const Scenario& scenario);

// The findings for every step of every variant of `scenario` at every size. A variant the
// model rejects (a combination the specs allow but the model does not) is skipped.
std::vector<SlideFinding> lintScenario(const Scenario& scenario, const std::vector<QSize>& sizes);

// The smallest text allowed on a slide of `size`, presentation mode included.
double lintFloorPx(QSize size, bool presentation);

} // namespace wb
