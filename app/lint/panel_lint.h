#pragma once
// `warpboard lint` over the Traces workspace's exports: every analysis panel and the
// comparison panel rendered through their render() (what Export and `analyze --png` draw)
// into the paint recorder, for generated trace sets (the slowdown lesson's straggler job at
// 8 and at 128 ranks, compared with a healthy run), at each asked size, and linted like a slide.
#include "lint/slide_lint.h"

#include <QSize>
#include <vector>

namespace wb {

// Findings in SlideFinding's shape: `scenario` is "panel:<panel id>", `params` the trace set
// ("8 ranks"), `step` 1.
std::vector<SlideFinding> lintPanels(const std::vector<QSize>& sizes);

} // namespace wb
