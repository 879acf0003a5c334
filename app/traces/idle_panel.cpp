#include "traces/idle_panel.h"

#include "analysis/trace_analysis.h"
#include "engine/number_format.h"
#include "engine/sentence.h"
#include "traces/panel_bars.h"

#include <algorithm>

namespace wb {

namespace {
std::string ipTime(double us) {
    return formatSi(us * 1e-6, "s", 3);
}
} // namespace

void IdlePanel::drawBody(PanelCanvas& canvas, const TraceAnalysis& analysis) const {
    canvas.paragraph(tr("Each gap on a stream is classed by when the next kernel was launched: "
                        "host wait (after the gap began: the GPU waited for the CPU), kernel "
                        "wait (before: queued behind GPU work), other (no launch matched)."),
                     TextRole::Label, true);
    const Theme& theme = canvas.theme();
    StackedBars bars;
    bars.series = {tr("host wait"), tr("kernel wait"), tr("other")};
    bars.colours = {theme.seriesColor(3), theme.seriesColor(4),
                    mixColors(theme.muted, theme.background, 0.35)};
    bars.more = tr(" (all in idle_breakdown.csv)");
    for (const StreamIdle& s : analysis.idle) {
        StackedRow row;
        row.label =
            QString::fromStdString(fill("rank %1 · %2", {std::to_string(s.rank), s.stream}));
        row.values = {s.hostWaitUs, s.kernelWaitUs, s.otherUs};
        row.note =
            QString::fromStdString(fill("%1 idle of %2: host wait %3 · kernel wait %4 · other %5",
                                        {ipTime(s.idleUs), ipTime(s.spanUs), ipTime(s.hostWaitUs),
                                         ipTime(s.kernelWaitUs), ipTime(s.otherUs)}));
        row.rank = s.rank;
        bars.scaleMax = std::max(bars.scaleMax, s.idleUs);
        bars.rows.push_back(std::move(row));
    }
    drawStackedBars(canvas, bars, 400);
}

} // namespace wb
