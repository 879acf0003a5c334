#include "text/type_scale.h"

#include <cmath>

namespace wb {

namespace {

// Sizes on the 1080-pixel reference slide. The ratios are a classic modular scale (about
// 1.2 apart); Caption equals the 1080p floor so secondary text is as small as allowed, no less.
double referencePx(TextRole role) {
    switch (role) {
    case TextRole::Title:
        return 34.0;
    case TextRole::Heading:
        return 26.0;
    case TextRole::Body:
        return 22.0;
    case TextRole::Label:
        return 18.0;
    case TextRole::Caption:
        return 15.0;
    }
    return 22.0;
}

constexpr double kAbsoluteFloorPx = 10.0;  // below this no screen share is readable
constexpr double kReferenceFloorPx = 14.0; // at 1920x1080
constexpr double kMaxSlideHeight = 65536.0;

} // namespace

double TypeScale::floorFor(double slideHeight) {
    if (!std::isfinite(slideHeight) || slideHeight <= 0)
        slideHeight = kReferenceHeight;
    return std::max(kAbsoluteFloorPx, kReferenceFloorPx * slideHeight / kReferenceHeight);
}

TypeScale TypeScale::forSlide(double slideHeight, double presentationScale) {
    TypeScale s;
    if (!std::isfinite(slideHeight) || slideHeight <= 0 || slideHeight > kMaxSlideHeight)
        slideHeight = kReferenceHeight;
    if (!std::isfinite(presentationScale) || presentationScale < 0.5 || presentationScale > 4.0)
        presentationScale = 1.0;
    s.m_height = slideHeight;
    s.m_presentation = presentationScale;
    s.m_unit = slideHeight / kReferenceHeight * presentationScale;
    s.m_floor = floorFor(slideHeight) * presentationScale;
    return s;
}

double TypeScale::px(TextRole role) const {
    return atLeastFloor(referencePx(role) * m_unit);
}

} // namespace wb
