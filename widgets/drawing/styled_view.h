#pragma once
// What the stage sets on every view it holds, whatever Qt class the view derives from: the
// theme and the slide's type scale. SlideView implements it for the painted views; ChartView
// (a QChartView) implements it too, so FrameStage styles any view with one call.
#include "drawing/theme.h"
#include "text/type_scale.h"

namespace wb {

class StyledView {
public:
    virtual ~StyledView() = default;
    virtual void setTheme(const Theme& theme) = 0;
    virtual void setTypeScale(const TypeScale& scale) = 0;
};

} // namespace wb
