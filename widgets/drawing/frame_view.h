#pragma once
// A SlideView that shows one kind of frame: an equal frame changes nothing and paints
// nothing. A view adds its drawing, its layout and its hover text.
#include "drawing/slide_view.h"

#include <utility>

namespace wb {

template <typename Frame> class FrameView : public SlideView {
public:
    explicit FrameView(QWidget* parent = nullptr)
        : SlideView(parent) {}

    void setFrame(const Frame& frame) {
        if (frame == m_frame)
            return;
        const Frame previous = std::exchange(m_frame, frame);
        frameChanged(previous);
        update();
    }
    const Frame& frame() const { return m_frame; }

protected:
    // Derived state (layouts, indexes) follows the frame here.
    virtual void frameChanged(const Frame& previous) { (void)previous; }

    Frame m_frame;
};

} // namespace wb
