#include "topology/node_topology_view.h"

#include "drawing/hover_tip.h"
#include "text/text_layout.h"
#include "topology/packet_flow.h"
#include "topology/topology_view.h"

#include <QFontMetricsF>
#include <QPaintEngine>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace wb {

namespace {

double linkWidth(NodeLinkKind kind, double em) {
    switch (kind) {
    case NodeLinkKind::NvLink:
        return std::max(2.0, em * 0.3);
    case NodeLinkKind::Pcie:
    case NodeLinkKind::Network:
        return std::max(1.5, em * 0.16);
    case NodeLinkKind::MemoryBus:
    case NodeLinkKind::CpuLink:
        break;
    }
    return std::max(1.2, em * 0.12);
}

const char* linkName(NodeLinkKind kind) {
    switch (kind) {
    case NodeLinkKind::NvLink:
        return "NVLink";
    case NodeLinkKind::Pcie:
        return "PCIe";
    case NodeLinkKind::Network:
        return "network";
    case NodeLinkKind::MemoryBus:
        return "memory bus";
    case NodeLinkKind::CpuLink:
        break;
    }
    return "CPU link";
}

} // namespace

NodeTopologyView::NodeTopologyView(QWidget* parent)
    : FrameView(parent) {
    setMouseTracking(true);
}

NodeTopologyLayout NodeTopologyView::layoutFor(const QRectF& bounds) const {
    const double em = layoutEm(bounds, {60.0, 34.0, 0.82});
    // Title and caption wrap; the layout gives them the lines they need.
    const double width = bounds.width() - em * 1.2;
    return NodeTopologyLayout::compute(bounds, m_frame, em,
                                       wrappedHeight(font(em * 1.05, true), title(), width),
                                       wrappedHeight(font(em * 0.8), caption(), width));
}

QString NodeTopologyView::title() const {
    return QString::fromStdString(m_frame.title);
}

QString NodeTopologyView::caption() const {
    return QString::fromStdString(m_frame.caption);
}

QColor NodeTopologyView::routeColor(const Theme& theme, int index) {
    return TopologyView::classColor(theme, index);
}

QColor NodeTopologyView::linkColor(const Theme& theme, NodeLinkKind kind) {
    if (kind == NodeLinkKind::NvLink)
        return theme.isDark ? QColor(0x4c, 0xc0, 0x5a) : QColor(0x2c, 0xa0, 0x2c);
    return kind == NodeLinkKind::Network ? theme.muted : theme.grid.darker(theme.isDark ? 70 : 125);
}

double NodeTopologyView::packetSize(const NodeTopologyLayout& layout) {
    return std::clamp(layout.em() * 0.5, 3.0, 11.0);
}

std::vector<NodeTopologyView::Packet> NodeTopologyView::packets(const NodeTopologyFrame& frame,
                                                                const NodeTopologyLayout& layout) {
    std::vector<double> rates, lengths;
    // A layout made for another frame may have fewer routes: those get no packets.
    for (int r = 0; r < static_cast<int>(frame.routes.size()); ++r) {
        const bool laidOut = r < layout.routeCount();
        rates.push_back(laidOut ? frame.routes[static_cast<std::size_t>(r)].packetsPerS : 0.0);
        lengths.push_back(laidOut ? layout.routeLength(r) : 0.0);
    }
    std::vector<Packet> out;
    for (const PacketAt& p :
         packetsAlong(rates, lengths, packetSize(layout) * 2.0, frame.phaseS, kMaxPackets))
        out.push_back({p.route, layout.routePoint(p.route, p.fraction)});
    return out;
}

QString NodeTopologyView::tipAt(const QPointF& pos) const {
    const NodeTopologyLayout layout = layoutFor(QRectF(rect()));
    const double em = layout.em();
    for (int r = static_cast<int>(m_frame.routes.size()) - 1; r >= 0; --r) {
        const NodeRoute& route = m_frame.routes[static_cast<std::size_t>(r)];
        for (const NodeRouteMark& m : route.marks) {
            const QPointF c = layout.markPoint(r, m.hop);
            if (!c.isNull() && std::hypot(c.x() - pos.x(), c.y() - pos.y()) <= em * 0.75)
                return QString::fromStdString(m.tip);
        }
    }
    const int route = layout.routeAt(pos, std::max(3.0, em * 0.25));
    if (route >= 0) {
        const QString tip = tipOf(m_frame.routes, route, &NodeRoute::tip);
        if (!tip.isEmpty())
            return tip;
    }
    const int part = layout.partAt(pos);
    if (part >= 0)
        return tipOf(m_frame.parts, part, &NodePart::tip);
    const int link = layout.linkAt(pos, std::max(3.0, em * 0.3));
    if (link >= 0)
        return tipOf(m_frame.links, link, &NodeLink::tip);
    const int host = layout.hostAt(pos);
    if (host >= 0)
        return tipOf(m_frame.hosts, host, &NodeHost::tip);
    return {};
}

void NodeTopologyView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    const NodeTopologyLayout layout = layoutFor(bounds);
    const bool raster =
        painter.paintEngine() != nullptr && painter.paintEngine()->type() == QPaintEngine::Raster;
    // Only the packets move while a step plays: the rest is painted once into an image and
    // blitted (wide antialiased route polylines alone took over 20 ms a frame at 1920x1080).
    // Vector output (SVG export) and scaled painters get the drawing itself.
    if (raster && painter.worldTransform().type() <= QTransform::TxTranslate) {
        const qreal dpr = painter.device() ? painter.device()->devicePixelRatio() : 1.0;
        if (m_still.isNull() || m_stillBounds != bounds || m_still.devicePixelRatio() != dpr) {
            const QSize pixels = (bounds.size() * dpr).toSize();
            m_still = QImage(pixels, QImage::Format_ARGB32_Premultiplied);
            m_still.setDevicePixelRatio(dpr);
            m_stillBounds = bounds;
            QPainter still(&m_still);
            still.setRenderHint(QPainter::Antialiasing, true);
            still.setRenderHint(QPainter::TextAntialiasing, true);
            still.translate(-bounds.topLeft());
            paintStill(still, layout, bounds);
        }
        painter.drawImage(bounds.topLeft(), m_still);
    } else {
        paintStill(painter, layout, bounds);
    }
    paintMoving(painter, layout, raster);
    paintPartLabels(painter, layout);
    painter.restore();
}

void NodeTopologyView::paintStill(QPainter& painter, const NodeTopologyLayout& layout,
                                  const QRectF& bounds) const {
    painter.fillRect(bounds, m_theme.background);
    const double em = layout.em();

    drawWrappedText(painter, layout.titleRect(), font(em * 1.05, true), m_theme.foreground, title(),
                    Qt::AlignLeft | Qt::AlignVCenter);
    if (m_frame.parts.empty()) {
        painter.setPen(m_theme.muted);
        painter.setFont(m_theme.fontAtPixels(em));
        painter.drawText(layout.diagramRect().united(layout.legendRect()), Qt::AlignCenter,
                         tr("No server to draw"));
    }

    // Hosts first, with their label in the bottom-left corner.
    const QFont hostFont = m_theme.fontAtPixels(em * 0.8);
    for (std::size_t h = 0; h < m_frame.hosts.size(); ++h) {
        const QRectF r = layout.hostRect(static_cast<int>(h));
        painter.setPen(QPen(m_theme.grid, m_theme.lineWidth(1.0)));
        painter.setBrush(m_theme.surface);
        painter.drawRoundedRect(r, 5, 5);
        // Whole parts of the label that fit ("host 0 · node-a12" → "host 0"), or none.
        const QRectF box(r.left() + em * 0.4, r.bottom() - em * 1.3, r.width() * 0.3, em * 1.2);
        const QString label = fitByParts(hostFont, QString::fromStdString(m_frame.hosts[h].label),
                                         box.width(), KeepParts::Head);
        painter.setFont(hostFont);
        painter.setPen(m_theme.muted);
        painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, label);
    }

    // Links under the parts, so they run into the boxes' edges.
    for (std::size_t i = 0; i < m_frame.links.size(); ++i) {
        const QLineF line = layout.linkLine(static_cast<int>(i));
        if (line.isNull())
            continue;
        const NodeLinkKind kind = m_frame.links[i].kind;
        QPen pen(linkColor(m_theme, kind), m_theme.lineWidth(linkWidth(kind, em)),
                 kind == NodeLinkKind::CpuLink ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap);
        painter.setPen(pen);
        painter.drawLine(line);
    }

    // Parts: GPUs stand out, the switches and the network recede. Their names come last
    // (paintPartLabels), over the routes and packets.
    for (int i = 0; i < layout.partCount(); ++i) {
        const NodePart& part = m_frame.parts[static_cast<std::size_t>(i)];
        const bool gpu = part.kind == NodePartKind::Gpu;
        painter.setPen(QPen(part.emphasis ? m_theme.accent : m_theme.foreground,
                            m_theme.lineWidth(part.emphasis ? 2.5 : (gpu ? 1.4 : 1.0))));
        painter.setBrush(partColours(part).first);
        painter.drawRoundedRect(layout.partRect(i), 3, 3);
    }

    // Routes over everything; paintMoving puts the packets and marks on top.
    const double routeW = m_theme.lineWidth(std::max(2.0, em * 0.22));
    for (std::size_t r = 0; r < m_frame.routes.size(); ++r) {
        const QPolygonF& poly = layout.route(static_cast<int>(r));
        if (poly.size() < 2)
            continue;
        const NodeRoute& route = m_frame.routes[r];
        QColor c = routeColor(m_theme, route.colorIndex);
        c.setAlphaF(0.85f);
        painter.setPen(QPen(c, routeW, route.dashed ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap,
                            Qt::RoundJoin));
        painter.setBrush(Qt::NoBrush);
        painter.drawPolyline(poly);
        // An arrowhead where the route ends: direction matters (who sends to whom).
        const QLineF last(poly[poly.size() - 2], poly.back());
        if (last.length() > em * 0.5) {
            const QLineF unit = last.unitVector();
            const QPointF d(unit.dx(), unit.dy()), n(-d.y(), d.x());
            const double s = em * 0.55;
            QPolygonF head;
            head << poly.back() << poly.back() - d * s + n * s * 0.5
                 << poly.back() - d * s - n * s * 0.5;
            painter.setPen(Qt::NoPen);
            painter.setBrush(c);
            painter.drawPolygon(head);
        }
    }

    // Legend: route classes, then the link classes present.
    const QFont legendFont = m_theme.fontAtPixels(em * 0.8);
    const QFontMetricsF metrics(legendFont);
    painter.setFont(legendFont);
    const QRectF legend = layout.legendRect();
    double x = legend.left();
    const double swatch = em * 1.4;
    const auto entry = [&](const QPen& pen, const QString& name) {
        const double need = swatch + em * 0.4 + metrics.horizontalAdvance(name) + em;
        if (x + need > legend.right())
            return;
        painter.setPen(pen);
        painter.drawLine(QPointF(x, legend.center().y()), QPointF(x + swatch, legend.center().y()));
        painter.setPen(m_theme.foreground);
        painter.drawText(QRectF(x + swatch + em * 0.4, legend.top(),
                                metrics.horizontalAdvance(name) + 2, legend.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, name);
        x += need;
    };
    for (std::size_t c = 0; c < m_frame.routeClasses.size(); ++c)
        entry(QPen(routeColor(m_theme, static_cast<int>(c)), routeW, Qt::SolidLine, Qt::FlatCap),
              QString::fromStdString(m_frame.routeClasses[c]));
    for (NodeLinkKind kind : {NodeLinkKind::NvLink, NodeLinkKind::Pcie, NodeLinkKind::CpuLink}) {
        const bool present = std::any_of(m_frame.links.begin(), m_frame.links.end(),
                                         [kind](const NodeLink& l) { return l.kind == kind; });
        if (present)
            entry(QPen(linkColor(m_theme, kind), m_theme.lineWidth(linkWidth(kind, em)),
                       kind == NodeLinkKind::CpuLink ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap),
                  tr(linkName(kind)));
    }

    drawWrappedText(painter, layout.captionRect(), font(em * 0.8), m_theme.muted, caption(),
                    Qt::AlignLeft | Qt::AlignVCenter);
}

// A part's fill and the colour of its name on it.
std::pair<QColor, QColor> NodeTopologyView::partColours(const NodePart& part) const {
    switch (part.kind) {
    case NodePartKind::Gpu:
        return {m_theme.background, m_theme.foreground};
    case NodePartKind::NvSwitch:
        return {linkColor(m_theme, NodeLinkKind::NvLink), m_theme.onAccent};
    case NodePartKind::Network:
    case NodePartKind::Nic:
        return {m_theme.muted, m_theme.background};
    case NodePartKind::PcieSwitch:
    case NodePartKind::Cpu:
    case NodePartKind::HostMemory:
        break;
    }
    return {m_theme.surface, m_theme.foreground};
}

// Each part's name on a plate of the part's own fill, drawn after routes and packets so
// neither runs through a name. A narrow part (a GPU or NIC of a 16-GPU drawing at 720p) takes
// its name on two lines ("GPU" over "3"); a name that fits neither way is left to the tip.
void NodeTopologyView::paintPartLabels(QPainter& painter, const NodeTopologyLayout& layout) const {
    const double em = layout.em();
    for (int i = 0; i < layout.partCount(); ++i) {
        const NodePart& part = m_frame.parts[static_cast<std::size_t>(i)];
        const QRectF r = layout.partRect(i);
        const bool gpu = part.kind == NodePartKind::Gpu;
        const QString label = QString::fromStdString(part.label);
        if (label.isEmpty())
            continue;
        QStringList lines{label};
        QFont font = m_theme.fontAtPixels(std::min(em * 0.78, r.height() * 0.62), gpu);
        if (QFontMetricsF(font).horizontalAdvance(label) > r.width() - 4) {
            const qsizetype space = label.lastIndexOf(QLatin1Char(' '));
            if (space <= 0)
                continue;
            lines = {label.left(space), label.mid(space + 1)};
            font = m_theme.fontAtPixels(std::min(em * 0.78, r.height() * 0.4), gpu);
        }
        const QFontMetricsF fm(font);
        double w = 0;
        for (const QString& line : lines)
            w = std::max(w, fm.horizontalAdvance(line));
        const double h = fm.height() * static_cast<double>(lines.size());
        if (w > r.width() - 4 || fm.height() * 0.8 * static_cast<double>(lines.size()) > r.height())
            continue;
        const auto [fill, text] = partColours(part);
        const QRectF plate(r.center().x() - w / 2 - 2,
                           r.center().y() - std::min(h, r.height() - 2) / 2, w + 4,
                           std::min(h, r.height() - 2));
        painter.fillRect(plate, fill);
        painter.setFont(font);
        painter.setPen(text);
        painter.drawText(r, Qt::AlignCenter, lines.join(QLatin1Char('\n')));
    }
}

void NodeTopologyView::paintMoving(QPainter& painter, const NodeTopologyLayout& layout,
                                   bool raster) const {
    const double em = layout.em();
    const double dot = packetSize(layout);
    std::vector<std::pair<int, QImage>> stamps;
    for (const Packet& p : packets(m_frame, layout)) {
        const int cls = m_frame.routes[static_cast<std::size_t>(p.route)].colorIndex;
        if (!raster) {
            painter.setPen(QPen(m_theme.background, std::max(1.0, dot * 0.14)));
            painter.setBrush(routeColor(m_theme, cls));
            painter.drawEllipse(p.pos, dot / 2.0, dot / 2.0);
            continue;
        }
        auto it = std::find_if(stamps.begin(), stamps.end(),
                               [cls](const auto& s) { return s.first == cls; });
        if (it == stamps.end()) {
            stamps.emplace_back(cls,
                                packetStamp(routeColor(m_theme, cls), m_theme.background, dot));
            it = std::prev(stamps.end());
        }
        const double half = it->second.width() / 2.0;
        painter.drawImage(QPointF(std::round(p.pos.x() - half), std::round(p.pos.y() - half)),
                          it->second);
    }

    const QFont markFont = m_theme.fontAtPixels(em * 0.8, true);
    painter.setFont(markFont);
    for (std::size_t r = 0; r < m_frame.routes.size(); ++r)
        for (const NodeRouteMark& m : m_frame.routes[r].marks) {
            const QPointF c = layout.markPoint(static_cast<int>(r), m.hop);
            if (c.isNull())
                continue;
            const double radius = em * 0.7;
            painter.setPen(QPen(m_theme.background, m_theme.lineWidth(1.5)));
            painter.setBrush(m_theme.accent);
            painter.drawEllipse(c, radius, radius);
            painter.setPen(m_theme.onAccent);
            painter.drawText(QRectF(c.x() - radius, c.y() - radius, 2 * radius, 2 * radius),
                             Qt::AlignCenter, QString::fromStdString(m.label));
        }
}

void NodeTopologyView::frameChanged(const NodeTopologyFrame& previous) {
    // A new animation time alone keeps the still layer.
    NodeTopologyFrame moved = previous;
    moved.phaseS = m_frame.phaseS;
    if (!(moved == m_frame))
        m_still = QImage();
}

void NodeTopologyView::themeChanged() {
    m_still = QImage();
}

bool NodeTopologyView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](QPointF pos) { return tipAt(pos); }))
        return true;
    return QWidget::event(event);
}

} // namespace wb
