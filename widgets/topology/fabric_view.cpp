#include "topology/fabric_view.h"

#include "drawing/hover_tip.h"
#include "topology/topology_view.h"

#include <QFontMetricsF>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace wb {

namespace {

double fraction(double value, double full) {
    if (!(full > 0) || !std::isfinite(value))
        return 0.0;
    return std::clamp(value / full, 0.0, 1.0);
}

// A gauge: the full-scale outline and the filled part.
void drawBar(QPainter& painter, const Theme& theme, const QRectF& r, double filled,
             const QColor& fill) {
    painter.setPen(Qt::NoPen);
    painter.setBrush(theme.surface);
    painter.drawRect(r);
    painter.setBrush(fill);
    painter.drawRect(QRectF(r.left(), r.top(), r.width() * filled, r.height()));
    painter.setPen(QPen(theme.grid, theme.lineWidth(1.0)));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(r);
}

// Two upright bars: the pause mark.
void drawPauseMark(QPainter& painter, const QPointF& centre, double size, const QColor& colour) {
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    const double w = size * 0.3, h = size;
    painter.drawRect(QRectF(centre.x() - size * 0.45, centre.y() - h / 2, w, h));
    painter.drawRect(QRectF(centre.x() + size * 0.15, centre.y() - h / 2, w, h));
}

struct Badge {
    QString text;
    QColor colour;
};

} // namespace

FabricView::FabricView(QWidget* parent)
    : FrameView(parent) {
    setMouseTracking(true);
}

QColor FabricView::pauseColor(const Theme& theme) {
    // Magenta: not on the utilisation scale (grey, green, amber, red), so "held" never reads as
    // "busy".
    return theme.isDark ? QColor(0xff, 0x4f, 0xd0) : QColor(0xc0, 0x1a, 0x8a);
}

QColor FabricView::noCreditColor(const Theme& theme) {
    return theme.isDark ? QColor(0x6f, 0x9c, 0xf0) : QColor(0x35, 0x5f, 0xb0);
}

QColor FabricView::queueColor(const Theme& theme) {
    return theme.seriesColor(1);
}

QColor FabricView::ingressColor(const Theme& theme) {
    return theme.seriesColor(4);
}

FabricLayout FabricView::layoutFor(const QRectF& bounds) const {
    const double em = layoutEm(bounds, {56.0, 34.0, 0.82});
    // Title, counters and caption wrap; the layout gives them the lines they need.
    const double width = bounds.width() - em * 1.2;
    const auto need = [&](double px, bool bold, const std::string& text) {
        return wrappedHeight(font(px, bold), QString::fromStdString(text), width);
    };
    return FabricLayout::compute(bounds, m_frame, em, need(em * 1.05, true, m_frame.title),
                                 need(em * 0.85, false, m_frame.counters),
                                 need(em * 0.75, false, m_frame.caption));
}

QString FabricView::tipAt(const QPointF& pos) const {
    const FabricLayout layout = layoutFor(QRectF(rect()));
    const int flow = layout.flowAt(pos);
    if (flow >= 0)
        return tipOf(m_frame.flows, flow, &FabricFrameFlow::tip);
    const int node = layout.nodeAt(pos);
    if (node >= 0)
        return tipOf(m_frame.nodes, node, &FabricFrameNode::tip);
    const int link = layout.linkAt(pos);
    if (link >= 0)
        return tipOf(m_frame.links, link, &FabricFrameLink::tip);
    return {};
}

void FabricView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const FabricLayout layout = layoutFor(bounds);
    // The legend's line swatches repeat the links' width.
    const double linkW =
        m_theme.lineWidth(std::clamp(layout.rowHeight() * 0.08, 1.5, layout.em() * 0.3));

    drawHeading(painter, layout);
    // Links first, so the node boxes cover their ends.
    drawLinks(painter, layout, linkW);
    drawNodes(painter, layout);
    drawEventBadges(painter, layout);
    drawFlowGauges(painter, layout);
    drawStyleLegend(painter, layout, linkW);
    drawWrappedText(painter, layout.captionRect(), font(layout.em() * 0.75), m_theme.muted,
                    QString::fromStdString(m_frame.caption), Qt::AlignLeft | Qt::AlignVCenter);
    painter.restore();
}

// The title, the counters line, and a note in place of an empty fabric.
void FabricView::drawHeading(QPainter& painter, const FabricLayout& layout) const {
    const double em = layout.em();
    drawWrappedText(painter, layout.titleRect(), font(em * 1.05, true), m_theme.foreground,
                    QString::fromStdString(m_frame.title), Qt::AlignLeft | Qt::AlignVCenter);
    drawWrappedText(painter, layout.countersRect(), font(em * 0.85), m_theme.foreground,
                    QString::fromStdString(m_frame.counters), Qt::AlignLeft | Qt::AlignVCenter);
    if (m_frame.nodes.empty()) {
        painter.setPen(m_theme.muted);
        painter.setFont(m_theme.fontAtPixels(em));
        painter.drawText(layout.graphRect(), Qt::AlignCenter, tr("No fabric in this frame"));
    }
}

// Each link in its state (busy colour, paused, waiting for credits) with its arrowhead, hold
// mark, egress-queue and ingress-buffer bars.
void FabricView::drawLinks(QPainter& painter, const FabricLayout& layout, double linkW) const {
    const double em = layout.em();
    const double rowH = layout.rowHeight();
    const QColor paused = pauseColor(m_theme);
    const QColor noCredit = noCreditColor(m_theme);
    for (std::size_t i = 0; i < m_frame.links.size(); ++i) {
        const FabricFrameLink& l = m_frame.links[i];
        const QLineF seg = layout.linkLine(static_cast<int>(i));
        if (seg.isNull())
            continue;
        if (l.stall == FabricStall::Paused) {
            painter.setPen(QPen(paused, linkW * 1.8, Qt::SolidLine, Qt::FlatCap));
        } else if (l.stall == FabricStall::NoCredit) {
            painter.setPen(QPen(noCredit, linkW * 1.4, Qt::DashLine, Qt::FlatCap));
        } else {
            painter.setPen(QPen(TopologyView::utilColor(m_theme, l.utilisation), linkW,
                                Qt::SolidLine, Qt::FlatCap));
        }
        painter.drawLine(seg);
        // Arrowhead at the receiver: links carry data one way.
        const double a = std::clamp(em * 0.45, 3.0, rowH * 0.4);
        QPainterPath head;
        head.moveTo(seg.p2());
        head.lineTo(seg.p2() + QPointF(-a, -a * 0.55));
        head.lineTo(seg.p2() + QPointF(-a, a * 0.55));
        head.closeSubpath();
        painter.fillPath(head, l.stall == FabricStall::Paused ? paused
                               : l.stall == FabricStall::NoCredit
                                   ? noCredit
                                   : TopologyView::utilColor(m_theme, l.utilisation));
        if (l.stall != FabricStall::None) {
            const double s = std::clamp(rowH * 0.3, 5.0, em * 0.9);
            drawPauseMark(painter, seg.p1() + QPointF(em * 0.3 + s * 0.5, s * 0.75), s,
                          l.stall == FabricStall::Paused ? paused : noCredit);
        }
        const QRectF q = layout.queueRect(static_cast<int>(i));
        if (!q.isEmpty())
            drawBar(painter, m_theme, q, fraction(l.queueBytes, l.queueCapBytes),
                    queueColor(m_theme));
        const QRectF in = layout.ingressRect(static_cast<int>(i));
        if (!in.isEmpty())
            drawBar(painter, m_theme, in, fraction(l.ingressBytes, l.ingressCapBytes),
                    ingressColor(m_theme));
    }
}

// Nodes: hosts and switches as boxes with their names.
void FabricView::drawNodes(QPainter& painter, const FabricLayout& layout) const {
    const double em = layout.em();
    const double rowH = layout.rowHeight();
    const QFont nodeFont =
        m_theme.fontAtPixels(std::min(em * 0.85, std::max(rowH * 0.4, 7.0)), true);
    for (std::size_t i = 0; i < m_frame.nodes.size(); ++i) {
        const QRectF r = layout.nodeRect(static_cast<int>(i));
        if (r.isEmpty())
            continue;
        const FabricFrameNode& node = m_frame.nodes[i];
        const bool isSwitch =
            node.role == FabricNodeRole::EdgeSwitch || node.role == FabricNodeRole::CoreSwitch;
        const bool victim = node.role == FabricNodeRole::VictimSender ||
                            node.role == FabricNodeRole::VictimReceiver;
        painter.setPen(QPen(victim ? m_theme.seriesColor(6) : m_theme.foreground,
                            m_theme.lineWidth(victim ? 2.0 : 1.2)));
        painter.setBrush(isSwitch ? m_theme.grid : m_theme.surface);
        painter.drawRoundedRect(r, 3, 3);
        // The node's name whole, or only in its hover tip when the box is too small.
        const QString name = QString::fromStdString(node.label);
        if (QFontMetricsF(nodeFont).horizontalAdvance(name) <= r.width() - 2) {
            painter.setFont(nodeFont);
            painter.setPen(m_theme.foreground);
            painter.drawText(r, Qt::AlignCenter, name);
        }
    }
}

// Event badges: what happened on each link in the last moments, one badge per kind.
void FabricView::drawEventBadges(QPainter& painter, const FabricLayout& layout) const {
    const double em = layout.em();
    const double rowH = layout.rowHeight();
    const QColor paused = pauseColor(m_theme);
    const QFont badgeFont = m_theme.fontAtPixels(std::clamp(rowH * 0.32, 7.0, em * 0.72), true);
    const QFontMetricsF badgeMetrics(badgeFont);
    painter.setFont(badgeFont);
    for (std::size_t i = 0; i < m_frame.links.size(); ++i) {
        const FabricFrameLink& l = m_frame.links[i];
        const QLineF seg = layout.linkLine(static_cast<int>(i));
        if (seg.isNull())
            continue;
        std::vector<Badge> badges;
        auto add = [&](long long n, const char* letter, const QColor& c) {
            if (n > 0)
                badges.push_back({QStringLiteral("%1 %2").arg(QLatin1String(letter)).arg(n), c});
        };
        add(l.pauses, "P", paused);
        add(l.ecnMarks, "E", m_theme.seriesColor(9));
        add(l.cnps, "C", m_theme.seriesColor(0));
        add(l.drops, "D", m_theme.seriesColor(3));
        add(l.resent, "R", m_theme.seriesColor(5));
        if (badges.empty())
            continue;
        const double h = badgeMetrics.height() + 2;
        double total = 0;
        for (const Badge& b : badges)
            total += badgeMetrics.horizontalAdvance(b.text) + em * 0.5 + em * 0.2;
        const QPointF anchor = layout.badgeAnchor(static_cast<int>(i));
        double x = std::max(seg.x1(), anchor.x() - total / 2);
        for (const Badge& b : badges) {
            const double w = badgeMetrics.horizontalAdvance(b.text) + em * 0.5;
            const QRectF r(x, anchor.y(), w, h);
            painter.setPen(Qt::NoPen);
            painter.setBrush(b.colour);
            painter.drawRoundedRect(r, h / 2, h / 2);
            painter.setPen(m_theme.onAccent);
            painter.drawText(r, Qt::AlignCenter, b.text);
            x += w + em * 0.2;
        }
    }
}

// Flow gauges: allowed rate as an outline, goodput filled; the victim in its own colour.
void FabricView::drawFlowGauges(QPainter& painter, const FabricLayout& layout) const {
    const double em = layout.em();
    const QFont flowFont =
        m_theme.fontAtPixels(std::clamp(layout.rowHeight() * 0.3, 7.0, em * 0.8));
    const QFontMetricsF flowMetrics(flowFont);
    for (std::size_t i = 0; i < m_frame.flows.size(); ++i) {
        const FabricFrameFlow& f = m_frame.flows[i];
        const QRectF r = layout.flowRect(static_cast<int>(i));
        if (r.isEmpty())
            continue;
        const QColor colour = f.victim ? m_theme.seriesColor(6) : m_theme.seriesColor(0);
        // Two lines (numbers over the bar) only where the numbers stay legible.
        const bool twoLines =
            r.height() >= flowMetrics.height() * 2.0 && flowFont.pixelSize() >= em * 0.6;
        QRectF bar = r;
        if (twoLines) {
            const QRectF text(r.left(), r.top(), r.width(), flowMetrics.height());
            // The longest wording that fits, never a cut one: the numbers with their names,
            // then the bare numbers, then the flow's name (its tip has the rest).
            const QString label = QString::fromStdString(f.label);
            const QString goodput = QString::number(f.goodputGbps, 'f', f.goodputGbps < 10 ? 1 : 0);
            const QString rate = QString::number(f.rateGbps, 'f', f.rateGbps < 10 ? 1 : 0);
            const QString wordings[] = {
                QStringLiteral("%1  goodput %2 \u00b7 rate %3 Gb/s").arg(label, goodput, rate),
                QStringLiteral("%1  %2 / %3 Gb/s").arg(label, goodput, rate), label};
            QString line = label;
            for (const QString& w : wordings) {
                if (flowMetrics.horizontalAdvance(w) <= text.width()) {
                    line = w;
                    break;
                }
            }
            painter.setFont(flowFont);
            painter.setPen(m_theme.foreground);
            painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, line);
            bar = QRectF(r.left(), text.bottom() + 1, r.width(),
                         std::min(r.bottom() - text.bottom() - 1, em * 0.7));
        } else {
            // The label column fits the label (up to half the row); the bar takes the rest.
            const QString flowLabel = QString::fromStdString(f.label);
            const double labelW =
                std::min(r.width() * 0.5,
                         std::max(em * 3.5,
                                  QFontMetricsF(flowFont).horizontalAdvance(flowLabel) + em * 0.4));
            if (QFontMetricsF(flowFont).horizontalAdvance(flowLabel) <= labelW) {
                painter.setFont(flowFont);
                painter.setPen(m_theme.foreground);
                painter.drawText(QRectF(r.left(), r.top(), labelW, r.height()),
                                 Qt::AlignLeft | Qt::AlignVCenter, flowLabel);
            }
            bar = QRectF(r.left() + labelW, r.center().y() - r.height() * 0.3, r.width() - labelW,
                         r.height() * 0.6);
        }
        if (bar.height() < 1 || bar.width() < 2)
            continue;
        painter.setPen(Qt::NoPen);
        painter.setBrush(m_theme.surface);
        painter.drawRect(bar);
        painter.setBrush(colour);
        painter.drawRect(QRectF(bar.left(), bar.top(),
                                bar.width() * fraction(f.goodputGbps, m_frame.linkGbps),
                                bar.height()));
        painter.setPen(QPen(m_theme.foreground, m_theme.lineWidth(1.0)));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(bar.left(), bar.top(),
                                bar.width() * fraction(f.rateGbps, m_frame.linkGbps),
                                bar.height()));
    }
}

// Legend: what the link styles, bars and badges mean. Its line swatches take the links' width
// `linkW`.
void FabricView::drawStyleLegend(QPainter& painter, const FabricLayout& layout,
                                 double linkW) const {
    if (m_frame.nodes.empty())
        return;
    const double em = layout.em();
    const QFont font = m_theme.fontAtPixels(em * 0.75);
    const QFontMetricsF metrics(font);
    painter.setFont(font);
    const QRectF legend = layout.legendRect();
    double x = legend.left();
    const double cy = legend.center().y();
    const double sw = em * 1.6;
    auto label = [&](const QString& text) {
        const double w = metrics.horizontalAdvance(text);
        if (x + w > legend.right())
            return false;
        painter.setPen(m_theme.muted);
        painter.drawText(QRectF(x, legend.top(), w + 2, legend.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, text);
        x += w + em;
        return true;
    };
    auto swatchLine = [&](const QColor& c, Qt::PenStyle style, double w) {
        painter.setPen(QPen(c, w, style, Qt::FlatCap));
        painter.drawLine(QPointF(x, cy), QPointF(x + sw, cy));
        x += sw + em * 0.3;
    };
    auto swatchBox = [&](const QColor& c) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(c);
        painter.drawRect(QRectF(x, cy - em * 0.3, sw, em * 0.6));
        x += sw + em * 0.3;
    };
    swatchLine(pauseColor(m_theme), Qt::SolidLine, linkW * 1.8);
    label(tr("PFC pause"));
    swatchLine(noCreditColor(m_theme), Qt::DashLine, linkW * 1.4);
    label(tr("no IB credit"));
    swatchLine(TopologyView::utilColor(m_theme, 1.0), Qt::SolidLine, linkW);
    label(tr("busy"));
    swatchBox(queueColor(m_theme));
    label(tr("egress queue"));
    swatchBox(ingressColor(m_theme));
    label(tr("ingress (XOFF / credits)"));
    label(tr("P pause · E ECN mark · C CNP · D drop · R resent"));
}

bool FabricView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](QPointF pos) { return tipAt(pos); }))
        return true;
    return QWidget::event(event);
}

} // namespace wb
