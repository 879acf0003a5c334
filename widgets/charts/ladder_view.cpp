#include "charts/ladder_view.h"

#include "drawing/hover_tip.h"
#include "engine/number_format.h"

#include <QHelpEvent>
#include <QSet>
#include <QToolTip>
#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace wb {

namespace {

// Column starts as fractions of the rung width: level, capacity, latency, bandwidth.
constexpr std::array<double, 5> kColumns = {0.0, 0.27, 0.47, 0.73, 1.0};

} // namespace

LadderView::LadderView(QWidget* parent)
    : FrameView(parent) {}

QString LadderView::latencyText(const LadderLevel& level) {
    if (!level.latencyLabel.empty())
        return QString::fromStdString(level.latencyLabel);
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
    if (!level.bandwidthLabel.empty())
        return QString::fromStdString(level.bandwidthLabel);
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
        text += QStringLiteral(" (%1)").arg(
            QString::fromStdString(formatShare(std::min(1.0, provided / needed))));
    }
    return text;
}

bool LadderView::showsGauge() const {
    return m_frame.bytesInFlightNeeded > 0.0 && m_frame.bytesInFlightProvided > 0.0;
}

std::array<double, 4> LadderView::columnLefts(const QRectF& rung, double em) const {
    const double inset = em * 0.8;
    const double w = rung.width() - 2 * inset;
    std::array<double, 4> lefts{};
    for (std::size_t c = 0; c < 4; ++c)
        lefts[c] = rung.left() + inset + w * kColumns[c];
    return lefts;
}

double LadderView::columnWidth(const QRectF& rung, double em, int c) const {
    const double w = rung.width() - 2 * em * 0.8;
    const auto i = static_cast<std::size_t>(c);
    return std::max(1.0, w * (kColumns[i + 1] - kColumns[i]) - em * 0.5);
}

std::pair<std::vector<QString>, QString> LadderView::sharedSources() const {
    const QString sep = QStringLiteral("; ");
    std::vector<QStringList> parts;
    std::map<QString, int> uses;
    for (const LadderLevel& level : m_frame.levels) {
        parts.push_back(QString::fromStdString(level.source).split(sep, Qt::SkipEmptyParts));
        for (const QString& p : QSet<QString>(parts.back().begin(), parts.back().end()))
            ++uses[p];
    }
    std::vector<QString> notes;
    std::vector<QString> sources;
    for (QStringList& list : parts) {
        for (QString& p : list) {
            if (uses[p] < 2)
                continue;
            auto it = std::find(notes.begin(), notes.end(), p);
            if (it == notes.end())
                it = notes.insert(notes.end(), p);
            p = QStringLiteral("[%1]").arg(it - notes.begin() + 1);
        }
        sources.push_back(list.join(sep));
    }
    QStringList lines;
    for (std::size_t i = 0; i < notes.size(); ++i)
        lines << QStringLiteral("[%1] %2").arg(i + 1).arg(notes[i]);
    return {sources, lines.join(QStringLiteral("\n"))};
}

LadderView::Layout LadderView::layoutAt(const QRectF& bounds, double em, double text,
                                        std::size_t levels) const {
    Layout l;
    l.em = em;
    l.text = text;
    const double pad = em * 0.8;
    const QRectF inner = bounds.adjusted(pad, pad, -pad, -pad);
    l.titleText = wrapText(m_theme.fontAtPixels(text * 1.15, true),
                           QString::fromStdString(m_frame.title), inner.width());
    l.title = QRectF(inner.left(), inner.top(), inner.width(),
                     l.titleText.empty() ? 0.0 : l.titleText.height() + text * 0.5);
    const QRectF rungShape(inner.left(), 0, inner.width(), 1);
    const QFont headingFont = m_theme.fontAtPixels(text * 0.78, true);
    const QString names[] = {tr("LEVEL (FASTEST FIRST)"), tr("CAPACITY"), tr("LATENCY"),
                             tr("BANDWIDTH")};
    for (int c = 0; c < 4; ++c) {
        l.headings[static_cast<std::size_t>(c)] =
            wrapText(headingFont, names[c], columnWidth(rungShape, em, c));
        l.headingsH = std::max(l.headingsH, l.headings[static_cast<std::size_t>(c)].height());
    }
    const double rungsTop = l.title.bottom() + l.headingsH + text * 0.3;

    const QFont nameFont = m_theme.fontAtPixels(text * 1.05, true);
    const QFont valueFont = m_theme.fontAtPixels(text * 1.05);
    const QFont valueBold = m_theme.fontAtPixels(text * 1.05, true);
    const QFont sourceFont = m_theme.fontAtPixels(text * 0.78);
    const double inset = em * 0.8;
    const auto [sources, notes] = sharedSources();
    double y = rungsTop;
    for (std::size_t li = 0; li < levels; ++li) {
        const LadderLevel& level = m_frame.levels[li];
        Rung r;
        const QString values[] = {QString::fromStdString(level.name),
                                  QString::fromStdString(level.capacity), latencyText(level),
                                  bandwidthText(level)};
        for (int c = 0; c < 4; ++c) {
            const QFont& font = c == 0 ? nameFont : (level.highlight ? valueBold : valueFont);
            r.values[static_cast<std::size_t>(c)] =
                wrapText(font, values[c], columnWidth(rungShape, em, c));
            r.valuesH = std::max(r.valuesH, r.values[static_cast<std::size_t>(c)].height());
        }
        r.source = wrapText(sourceFont, sources[li], inner.width() - 2 * inset);
        r.top = y;
        r.height = text * 0.45 + r.valuesH + text * 0.15 + r.source.height() + text * 0.45;
        y += r.height + em * 0.35;
        l.rungList.push_back(std::move(r));
    }
    l.rungs = QRectF(inner.left(), rungsTop, inner.width(), std::max(0.0, y - rungsTop));
    l.hiddenLevels = static_cast<int>(m_frame.levels.size() - levels);
    QString noteText = notes;
    if (l.hiddenLevels > 0)
        noteText = (l.hiddenLevels == 1
                        ? tr("1 more level that does not fit this panel")
                        : tr("%1 more levels that do not fit this panel").arg(l.hiddenLevels)) +
                   (noteText.isEmpty() ? QString() : QStringLiteral("\n") + noteText);
    l.notes = wrapText(sourceFont, noteText, inner.width());
    l.notesBox = QRectF(inner.left(), l.rungs.bottom(), inner.width(), l.notes.height());

    // The gauge sits right under the rungs, so the two read as one figure.
    if (showsGauge()) {
        const QString label = m_frame.gaugeLabel.empty()
                                  ? tr("Little's law: bytes in flight")
                                  : QString::fromStdString(m_frame.gaugeLabel);
        l.gaugeLabel = wrapText(m_theme.fontAtPixels(text * 1.0, true), label, inner.width());
        l.gaugeValue =
            wrapText(m_theme.fontAtPixels(text * 0.95), gaugeText(m_frame), inner.width());
        l.gaugeSource =
            wrapText(sourceFont, QString::fromStdString(m_frame.gaugeSource), inner.width());
        const double top = l.notesBox.bottom() + em * 0.5;
        l.track = QRectF(inner.left(), top + l.gaugeLabel.height() + text * 0.4, inner.width(),
                         text * 1.5);
        l.gauge = QRectF(inner.left(), top, inner.width(),
                         l.track.bottom() + text * 0.35 + l.gaugeValue.height() +
                             l.gaugeSource.height() - top);
    }
    return l;
}

LadderView::Layout LadderView::layoutFor(const QRectF& bounds) const {
    // The width sets the em; the texts then shrink, down to the floor, until the rungs and
    // the gauge fit the height.
    const auto levelCount = static_cast<double>(std::max<std::size_t>(1, m_frame.levels.size()));
    const double neededEm = (m_frame.title.empty() ? 0.0 : 2.0) + 1.6 + levelCount * 3.4 +
                            (showsGauge() ? 6.2 : 0.0) + 1.6;
    const double em = layoutEm(bounds, {36.0, neededEm, 1.0});
    double text = em;
    std::size_t levels = m_frame.levels.size();
    Layout l = layoutAt(bounds, em, text, levels);
    const double bottom = bounds.bottom() - em * 0.8;
    const auto end = [](const Layout& x) {
        return x.gauge.isNull() ? x.notesBox.bottom() : x.gauge.bottom();
    };
    while (end(l) > bottom && text > m_type.floor()) {
        text *= 0.92;
        l = layoutAt(bounds, em, text, levels);
    }
    // Still too tall at the floor: the slowest levels go, and the notes count them.
    while (end(l) > bottom && levels > 1) {
        --levels;
        l = layoutAt(bounds, em, text, levels);
    }
    return l;
}

QRectF LadderView::rungRect(const QRectF& bounds, int level) const {
    return rungRectIn(layoutFor(bounds), level);
}

QRectF LadderView::rungRectIn(const Layout& l, int level) const {
    if (level < 0 || static_cast<std::size_t>(level) >= l.rungList.size())
        return {};
    const Rung& r = l.rungList[static_cast<std::size_t>(level)];
    return {l.rungs.left(), r.top, l.rungs.width(), r.height};
}

QRectF LadderView::gaugeTrack(const QRectF& bounds) const {
    return showsGauge() ? layoutFor(bounds).track : QRectF();
}

QRectF LadderView::gaugeFill(const QRectF& bounds) const {
    return showsGauge() ? gaugeFillIn(layoutFor(bounds).track) : QRectF();
}

// The provided share of `track` (paint passes the track it already laid out).
QRectF LadderView::gaugeFillIn(const QRectF& track) const {
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

    drawWrapped(painter, l.title, l.titleText, m_theme.foreground);

    // Column headings.
    const QRectF headings(l.rungs.left(), l.rungs.top() - l.headingsH - l.text * 0.3,
                          l.rungs.width(), l.headingsH);
    const std::array<double, 4> headLefts = columnLefts(headings, em);
    for (int c = 0; c < 4; ++c) {
        const auto i = static_cast<std::size_t>(c);
        drawWrapped(
            painter,
            QRectF(headLefts[i], headings.top(), columnWidth(headings, em, c), headings.height()),
            l.headings[i], m_theme.muted, Qt::AlignLeft | Qt::AlignBottom);
    }

    const double inset = em * 0.8;
    for (int i = 0; i < static_cast<int>(l.rungList.size()); ++i) {
        const LadderLevel& level = m_frame.levels[static_cast<std::size_t>(i)];
        const Rung& r = l.rungList[static_cast<std::size_t>(i)];
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
        const double valuesTop = rung.top() + l.text * 0.45;
        const std::array<double, 4> lefts = columnLefts(rung, em);
        for (int c = 0; c < 4; ++c) {
            const auto k = static_cast<std::size_t>(c);
            drawWrapped(painter, QRectF(lefts[k], valuesTop, columnWidth(rung, em, c), r.valuesH),
                        r.values[k],
                        c == 0 && level.highlight ? m_theme.accent : m_theme.foreground);
        }
        drawWrapped(painter,
                    QRectF(rung.left() + inset, valuesTop + r.valuesH + l.text * 0.15,
                           rung.width() - 2 * inset, r.source.height()),
                    r.source, m_theme.muted);
    }

    drawWrapped(painter, l.notesBox, l.notes, m_theme.muted);

    if (showsGauge()) {
        drawWrapped(painter,
                    QRectF(l.gauge.left(), l.gauge.top(), l.gauge.width(), l.gaugeLabel.height()),
                    l.gaugeLabel, m_theme.foreground);
        const QRectF track = l.track;
        const QRectF fill = gaugeFillIn(track);
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
        const double valueTop = track.bottom() + l.text * 0.35;
        drawWrapped(painter,
                    QRectF(l.gauge.left(), valueTop, l.gauge.width(), l.gaugeValue.height()),
                    l.gaugeValue, m_theme.foreground);
        drawWrapped(painter,
                    QRectF(l.gauge.left(), valueTop + l.gaugeValue.height(), l.gauge.width(),
                           l.gaugeSource.height()),
                    l.gaugeSource, m_theme.muted);
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
