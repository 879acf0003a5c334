#include "charts/ladder_view.h"

#include "drawing/hover_tip.h"
#include "engine/number_format.h"
#include "text/view_text.h"

#include <QHelpEvent>
#include <QToolTip>
#include <algorithm>
#include <array>
#include <cmath>

namespace wb {

namespace {

// Column starts as fractions of the rung width: level, capacity, latency, bandwidth.
constexpr std::array<double, 5> kColumns = {0.0, 0.27, 0.47, 0.73, 1.0};

} // namespace

LadderView::LadderView(QWidget* parent)
    : FrameView(parent) {}

QString LadderView::latencyText(const LadderLevel& level) {
    if (level.latencyCycles <= 0.0 && level.latencyNs <= 0.0) {
        return QStringLiteral("\u2014");
    }
    QStringList parts;
    if (level.latencyCycles > 0.0) {
        const QString cycles = QString::fromStdString(formatSignificant(level.latencyCycles, 3));
        parts << (cycles == QStringLiteral("1") ? tr("1 cycle") : tr("%1 cycles").arg(cycles));
    }
    if (level.latencyNs > 0.0) {
        parts << QString::fromStdString(formatSi(level.latencyNs * 1e-9, "s", 3));
    }
    return parts.join(QStringLiteral(" \u00b7 "));
}

QString LadderView::bandwidthText(const LadderLevel& level) {
    if (level.bandwidthGBs <= 0.0) {
        return QStringLiteral("\u2014");
    }
    return QString::fromStdString(formatSi(level.bandwidthGBs * 1e9, "B/s", 3));
}

QString LadderView::gaugeText(const LadderFrame& frame) {
    const auto bytes = [](double b) { return QString::fromStdString(formatBytes(b)); };
    const double needed = frame.bytesInFlightNeeded;
    const double provided = frame.bytesInFlightProvided;
    QString text = tr("%1 in flight provided of %2 needed").arg(bytes(provided), bytes(needed));
    if (needed > 0.0) {
        text += QStringLiteral(" (%1 %)").arg(std::lround(100.0 * provided / needed));
    }
    return text;
}

bool LadderView::showsGauge() const {
    return m_frame.bytesInFlightNeeded > 0.0 && m_frame.bytesInFlightProvided > 0.0;
}

LadderView::Layout LadderView::layoutFor(const QRectF& bounds) const {
    Layout l;
    const auto levels = static_cast<double>(std::max<std::size_t>(1, m_frame.levels.size()));
    // Shrink type until every rung and the gauge fit.
    const double neededEm =
        (m_frame.title.empty() ? 0.0 : 2.0) + 1.6 + levels * 3.4 + (showsGauge() ? 6.2 : 0.0) + 1.6;
    l.em = layoutEm(bounds, {36.0, neededEm, 1.0});
    const double pad = l.em * 0.8;
    const QRectF inner = bounds.adjusted(pad, pad, -pad, -pad);
    l.title =
        QRectF(inner.left(), inner.top(), inner.width(), m_frame.title.empty() ? 0.0 : l.em * 2.0);
    const double gaugeH = showsGauge() ? l.em * 6.2 : 0.0;
    const double rungsTop = l.title.bottom() + l.em * 1.6; // column headings above
    const double space =
        std::max(0.0, inner.bottom() - rungsTop - gaugeH - (showsGauge() ? l.em * 0.8 : 0.0));
    // A source too long for one line wraps and its rung grows by the extra lines, when the
    // rungs still have room for their values and a source line each; otherwise sources keep
    // one line (the lint lists what that cuts).
    const QFont sourceFont = m_theme.fontAtPixels(l.em * 0.78);
    const double sourceW = inner.width() - 2 * l.em * 0.8;
    std::vector<double> extras;
    double sumExtra = 0;
    for (const LadderLevel& level : m_frame.levels) {
        const double wrapped =
            wrappedHeight(sourceFont, QString::fromStdString(level.source), sourceW);
        extras.push_back(std::max(0.0, wrapped - QFontMetricsF(sourceFont).height()));
        sumExtra += extras.back();
    }
    l.wrapSources = (space - sumExtra) / levels >= l.em * 2.9;
    l.rungH = std::min(l.em * 4.2, (space - (l.wrapSources ? sumExtra : 0.0)) / levels);
    double y = rungsTop;
    for (const double extra : extras) {
        const double h = l.rungH + (l.wrapSources ? extra : 0.0);
        l.rungTops.push_back(y);
        l.rungHeights.push_back(h);
        y += h;
    }
    l.rungs = QRectF(inner.left(), rungsTop, inner.width(), std::max(l.rungH, y - rungsTop));
    // The gauge sits right under the rungs, so the two read as one figure.
    l.gauge = QRectF(inner.left(), l.rungs.bottom() + l.em * 0.8, inner.width(), gaugeH);
    l.track = QRectF(l.gauge.left(), l.gauge.top() + l.em * 1.7, l.gauge.width(), l.em * 1.5);
    return l;
}

QRectF LadderView::rungRect(const QRectF& bounds, int level) const {
    return rungRectIn(layoutFor(bounds), level);
}

QRectF LadderView::rungRectIn(const Layout& l, int level) const {
    if (level < 0 || static_cast<std::size_t>(level) >= l.rungTops.size())
        return {l.rungs.left(), l.rungs.top() + level * l.rungH, l.rungs.width(),
                l.rungH - l.em * 0.35};
    const auto i = static_cast<std::size_t>(level);
    return {l.rungs.left(), l.rungTops[i], l.rungs.width(), l.rungHeights[i] - l.em * 0.35};
}

QRectF LadderView::gaugeTrack(const QRectF& bounds) const {
    return showsGauge() ? layoutFor(bounds).track : QRectF();
}

QRectF LadderView::gaugeFill(const QRectF& bounds) const {
    if (!showsGauge()) {
        return {};
    }
    const QRectF track = layoutFor(bounds).track;
    const double scale = std::max(m_frame.bytesInFlightNeeded, m_frame.bytesInFlightProvided);
    return {track.left(), track.top(), track.width() * m_frame.bytesInFlightProvided / scale,
            track.height()};
}

int LadderView::levelAt(const QPointF& pos) const {
    const QRectF bounds(rect());
    return indexAt(
        static_cast<int>(m_frame.levels.size()), [&](int i) { return rungRect(bounds, i); }, pos);
}

void LadderView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const Layout l = layoutFor(bounds);
    const double em = l.em;

    if (!m_frame.title.empty()) {
        const QFont titleFont = m_theme.fontAtPixels(em * 1.15, true);
        painter.setFont(titleFont);
        painter.setPen(m_theme.foreground);
        painter.drawText(l.title, Qt::AlignLeft | Qt::AlignVCenter,
                         elided(titleFont, QString::fromStdString(m_frame.title), l.title.width()));
    }

    const double inset = em * 0.8;
    const auto column = [&](const QRectF& r, int c) {
        const double w = r.width() - 2 * inset;
        return QRectF(r.left() + inset + w * kColumns[static_cast<std::size_t>(c)], r.top(),
                      w * (kColumns[static_cast<std::size_t>(c) + 1] -
                           kColumns[static_cast<std::size_t>(c)]) -
                          em * 0.5,
                      r.height());
    };
    // Column headings.
    const QFont headingFont = m_theme.fontAtPixels(em * 0.78, true);
    painter.setFont(headingFont);
    painter.setPen(m_theme.muted);
    const QRectF headings(l.rungs.left(), l.rungs.top() - em * 1.5, l.rungs.width(), em * 1.3);
    const QString names[] = {tr("LEVEL (FASTEST FIRST)"), tr("CAPACITY"), tr("LATENCY"),
                             tr("BANDWIDTH")};
    for (int c = 0; c < 4; ++c) {
        const QRectF cell = column(headings, c);
        painter.drawText(cell, Qt::AlignLeft | Qt::AlignVCenter,
                         elided(headingFont, names[c], cell.width()));
    }

    const QFont nameFont = m_theme.fontAtPixels(em * 1.05, true);
    const QFont valueFont = m_theme.fontAtPixels(em * 1.05);
    const QFont valueBold = m_theme.fontAtPixels(em * 1.05, true);
    const QFont sourceFont = m_theme.fontAtPixels(em * 0.78);
    for (int i = 0; i < static_cast<int>(m_frame.levels.size()); ++i) {
        const LadderLevel& level = m_frame.levels[static_cast<std::size_t>(i)];
        const QRectF rung = rungRectIn(l, i);
        const double radius = em * 0.35;
        painter.setPen(level.highlight ? QPen(m_theme.accent, m_theme.lineWidth(em * 0.14))
                                       : QPen(m_theme.grid, m_theme.lineWidth(1.0)));
        painter.setBrush(m_theme.surface);
        painter.drawRoundedRect(rung, radius, radius);
        if (level.highlight) {
            QColor tint = m_theme.accent;
            tint.setAlphaF(m_theme.isDark ? 0.18f : 0.10f);
            painter.setPen(Qt::NoPen);
            painter.setBrush(tint);
            painter.drawRoundedRect(rung, radius, radius);
        }
        const double lineH = std::min(em * 1.6, (l.rungH - em * 0.35) * 0.58);
        const QString sourceText = QString::fromStdString(level.source);
        const WrappedText source =
            l.wrapSources
                ? wrapText(sourceFont, sourceText, rung.width() - 2 * inset)
                : wrapText(sourceFont, elided(sourceFont, sourceText, rung.width() - 2 * inset), 0);
        const double sourceH = std::max(em * 1.1, source.height());
        const QRectF top(rung.left(), rung.top() + (rung.height() - lineH - sourceH) / 2.0,
                         rung.width(), lineH);
        const QString values[] = {QString::fromStdString(level.name),
                                  QString::fromStdString(level.capacity), latencyText(level),
                                  bandwidthText(level)};
        for (int c = 0; c < 4; ++c) {
            const QRectF cell = column(top, c);
            const QFont& font = c == 0 ? nameFont : (level.highlight ? valueBold : valueFont);
            painter.setFont(font);
            painter.setPen(c == 0 && level.highlight ? m_theme.accent : m_theme.foreground);
            painter.drawText(cell, Qt::AlignLeft | Qt::AlignVCenter,
                             elided(font, values[c], cell.width()));
        }
        drawWrapped(painter,
                    QRectF(rung.left() + inset, top.bottom(), rung.width() - 2 * inset, sourceH),
                    source, m_theme.muted, Qt::AlignLeft | Qt::AlignVCenter);
    }

    if (showsGauge()) {
        const QFont labelFont = m_theme.fontAtPixels(em * 1.0, true);
        painter.setFont(labelFont);
        painter.setPen(m_theme.foreground);
        const QString label = m_frame.gaugeLabel.empty()
                                  ? tr("Little's law: bytes in flight")
                                  : QString::fromStdString(m_frame.gaugeLabel);
        const QRectF labelRect(l.gauge.left(), l.gauge.top(), l.gauge.width(), em * 1.5);
        painter.drawText(labelRect, Qt::AlignLeft | Qt::AlignVCenter,
                         elided(labelFont, label, labelRect.width()));
        const QRectF track = l.track;
        const QRectF fill = gaugeFill(bounds);
        const bool enough = m_frame.bytesInFlightProvided >= m_frame.bytesInFlightNeeded;
        const double r = track.height() / 2.0;
        painter.setPen(Qt::NoPen);
        painter.setBrush(m_theme.grid);
        painter.drawRoundedRect(track, r, r);
        painter.setBrush(enough ? m_theme.accent : m_theme.seriesColor(1));
        painter.drawRoundedRect(fill, std::min(r, fill.width() / 2.0), r);
        // The needed mark.
        const double scale = std::max(m_frame.bytesInFlightNeeded, m_frame.bytesInFlightProvided);
        const double x = track.left() + track.width() * m_frame.bytesInFlightNeeded / scale;
        painter.setPen(QPen(m_theme.foreground, m_theme.lineWidth(2.0)));
        painter.drawLine(QPointF(x, track.top() - em * 0.3), QPointF(x, track.bottom() + em * 0.3));
        const QFont textFont = m_theme.fontAtPixels(em * 0.95);
        painter.setFont(textFont);
        painter.setPen(m_theme.foreground);
        const QRectF text(l.gauge.left(), track.bottom() + em * 0.35, l.gauge.width(), em * 1.4);
        painter.drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                         elided(textFont, gaugeText(m_frame), text.width()));
        if (!m_frame.gaugeSource.empty()) {
            painter.setFont(sourceFont);
            painter.setPen(m_theme.muted);
            const QRectF src(l.gauge.left(), text.bottom(), l.gauge.width(), em * 1.2);
            painter.drawText(
                src, Qt::AlignLeft | Qt::AlignVCenter,
                elided(sourceFont, QString::fromStdString(m_frame.gaugeSource), src.width()));
        }
    }
    painter.restore();
}

bool LadderView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](QPointF pos) {
            return tipOf(m_frame.levels, levelAt(pos), &LadderLevel::tip);
        }))
        return true;
    return QWidget::event(event);
}

} // namespace wb
