#include "topology/comm_graph_view.h"

#include "drawing/hover_tip.h"
#include "text/text_layout.h"

#include <QFontMetricsF>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace wb {

namespace {

void paintArrowHead(QPainter& painter, const CommGraphLayout& layout, int edge,
                    const QColor& colour, double size) {
    const QPointF tip = layout.edgePoint(edge, 1.0);
    const QPointF back = layout.edgePoint(edge, 0.9);
    QPointF d = tip - back;
    const double len = std::hypot(d.x(), d.y());
    if (len <= 0.0)
        return;
    d /= len;
    const QPointF normal(-d.y(), d.x());
    QPainterPath head;
    head.moveTo(tip);
    head.lineTo(tip - d * size + normal * size * 0.5);
    head.lineTo(tip - d * size - normal * size * 0.5);
    head.closeSubpath();
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    painter.drawPath(head);
}

} // namespace

CommGraphView::CommGraphView(QWidget* parent)
    : FrameView(parent) {
    setMouseTracking(true);
}

CommGraphLayout CommGraphView::layoutFor(const QRectF& bounds) const {
    const double em =
        std::clamp(std::min(bounds.width() / 45.0, bounds.height() / 30.0), 8.0, 22.0) *
        m_theme.fontScale;
    const double w = CommGraphLayout::textWidth(bounds, em);
    return CommGraphLayout::compute(
        bounds, m_frame, em,
        {wrappedHeight(titleFont(em), QString::fromStdString(m_frame.title), w),
         wrappedHeight(captionFont(em), QString::fromStdString(m_frame.caption), w)});
}

QFont CommGraphView::titleFont(double em) const {
    return m_theme.fontAtPixels(em * 1.05, true);
}

QFont CommGraphView::captionFont(double em) const {
    return m_theme.fontAtPixels(em * 0.8);
}

namespace {

QString channelsText(int channels) {
    return channels == 1 ? CommGraphView::tr("1 channel")
                         : CommGraphView::tr("%1 channels").arg(channels);
}

} // namespace

QString CommGraphView::legendText(const CommGraphFrame& frame) {
    QString text = channelsText(frame.channels);
    for (const auto& t : frame.transports)
        text += QStringLiteral(" \u00b7 ") + QString::fromStdString(t);
    return text;
}

QString CommGraphView::tipAt(const QPointF& pos) const {
    const CommGraphLayout layout = layoutFor(QRectF(rect()));
    const int node = layout.nodeAt(pos);
    if (node >= 0)
        return tipOf(m_frame.nodes, node, &CommGraphNode::tip);
    return tipOf(m_frame.edges, layout.edgeAt(pos, std::max(4.0, layout.em() * 0.4)),
                 &CommGraphEdge::tip);
}

void CommGraphView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const CommGraphLayout layout = layoutFor(bounds);
    const double em = layout.em();

    if (!m_frame.title.empty())
        drawWrappedText(painter, layout.titleRect(), titleFont(em), m_theme.foreground,
                        QString::fromStdString(m_frame.title));
    if (m_frame.nodes.empty()) {
        painter.setPen(m_theme.muted);
        painter.setFont(m_theme.fontAtPixels(em));
        painter.drawText(layout.graphRect(), Qt::AlignCenter, tr("No ranks in the log"));
        painter.restore();
        return;
    }

    // Edges under the nodes: rings solid, trees dashed, each in its transport's colour.
    const double width = m_theme.lineWidth(std::max(1.2, em * 0.12));
    for (int i = 0; i < static_cast<int>(m_frame.edges.size()); ++i) {
        if (!layout.hasEdge(i))
            continue;
        const CommGraphEdge& e = m_frame.edges[static_cast<std::size_t>(i)];
        const QColor colour = m_theme.seriesColor(e.colorIndex);
        const bool tree = e.kind == CommGraphEdge::Kind::Tree;
        painter.setPen(QPen(colour, tree ? width * 1.3 : width, tree ? Qt::DashLine : Qt::SolidLine,
                            Qt::FlatCap));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(layout.edgePath(i));
        paintArrowHead(painter, layout, i, colour, std::max(5.0, em * 0.6));
    }

    // Nodes: a disc per rank in its rank colour, the rank number inside, the label below.
    const double r = layout.nodeRadius();
    const int n = static_cast<int>(m_frame.nodes.size());
    const QFont numberFont = m_theme.fontAtPixels(std::clamp(r * 0.8, 6.0, em * 1.2), true);
    const QFont labelFont = m_theme.fontAtPixels(em * 0.85);
    for (int i = 0; i < n; ++i) {
        const CommGraphNode& node = m_frame.nodes[static_cast<std::size_t>(i)];
        const QPointF c = layout.nodeCentre(i);
        painter.setPen(QPen(m_theme.foreground, m_theme.lineWidth(1.5)));
        painter.setBrush(m_theme.rankColor(node.rank, n));
        painter.drawEllipse(c, r, r);
        painter.setFont(numberFont);
        painter.setPen(m_theme.onAccent);
        painter.drawText(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r), Qt::AlignCenter,
                         QString::number(node.rank));
        if (n <= 16 && !node.label.empty()) {
            painter.setFont(labelFont);
            painter.setPen(m_theme.muted);
            const QRectF below(c.x() - em * 4, c.y() + r + em * 0.1, em * 8, em * 1.2);
            painter.drawText(below, Qt::AlignHCenter | Qt::AlignTop,
                             QString::fromStdString(node.label));
        }
    }

    // Legend: a swatch per transport (solid for rings, dashed for "tree"), then the channels.
    if (!layout.legendRect().isEmpty()) {
        const QRectF area = layout.legendRect();
        const QFont font = m_theme.fontAtPixels(em * 0.85);
        const QFontMetricsF metrics(font);
        painter.setFont(font);
        double x = area.left();
        const double y = area.center().y();
        const QString channels = channelsText(m_frame.channels);
        painter.setPen(m_theme.foreground);
        painter.drawText(
            QRectF(x, area.top(), metrics.horizontalAdvance(channels) + 2, area.height()),
            Qt::AlignLeft | Qt::AlignVCenter, channels);
        x += metrics.horizontalAdvance(channels) + em;
        for (std::size_t t = 0; t < m_frame.transports.size(); ++t) {
            const QString name = QString::fromStdString(m_frame.transports[t]);
            const double need = em * 2.0 + metrics.horizontalAdvance(name) + em;
            if (x + need > area.right())
                break;
            const bool tree = m_frame.transports[t] == "tree";
            painter.setPen(QPen(m_theme.seriesColor(static_cast<int>(t)), width * 1.5,
                                tree ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap));
            painter.drawLine(QPointF(x, y), QPointF(x + em * 1.6, y));
            painter.setPen(m_theme.foreground);
            painter.drawText(QRectF(x + em * 2.0, area.top(), metrics.horizontalAdvance(name) + 2,
                                    area.height()),
                             Qt::AlignLeft | Qt::AlignVCenter, name);
            x += need;
        }
    }
    if (!m_frame.caption.empty())
        drawWrappedText(painter, layout.captionRect(), captionFont(em), m_theme.muted,
                        QString::fromStdString(m_frame.caption), Qt::AlignLeft | Qt::AlignBottom);
    painter.restore();
}

bool CommGraphView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](QPointF pos) { return tipAt(pos); }))
        return true;
    return QWidget::event(event);
}

} // namespace wb
