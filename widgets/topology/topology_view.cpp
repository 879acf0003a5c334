#include "topology/topology_view.h"

#include "drawing/hover_tip.h"
#include "topology/packet_flow.h"

#include <QFontMetricsF>
#include <QImage>
#include <QPaintEngine>
#include <algorithm>
#include <array>
#include <cmath>

namespace wb {

namespace {

// `text` if it fits, else its last word ("node 12" → "12": many narrow nodes still read as
// numbered), else nothing (the hover tip names it): never a cut word.
QString shortLabel(const QFont& font, const QString& text, double width) {
    const QFontMetricsF metrics(font);
    if (metrics.horizontalAdvance(text) <= width)
        return text;
    const QString last = text.section(QLatin1Char(' '), -1);
    if (metrics.horizontalAdvance(last) <= width)
        return last;
    return {};
}

QString percent(double util) {
    return QStringLiteral("%1 %").arg(std::lround(std::clamp(util, 0.0, 1.0) * 100.0));
}

template <typename T> const T* at(const std::vector<T>& items, int index) {
    return index >= 0 && static_cast<std::size_t>(index) < items.size()
               ? &items[static_cast<std::size_t>(index)]
               : nullptr;
}

// The utilisation a link is coloured by, as the frame defines it.
double linkUtil(const TopologyFrame& frame, const TopologyLayout::Link& link) {
    using K = TopologyLayout::LinkKind;
    if (link.kind == K::Uplink) {
        const TopologyLeaf* leaf = at(frame.leaves, link.a);
        return leaf ? leaf->uplinkUtil : 0.0;
    }
    const TopologyNode* node = at(frame.nodes, link.a);
    const TopologyGpu* gpu = node ? at(node->gpus, link.b) : nullptr;
    if (gpu == nullptr)
        return 0.0;
    return link.kind == K::NvLink ? gpu->nvlinkUtil : gpu->nicUtil;
}

} // namespace

TopologyView::TopologyView(QWidget* parent)
    : FrameView(parent) {
    setMouseTracking(true);
}

TopologyLayout TopologyView::layoutFor(const QRectF& bounds) const {
    const double em = layoutEm(bounds, {60.0, 36.0, 0.82});
    // Title and caption wrap; the layout gives them the lines they need.
    const double width = bounds.width() - em * 1.6;
    return TopologyLayout::compute(
        bounds, m_frame, em,
        wrappedHeight(font(em * 1.05, true), QString::fromStdString(m_frame.title), width),
        wrappedHeight(font(em * 0.8), QString::fromStdString(m_frame.caption), width));
}

QColor TopologyView::utilColor(const Theme& theme, double util) {
    // Idle links stay in the theme's outline grey so a quiet fabric recedes; the busy end
    // passes green and amber to a red that says "this link is the step's bottleneck".
    const QColor green = theme.isDark ? QColor(0x4c, 0xc0, 0x5a) : QColor(0x2c, 0xa0, 0x2c);
    const QColor amber = theme.isDark ? QColor(0xff, 0xb0, 0x30) : QColor(0xf0, 0x9a, 0x00);
    const QColor red = theme.isDark ? QColor(0xff, 0x4d, 0x4d) : QColor(0xd6, 0x1e, 0x1e);
    const double u = std::isfinite(util) ? std::clamp(util, 0.0, 1.0) : 0.0;
    // On the dark background the outline grey of a one-pixel link all but vanishes: idle there
    // is halfway to the muted text colour, still quieter than any busy link.
    const QColor idle = theme.isDark ? mixColors(theme.grid, theme.muted, 0.5) : theme.grid;
    if (u < 0.35)
        return mixColors(idle, green, u / 0.35);
    if (u < 0.7)
        return mixColors(green, amber, (u - 0.35) / 0.35);
    return mixColors(amber, red, (u - 0.7) / 0.3);
}

QColor TopologyView::classColor(const Theme& theme, int index) {
    // The theme's categorical palette without orange, green and red, which the utilisation
    // scale already means; blue, purple, pink, cyan, brown, olive, grey.
    static constexpr std::array<int, 7> kOrder = {0, 4, 6, 9, 5, 8, 7};
    const int n = static_cast<int>(kOrder.size());
    return theme.seriesColor(kOrder[static_cast<std::size_t>(((index % n) + n) % n)]);
}

double TopologyView::packetSize(const TopologyLayout& layout) {
    return std::clamp(layout.em() * 0.42, 3.0, 10.0);
}

std::vector<TopologyView::Packet> TopologyView::packets(const TopologyFrame& frame,
                                                        const TopologyLayout& layout) {
    std::vector<double> rates, lengths;
    for (int f = 0; f < static_cast<int>(frame.flows.size()); ++f) {
        const bool drawn = layout.hasRoute(f);
        rates.push_back(drawn ? frame.flows[static_cast<std::size_t>(f)].packetsPerS : 0.0);
        lengths.push_back(drawn ? layout.routeLength(f) : 0.0);
    }
    std::vector<Packet> out;
    for (const PacketAt& p :
         packetsAlong(rates, lengths, packetSize(layout) * 2.0, frame.phaseS, kMaxPackets))
        out.push_back({p.route, layout.routePoint(p.route, p.fraction)});
    return out;
}

QString TopologyView::tipAt(const QPointF& pos) const {
    const TopologyLayout layout = layoutFor(QRectF(rect()));
    const double reach = packetSize(layout) * 0.8;
    const std::vector<Packet> moving = packets(m_frame, layout);
    // The topmost packet (drawn last) under the pointer names its flow.
    for (auto it = moving.rbegin(); it != moving.rend(); ++it) {
        if (std::hypot(it->pos.x() - pos.x(), it->pos.y() - pos.y()) <= reach) {
            const QString tip = tipOf(m_frame.flows, it->flow, &TopologyFlow::tip);
            if (!tip.isEmpty())
                return tip;
            break;
        }
    }
    const TopologyLayout::GpuRef gpu = layout.gpuAt(pos);
    if (gpu.valid()) {
        const auto& node = m_frame.nodes[static_cast<std::size_t>(gpu.node)];
        const QString tip = tipOf(node.gpus, gpu.gpu, &TopologyGpu::tip);
        return tip.isEmpty() ? QString::fromStdString(node.tip) : tip;
    }
    const int leaf = layout.leafAt(pos);
    if (leaf >= 0)
        return tipOf(m_frame.leaves, leaf, &TopologyLeaf::tip);
    const int spine = layout.spineAt(pos);
    if (spine >= 0)
        return tr("spine %1: every leaf has an uplink to it").arg(spine);
    if (const auto link = layout.linkAt(pos, std::max(3.0, layout.em() * 0.3))) {
        const QString busy = percent(linkUtil(m_frame, *link));
        using K = TopologyLayout::LinkKind;
        if (link->kind == K::Uplink) {
            const TopologyLeaf* l = at(m_frame.leaves, link->a);
            return tr("%1 → spine %2 uplink: busy %3 of the step")
                .arg(QString::fromStdString(l ? l->label : std::string()))
                .arg(link->b)
                .arg(busy);
        }
        const TopologyNode& node = m_frame.nodes[static_cast<std::size_t>(link->a)];
        const QString where =
            QStringLiteral("%1 · GPU %2")
                .arg(QString::fromStdString(node.label),
                     QString::fromStdString(node.gpus[static_cast<std::size_t>(link->b)].label));
        return link->kind == K::NvLink ? tr("%1 NVLink: busy %2 of the step").arg(where, busy)
                                       : tr("%1 NIC: busy %2 of the step").arg(where, busy);
    }
    const int node = layout.nodeAt(pos);
    if (node >= 0)
        return tipOf(m_frame.nodes, node, &TopologyNode::tip);
    if (layout.hiddenRect().contains(pos))
        return m_frame.hiddenNodes == 1
                   ? tr("1 more node of the cluster, not drawn")
                   : tr("%1 more nodes of the cluster, not drawn").arg(m_frame.hiddenNodes);
    return {};
}

void TopologyView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const TopologyLayout layout = layoutFor(bounds);

    drawHeading(painter, layout);
    // Node boxes under everything, so the links inside a node stay visible on them.
    drawNodeBoxes(painter, layout);
    drawLinks(painter, layout);
    // Switches: spine and leaves as boxes over the ends of their links; labels come after the
    // packets, on a plate, so traffic crossing a switch never hides its name.
    const std::vector<SwitchBox> switches = switchBoxes(layout);
    drawSwitchBoxes(painter, switches);
    drawNodes(painter, layout);
    drawPackets(painter, layout);
    drawNvSwitchLabels(painter, layout);
    drawSwitchLabels(painter, layout, switches);
    drawHiddenNodeCount(painter, layout);
    drawClassLegendAndScale(painter, layout);
    drawWrappedText(painter, layout.captionRect(), font(layout.em() * 0.8), m_theme.muted,
                    QString::fromStdString(m_frame.caption), Qt::AlignLeft | Qt::AlignVCenter);
    painter.restore();
}

// The title, and a note in place of an empty cluster.
void TopologyView::drawHeading(QPainter& painter, const TopologyLayout& layout) const {
    const double em = layout.em();
    drawWrappedText(painter, layout.titleRect(), font(em * 1.05, true), m_theme.foreground,
                    QString::fromStdString(m_frame.title), Qt::AlignLeft | Qt::AlignVCenter);
    if (m_frame.nodes.empty() && m_frame.hiddenNodes <= 0) {
        painter.setPen(m_theme.muted);
        painter.setFont(m_theme.fontAtPixels(em));
        painter.drawText(layout.graphRect(), Qt::AlignCenter, tr("No nodes in this cluster"));
    }
}

// The empty box of each node.
void TopologyView::drawNodeBoxes(QPainter& painter, const TopologyLayout& layout) const {
    for (int n = 0; n < layout.nodeCount(); ++n) {
        painter.setPen(QPen(m_theme.grid, m_theme.lineWidth(1.0)));
        painter.setBrush(m_theme.surface);
        painter.drawRoundedRect(layout.nodeRect(n), 4, 4);
    }
}

// Links, each in the colour of its utilisation; widths follow what they aggregate.
void TopologyView::drawLinks(QPainter& painter, const TopologyLayout& layout) const {
    const double em = layout.em();
    double gpuW = em;
    for (int n = 0; n < layout.nodeCount(); ++n)
        if (layout.gpuCount(n) > 0)
            gpuW = std::min(gpuW, layout.gpuRect(n, 0).width());
    using K = TopologyLayout::LinkKind;
    const double uplinkW = m_theme.lineWidth(std::max(1.5, em * 0.3));
    const double nicW = m_theme.lineWidth(std::clamp(gpuW * 0.25, 1.0, em * 0.15));
    const double localW = m_theme.lineWidth(std::clamp(gpuW * 0.3, 1.0, em * 0.2));
    painter.setBrush(Qt::NoBrush);
    for (const auto& link : layout.links()) {
        const double width =
            link.kind == K::Uplink ? uplinkW : (link.kind == K::NicLeaf ? nicW : localW);
        painter.setPen(
            QPen(utilColor(m_theme, linkUtil(m_frame, link)), width, Qt::SolidLine, Qt::FlatCap));
        painter.drawLine(layout.linkLine(link));
    }
}

// Where each switch is drawn and its name: the spines, then the leaves.
std::vector<TopologyView::SwitchBox> TopologyView::switchBoxes(const TopologyLayout& layout) const {
    std::vector<SwitchBox> switches;
    for (int s = 0; s < layout.spineCount(); ++s)
        switches.emplace_back(layout.spineRect(s),
                              layout.spineCount() == 1 ? tr("spine") : tr("spine %1").arg(s));
    for (int i = 0; i < layout.leafCount(); ++i)
        switches.emplace_back(
            layout.leafRect(i),
            QString::fromStdString(m_frame.leaves[static_cast<std::size_t>(i)].label));
    return switches;
}

// The switch boxes, without their names (drawSwitchLabels puts those over the packets).
void TopologyView::drawSwitchBoxes(QPainter& painter,
                                   const std::vector<SwitchBox>& switches) const {
    for (const auto& [r, label] : switches) {
        painter.setPen(QPen(m_theme.foreground, m_theme.lineWidth(1.2)));
        painter.setBrush(m_theme.surface);
        painter.drawRoundedRect(r, 3, 3);
    }
}

// Nodes: the box, the NVSwitch bar, NICs, GPUs (filled with their group's colour), label.
void TopologyView::drawNodes(QPainter& painter, const TopologyLayout& layout) const {
    const double em = layout.em();
    const QFont labelFont = m_theme.fontAtPixels(em * 0.8);
    for (int n = 0; n < layout.nodeCount(); ++n) {
        const TopologyNode& node = m_frame.nodes[static_cast<std::size_t>(n)];
        const QRectF sw = layout.nvSwitchRect(n);
        painter.setPen(Qt::NoPen);
        painter.setBrush(m_theme.muted);
        painter.drawRect(sw);
        drawGpus(painter, layout, n);
        painter.setFont(labelFont);
        painter.setPen(m_theme.muted);
        const QRectF lr = layout.nodeLabelRect(n);
        painter.drawText(lr, Qt::AlignHCenter | Qt::AlignVCenter,
                         shortLabel(labelFont, QString::fromStdString(node.label), lr.width()));
    }
}

// "NVSwitch" on each node's switch bar, after the packets and on a plate of the bar's colour,
// so a packet passing along the bar never sits on the word; only where the bar holds the
// word at the floor size.
void TopologyView::drawNvSwitchLabels(QPainter& painter, const TopologyLayout& layout) const {
    const QString word = QStringLiteral("NVSwitch");
    for (int n = 0; n < layout.nodeCount(); ++n) {
        const QRectF sw = layout.nvSwitchRect(n);
        const QFont swFont = m_theme.fontAtPixels(std::min(layout.em() * 0.7, sw.height() * 0.8));
        const QFontMetricsF swMetrics(swFont);
        if (swMetrics.height() * 0.8 > sw.height() ||
            swMetrics.horizontalAdvance(word) >= sw.width())
            continue;
        const double w = swMetrics.horizontalAdvance(word) + 4;
        painter.fillRect(QRectF(sw.center().x() - w / 2, sw.top(), w, sw.height()), m_theme.muted);
        painter.setFont(swFont);
        painter.setPen(m_theme.background);
        painter.drawText(sw, Qt::AlignCenter, word);
    }
}

// The NICs and GPUs of node `n`, each GPU filled with its group's colour and labelled.
void TopologyView::drawGpus(QPainter& painter, const TopologyLayout& layout, int n) const {
    const TopologyNode& node = m_frame.nodes[static_cast<std::size_t>(n)];
    const int gpus = layout.gpuCount(n);
    const double gpuH = gpus > 0 ? layout.gpuRect(n, 0).height() : 0.0;
    const QFont gpuFont = m_theme.fontAtPixels(std::min(layout.em() * 0.75, gpuH * 0.45), true);
    const QFontMetricsF gpuMetrics(gpuFont);
    for (int i = 0; i < gpus; ++i) {
        const TopologyGpu& gpu = node.gpus[static_cast<std::size_t>(i)];
        painter.setPen(Qt::NoPen);
        painter.setBrush(m_theme.muted);
        painter.drawRect(layout.nicRect(n, i));
        const QRectF r = layout.gpuRect(n, i);
        const bool grouped = gpu.highlight >= 0;
        // Outlines on narrow GPUs would be all outline and no group colour.
        if (r.width() > 8)
            painter.setPen(QPen(m_theme.foreground, m_theme.lineWidth(1.0)));
        else
            painter.setPen(Qt::NoPen);
        painter.setBrush(grouped ? classColor(m_theme, gpu.highlight) : m_theme.background);
        painter.drawRect(r);
        const QString label = QString::fromStdString(gpu.label);
        if (gpuFont.pixelSize() >= 7 && gpuMetrics.horizontalAdvance(label) < r.width() - 2) {
            painter.setFont(gpuFont);
            painter.setPen(grouped ? m_theme.onAccent : m_theme.foreground);
            // At the top, so the middle of the box shows the group colour unbroken.
            painter.drawText(r.adjusted(0, 1, 0, 0), Qt::AlignHCenter | Qt::AlignTop, label);
        }
    }
}

// Packets on top, one pre-rendered dot per class colour.
void TopologyView::drawPackets(QPainter& painter, const TopologyLayout& layout) const {
    const std::vector<Packet> moving = packets(m_frame, layout);
    const double dot = packetSize(layout);
    const bool raster =
        painter.paintEngine() != nullptr && painter.paintEngine()->type() == QPaintEngine::Raster;
    std::vector<std::pair<int, QImage>> stamps;
    // The stamps are antialiased already and land on whole pixels.
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (const Packet& p : moving) {
        const int cls = m_frame.flows[static_cast<std::size_t>(p.flow)].colorIndex;
        const QColor colour = classColor(m_theme, cls);
        if (!raster) {
            // Vector exports get real circles, not thousands of embedded images.
            painter.setPen(QPen(m_theme.background, std::max(1.0, dot * 0.14)));
            painter.setBrush(colour);
            painter.drawEllipse(p.pos, dot / 2.0, dot / 2.0);
            continue;
        }
        auto it = std::find_if(stamps.begin(), stamps.end(),
                               [cls](const auto& s) { return s.first == cls; });
        if (it == stamps.end()) {
            stamps.emplace_back(cls, packetStamp(colour, m_theme.background, dot));
            it = std::prev(stamps.end());
        }
        const double half = it->second.width() / 2.0;
        painter.drawImage(QPointF(std::round(p.pos.x() - half), std::round(p.pos.y() - half)),
                          it->second);
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
}

// Each switch's name on a plate over its box, above the packets.
void TopologyView::drawSwitchLabels(QPainter& painter, const TopologyLayout& layout,
                                    const std::vector<SwitchBox>& switches) const {
    const double em = layout.em();
    const QFont switchFont = m_theme.fontAtPixels(em * 0.8);
    const QFontMetricsF switchMetrics(switchFont);
    painter.setFont(switchFont);
    for (const auto& [r, label] : switches) {
        const QString text = shortLabel(switchFont, label, r.width() - 6);
        if (text.isEmpty())
            continue;
        const double w = switchMetrics.horizontalAdvance(text) + em * 0.5;
        const double h = std::min(r.height() - 2, switchMetrics.height());
        const QRectF plate(r.center().x() - w / 2.0, r.center().y() - h / 2.0, w, h);
        painter.setPen(Qt::NoPen);
        painter.setBrush(m_theme.surface);
        painter.drawRoundedRect(plate, 2, 2);
        painter.setPen(m_theme.foreground);
        painter.drawText(r, Qt::AlignCenter, text);
    }
}

// "+ N nodes" for the nodes of the cluster the layout had no room for.
void TopologyView::drawHiddenNodeCount(QPainter& painter, const TopologyLayout& layout) const {
    if (layout.hiddenRect().isEmpty())
        return;
    const QFont font = m_theme.fontAtPixels(layout.em(), true);
    painter.setFont(font);
    painter.setPen(m_theme.muted);
    painter.drawText(layout.hiddenRect(), Qt::AlignCenter | Qt::TextWordWrap,
                     m_frame.hiddenNodes == 1 ? tr("+ 1 node")
                                              : tr("+ %1 nodes").arg(m_frame.hiddenNodes));
}

// Legend: the flow classes on the left, the utilisation scale on the right.
void TopologyView::drawClassLegendAndScale(QPainter& painter, const TopologyLayout& layout) const {
    const double em = layout.em();
    const QFont legendFont = m_theme.fontAtPixels(em * 0.8);
    const QFontMetricsF metrics(legendFont);
    painter.setFont(legendFont);
    const QRectF legend = layout.legendRect();
    const QRectF scale = layout.scaleRect();
    double x = legend.left();
    const double swatch = em * 0.8;
    for (std::size_t c = 0; c < m_frame.flowClasses.size(); ++c) {
        const QString name = QString::fromStdString(m_frame.flowClasses[c]);
        const double need = swatch + em * 0.4 + metrics.horizontalAdvance(name) + em;
        if (x + need > scale.left())
            break;
        painter.setPen(Qt::NoPen);
        painter.setBrush(classColor(m_theme, static_cast<int>(c)));
        painter.drawEllipse(QRectF(x, legend.center().y() - swatch / 2.0, swatch, swatch));
        painter.setPen(m_theme.foreground);
        painter.drawText(QRectF(x + swatch + em * 0.4, legend.top(),
                                metrics.horizontalAdvance(name) + 2, legend.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, name);
        x += need;
    }
    const QString idle = tr("idle");
    const QString busy = tr("100 % busy");
    const double barLeft = scale.left() + metrics.horizontalAdvance(idle) + em * 0.4;
    const double barRight = scale.right() - metrics.horizontalAdvance(busy) - em * 0.4;
    if (barRight - barLeft > em * 2) {
        painter.setPen(m_theme.muted);
        painter.drawText(scale, Qt::AlignLeft | Qt::AlignVCenter, idle);
        painter.drawText(scale, Qt::AlignRight | Qt::AlignVCenter, busy);
        QLinearGradient gradient(barLeft, 0, barRight, 0);
        for (int k = 0; k <= 10; ++k)
            gradient.setColorAt(k / 10.0, utilColor(m_theme, k / 10.0));
        const double barH = em * 0.5;
        painter.setPen(Qt::NoPen);
        painter.setBrush(gradient);
        painter.drawRect(
            QRectF(barLeft, scale.center().y() - barH / 2.0, barRight - barLeft, barH));
    }
}

bool TopologyView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](QPointF pos) { return tipAt(pos); }))
        return true;
    return QWidget::event(event);
}

} // namespace wb
