#include "timeline/timeline_view.h"

#include "drawing/hover_tip.h"
#include "engine/number_format.h"

#include <QFontMetricsF>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainterPath>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentMap>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>
#include <utility>

namespace wb {

namespace {

constexpr double kWheelStep = 1.25;             // zoom per wheel notch
constexpr double kKeyZoom = 1.5;                // zoom per W/S key
constexpr double kKeyPan = 0.2;                 // fraction of the width per A/D key
constexpr double kDragSlop = 3.0;               // pixels before a press becomes a drag
constexpr EmFit kTimelineFit{30.0, 16.0, 0.82}; // the ems a timeline needs, its unit 0.82 of body
constexpr int kStatsNames = 5;                  // names listed in the statistics panel

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString duration(double ns) {
    return qs(formatSi(ns * 1e-9, "s", 3));
}

} // namespace

TimelineView::TimelineView(QWidget* parent)
    : FrameView<TimelineFrame>(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
}

// ---- rows -------------------------------------------------------------------------------

void TimelineView::frameChanged(const TimelineFrame& /*previous*/) {
    // A new frame (a new step) starts over: whole window or the frame's, no selection.
    auto [lo, hi] = timeSpan(m_frame);
    if (lo >= hi)
        hi = lo + TimelineAxis::kMinSpanNs; // no events, or all at one instant
    // A window the frame asks for may reach past its own trace: small multiples share one
    // time scale, so the shorter cases end early on an axis as long as the longest.
    if (m_frame.viewEndNs > m_frame.viewStartNs) {
        lo = std::min(lo, m_frame.viewStartNs);
        hi = std::max(hi, m_frame.viewEndNs);
    }
    m_axis = TimelineAxis(lo, hi, m_axis.width());
    if (m_frame.viewEndNs > m_frame.viewStartNs)
        m_axis.setWindow(m_frame.viewStartNs, m_frame.viewEndNs);
    m_expanded.assign(m_frame.lanes.size(), false);
    m_scrollY = 0.0;
    m_hasSelection = false;
    m_stats = RangeSummary{};
    m_hover = Hit{};
    m_hoverLinks.clear();
    m_drag = Drag::None;
    rebuildRows();
    findHighlighted(); // the name stays picked; its instances are the new lanes'
}

void TimelineView::rebuildRows() {
    {
        m_rows.clear();
        for (std::size_t li = 0; li < m_frame.lanes.size(); ++li) {
            const TimelineLane& lane = m_frame.lanes[li];
            if (!lane.store)
                continue;
            const TraceStore& s = *lane.store;
            std::vector<Row> gpu, cpu;
            for (std::uint32_t t = 0; t < s.tracks().size(); ++t) {
                const TraceTrack& track = s.tracks()[t];
                if (track.begin == track.end)
                    continue;
                bool isGpu = false;
                for (std::uint32_t i = track.begin; i < track.end && !isGpu; ++i)
                    isGpu = isDeviceKind(s.events()[i].kind);
                const TraceProcess& p = s.processes()[track.process];
                const QString name = track.name.empty()
                                         ? QStringLiteral("thread %1").arg(qs(track.tid))
                                         : qs(track.name);
                Row r;
                r.lane = static_cast<int>(li);
                r.track = t;
                r.gpu = isGpu;
                r.label = isGpu && !p.name.empty() ? qs(p.name) + QStringLiteral(" \u00b7 ") + name
                                                   : name;
                (isGpu ? gpu : cpu).push_back(r);
            }
            // The trace's own order: process sort index, then thread sort index, then id.
            const auto order = [&s](const Row& a, const Row& b) {
                const TraceTrack& x = s.tracks()[a.track];
                const TraceTrack& y = s.tracks()[b.track];
                const TraceProcess& px = s.processes()[x.process];
                const TraceProcess& py = s.processes()[y.process];
                const auto key = [](const TraceProcess& p, const TraceTrack& t, std::uint32_t id) {
                    return std::tuple(p.hasSortIndex ? p.sortIndex : 0, t.process,
                                      t.hasSortIndex ? t.sortIndex : 0, id);
                };
                return key(px, x, a.track) < key(py, y, b.track);
            };
            std::stable_sort(gpu.begin(), gpu.end(), order);
            std::stable_sort(cpu.begin(), cpu.end(), order);
            m_rows.insert(m_rows.end(), gpu.begin(), gpu.end());
            if (!m_frame.gpuOnly)
                m_rows.insert(m_rows.end(), cpu.begin(), cpu.end());
        }
    }
    showRows();
}

void TimelineView::showRows() {
    m_shown.clear();
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const Row& r = m_rows[i];
        if (r.gpu || m_expanded[static_cast<std::size_t>(r.lane)])
            m_shown.push_back(i);
    }
    m_cache.width = -1.0; // the slice cache is per shown row
}

int TimelineView::rowOf(int lane, std::uint32_t track) const {
    for (int i = 0; i < rowCount(); ++i) {
        if (row(i).lane == lane && row(i).track == track)
            return i;
    }
    return -1;
}

int TimelineView::cpuThreadCount(int lane) const {
    return static_cast<int>(std::count_if(
        m_rows.begin(), m_rows.end(), [lane](const Row& r) { return r.lane == lane && !r.gpu; }));
}

bool TimelineView::cpuExpanded(int lane) const {
    return lane >= 0 && static_cast<std::size_t>(lane) < m_expanded.size() &&
           m_expanded[static_cast<std::size_t>(lane)];
}

void TimelineView::setCpuExpanded(int lane, bool expanded) {
    if (lane < 0 || static_cast<std::size_t>(lane) >= m_expanded.size() ||
        cpuExpanded(lane) == expanded)
        return;
    m_expanded[static_cast<std::size_t>(lane)] = expanded;
    // Only the shown set changes; keep the rows, rebuild what is shown.
    showRows();
    refreshStats();
    update();
}

// ---- layout -----------------------------------------------------------------------------

TimelineView::Layout TimelineView::layoutFor(const QRectF& bounds) const {
    Layout l;
    l.em = layoutEm(bounds, kTimelineFit);
    const double pad = l.em * 0.8;
    const QRectF inner = bounds.adjusted(pad, pad, -pad, -pad);
    double y = inner.top();
    // Title, caption and legend wrap to the width; the rows get what is left.
    l.titleText =
        wrapText(m_theme.fontAtPixels(l.em * 1.15, true), qs(m_frame.title), inner.width());
    l.title = QRectF(inner.left(), y, inner.width(),
                     l.titleText.empty() ? 0.0 : l.titleText.height() + l.em * 0.4);
    y = l.title.bottom();
    l.captionText = wrapText(m_theme.fontAtPixels(l.em * 0.95), qs(m_frame.caption), inner.width());
    l.caption = QRectF(inner.left(), y, inner.width(),
                       l.captionText.empty() ? 0.0 : l.captionText.height() + l.em * 0.3);
    y = l.caption.bottom();
    const QFont legendFont = m_theme.fontAtPixels(l.em * 0.8);
    l.legendLayout = layoutLegend(legendEntries(), legendFont, inner.width());
    // The window's span, right-aligned beside the legend's last row when it fits there.
    const TimelineAxis whole = m_axis;
    l.hint = tr("%1 of %2")
                 .arg(duration(static_cast<double>(whole.spanNs())),
                      duration(static_cast<double>(whole.limitEndNs() - whole.limitStartNs())));
    if (isVisible() && !window()->testAttribute(Qt::WA_DontShowOnScreen))
        l.hint += tr(" \u00b7 wheel zoom \u00b7 drag pan \u00b7 shift+drag select");
    const QFontMetricsF lfm(legendFont);
    const double hintW = lfm.horizontalAdvance(l.hint) + 2.0;
    double lastRight = 0.0, lastTop = 0.0;
    for (const QRectF& t : l.legendLayout.texts)
        if (t.top() >= lastTop - 0.5) {
            lastRight = t.top() > lastTop + 0.5 ? t.right() : std::max(lastRight, t.right());
            lastTop = std::max(lastTop, t.top());
        }
    const double legendH = std::max(l.legendLayout.height, lfm.height());
    if (lastRight + l.em + hintW <= inner.width()) {
        l.hintRect = QRectF(inner.right() - hintW, y + lastTop, hintW, lfm.height());
        l.legend = QRectF(inner.left(), y, inner.width(), legendH + l.em * 0.3);
    } else {
        const WrappedText hint = wrapText(legendFont, l.hint, inner.width());
        l.hintRect = QRectF(inner.left(), y + legendH + l.em * 0.15, inner.width(), hint.height());
        l.legend = QRectF(inner.left(), y, inner.width(),
                          legendH + l.em * 0.15 + hint.height() + l.em * 0.3);
    }
    y = l.legend.bottom() + l.em * 0.3;

    // The label column fits the longest row or lane label, within a third of the width.
    const QFontMetricsF fm(m_theme.fontAtPixels(l.em * 0.85));
    const QFontMetricsF bold(m_theme.fontAtPixels(l.em * 0.95, true));
    double labelW = l.em * 6.0;
    for (const Row& r : m_rows)
        labelW = std::max(labelW, fm.horizontalAdvance(r.label) + l.em * 1.2);
    for (const TimelineLane& lane : m_frame.lanes)
        labelW = std::max(labelW, bold.horizontalAdvance(qs(lane.label)) + l.em * 1.2);
    labelW = std::min(labelW, inner.width() / 3.0);

    l.axis = QRectF(inner.left() + labelW, y, inner.width() - labelW, l.em * 1.7);
    const double top = l.axis.bottom();
    const double plotH = std::max(0.0, inner.bottom() - top);
    l.plot = QRectF(l.axis.left(), top, l.axis.width(), plotH);
    l.labels = QRectF(inner.left(), top, labelW, plotH);

    const std::size_t lanes = m_frame.lanes.size();
    l.headerH = l.em * 1.5;
    const double rows = static_cast<double>(std::max(1, rowCount()));
    const double free = plotH - static_cast<double>(lanes) * l.headerH;
    l.rowH = std::clamp(free / rows, l.em * 1.1, l.em * 2.6);
    l.contentH = static_cast<double>(lanes) * l.headerH + static_cast<double>(rowCount()) * l.rowH;
    const double scroll = std::clamp(m_scrollY, 0.0, std::max(0.0, l.contentH - plotH));
    double cy = top - scroll;
    std::size_t shown = 0;
    l.laneTop.resize(lanes);
    l.rowTop.resize(m_shown.size());
    for (std::size_t li = 0; li < lanes; ++li) {
        l.laneTop[li] = cy;
        cy += l.headerH;
        while (shown < m_shown.size() && m_rows[m_shown[shown]].lane == static_cast<int>(li)) {
            l.rowTop[shown++] = cy;
            cy += l.rowH;
        }
    }
    return l;
}

int TimelineView::naturalHeight(int width) const {
    const QRectF unbounded(0.0, 0.0, width, 1.0e6);
    const Layout l = layoutFor(unbounded);
    const double content = l.plot.top() + l.contentH + l.em * 0.8;
    return static_cast<int>(std::ceil(std::max(content, kTimelineFit.heightEms * l.em)));
}

TimelineAxis TimelineView::axisFor(const Layout& layout) const {
    TimelineAxis a = m_axis;
    a.setWidth(layout.plot.width());
    return a;
}

QString TimelineView::hintText() const {
    return layoutFor(QRectF(rect())).hint;
}

QRectF TimelineView::plotRect(const QRectF& bounds) const {
    return layoutFor(bounds).plot;
}

QRectF TimelineView::axisRect(const QRectF& bounds) const {
    return layoutFor(bounds).axis;
}

QRectF TimelineView::rowRect(const QRectF& bounds, int index) const {
    const Layout l = layoutFor(bounds);
    if (index < 0 || index >= rowCount())
        return {};
    return {l.plot.left(), l.rowTop[static_cast<std::size_t>(index)], l.plot.width(), l.rowH};
}

QRectF TimelineView::laneHeaderRect(const QRectF& bounds, int lane) const {
    const Layout l = layoutFor(bounds);
    if (lane < 0 || static_cast<std::size_t>(lane) >= l.laneTop.size())
        return {};
    return {l.labels.left(), l.laneTop[static_cast<std::size_t>(lane)],
            l.labels.width() + l.plot.width(), l.headerH};
}

double TimelineView::xOf(const QRectF& bounds, std::int64_t ns) const {
    const Layout l = layoutFor(bounds);
    return l.plot.left() + axisFor(l).toPx(ns);
}

QRectF TimelineView::statsRect(const QRectF& bounds) const {
    return m_hasSelection ? statsPanel(layoutFor(bounds)) : QRectF();
}

TimelineView::StatsBlock TimelineView::statsBlock(const Layout& l, double width) const {
    StatsBlock b;
    b.lineH = l.em * 1.25;
    b.head = m_theme.fontAtPixels(l.em * 0.85, true);
    b.body = m_theme.fontAtPixels(l.em * 0.8);
    b.numW = l.em * 4.6;
    b.nameW = std::max(l.em * 4.0, width - 5.0 * b.numW);
    // The summary lines and every name wrap, whole; rows grow by the lines their name takes.
    const QStringList lines = statsLines();
    for (int i = 0; i < std::min<int>(2, static_cast<int>(lines.size())); ++i)
        b.lines.push_back(wrapText(i == 0 ? b.head : b.body, lines[i], width));
    const auto names = std::min<std::size_t>(m_stats.names.size(), kStatsNames);
    for (std::size_t i = 0; i < names; ++i)
        b.names.push_back(wrapText(b.body, qs(m_stats.names[i].name), b.nameW - l.em * 0.4));
    b.height = b.lineH; // the column headings
    for (const WrappedText& w : b.lines)
        b.height += std::max(b.lineH, w.height() + l.em * 0.3);
    for (const WrappedText& w : b.names)
        b.height += std::max(b.lineH, w.height() + l.em * 0.3);
    return b;
}

QRectF TimelineView::statsPanel(const Layout& l, StatsBlock* block) const {
    const double width = std::min(l.plot.width() - l.em, l.em * 44.0);
    // The block wraps to the panel less its inner margins (0.6 em a side, see drawStats).
    StatsBlock b = statsBlock(l, width - l.em * 1.2);
    const double height = b.height + l.em * 0.8;
    if (block != nullptr)
        *block = std::move(b);
    return {l.plot.right() - width - l.em * 0.5, l.plot.top() + l.em * 0.5, width,
            std::min(height, std::max(0.0, l.plot.height() - l.em))};
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    m_axis.setWidth(layoutFor(QRectF(rect())).plot.width());
    QWidget::resizeEvent(event);
}

// ---- window, selection, hover -------------------------------------------------------------

void TimelineView::setWindow(std::int64_t startNs, std::int64_t endNs) {
    m_axis.setWindow(startNs, endNs);
    update();
    Q_EMIT windowChanged(m_axis.startNs(), m_axis.endNs());
}

void TimelineView::scrollToLane(int lane) {
    const Layout l = layoutFor(QRectF(rect()));
    if (lane < 0 || static_cast<std::size_t>(lane) >= l.laneTop.size())
        return;
    const double maxScroll = std::max(0.0, l.contentH - l.plot.height());
    const double scrolled = std::clamp(m_scrollY, 0.0, maxScroll);
    m_scrollY = std::clamp(l.laneTop[static_cast<std::size_t>(lane)] - l.plot.top() + scrolled, 0.0,
                           maxScroll);
    setHover(Hit{});
    update();
}

// ---- highlight ----------------------------------------------------------------------------

void TimelineView::setHighlightedName(const QString& name) {
    m_highlightName = name;
    findHighlighted();
    update();
}

void TimelineView::findHighlighted() {
    m_highlighted.assign(m_frame.lanes.size(), {});
    if (m_highlightName.isEmpty())
        return;
    const std::string wanted = m_highlightName.toStdString();
    for (std::size_t li = 0; li < m_frame.lanes.size(); ++li) {
        const TraceStore* s = m_frame.lanes[li].store.get();
        if (s == nullptr)
            continue;
        // Names are interned: find the id once, then compare ids.
        std::uint32_t id = 0;
        for (std::uint32_t i = 1; i < s->strings().size() && id == 0; ++i)
            if (s->strings().text(i) == wanted)
                id = i;
        if (id == 0)
            continue;
        for (std::uint32_t e = 0; e < s->events().size(); ++e)
            if (s->events()[e].name == id)
                m_highlighted[li].push_back(e);
    }
}

const std::vector<std::uint32_t>& TimelineView::highlightedEvents(int lane) const {
    static const std::vector<std::uint32_t> none;
    if (lane < 0 || static_cast<std::size_t>(lane) >= m_highlighted.size())
        return none;
    return m_highlighted[static_cast<std::size_t>(lane)];
}

std::size_t TimelineView::highlightedCount() const {
    std::size_t n = 0;
    for (const auto& lane : m_highlighted)
        n += lane.size();
    return n;
}

void TimelineView::setSelection(std::int64_t startNs, std::int64_t endNs) {
    if (endNs < startNs)
        std::swap(startNs, endNs);
    m_hasSelection = endNs > startNs;
    m_selStartNs = startNs;
    m_selEndNs = endNs;
    refreshStats();
    update();
    Q_EMIT selectionChanged();
}

void TimelineView::clearSelection() {
    const bool had = m_hasSelection;
    m_hasSelection = false;
    m_stats = RangeSummary{};
    update();
    if (had)
        Q_EMIT selectionChanged();
}

void TimelineView::refreshStats() {
    if (!m_hasSelection)
        return;
    RangeStatistics stats;
    for (int i = 0; i < rowCount(); ++i) {
        const Row& r = row(i);
        stats.addTrack(*m_frame.lanes[static_cast<std::size_t>(r.lane)].store, r.track,
                       m_selStartNs, m_selEndNs);
    }
    m_stats = stats.summary(kStatsNames);
}

QStringList TimelineView::statsLines() const {
    if (!m_hasSelection)
        return {};
    const RangeSummary& s = m_stats;
    QStringList lines;
    lines << tr("selection %1 \u2013 %2 (%3)")
                 .arg(qs(TimelineAxis::tickLabel(m_selStartNs - originNs(), 1000)),
                      qs(TimelineAxis::tickLabel(m_selEndNs - originNs(), 1000)),
                      duration(static_cast<double>(m_selEndNs - m_selStartNs)));
    const double mean =
        s.count > 0 ? static_cast<double>(s.totalNs) / static_cast<double>(s.count) : 0.0;
    lines << tr("%1 events \u00b7 total %2 \u00b7 mean %3")
                 .arg(s.count)
                 .arg(duration(static_cast<double>(s.totalNs)), duration(mean));
    const auto n = std::min<std::size_t>(s.names.size(), kStatsNames);
    for (std::size_t i = 0; i < n; ++i) {
        const NameStats& ns = s.names[i];
        lines << tr("%1 \u00b7 %2\u00d7 \u00b7 total %3 \u00b7 mean %4 \u00b7 p50 %5 \u00b7 p99 %6")
                     .arg(qs(ns.name))
                     .arg(ns.count)
                     .arg(duration(static_cast<double>(ns.totalNs)), duration(ns.meanNs),
                          duration(static_cast<double>(ns.p50Ns)),
                          duration(static_cast<double>(ns.p99Ns)));
    }
    return lines;
}

TimelineView::Hit TimelineView::eventAt(const QPointF& pos) const {
    const Layout l = layoutFor(QRectF(rect()));
    if (!l.plot.contains(pos))
        return {};
    int index = -1;
    for (int i = 0; i < rowCount(); ++i) {
        const double top = l.rowTop[static_cast<std::size_t>(i)];
        if (pos.y() >= top && pos.y() < top + l.rowH) {
            index = i;
            break;
        }
    }
    if (index < 0)
        return {};
    const Row& r = row(index);
    const TraceStore& s = *m_frame.lanes[static_cast<std::size_t>(r.lane)].store;
    const TimelineAxis a = axisFor(l);
    const double px = pos.x() - l.plot.left();
    const std::int64_t t = a.toNs(px);
    // Two pixels of slack so slivers and instants can be pointed at.
    const auto slack =
        std::max<std::int64_t>(1, std::llround(2.0 * static_cast<double>(a.spanNs()) / a.width()));
    // Inside beats near; among those inside, the latest start (the innermost slice).
    if (const auto hit = eventNear(s, r.track, t, slack))
        return Hit{r.lane, *hit};
    return {};
}

QString TimelineView::eventText(int lane, std::uint32_t event) const {
    if (lane < 0 || static_cast<std::size_t>(lane) >= m_frame.lanes.size())
        return {};
    const TimelineLane& ln = m_frame.lanes[static_cast<std::size_t>(lane)];
    if (!ln.store || event >= ln.store->events().size())
        return {};
    const TraceStore& s = *ln.store;
    const StoredEvent& e = s.events()[event];
    QString track;
    for (const Row& r : m_rows) {
        if (r.lane == lane && r.track == e.track)
            track = r.label;
    }
    const double startS = static_cast<double>(e.startNs - originNs()) * 1e-9;
    return tr("%1\nduration %2 \u00b7 start %3\ntrack %4 \u00b7 %5")
        .arg(qs(std::string(s.strings().text(e.name))),
             e.durNs > 0 ? duration(static_cast<double>(e.durNs)) : tr("instant"),
             qs(formatSi(startS, "s", 6)), track, qs(ln.label));
}

QString TimelineView::tipAt(const QPointF& pos) const {
    const Hit h = eventAt(pos);
    return h.valid() ? eventText(h.lane, h.event) : QString();
}

void TimelineView::setHover(const Hit& hit) {
    if (hit == m_hover)
        return;
    m_hover = hit;
    m_hoverLinks.clear();
    if (hit.valid()) {
        // The links with an end inside the hovered event: same track, time within it.
        const TraceStore& s = *m_frame.lanes[static_cast<std::size_t>(hit.lane)].store;
        const StoredEvent& e = s.events()[hit.event];
        const auto inside = [&](std::uint32_t point) {
            const FlowPoint& p = s.flowPoints()[point];
            return p.track == e.track && p.tsNs >= e.startNs && p.tsNs <= e.endNs();
        };
        for (const FlowLink& link : s.flowLinks()) {
            if (inside(link.from) || inside(link.to))
                m_hoverLinks.push_back(link);
        }
    }
    update();
}

void TimelineView::hoverAt(const QPointF& pos) {
    setHover(eventAt(pos));
}

int TimelineView::laneHeaderAt(const QPointF& pos) const {
    const QRectF bounds(rect());
    for (int i = 0; i < static_cast<int>(m_frame.lanes.size()); ++i) {
        if (laneHeaderRect(bounds, i).contains(pos))
            return i;
    }
    return -1;
}

// ---- input ------------------------------------------------------------------------------

bool TimelineView::handlesKey(int key) const {
    switch (key) {
    case Qt::Key_W:
    case Qt::Key_S:
    case Qt::Key_A:
    case Qt::Key_D:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
    case Qt::Key_Minus:
    case Qt::Key_0:
    case Qt::Key_PageUp:
    case Qt::Key_PageDown:
        return true;
    case Qt::Key_Escape: // clears a selection; otherwise it leaves presentation mode
        return m_hasSelection;
    default:
        return false;
    }
}

bool TimelineView::event(QEvent* event) {
    // The window's shortcuts yield to the timeline's own keys while it has focus. The story
    // keys (←/→/Space/Home/End) are not taken: a presenter stepping through the slides must
    // not find them panning a timeline they clicked; W/S/A/D, +/− and 0 zoom, pan and fit.
    // (Without a window around it, ←/→/Home reach keyPressEvent and pan/fit too.)
    if (event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (handlesKey(key->key())) {
            event->accept();
            return true;
        }
    }
    if (handleHoverTip(this, event, [this](QPointF pos) { return tipAt(pos); }))
        return true;
    return QWidget::event(event);
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    const Layout l = layoutFor(QRectF(rect()));
    m_axis.setWidth(l.plot.width());
    const double centre = l.plot.width() / 2.0;
    switch (event->key()) {
    case Qt::Key_W:
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        m_axis.zoomAbout(centre, kKeyZoom);
        break;
    case Qt::Key_S:
    case Qt::Key_Minus:
        m_axis.zoomAbout(centre, 1.0 / kKeyZoom);
        break;
    case Qt::Key_A:
    case Qt::Key_Left:
        m_axis.pan(-kKeyPan * l.plot.width());
        break;
    case Qt::Key_D:
    case Qt::Key_Right:
        m_axis.pan(kKeyPan * l.plot.width());
        break;
    case Qt::Key_Home:
    case Qt::Key_0:
        m_axis.fitAll();
        break;
    case Qt::Key_Escape:
        clearSelection();
        break;
    case Qt::Key_PageUp:
        m_scrollY = std::max(0.0, m_scrollY - l.plot.height() * 0.8);
        break;
    case Qt::Key_PageDown:
        m_scrollY = std::clamp(m_scrollY + l.plot.height() * 0.8, 0.0,
                               std::max(0.0, l.contentH - l.plot.height()));
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    setHover(Hit{});
    update();
    Q_EMIT windowChanged(m_axis.startNs(), m_axis.endNs());
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    const Layout l = layoutFor(QRectF(rect()));
    m_axis.setWidth(l.plot.width());
    const QPointF pos = event->position();
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ShiftModifier) {
        // Shift+wheel scrolls the rows (traces with many CPU threads expanded).
        const int d = delta.y() != 0 ? delta.y() : delta.x();
        m_scrollY = std::clamp(m_scrollY - d / 120.0 * l.rowH * 3.0, 0.0,
                               std::max(0.0, l.contentH - l.plot.height()));
    } else if (delta.x() != 0 && std::abs(delta.x()) > std::abs(delta.y())) {
        m_axis.pan(-delta.x() / 120.0 * l.plot.width() * 0.1);
    } else if (delta.y() != 0) {
        m_axis.zoomAbout(pos.x() - l.plot.left(), std::pow(kWheelStep, delta.y() / 120.0));
    }
    setHover(eventAt(pos));
    event->accept();
    update();
    Q_EMIT windowChanged(m_axis.startNs(), m_axis.endNs());
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    const Layout l = layoutFor(QRectF(rect()));
    m_axis.setWidth(l.plot.width());
    const QPointF pos = event->position();
    m_pressPos = pos;
    m_pressStartNs = m_axis.startNs();
    m_pressEndNs = m_axis.endNs();
    m_pressTimeNs = m_axis.toNs(pos.x() - l.plot.left());
    m_dragged = false;
    const bool onAxis = l.axis.contains(pos);
    const bool inPlot = l.plot.contains(pos);
    if (onAxis || (inPlot && (event->modifiers() & Qt::ShiftModifier)))
        m_drag = Drag::Select;
    else if (inPlot)
        m_drag = Drag::Pan;
    else
        m_drag = Drag::None;
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const QPointF pos = event->position();
    if (m_drag == Drag::None || !(event->buttons() & Qt::LeftButton)) {
        setHover(eventAt(pos));
        return;
    }
    if (!m_dragged && std::hypot(pos.x() - m_pressPos.x(), pos.y() - m_pressPos.y()) < kDragSlop)
        return;
    m_dragged = true;
    const Layout l = layoutFor(QRectF(rect()));
    if (m_drag == Drag::Pan) {
        m_axis.setWindow(m_pressStartNs, m_pressEndNs);
        m_axis.setWidth(l.plot.width());
        m_axis.pan(m_pressPos.x() - pos.x());
        setHover(Hit{});
        update();
        Q_EMIT windowChanged(m_axis.startNs(), m_axis.endNs());
    } else {
        m_axis.setWidth(l.plot.width());
        const double px = std::clamp(pos.x() - l.plot.left(), 0.0, l.plot.width());
        setSelection(m_pressTimeNs, m_axis.toNs(px));
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    if (!m_dragged) {
        // A click: on a lane header it folds the CPU threads, in the plot it drops the
        // selection.
        const int lane = laneHeaderAt(event->position());
        if (lane >= 0 && cpuThreadCount(lane) > 0)
            setCpuExpanded(lane, !cpuExpanded(lane));
        else if (m_drag == Drag::Pan)
            clearSelection();
    }
    m_drag = Drag::None;
    event->accept();
}

void TimelineView::leaveEvent(QEvent* event) {
    setHover(Hit{});
    QWidget::leaveEvent(event);
}

// ---- painting ---------------------------------------------------------------------------

QColor TimelineView::colourOf(TimelineColour colour) const {
    switch (colour) {
    case TimelineColour::Compute:
        return m_theme.seriesColor(0);
    case TimelineColour::Comm:
        return m_theme.seriesColor(1);
    case TimelineColour::Memory:
        return m_theme.seriesColor(2);
    case TimelineColour::Host:
        break;
    }
    return mixColors(m_theme.muted, m_theme.background, 0.45);
}

QColor TimelineView::kindColor(EventKind kind) const {
    return colourOf(timelineColourOf(kind));
}

void TimelineView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const Layout l = layoutFor(bounds);
    const TimelineAxis a = axisFor(l);

    drawWrapped(painter, l.title, l.titleText, m_theme.foreground);
    drawWrapped(painter, l.caption, l.captionText, m_theme.muted);
    drawLegend(painter, l);
    drawAxis(painter, l, a);
    drawRows(painter, l, a);
    drawHighlight(painter, l, a);
    drawHover(painter, l, a);
    drawStats(painter, l, a);
    painter.restore();
}

std::vector<LegendEntry> TimelineView::legendEntries() const {
    std::vector<LegendEntry> entries{
        {kindColor(EventKind::Kernel), Qt::NoPen, tr("compute kernel")},
        {kindColor(EventKind::CommKernel), Qt::NoPen, tr("communication (NCCL)")},
        {kindColor(EventKind::Memcpy), Qt::NoPen, tr("memcpy / memset")}};
    if (!m_frame.gpuOnly)
        entries.push_back({kindColor(EventKind::CpuOp), Qt::NoPen, tr("CPU / runtime")});
    return entries;
}

// The colour key, then where the window is (and, on screen, what the mouse does). An export
// or a slide rendered offscreen (WA_DontShowOnScreen) has no mouse, so it shows just the span.
void TimelineView::drawLegend(QPainter& painter, const Layout& l) const {
    wb::drawLegend(painter, l.legend.topLeft(), l.legendLayout, legendEntries(), m_theme.muted);
    drawWrappedText(painter, l.hintRect, m_theme.fontAtPixels(l.em * 0.8), m_theme.muted, l.hint,
                    Qt::AlignRight | Qt::AlignTop);
}

void TimelineView::drawAxis(QPainter& painter, const Layout& l, const TimelineAxis& a) const {
    const QFont font = m_theme.fontAtPixels(l.em * 0.8);
    painter.setFont(font);
    const QFontMetricsF fm(font);
    const double minTick = fm.horizontalAdvance(QStringLiteral("000.000 ms")) + l.em;
    const std::int64_t step = a.tickStepNs(minTick);
    painter.setPen(QPen(m_theme.grid, 1.0));
    painter.drawLine(QPointF(l.axis.left(), l.axis.bottom() - 0.5),
                     QPointF(l.axis.right(), l.axis.bottom() - 0.5));
    for (const std::int64_t t : a.ticks(minTick)) {
        const double x = std::round(l.plot.left() + a.toPx(t));
        painter.setPen(QPen(m_theme.grid, 1.0));
        painter.drawLine(QPointF(x, l.axis.bottom() - l.em * 0.4), QPointF(x, l.axis.bottom()));
        painter.setPen(m_theme.muted);
        const QString text = qs(TimelineAxis::tickLabel(t - a.limitStartNs(), step));
        const double tw = fm.horizontalAdvance(text) + 2.0;
        const double left = std::clamp(x - tw / 2, l.axis.left(), l.axis.right() - tw);
        painter.drawText(QRectF(left, l.axis.top(), tw, l.axis.height() - l.em * 0.4),
                         Qt::AlignCenter, text);
    }
}

void TimelineView::drawRows(QPainter& painter, const Layout& l, const TimelineAxis& a) const {
    const QRectF area(l.labels.left(), l.plot.top(), l.labels.width() + l.plot.width(),
                      l.plot.height());
    painter.save();
    painter.setClipRect(area);

    // Slices: recomputed when the window, the width or the rows changed.
    std::vector<std::size_t> rows(m_shown);
    if (m_cache.startNs != a.startNs() || m_cache.endNs != a.endNs() ||
        m_cache.width != a.width() || m_cache.rows != rows) {
        m_cache.startNs = a.startNs();
        m_cache.endNs = a.endNs();
        m_cache.width = a.width();
        m_cache.rows = rows;
        m_cache.slices.resize(rows.size());
        const auto slice = [&](std::size_t i) {
            const Row& r = m_rows[rows[i]];
            m_cache.slices[i].clear();
            visibleSlice(*m_frame.lanes[static_cast<std::size_t>(r.lane)].store, r.track,
                         a.startNs(), a.endNs(), a.width(), m_cache.slices[i]);
        };
        // Rows are independent and a zoomed-out row walks every event it holds (memory
        // bound: 1M events are 40 MB), so the rows are sliced on all cores.
        if (rows.size() >= 2) {
            std::vector<std::size_t> indexes(rows.size());
            std::iota(indexes.begin(), indexes.end(), std::size_t{0});
            QtConcurrent::blockingMap(indexes, [&slice](const std::size_t& i) { slice(i); });
        } else if (!rows.empty()) {
            slice(0);
        }
    }

    // Lane headers: the label (accent when emphasised) and the CPU fold.
    const QFont laneFont = m_theme.fontAtPixels(l.em * 0.95, true);
    const QFont rowFont = m_theme.fontAtPixels(l.em * 0.85);
    for (std::size_t li = 0; li < m_frame.lanes.size(); ++li) {
        const TimelineLane& lane = m_frame.lanes[li];
        const QRectF band(area.left(), l.laneTop[li], area.width(), l.headerH);
        if (!band.intersects(area))
            continue;
        painter.fillRect(band, m_theme.surface);
        if (!area.contains(band.adjusted(0, 0, 0, -0.5)))
            continue; // cut by the area's edge: its label comes back when scrolled in
        painter.setFont(laneFont);
        painter.setPen(lane.emphasis ? m_theme.accent : m_theme.foreground);
        const QString label = qs(lane.label);
        const double lw = QFontMetricsF(laneFont).horizontalAdvance(label);
        painter.drawText(band.adjusted(l.em * 0.5, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                         label);
        const int cpu = cpuThreadCount(static_cast<int>(li));
        if (cpu > 0) {
            painter.setFont(rowFont);
            painter.setPen(m_theme.muted);
            const QString fold = (cpuExpanded(static_cast<int>(li)) ? QStringLiteral("\u25be ")
                                                                    : QStringLiteral("\u25b8 ")) +
                                 tr("%n CPU thread(s)", nullptr, cpu);
            painter.drawText(band.adjusted(l.em * 1.5 + lw, 0, 0, 0),
                             Qt::AlignLeft | Qt::AlignVCenter, fold);
        }
    }

    // Row backgrounds and labels; tick grid lines behind the events.
    const double gap = l.rowH > 8.0 ? std::max(1.0, std::round(l.rowH * 0.12)) : 0.0;
    painter.setFont(rowFont);
    const QFontMetricsF rowFm(rowFont);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const double top = l.rowTop[i];
        if (top > area.bottom() || top + l.rowH < area.top())
            continue;
        const Row& r = m_rows[rows[i]];
        if (i % 2 == 1) {
            painter.fillRect(QRectF(area.left(), top, area.width(), l.rowH),
                             mixColors(m_theme.background, m_theme.surface, 0.5));
        }
        if (m_frame.lanes[static_cast<std::size_t>(r.lane)].emphasis) {
            painter.fillRect(QRectF(l.labels.left(), top, l.em * 0.25, l.rowH), m_theme.accent);
        }
        // The whole label, else its last part ("stream 7" of "GPU 0 · stream 7"), else none:
        // never a cut word. Rows the area cuts keep their label off until scrolled in.
        const QRectF labelBox(l.labels.left() + l.em * 0.6, top, l.labels.width() - l.em, l.rowH);
        const QString label = fitByParts(rowFont, r.label, labelBox.width(), KeepParts::Tail);
        if (!label.isEmpty() && rowFm.height() <= labelBox.height() + 2.0 &&
            area.contains(QRectF(labelBox.left(), labelBox.center().y() - rowFm.height() / 2,
                                 labelBox.width(), rowFm.height()))) {
            painter.setPen(r.gpu ? m_theme.foreground : m_theme.muted);
            painter.drawText(labelBox.adjusted(0, -1.0, 0, 1.0), Qt::AlignLeft | Qt::AlignVCenter,
                             label);
        }
    }
    const QFontMetricsF axisFm(m_theme.fontAtPixels(l.em * 0.8));
    painter.setPen(QPen(mixColors(m_theme.background, m_theme.grid, 0.6), 1.0));
    for (const std::int64_t t :
         a.ticks(axisFm.horizontalAdvance(QStringLiteral("000.000 ms")) + l.em)) {
        const double x = std::round(l.plot.left() + a.toPx(t));
        painter.drawLine(QPointF(x, l.plot.top()), QPointF(x, l.plot.bottom()));
    }

    // Events: one batch of rectangles per colour and layer. Where a row is dense, merged runs
    // of several colours span the same pixels; the colour with most events in the row keeps
    // the full height and the others' merged runs are drawn after it as a strip along the
    // bottom, so a stream that is mostly compute with some memcpy shows both.
    constexpr std::size_t kLayers = 2; // 0: full height, 1: minority strip on top
    std::array<std::array<std::vector<QRectF>, kTimelineColours>, kLayers> batches;
    int rects = 0;
    std::uint64_t visible = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const double top = l.rowTop[i];
        const std::vector<SliceRect>& slice = m_cache.slices[i];
        std::array<std::uint64_t, kTimelineColours> perColour{};
        for (const SliceRect& r : slice) {
            visible += r.count;
            perColour[static_cast<std::size_t>(r.colour)] += r.count;
        }
        if (top > area.bottom() || top + l.rowH < area.top())
            continue;
        const auto dominant = static_cast<std::size_t>(
            std::max_element(perColour.begin(), perColour.end()) - perColour.begin());
        const double y = top + gap;
        const double h = l.rowH - 2.0 * gap;
        for (const SliceRect& r : slice) {
            const auto c = static_cast<std::size_t>(r.colour);
            if (r.count > 1 && c != dominant)
                batches[1][c].emplace_back(l.plot.left() + r.x0, y + h * 0.6, r.x1 - r.x0, h * 0.4);
            else
                batches[0][c].emplace_back(l.plot.left() + r.x0, y, r.x1 - r.x0, h);
        }
        rects += static_cast<int>(slice.size());
    }
    // A frame revealing its trace hides what has not happened yet (and its names below).
    const double revealX =
        m_frame.revealEndNs > 0
            ? std::clamp(l.plot.left() + a.toPx(m_frame.revealEndNs), l.plot.left(), l.plot.right())
            : l.plot.right();
    if (m_frame.revealEndNs > 0)
        painter.setClipRect(QRectF(area.left(), area.top(), revealX - area.left(), area.height()),
                            Qt::IntersectClip);
    painter.setPen(Qt::NoPen);
    for (const auto& layer : batches) {
        for (std::size_t b = 0; b < layer.size(); ++b) {
            if (layer[b].empty())
                continue;
            painter.setBrush(colourOf(static_cast<TimelineColour>(b)));
            painter.drawRects(layer[b].data(), static_cast<int>(layer[b].size()));
        }
    }
    painter.setBrush(Qt::NoBrush);
    m_lastRects = rects;
    m_lastEvents = visible;

    // Names on events wide enough to read them.
    const QFont nameFont = m_theme.fontAtPixels(l.em * 0.75);
    painter.setFont(nameFont);
    const QFontMetricsF nameFm(nameFont);
    const double minNameW = l.em * 5.0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const double top = l.rowTop[i];
        if (top > area.bottom() || top + l.rowH < area.top() || l.rowH < l.em)
            continue;
        const Row& r = m_rows[rows[i]];
        const TraceStore& s = *m_frame.lanes[static_cast<std::size_t>(r.lane)].store;
        for (const SliceRect& rect : m_cache.slices[i]) {
            if (rect.x1 - rect.x0 < minNameW || rect.count != 1)
                continue;
            const QRectF box(l.plot.left() + rect.x0 + 3.0, top + gap, rect.x1 - rect.x0 - 6.0,
                             l.rowH - 2.0 * gap);
            const QColor fill = colourOf(rect.colour);
            painter.setPen(fill.lightness() < 150 ? m_theme.onAccent : m_theme.foreground);
            // A name is drawn whole or not at all; the hover tip always has it.
            const QString name = qs(std::string(s.strings().text(s.events()[rect.event].name)));
            if (nameFm.horizontalAdvance(name) > box.width() || box.right() > revealX ||
                !area.contains(QRectF(box.left(), box.center().y() - nameFm.height() / 2,
                                      box.width(), nameFm.height())))
                continue;
            painter.drawText(box.adjusted(0, -2.0, 0, 2.0), Qt::AlignLeft | Qt::AlignVCenter, name);
        }
    }

    // The selection: shaded across the rows and the axis, edged with the accent.
    if (m_hasSelection) {
        const double x0 =
            std::clamp(l.plot.left() + a.toPx(m_selStartNs), l.plot.left(), l.plot.right());
        const double x1 =
            std::clamp(l.plot.left() + a.toPx(m_selEndNs), l.plot.left(), l.plot.right());
        QColor shade = m_theme.accent;
        shade.setAlpha(40);
        painter.setClipping(false);
        painter.fillRect(
            QRectF(x0, l.axis.top(), std::max(1.0, x1 - x0), l.plot.bottom() - l.axis.top()),
            shade);
        painter.setPen(QPen(m_theme.accent, m_theme.lineWidth(1.5)));
        painter.drawLine(QPointF(x0, l.axis.top()), QPointF(x0, l.plot.bottom()));
        painter.drawLine(QPointF(x1, l.axis.top()), QPointF(x1, l.plot.bottom()));
    }
    painter.restore();
}

void TimelineView::drawHover(QPainter& painter, const Layout& l, const TimelineAxis& a) const {
    if (!m_hover.valid() || static_cast<std::size_t>(m_hover.lane) >= m_frame.lanes.size())
        return;
    const TraceStore& s = *m_frame.lanes[static_cast<std::size_t>(m_hover.lane)].store;
    if (m_hover.event >= s.events().size())
        return;
    painter.save();
    painter.setClipRect(l.plot);
    // A point's y: its row's middle, or its lane's header when the row is folded away.
    const auto yOf = [&](std::uint32_t track) {
        const int r = rowOf(m_hover.lane, track);
        return r >= 0 ? l.rowTop[static_cast<std::size_t>(r)] + l.rowH / 2.0
                      : l.laneTop[static_cast<std::size_t>(m_hover.lane)] + l.headerH / 2.0;
    };
    const StoredEvent& e = s.events()[m_hover.event];
    const int r = rowOf(m_hover.lane, e.track);
    if (r >= 0) {
        const double x0 = l.plot.left() + a.toPx(e.startNs);
        const double x1 = std::max(l.plot.left() + a.toPx(e.endNs()), x0 + 1.0);
        painter.setPen(QPen(m_theme.foreground, m_theme.lineWidth(1.5)));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(
            QRectF(x0, l.rowTop[static_cast<std::size_t>(r)] + 1.0, x1 - x0, l.rowH - 2.0));
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    const QPen pen(m_theme.accent, m_theme.lineWidth(1.5));
    for (const FlowLink& link : m_hoverLinks) {
        const FlowPoint& from = s.flowPoints()[link.from];
        const FlowPoint& to = s.flowPoints()[link.to];
        const QPointF p0(l.plot.left() + a.toPx(from.tsNs), yOf(from.track));
        const QPointF p1(l.plot.left() + a.toPx(to.tsNs), yOf(to.track));
        painter.setPen(pen);
        painter.drawLine(p0, p1);
        // Arrow head at the destination.
        const double angle = std::atan2(p1.y() - p0.y(), p1.x() - p0.x());
        const double size = l.em * 0.6;
        QPainterPath head;
        head.moveTo(p1);
        head.lineTo(p1 - QPointF(std::cos(angle - 0.4), std::sin(angle - 0.4)) * size);
        head.lineTo(p1 - QPointF(std::cos(angle + 0.4), std::sin(angle + 0.4)) * size);
        head.closeSubpath();
        painter.fillPath(head, m_theme.accent);
    }
    painter.restore();
}

// The picked name's instances in the window, outlined; neighbours closer than two pixels
// share one outline, so a dense kernel costs about one rectangle per pixel column.
void TimelineView::drawHighlight(QPainter& painter, const Layout& l, const TimelineAxis& a) const {
    if (highlightedCount() == 0)
        return;
    std::vector<QRectF> boxes;
    for (std::size_t i = 0; i < m_shown.size(); ++i) {
        const double top = l.rowTop[i];
        if (top > l.plot.bottom() || top + l.rowH < l.plot.top())
            continue;
        const Row& r = m_rows[m_shown[i]];
        const auto& matches = m_highlighted[static_cast<std::size_t>(r.lane)];
        if (matches.empty())
            continue;
        const TraceStore& s = *m_frame.lanes[static_cast<std::size_t>(r.lane)].store;
        const auto [first, last] = s.overlapping(r.track, a.startNs(), a.endNs());
        double x0 = 0.0, x1 = -1.0;
        const auto flush = [&] {
            if (x1 >= x0)
                boxes.emplace_back(x0, top + 1.0, std::max(2.0, x1 - x0), l.rowH - 2.0);
        };
        for (auto it = std::lower_bound(matches.begin(), matches.end(), first);
             it != matches.end() && *it < last; ++it) {
            const StoredEvent& e = s.events()[*it];
            if (e.endNs() < a.startNs())
                continue;
            const double left = l.plot.left() + a.toPx(e.startNs);
            const double right = std::max(l.plot.left() + a.toPx(e.endNs()), left + 1.0);
            if (x1 >= x0 && left <= x1 + 2.0) {
                x1 = std::max(x1, right);
                continue;
            }
            flush();
            x0 = left;
            x1 = right;
        }
        flush();
    }
    if (boxes.empty())
        return;
    painter.save();
    painter.setClipRect(l.plot);
    painter.setPen(QPen(m_theme.accent, m_theme.lineWidth(2.0)));
    painter.setBrush(Qt::NoBrush);
    painter.drawRects(boxes.data(), static_cast<int>(boxes.size()));
    painter.restore();
}

void TimelineView::drawStats(QPainter& painter, const Layout& l, const TimelineAxis& a) const {
    (void)a;
    if (!m_hasSelection)
        return;
    StatsBlock b;
    const QRectF panel = statsPanel(l, &b);
    painter.save();
    painter.setClipRect(panel);
    QColor fill = m_theme.surface;
    fill.setAlpha(240);
    painter.fillRect(panel, fill);
    painter.setPen(QPen(m_theme.grid, 1.0));
    painter.drawRect(panel.adjusted(0.5, 0.5, -0.5, -0.5));
    const QRectF inner = panel.adjusted(l.em * 0.6, l.em * 0.4, -l.em * 0.6, -l.em * 0.4);
    double y = inner.top();
    // Whole lines only: what does not fit the panel (a short view) is left out, not cut.
    const auto fits = [&](double h) { return y + h <= inner.bottom() + 0.5; };
    for (std::size_t i = 0; i < b.lines.size(); ++i) {
        const double h = std::max(b.lineH, b.lines[i].height() + l.em * 0.3);
        if (!fits(h))
            break;
        drawWrapped(painter, QRectF(inner.left(), y, inner.width(), h), b.lines[i],
                    i == 0 ? m_theme.foreground : m_theme.muted, Qt::AlignLeft | Qt::AlignVCenter);
        y += h;
    }
    // The names as a table: name, count, total, mean, p50, p99.
    const auto cells = [&](const WrappedText& name, const QStringList& values, const QColor& colour,
                           const QFont& font) {
        const double h = std::max(b.lineH, name.height() + l.em * 0.3);
        if (!fits(h))
            return false;
        drawWrapped(painter, QRectF(inner.left(), y, b.nameW - l.em * 0.4, h), name, colour,
                    Qt::AlignLeft | Qt::AlignVCenter);
        painter.setFont(font);
        painter.setPen(colour);
        for (int c = 0; c < values.size(); ++c)
            painter.drawText(QRectF(inner.left() + b.nameW + c * b.numW, y, b.numW, b.lineH),
                             Qt::AlignRight | Qt::AlignVCenter, values[c]);
        y += h;
        return true;
    };
    const bool headings =
        cells(wrapText(b.head, tr("name"), b.nameW),
              {tr("count"), tr("total"), tr("mean"), tr("p50"), tr("p99")}, m_theme.muted, b.head);
    for (std::size_t i = 0; headings && i < b.names.size(); ++i) {
        const NameStats& n = m_stats.names[i];
        if (!cells(b.names[i],
                   {QString::number(n.count), duration(static_cast<double>(n.totalNs)),
                    duration(n.meanNs), duration(static_cast<double>(n.p50Ns)),
                    duration(static_cast<double>(n.p99Ns))},
                   m_theme.foreground, b.body))
            break;
    }
    painter.restore();
}

} // namespace wb
