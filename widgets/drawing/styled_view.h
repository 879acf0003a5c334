#pragma once
// What the stage sets on every view it holds, whatever Qt class the view derives from: the
// theme and the slide's type scale. SlideView implements it for the painted views; ChartView
// (a QChartView) implements it too, so FrameStage styles and lays out any view with one call.
#include "drawing/theme.h"
#include "text/type_scale.h"

namespace wb {

class StyledView {
public:
    virtual ~StyledView() = default;
    virtual void setTheme(const Theme& theme) = 0;
    virtual void setTypeScale(const TypeScale& scale) = 0;
    // How tall the view is when `width` pixels wide, past which more height only adds empty
    // space; 0 (the default) for views that use whatever height they get. The stage lays out by
    // it so a short table or timeline does not leave half the slide blank.
    virtual int naturalHeight(int width) const {
        (void)width;
        return 0;
    }
};

} // namespace wb
