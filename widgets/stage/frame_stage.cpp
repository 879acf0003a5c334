#include "stage/frame_stage.h"

#include "charts/bar_chart_view.h"
#include "charts/chart_view.h"
#include "charts/ladder_view.h"
#include "grids/memory_access_view.h"
#include "grids/sm_grid_view.h"
#include "grids/thread_map_view.h"
#include "grids/warp_lanes_view.h"
#include "stage/stage_layout.h"
#include "text/facts_view.h"
#include "timeline/issue_timeline_view.h"
#include "timeline/schedule_view.h"
#include "timeline/timeline_view.h"
#include "topology/cluster_map_view.h"
#include "topology/comm_graph_view.h"
#include "topology/fabric_view.h"
#include "topology/node_topology_view.h"
#include "topology/ring_view.h"
#include "topology/topology_view.h"

#include <QPainter>
#include <map>
#include <type_traits>
#include <utility>

namespace wb {

namespace {

// Which view renders which frame kind; the one place that pairs them.
template <typename F> struct ViewFor;
template <> struct ViewFor<RingFrame> { using type = RingView; };
template <> struct ViewFor<ChartFrame> { using type = ChartView; };
template <> struct ViewFor<FactsFrame> { using type = FactsView; };
template <> struct ViewFor<WarpFrame> { using type = WarpLanesView; };
template <> struct ViewFor<SmGridFrame> { using type = SmGridView; };
template <> struct ViewFor<MemoryAccessFrame> { using type = MemoryAccessView; };
template <> struct ViewFor<LadderFrame> { using type = LadderView; };
template <> struct ViewFor<IssueTimelineFrame> { using type = IssueTimelineView; };
template <> struct ViewFor<TimelineFrame> { using type = TimelineView; };
template <> struct ViewFor<CommGraphFrame> { using type = CommGraphView; };
template <> struct ViewFor<ScheduleFrame> { using type = ScheduleView; };
template <> struct ViewFor<TopologyFrame> { using type = TopologyView; };
template <> struct ViewFor<BarChartFrame> { using type = BarChartView; };
template <> struct ViewFor<ClusterMapFrame> { using type = ClusterMapView; };
template <> struct ViewFor<FabricFrame> { using type = FabricView; };
template <> struct ViewFor<NodeTopologyFrame> { using type = NodeTopologyView; };
template <> struct ViewFor<ThreadMapFrame> { using type = ThreadMapView; };

} // namespace

FrameStage::FrameStage(QWidget* parent)
    : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void FrameStage::setFrames(const Frames& frames) {
    m_frames = frames;
    const std::size_t count = m_frames.items.size();
    while (m_views.size() > count) {
        delete m_views.back();
        m_views.pop_back();
        m_styled.pop_back();
    }
    m_views.resize(count, nullptr);
    m_styled.resize(count, nullptr);
    for (std::size_t i = 0; i < count; ++i) {
        showItem(i, m_frames.items[i]);
    }
    relayout();
}

void FrameStage::showItem(std::size_t index, const Frame& frame) {
    std::visit(
        [&](const auto& item) {
            using View = typename ViewFor<std::decay_t<decltype(item)>>::type;
            auto* view = qobject_cast<View*>(m_views[index]);
            if (view == nullptr) {
                delete m_views[index];
                view = new View(this);
                view->setTheme(m_theme);
                view->setTypeScale(m_type);
                if constexpr (std::is_same_v<View, ClusterMapView>)
                    connect(view, &ClusterMapView::componentClicked, this,
                            &FrameStage::componentClicked);
                view->show();
                m_views[index] = view;
                m_styled[index] = view; // every view is a StyledView (SlideView or ChartView)
            }
            view->setFrame(item);
        },
        frame);
}

void FrameStage::setTheme(const Theme& theme) {
    m_theme = theme;
    m_type = TypeScale::forSlide(m_type.slideHeight(), theme.fontScale);
    for (StyledView* view : m_styled) {
        view->setTheme(m_theme);
        view->setTypeScale(m_type);
    }
    relayout(); // natural heights follow the type
    update();
}

void FrameStage::setTypeScale(const TypeScale& scale) {
    if (scale == m_type)
        return;
    m_type = scale;
    for (StyledView* view : m_styled)
        view->setTypeScale(m_type);
    relayout();
}

QWidget* FrameStage::view(int index) const {
    if (index < 0 || static_cast<std::size_t>(index) >= m_views.size()) {
        return nullptr;
    }
    return m_views[static_cast<std::size_t>(index)];
}

void FrameStage::relayout() {
    // stageLayout asks for the same (item, width) several times (each arrangement, then its
    // waste); a natural height lays out all of an item's text, so each is measured once here.
    std::map<std::pair<int, int>, int> measured;
    const NaturalHeight natural = [this, &measured](int index, int width) {
        const auto [it, fresh] = measured.try_emplace({index, width}, 0);
        if (fresh)
            it->second = m_styled[static_cast<std::size_t>(index)]->naturalHeight(width);
        return it->second;
    };
    const std::vector<QRect> areas =
        stageLayout(rect(), static_cast<int>(m_views.size()), m_frames.arrangement, natural);
    for (std::size_t i = 0; i < m_views.size() && i < areas.size(); ++i) {
        m_views[i]->setGeometry(areas[i]);
    }
}

void FrameStage::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    relayout();
}

void FrameStage::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(this);
    painter.fillRect(rect(), m_theme.background);
}

} // namespace wb
