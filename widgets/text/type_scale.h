#pragma once
// Text sizes tied to the slide: every size is a multiple of the slide's height (1080 px is the
// reference), times the presentation scale, and none falls below a floor that keeps text
// readable on a shared screen (10 px on a 1280x720 slide, 14 px on 1920x1080). An export at
// 8000x8000 therefore scales its type with the picture instead of keeping window sizes.
#include <algorithm>

namespace wb {

enum class TextRole {
    Title,   // the slide's title line
    Heading, // a view's title, the answer card's heading
    Body,    // narration, fact values, the unit views lay out in
    Label,   // axis titles, legends, labels on marks
    Caption, // sources, tick numbers, secondary lines
};

class TypeScale {
public:
    static constexpr double kReferenceHeight = 1080.0;

    // The scale for a slide `slideHeight` pixels high; `presentationScale` > 1 enlarges all
    // sizes and the floor alike (presentation mode). Non-finite or absurd inputs fall back to
    // the reference slide so a bad size can never produce invisible or gigantic text.
    static TypeScale forSlide(double slideHeight, double presentationScale = 1.0);

    // The smallest text any view may draw on a slide of this height, before presentation.
    static double floorFor(double slideHeight);

    double px(TextRole role) const;
    // The floor for this slide (presentation included).
    double floor() const { return m_floor; }
    // `px` raised to the floor: what a view's computed size becomes before it is drawn.
    double atLeastFloor(double px) const { return std::max(px, m_floor); }
    // Pixels per reference pixel: slide height / 1080 times the presentation scale.
    double unit() const { return m_unit; }
    double slideHeight() const { return m_height; }
    double presentationScale() const { return m_presentation; }

    bool operator==(const TypeScale&) const = default;

private:
    double m_height = kReferenceHeight;
    double m_presentation = 1.0;
    double m_unit = 1.0;
    double m_floor = 14.0;
};

} // namespace wb
