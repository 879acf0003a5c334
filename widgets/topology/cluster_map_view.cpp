#include "topology/cluster_map_view.h"

#include "drawing/hover_tip.h"

#include <QMouseEvent>
#include <algorithm>
#include <array>
#include <cmath>

namespace wb {

namespace {

const char* kKindNames[kMapKinds] = {"GPU", "node",         "rack",    "ToR",      "spine",
                                     "PDU", "cooling zone", "storage", "scheduler"};

int ceilDiv(int a, int b) {
    return b <= 0 ? 0 : (a + b - 1) / b;
}

QString gpuStateName(MapGpuState s) {
    switch (s) {
    case MapGpuState::Healthy:
        return QStringLiteral("healthy");
    case MapGpuState::Lost:
        return QStringLiteral("lost");
    case MapGpuState::TpBroken:
        return QStringLiteral("in a broken TP group");
    case MapGpuState::PpBroken:
        return QStringLiteral("in a broken PP group");
    case MapGpuState::DpBroken:
        return QStringLiteral("in a broken DP group");
    case MapGpuState::Stopped:
        return QStringLiteral("idle: the job stopped");
    }
    return {};
}

QString componentStateName(MapComponentState s) {
    switch (s) {
    case MapComponentState::Up:
        return QStringLiteral("up");
    case MapComponentState::Failed:
        return QStringLiteral("failed");
    case MapComponentState::Down:
        return QStringLiteral("down: something it depends on failed");
    }
    return {};
}

} // namespace

ClusterMapView::ClusterMapView(QWidget* parent)
    : FrameView(parent) {
    setMouseTracking(false);
}

void ClusterMapView::frameChanged(const ClusterMapFrame& previous) {
    (void)previous;
    m_geo = geometry(16);
    m_layoutValid = false;
    m_imageValid = false;
}

void ClusterMapView::themeChanged() {
    m_layoutValid = false;
    m_imageValid = false;
}

QColor ClusterMapView::gpuColor(MapGpuState s) const {
    switch (s) {
    case MapGpuState::Healthy:
        return m_theme.isDark ? QColor(0x4f, 0x8f, 0x5a) : QColor(0x8c, 0xc6, 0x8c);
    case MapGpuState::Lost:
        return QColor(0xd6, 0x27, 0x28);
    case MapGpuState::TpBroken:
        return QColor(0xff, 0x7f, 0x0e);
    case MapGpuState::PpBroken:
        return QColor(0x94, 0x67, 0xbd);
    case MapGpuState::DpBroken:
        return QColor(0xe7, 0xba, 0x52);
    case MapGpuState::Stopped:
        return m_theme.isDark ? QColor(0x55, 0x5b, 0x63) : QColor(0xc4, 0xc8, 0xcd);
    }
    return m_theme.muted;
}

QColor ClusterMapView::componentColor(MapComponentState s) const {
    switch (s) {
    case MapComponentState::Up:
        return m_theme.isDark ? QColor(0x88, 0x95, 0xa7) : QColor(0x6b, 0x7a, 0x8f);
    case MapComponentState::Failed:
        return m_theme.isDark ? QColor(0xff, 0x2e, 0x63) : QColor(0xa5, 0x00, 0x26);
    case MapComponentState::Down:
        return QColor(0xe3, 0x77, 0xc2);
    }
    return m_theme.muted;
}

QColor ClusterMapView::reachColor() const {
    return m_theme.isDark ? QColor(0x56, 0xd4, 0xff) : QColor(0x00, 0x5f, 0xcc);
}

QRect ClusterMapView::reachCells() const {
    QRect reach;
    for (std::size_t g = 0; g < m_frame.gpus.size(); ++g)
        if (m_frame.gpus[g] == MapGpuState::Lost)
            reach |= cellsOf(static_cast<int>(MapKind::Gpu), static_cast<int>(g));
    return reach;
}

ClusterMapView::Geometry ClusterMapView::geometry(int racksPerRow) const {
    Geometry g;
    const ClusterMapFrame& f = m_frame;
    if (f.gpus.empty() || f.gpusPerNode < 1 || f.nodesPerRack < 1 || f.racksPerPod < 1)
        return g;
    g.gpus = static_cast<int>(f.gpus.size());
    g.nodes = ceilDiv(g.gpus, f.gpusPerNode);
    g.racks = ceilDiv(g.nodes, f.nodesPerRack);
    g.pods = ceilDiv(g.racks, f.racksPerPod);
    g.nodeRows = f.gpusPerNode > 4 ? 2 : 1;
    g.gpuCols = ceilDiv(f.gpusPerNode, g.nodeRows);
    g.rackW = 1 + g.gpuCols;
    g.rackH = 1 + f.nodesPerRack * g.nodeRows + 1;
    const int racksInPod = std::min(f.racksPerPod, g.racks);
    g.racksPerRow = std::clamp(racksPerRow, 1, std::max(1, racksInPod));
    g.rackRows = ceilDiv(racksInPod, g.racksPerRow);
    g.podW = 2 + g.racksPerRow * (g.rackW + 1); // the last gap column picks its rack
    g.podH = 2 + g.rackRows * (g.rackH + 1) - 1;
    return g;
}

const ClusterMapView::Layout& ClusterMapView::layoutFor(const QRectF& bounds) const {
    if (m_layoutValid && m_layout.size == bounds.size())
        return m_layout;
    Layout l;
    l.size = bounds.size();
    l.em = layoutEm(bounds, {30.0, 16.0, 0.73});
    const double pad = l.em * 0.6;
    const QRectF inner = bounds.adjusted(pad, pad, -pad, -pad);
    // Title and caption wrap; they get the lines they need.
    const double titleH =
        std::max(l.em * 1.7, wrappedHeight(m_theme.fontAtPixels(l.em * 1.1, true),
                                           QString::fromStdString(m_frame.title), inner.width()) +
                                 l.em * 0.4);
    const double captionH =
        std::max(l.em * 1.6, wrappedHeight(m_theme.fontAtPixels(l.em * 0.95, true),
                                           QString::fromStdString(m_frame.caption), inner.width()) +
                                 l.em * 0.4);
    l.title = QRectF(inner.left(), inner.top(), inner.width(), titleH);
    l.caption = QRectF(inner.left(), inner.bottom() - captionH, inner.width(), captionH);
    const double panelW = std::clamp(inner.width() * 0.24, l.em * 9.0, l.em * 17.0);
    l.panel = QRectF(inner.right() - panelW, l.title.bottom(), panelW,
                     std::max(0.0, l.caption.top() - l.title.bottom()));
    const QRectF area(inner.left(), l.title.bottom() + l.em * 0.3,
                      std::max(0.0, l.panel.left() - inner.left() - l.em * 0.8),
                      std::max(0.0, l.caption.top() - l.title.bottom() - l.em * 0.6));
    // Each box as tall as its label needs when wrapped to the panel.
    const QFont boxFont = m_theme.fontAtPixels(l.em * 0.95, true);
    const auto boxH = [&](int kind) {
        return std::max(l.em * 2.0,
                        wrappedHeight(boxFont, componentBoxLabel(kind), panelW - l.em * 0.5) +
                            l.em * 0.9);
    };
    l.storage = QRectF(l.panel.left(), l.panel.top() + l.em * 0.3, panelW,
                       boxH(static_cast<int>(MapKind::Storage)));
    l.scheduler = QRectF(l.panel.left(), l.storage.bottom() + l.em * 0.4, panelW,
                         boxH(static_cast<int>(MapKind::Scheduler)));

    // The rack rows and pod arrangement that give the largest whole-pixel cells.
    int best = -1;
    for (int rpr : {8, 16, 32}) {
        Geometry g = geometry(rpr);
        for (int cols = 1; cols <= std::max(1, g.pods); ++cols) {
            const int rows = ceilDiv(std::max(1, g.pods), cols);
            const int cw = cols * (g.podW + 2) - 2, ch = rows * (g.podH + 2) - 2;
            const int s = static_cast<int>(std::min(area.width() / cw, area.height() / ch));
            if (s > best) {
                best = s;
                g.podCols = cols;
                g.podRows = rows;
                g.cellsW = cw;
                g.cellsH = ch;
                m_geo = g;
            }
        }
    }
    l.cell = best;
    l.cell = std::max(1, l.cell);
    l.map =
        QRect(static_cast<int>(std::round(area.left())), static_cast<int>(std::round(area.top())),
              m_geo.cellsW * l.cell, m_geo.cellsH * l.cell);
    // The panel follows the map rather than the view's edge, so nothing floats apart.
    const double shift = std::max(0.0, l.panel.left() - (l.map.right() + l.em * 1.2));
    l.panel.translate(-shift, 0);
    l.storage.translate(-shift, 0);
    l.scheduler.translate(-shift, 0);
    m_layout = l;
    m_layoutValid = true;
    m_imageValid = false;
    return m_layout;
}

QRect ClusterMapView::podOrigin(int pod) const {
    const int pc = pod % std::max(1, m_geo.podCols), pr = pod / std::max(1, m_geo.podCols);
    return {pc * (m_geo.podW + 2), pr * (m_geo.podH + 2), m_geo.podW, m_geo.podH};
}

QPoint ClusterMapView::rackOrigin(int rack) const {
    const int rpp = std::max(1, m_frame.racksPerPod);
    const QRect p = podOrigin(rack / rpp);
    const int rp = rack % rpp;
    return {p.x() + 2 + (rp % m_geo.racksPerRow) * (m_geo.rackW + 1),
            p.y() + 2 + (rp / m_geo.racksPerRow) * (m_geo.rackH + 1)};
}

int ClusterMapView::rackOfCooling(int zone) const {
    return zone * std::max(1, m_frame.racksPerCoolingZone);
}

QRect ClusterMapView::cellsOf(int kind, int index) const {
    const ClusterMapFrame& f = m_frame;
    if (m_geo.gpus == 0 || index < 0)
        return {};
    switch (static_cast<MapKind>(kind)) {
    case MapKind::Gpu: {
        if (index >= m_geo.gpus)
            return {};
        const int n = index / f.gpusPerNode, k = index % f.gpusPerNode;
        const QPoint o = rackOrigin(n / f.nodesPerRack);
        return {o.x() + 1 + k % m_geo.gpuCols,
                o.y() + 1 + (n % f.nodesPerRack) * m_geo.nodeRows + k / m_geo.gpuCols, 1, 1};
    }
    case MapKind::Node: {
        if (index >= m_geo.nodes)
            return {};
        const QPoint o = rackOrigin(index / f.nodesPerRack);
        return {o.x(), o.y() + 1 + (index % f.nodesPerRack) * m_geo.nodeRows, 1, m_geo.nodeRows};
    }
    case MapKind::Rack:
        if (index >= m_geo.racks)
            return {};
        return {rackOrigin(index), QSize(m_geo.rackW, m_geo.rackH)};
    case MapKind::Tor:
        if (index >= m_geo.racks)
            return {};
        return {rackOrigin(index) + QPoint(1, 0), QSize(m_geo.gpuCols, 1)};
    case MapKind::Pdu: {
        const int rack = index * std::max(1, f.racksPerPdu);
        if (rack >= m_geo.racks)
            return {};
        return {rackOrigin(rack) + QPoint(0, m_geo.rackH - 1), QSize(m_geo.rackW, 1)};
    }
    case MapKind::Spine: {
        const int spp = std::max(1, f.spinesPerPod);
        const int pod = index / spp, j = index % spp;
        if (pod >= m_geo.pods)
            return {};
        const QRect p = podOrigin(pod);
        const int innerW = p.width() - 2;
        const int sw = std::max(1, (innerW + 1) / spp - 1);
        return {p.x() + 2 + std::min(j * (sw + 1), innerW - sw), p.y(), sw, 1};
    }
    case MapKind::Cooling: {
        const int rack = rackOfCooling(index);
        if (rack >= m_geo.racks)
            return {};
        return {QPoint(podOrigin(rack / std::max(1, f.racksPerPod)).x(), rackOrigin(rack).y()),
                QSize(1, m_geo.rackH)};
    }
    case MapKind::Storage:
    case MapKind::Scheduler:
        return {};
    }
    return {};
}

QRectF ClusterMapView::pixels(const Layout& l, const QRect& cells) const {
    if (cells.isEmpty())
        return {};
    return {static_cast<double>(l.map.left() + cells.x() * l.cell),
            static_cast<double>(l.map.top() + cells.y() * l.cell),
            static_cast<double>(cells.width() * l.cell),
            static_cast<double>(cells.height() * l.cell)};
}

void ClusterMapView::renderCells(const Layout& l) const {
    if (m_imageValid && m_image.size() == l.map.size())
        return;
    m_image = QImage(l.map.size().expandedTo(QSize(1, 1)), QImage::Format_RGB32);
    m_image.fill(m_theme.background);
    const int s = l.cell;
    const int inset = s >= 3 ? 1 : 0;
    auto fill = [&](const QRect& c, const QColor& colour, bool gap) {
        const QRgb rgb = colour.rgb();
        const int x0 = std::max(0, c.x() * s);
        const int y0 = std::max(0, c.y() * s);
        const int x1 = std::min(m_image.width(), (c.x() + c.width()) * s - (gap ? inset : 0));
        const int y1 = std::min(m_image.height(), (c.y() + c.height()) * s - (gap ? inset : 0));
        for (int y = y0; y < y1; ++y) {
            auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(y));
            std::fill(line + x0, line + std::max(x0, x1), rgb);
        }
    };
    const ClusterMapFrame& f = m_frame;
    auto state = [&](MapKind k, int i) {
        const auto& v = f.components[static_cast<std::size_t>(k)];
        return i >= 0 && static_cast<std::size_t>(i) < v.size() ? v[static_cast<std::size_t>(i)]
                                                                : MapComponentState::Up;
    };
    std::array<QColor, 3> comp;
    for (int i = 0; i < 3; ++i)
        comp[static_cast<std::size_t>(i)] = componentColor(static_cast<MapComponentState>(i));
    std::array<QColor, 6> gpu;
    for (int i = 0; i < 6; ++i)
        gpu[static_cast<std::size_t>(i)] = gpuColor(static_cast<MapGpuState>(i));
    const QColor rackBack = m_theme.isDark ? m_theme.surface : m_theme.grid.lighter(108);

    const int spinesTotal = m_geo.pods * std::max(1, f.spinesPerPod);
    for (int sp = 0; sp < spinesTotal; ++sp)
        fill(cellsOf(static_cast<int>(MapKind::Spine), sp),
             comp[static_cast<std::size_t>(state(MapKind::Spine, sp))], false);
    const int rpp = std::max(1, f.racksPerPod);
    for (int r = 0; r < m_geo.racks; ++r) {
        const QPoint o = rackOrigin(r);
        const MapComponentState rs = state(MapKind::Rack, r);
        if (rs != MapComponentState::Up)
            fill(QRect(o, QSize(m_geo.rackW + 1, m_geo.rackH + 1)),
                 comp[static_cast<std::size_t>(rs)], false);
        else
            fill(QRect(o, QSize(m_geo.rackW, m_geo.rackH)), rackBack, false);
        // A rack row's cooling strip takes the zone of the row's first rack.
        if ((r % rpp) % m_geo.racksPerRow == 0) {
            const int zone = r / std::max(1, f.racksPerCoolingZone);
            fill(QRect(podOrigin(r / rpp).x(), o.y(), 1, m_geo.rackH),
                 comp[static_cast<std::size_t>(state(MapKind::Cooling, zone))], false);
        }
        fill(QRect(o + QPoint(1, 0), QSize(m_geo.gpuCols, 1)),
             comp[static_cast<std::size_t>(state(MapKind::Tor, r))], true);
        const int pdu = r / std::max(1, f.racksPerPdu);
        // The bar runs on through the gap when the next rack in the row shares the PDU.
        const bool joined = r + 1 < m_geo.racks && (r + 1) / std::max(1, f.racksPerPdu) == pdu &&
                            ((r + 1) % rpp) % m_geo.racksPerRow != 0;
        fill(QRect(o + QPoint(0, m_geo.rackH - 1), QSize(m_geo.rackW + (joined ? 1 : 0), 1)),
             comp[static_cast<std::size_t>(state(MapKind::Pdu, pdu))], !joined);
        for (int k = 0; k < f.nodesPerRack; ++k) {
            const int n = r * f.nodesPerRack + k;
            if (n >= m_geo.nodes)
                break;
            fill(cellsOf(static_cast<int>(MapKind::Node), n),
                 comp[static_cast<std::size_t>(state(MapKind::Node, n))], true);
        }
    }
    for (int g = 0; g < m_geo.gpus; ++g)
        fill(cellsOf(static_cast<int>(MapKind::Gpu), g),
             gpu[static_cast<std::size_t>(f.gpus[static_cast<std::size_t>(g)])], true);
    m_imageValid = true;
}

// "storage · up", "scheduler · failed": the box's kind and its state's first word.
QString ClusterMapView::componentBoxLabel(int kind) const {
    const auto& v = m_frame.components[static_cast<std::size_t>(kind)];
    const MapComponentState st = v.empty() ? MapComponentState::Up : v.front();
    return QString::fromLatin1(kKindNames[kind]) + QStringLiteral(" · ") +
           componentStateName(st).section(':', 0, 0);
}

void ClusterMapView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const Layout& l = layoutFor(bounds);
    const QFont titleFont = m_theme.fontAtPixels(l.em * 1.1, true);
    const QFont bodyFont = m_theme.fontAtPixels(l.em * 0.95);
    const QFont boldFont = m_theme.fontAtPixels(l.em * 0.95, true);
    drawWrappedText(painter, l.title, titleFont, m_theme.foreground,
                    QString::fromStdString(m_frame.title), Qt::AlignLeft | Qt::AlignVCenter);

    if (m_geo.gpus > 0) {
        renderCells(l);
        painter.drawImage(l.map.topLeft(), m_image);
    }

    // Storage and the scheduler: one each, boxes in the panel.
    painter.setFont(boldFont);
    for (int k : {static_cast<int>(MapKind::Storage), static_cast<int>(MapKind::Scheduler)}) {
        const QRectF box = k == static_cast<int>(MapKind::Storage) ? l.storage : l.scheduler;
        const auto& v = m_frame.components[static_cast<std::size_t>(k)];
        const MapComponentState st = v.empty() ? MapComponentState::Up : v.front();
        const QRectF r = box.adjusted(0, 0, 0, -l.em * 0.3);
        painter.fillRect(r, componentColor(st));
        drawWrappedText(painter, r.adjusted(l.em * 0.4, 0, -l.em * 0.1, 0), boldFont, Qt::white,
                        componentBoxLabel(k), Qt::AlignLeft | Qt::AlignVCenter);
    }

    // The legend.
    painter.setFont(bodyFont);
    double y = l.scheduler.bottom() + l.em * 0.4;
    const double lineH = l.em * 1.3;
    // Entries wrap in the panel rather than being cut; one that no longer fits is left out
    // whole (the cells' tips say what each colour is).
    auto swatch = [&](const QColor& c, const QString& text) {
        const WrappedText block = wrapText(bodyFont, text, l.panel.width() - l.em * 1.3);
        const double h = std::max(lineH, block.height() + l.em * 0.3);
        if (y + h > l.panel.bottom())
            return;
        const double mark = std::min(lineH * 0.6, block.lineHeight * 0.7);
        painter.fillRect(QRectF(l.panel.left(), y + (block.lineHeight - mark) / 2 + l.em * 0.15,
                                l.em * 0.9, mark),
                         c);
        drawWrapped(painter,
                    QRectF(l.panel.left() + l.em * 1.3, y + l.em * 0.15,
                           l.panel.width() - l.em * 1.3, block.height()),
                    block, m_theme.foreground);
        y += h;
    };
    swatch(gpuColor(MapGpuState::Healthy), tr("GPU healthy"));
    swatch(gpuColor(MapGpuState::Lost), tr("GPU lost"));
    swatch(reachColor(), tr("outline: the failure's reach"));
    swatch(gpuColor(MapGpuState::TpBroken), tr("in a broken TP group"));
    swatch(gpuColor(MapGpuState::PpBroken), tr("in a broken PP group"));
    swatch(gpuColor(MapGpuState::DpBroken), tr("in a broken DP group"));
    swatch(gpuColor(MapGpuState::Stopped), tr("idle: job stopped"));
    swatch(componentColor(MapComponentState::Up), tr("switch, PDU, cooling: up"));
    swatch(componentColor(MapComponentState::Failed), tr("failed"));
    swatch(componentColor(MapComponentState::Down), tr("down with a dependency"));

    // The consequences revealed so far, in order.
    y += l.em * 0.4;
    for (int i = 0;
         i < m_frame.revealed && static_cast<std::size_t>(i) < m_frame.consequences.size(); ++i) {
        // Each consequence wraps; one that would run past the panel is left out whole, with
        // those after it (the answer card and narration say them too).
        const WrappedText block =
            wrapText(i + 1 == m_frame.revealed ? boldFont : bodyFont,
                     QString::fromStdString(m_frame.consequences[static_cast<std::size_t>(i)]),
                     l.panel.width());
        if (y + block.height() > l.panel.bottom())
            break;
        drawWrapped(painter, QRectF(l.panel.left(), y, l.panel.width(), block.height()), block,
                    m_theme.foreground);
        y += block.height() + l.em * 0.3;
    }

    // The failure's reach: the lost GPUs outlined in a hue no cell has, outside their cells and
    // at least a few text heights across, so a few-pixel domain is found at a glance and its
    // red cells stay visible. A failure that takes no GPU (a spine, the storage) is ringed
    // itself; a ring in the text colour over lost GPUs would hide them.
    const QRect reach = reachCells();
    QRectF target;
    if (!reach.isEmpty())
        target = pixels(l, reach);
    else if (m_frame.failedKind == static_cast<int>(MapKind::Storage))
        target = l.storage.adjusted(0, 0, 0, -l.em * 0.3);
    else if (m_frame.failedKind == static_cast<int>(MapKind::Scheduler))
        target = l.scheduler.adjusted(0, 0, 0, -l.em * 0.3);
    else if (m_frame.failedKind >= 0)
        target = pixels(l, cellsOf(m_frame.failedKind, m_frame.failedIndex));
    if (!target.isEmpty()) {
        const double grow = std::max(3.0, l.em * 0.35);
        QRectF ring = target.adjusted(-grow, -grow, grow, grow);
        const double least = l.em * 1.6;
        if (ring.width() < least)
            ring.adjust(-(least - ring.width()) / 2, 0, (least - ring.width()) / 2, 0);
        if (ring.height() < least)
            ring.adjust(0, -(least - ring.height()) / 2, 0, (least - ring.height()) / 2);
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(
            QPen(reach.isEmpty() ? m_theme.foreground : reachColor(), m_theme.lineWidth(2.5)));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(ring);
    }

    drawZoom(painter, l, y, bodyFont);

    drawWrappedText(painter, l.caption, boldFont, m_theme.foreground,
                    QString::fromStdString(m_frame.caption), Qt::AlignLeft | Qt::AlignVCenter);
    painter.restore();
}

// When cells are too small to see a failure (a 16,384-GPU map has cells of a few pixels), the
// neighbourhood of the failed component is drawn again, magnified by a whole factor, in the
// panel's free space below `top`, and framed on the map, so the failed part and the GPUs it
// took down can be seen at 720p.
void ClusterMapView::drawZoom(QPainter& painter, const Layout& l, double top,
                              const QFont& font) const {
    if (m_frame.failedKind < 0 || m_geo.gpus == 0 || l.cell >= 8)
        return;
    const QRect failed = cellsOf(m_frame.failedKind, m_frame.failedIndex);
    if (failed.isEmpty())
        return;
    // At least a few racks around it, within the map.
    const int wantW = std::max(failed.width() + 4, 3 * (m_geo.rackW + 1) + 2);
    const int wantH = std::max(failed.height() + 4, 2 * (m_geo.rackH + 1) + 2);
    QRect crop(failed.center().x() - wantW / 2, failed.center().y() - wantH / 2, wantW, wantH);
    crop = crop.intersected(QRect(0, 0, m_geo.cellsW, m_geo.cellsH));
    const WrappedText label = wrapText(font, tr("zoom around the failure"), l.panel.width());
    const double availW = l.panel.width();
    const double availH = l.panel.bottom() - top - label.height() - l.em * 0.6;
    const int scale = static_cast<int>(
        std::min(availW / (crop.width() * l.cell), availH / (crop.height() * l.cell)));
    if (scale < 2 || crop.isEmpty())
        return; // no room for a useful magnification
    const QRectF source = pixels(l, crop).translated(-l.map.topLeft());
    const QRectF target(l.panel.left(), top + l.em * 0.3 + label.height(), source.width() * scale,
                        source.height() * scale);
    drawWrapped(painter, QRectF(l.panel.left(), top + l.em * 0.2, availW, label.height()), label,
                m_theme.foreground);
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(target, m_image, source);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(m_theme.foreground, m_theme.lineWidth(1.5)));
    painter.drawRect(target);
    // Where the zoom comes from, thin and muted on the map, so it does not box the reach in.
    painter.setPen(QPen(m_theme.muted, m_theme.lineWidth(1.0), Qt::DashLine));
    painter.drawRect(pixels(l, crop));
    // The failed part ringed inside the zoom too.
    const QRectF ring(target.left() + (failed.x() - crop.x()) * l.cell * scale,
                      target.top() + (failed.y() - crop.y()) * l.cell * scale,
                      failed.width() * l.cell * scale, failed.height() * l.cell * scale);
    const double grow = std::max(2.0, l.em * 0.2);
    painter.setPen(QPen(m_theme.foreground, m_theme.lineWidth(2.5)));
    painter.drawRect(ring.adjusted(-grow, -grow, grow, grow).intersected(target));
}

ClusterMapView::Hit ClusterMapView::hitAt(const QRectF& bounds, const QPointF& pos) const {
    const Layout& l = layoutFor(bounds);
    if (l.storage.contains(pos))
        return {static_cast<int>(MapKind::Storage), 0};
    if (l.scheduler.contains(pos))
        return {static_cast<int>(MapKind::Scheduler), 0};
    if (m_geo.gpus == 0 || !QRectF(l.map).contains(pos))
        return {};
    const ClusterMapFrame& f = m_frame;
    const int cx = static_cast<int>((pos.x() - l.map.left()) / l.cell);
    const int cy = static_cast<int>((pos.y() - l.map.top()) / l.cell);
    const int pc = cx / (m_geo.podW + 2), pr = cy / (m_geo.podH + 2);
    const int lx = cx % (m_geo.podW + 2), ly = cy % (m_geo.podH + 2);
    const int pod = pr * m_geo.podCols + pc;
    if (lx >= m_geo.podW || ly >= m_geo.podH || pc >= m_geo.podCols || pod >= m_geo.pods)
        return {};
    const int rpp = std::max(1, f.racksPerPod);
    if (ly == 0) {
        for (int j = 0; j < f.spinesPerPod; ++j) {
            const int sp = pod * f.spinesPerPod + j;
            if (cellsOf(static_cast<int>(MapKind::Spine), sp).contains(cx, cy))
                return {static_cast<int>(MapKind::Spine), sp};
        }
        return {};
    }
    if (ly < 2)
        return {};
    const int row = (ly - 2) / (m_geo.rackH + 1), ry = (ly - 2) % (m_geo.rackH + 1);
    if (lx == 0) {
        const int rack = pod * rpp + row * m_geo.racksPerRow;
        if (rack >= m_geo.racks || ry >= m_geo.rackH)
            return {};
        return {static_cast<int>(MapKind::Cooling), rack / std::max(1, f.racksPerCoolingZone)};
    }
    if (lx < 2)
        return {};
    const int col = (lx - 2) / (m_geo.rackW + 1), rx = (lx - 2) % (m_geo.rackW + 1);
    const int rp = row * m_geo.racksPerRow + col;
    const int rack = pod * rpp + rp;
    if (col >= m_geo.racksPerRow || rp >= rpp || rack >= m_geo.racks)
        return {};
    if (ry == m_geo.rackH - 1 && rx <= m_geo.rackW)
        return {static_cast<int>(MapKind::Pdu), rack / std::max(1, f.racksPerPdu)};
    if (ry == 0 && rx >= 1 && rx < m_geo.rackW)
        return {static_cast<int>(MapKind::Tor), rack};
    if (ry >= 1 && ry < m_geo.rackH - 1 && rx < m_geo.rackW) {
        const int nodeInRack = (ry - 1) / m_geo.nodeRows;
        const int node = rack * f.nodesPerRack + nodeInRack;
        if (node >= m_geo.nodes)
            return {static_cast<int>(MapKind::Rack), rack};
        if (rx == 0)
            return {static_cast<int>(MapKind::Node), node};
        const int k = ((ry - 1) % m_geo.nodeRows) * m_geo.gpuCols + (rx - 1);
        const int gpu = node * f.gpusPerNode + k;
        if (k < f.gpusPerNode && gpu < m_geo.gpus)
            return {static_cast<int>(MapKind::Gpu), gpu};
    }
    // The rest of the block and the gap after it belong to the rack itself.
    return {static_cast<int>(MapKind::Rack), rack};
}

QRectF ClusterMapView::componentRect(const QRectF& bounds, int kind, int index) const {
    const Layout& l = layoutFor(bounds);
    if (kind == static_cast<int>(MapKind::Storage))
        return l.storage;
    if (kind == static_cast<int>(MapKind::Scheduler))
        return l.scheduler;
    if (kind == static_cast<int>(MapKind::Rack) && index >= 0 && index < m_geo.racks) {
        const QPoint o = rackOrigin(index);
        return pixels(l, QRect(o.x() + m_geo.rackW, o.y(), 1, m_geo.rackH));
    }
    return pixels(l, cellsOf(kind, index));
}

QString ClusterMapView::tipAt(const QRectF& bounds, const QPointF& pos) const {
    const Hit h = hitAt(bounds, pos);
    if (h.kind < 0)
        return {};
    const ClusterMapFrame& f = m_frame;
    const auto idx = static_cast<std::size_t>(h.index);
    if (h.kind == static_cast<int>(MapKind::Gpu)) {
        const int node = h.index / f.gpusPerNode;
        const int rack = node / f.nodesPerRack;
        auto coord = [&](int stride, int size) {
            return (h.index / std::max(1, stride)) % std::max(1, size);
        };
        return tr("GPU %1 · node %2 · rack %3 · pod %4\nrank %1: TP %5, PP %6, DP %7 in %8\n%9")
            .arg(h.index)
            .arg(node)
            .arg(rack)
            .arg(rack / std::max(1, f.racksPerPod))
            .arg(coord(f.tpStride, f.tp))
            .arg(coord(f.ppStride, f.pp))
            .arg(coord(f.dpStride, f.dp))
            .arg(QString::fromStdString(f.layoutName))
            .arg(gpuStateName(f.gpus[idx]));
    }
    const auto& v = f.components[static_cast<std::size_t>(h.kind)];
    const MapComponentState st = idx < v.size() ? v[idx] : MapComponentState::Up;
    QString what =
        QString::fromLatin1(kKindNames[h.kind]) + QLatin1Char(' ') + QString::number(h.index);
    if (h.kind == static_cast<int>(MapKind::Spine))
        what += tr(" (pod %1: every ToR of the pod uplinks to all %2 spines)")
                    .arg(h.index / std::max(1, f.spinesPerPod))
                    .arg(f.spinesPerPod);
    else if (h.kind == static_cast<int>(MapKind::Pdu))
        what += tr(" (power for %1 racks)").arg(f.racksPerPdu);
    else if (h.kind == static_cast<int>(MapKind::Cooling))
        what += tr(" (%1 racks)").arg(f.racksPerCoolingZone);
    else if (h.kind == static_cast<int>(MapKind::Tor))
        what += tr(" (the switch of rack %1)").arg(h.index);
    else if (h.kind >= static_cast<int>(MapKind::Storage))
        what = QString::fromLatin1(kKindNames[h.kind]);
    return what + QLatin1Char('\n') + componentStateName(st) + tr("\nclick to fail it");
}

bool ClusterMapView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](QPointF pos) { return tipAt(QRectF(rect()), pos); }))
        return true;
    return QWidget::event(event);
}

void ClusterMapView::mousePressEvent(QMouseEvent* event) {
    const Hit h = hitAt(QRectF(rect()), event->position());
    if (h.kind >= 0 && event->button() == Qt::LeftButton) {
        emit componentClicked(h.kind, h.index);
        event->accept();
        return;
    }
    QWidget::mousePressEvent(event);
}

} // namespace wb
