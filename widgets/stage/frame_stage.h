#pragma once
// Shows one step's frames as stageLayout arranges them, by each view's natural height. Keeps one
// child view per item and reuses it while the item's kind stays the same, so playback only
// updates data and never rebuilds widgets.
#include "drawing/styled_view.h"
#include "drawing/theme.h"
#include "frames/frame.h"
#include "text/type_scale.h"

#include <QWidget>
#include <vector>

namespace wb {

class FrameStage : public QWidget {
    Q_OBJECT
public:
    explicit FrameStage(QWidget* parent = nullptr);

    void setFrames(const Frames& frames);
    const Frames& frames() const { return m_frames; }
    void setTheme(const Theme& theme);
    const Theme& theme() const { return m_theme; }
    // The slide's type scale (its height and the presentation scale), passed to every view.
    void setTypeScale(const TypeScale& scale);
    const TypeScale& typeScale() const { return m_type; }

    // The view showing item `index` (the view FrameStage pairs with its frame kind), or nullptr.
    QWidget* view(int index) const;
    int viewCount() const { return static_cast<int>(m_views.size()); }

    QSize sizeHint() const override { return {1280, 720}; }

signals:
    // A component pressed on a cluster map (ClusterMapView::componentClicked, MapKind numbers).
    void componentClicked(int kind, int index);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    void showItem(std::size_t index, const Frame& frame);
    void relayout();

    Frames m_frames;
    Theme m_theme = Theme::light();
    TypeScale m_type;
    std::vector<QWidget*> m_views;
    std::vector<StyledView*> m_styled; // the same views, as the stage styles them
};

} // namespace wb
