#include "grids/sm_grid_view.h"

#include "drawing/hover_tip.h"
#include "engine/number_format.h"
#include "text/text_layout.h"

#include <QHelpEvent>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace wb {

namespace {

constexpr int kParts = 4;

struct TileParts {
    QRectF label;
    QRectF chips;
    QRectF bars;
};

} // namespace

SmGridView::SmGridView(QWidget* parent)
    : FrameView(parent) {}

void SmGridView::frameChanged(const SmGridFrame& previous) {
    int slotTotal = std::max(1, m_frame.maxBlocksPerSm);
    for (const SmState& sm : m_frame.sms) {
        slotTotal = std::max(slotTotal, static_cast<int>(sm.blocks.size()));
    }
    if (m_frame.smCount != previous.smCount || slotTotal != m_slots ||
        m_frame.title != previous.title || m_frame.blocksTotal != previous.blocksTotal) {
        m_layoutValid = false;
    }
    m_slots = slotTotal;
}

void SmGridView::themeChanged() {
    m_layoutValid = false;
}

QString SmGridView::caption(const SmGridFrame& frame) {
    const QString dot = QStringLiteral(" \u00b7 ");
    QString text = tr("wave %1/%2").arg(frame.wave).arg(frame.waves) + dot +
                   tr("blocks %1/%2 done").arg(frame.blocksDone).arg(frame.blocksTotal);
    if (frame.waves > 0) {
        // Three significant digits, as the facts beside it print the same fill (0.189 %, not 0).
        text +=
            dot +
            tr("tail wave %1 full").arg(QString::fromStdString(formatShare(frame.tailUtilization)));
    }
    return text;
}

int SmGridView::waveOfBlock(int blockId) const {
    const int perWave = std::max(1, m_frame.smCount * std::max(1, m_frame.maxBlocksPerSm));
    return std::max(0, blockId) / perWave;
}

QColor SmGridView::blockColor(int blockId) const {
    QColor colour = m_theme.seriesColor(waveOfBlock(blockId));
    // Neighbouring blocks alternate in lightness so chips side by side stay distinct.
    if (blockId % 2 == 1) {
        colour = m_theme.isDark ? colour.darker(125) : colour.lighter(125);
    }
    return colour;
}

const SmGridView::Layout& SmGridView::layoutFor(const QRectF& bounds) const {
    if (m_layoutValid && m_layout.size == bounds.size()) {
        return m_layout;
    }
    Layout l;
    l.size = bounds.size();
    l.em = layoutEm(bounds, {30.0, 16.0, 0.82});
    const double pad = l.em * 0.8;
    const QRectF inner = bounds.adjusted(pad, pad, -pad, -pad);
    l.titleFont = m_theme.fontAtPixels(l.em * 1.15, true);
    l.captionFont = m_theme.fontAtPixels(l.em * 1.0, true);
    // Title and caption wrap, whole. The caption's counts change every frame, so its room is
    // that of the longest it can get (every block done, the last wave).
    l.titleText = wrapText(l.titleFont, QString::fromStdString(m_frame.title), inner.width());
    const double titleH = l.titleText.empty() ? 0.0 : l.titleText.height() + l.em * 0.5;
    l.title = QRectF(inner.left(), inner.top(), inner.width(), titleH);
    SmGridFrame longest = m_frame;
    longest.blocksDone = std::max(m_frame.blocksDone, m_frame.blocksTotal);
    longest.wave = std::max(m_frame.wave, m_frame.waves);
    const double captionH = wrappedHeight(l.captionFont, caption(longest), inner.width());
    l.caption = QRectF(inner.left(), l.title.bottom(), inner.width(), captionH + l.em * 0.5);
    l.grid = QRectF(inner.left(), l.caption.bottom() + l.em * 0.6, inner.width(),
                    std::max(0.0, inner.bottom() - l.caption.bottom() - l.em * 2.2));

    // The column count that gives the largest tiles of a slightly wide shape.
    const int n = std::max(1, m_frame.smCount);
    l.gap = std::max(2.0, l.em * 0.25);
    double best = -1.0;
    for (int c = 1; c <= n; ++c) {
        const int r = (n + c - 1) / c;
        const double tw = (l.grid.width() - (c - 1) * l.gap) / c;
        const double th = (l.grid.height() - (r - 1) * l.gap) / r;
        const double score = std::min(tw / 1.3, th);
        if (score > best) {
            best = score;
            l.columns = c;
            l.rows = r;
            l.tileW = tw;
            l.tileH = th;
        }
    }
    // Tiles no taller than 1.1x their width: spare height goes below the grid.
    l.tileH = std::min(l.tileH, l.tileW * 1.1);
    const double labelPx = std::clamp(l.tileH * 0.2, 6.0, l.em * 0.8);
    l.labelFont = m_theme.fontAtPixels(labelPx);
    // Tiles are labelled only when the widest label fits at the font actually drawn (never
    // under the floor); otherwise none is, and the hover tip names the SM.
    const QFontMetricsF labelMetrics(l.labelFont);
    const QString widest = QStringLiteral("SM %1").arg(std::max(0, m_frame.smCount - 1));
    l.labels = l.tileH >= labelMetrics.height() * 2.6 &&
               labelMetrics.horizontalAdvance(widest) + 4.0 <= l.tileW;
    l.labelH = l.labels ? labelMetrics.height() * 1.1 : 0.0;

    // Block chips laid out in the tile's chip area, about square.
    const double pad2 = std::max(1.5, l.tileW * 0.06);
    const double chipsW = (l.tileW - 2 * pad2) * 0.66;
    const double chipsH = std::max(1.0, l.tileH - 2 * pad2 - l.labelH);
    const int slotTotal = std::max(1, m_slots);
    double bestChip = -1.0;
    for (int c = 1; c <= slotTotal; ++c) {
        const int r = (slotTotal + c - 1) / c;
        const double side = std::min(chipsW / c, chipsH / r);
        if (side > bestChip) {
            bestChip = side;
            l.slotColumns = c;
            l.slotRows = r;
        }
    }
    const double chipW = chipsW / l.slotColumns;
    const double chipH = chipsH / l.slotRows;
    const double chipPx = std::min(labelPx, chipH * 0.4);
    l.chipFont = m_theme.fontAtPixels(chipPx, true);
    const int maxId = std::max(9, m_frame.blocksTotal - 1);
    // Block numbers only where the floored font fits the chip both ways.
    const QFontMetricsF chipMetrics(l.chipFont);
    // Measured against the chip as blockRect draws it (inset on each side), with a margin for
    // the tile's own rounding.
    const double side = std::min(chipW, chipH);
    const double inset = side > 6.0 ? std::max(1.0, side * 0.08) : 0.5;
    l.chipText = chipMetrics.horizontalAdvance(QString::number(maxId)) + 4.0 <= chipW - 2 * inset &&
                 chipMetrics.height() + 2.0 <= (chipH - 2 * inset) * 0.9;
    m_layout = l;
    m_layoutValid = true;
    return m_layout;
}

int SmGridView::columns(const QRectF& bounds) const {
    return layoutFor(bounds).columns;
}

QRectF SmGridView::smRect(const QRectF& bounds, int sm) const {
    const Layout& l = layoutFor(bounds);
    const int col = sm % l.columns;
    const int row = sm / l.columns;
    const double gridW = l.columns * l.tileW + (l.columns - 1) * l.gap;
    const double left = l.grid.left() + (l.grid.width() - gridW) / 2.0;
    return {left + col * (l.tileW + l.gap), l.grid.top() + row * (l.tileH + l.gap), l.tileW,
            l.tileH};
}

namespace {

TileParts tileParts(const QRectF& tile, double labelH) {
    const double pad = std::max(1.5, tile.width() * 0.06);
    const QRectF inner = tile.adjusted(pad, pad, -pad, -pad);
    TileParts parts;
    parts.label = QRectF(inner.left(), inner.top(), inner.width(), labelH);
    const QRectF body(inner.left(), inner.top() + labelH, inner.width(),
                      std::max(1.0, inner.height() - labelH));
    parts.chips = QRectF(body.left(), body.top(), body.width() * 0.66, body.height());
    const double barsLeft = parts.chips.right() + std::max(1.5, body.width() * 0.06);
    parts.bars = QRectF(barsLeft, body.top(), body.right() - barsLeft, body.height());
    return parts;
}

} // namespace

QRectF SmGridView::blockRect(const QRectF& bounds, int sm, int slot) const {
    const Layout& l = layoutFor(bounds);
    const TileParts parts = tileParts(smRect(bounds, sm), l.labelH);
    const double cw = parts.chips.width() / l.slotColumns;
    const double ch = parts.chips.height() / l.slotRows;
    const double side = std::min(cw, ch);
    const double inset = side > 6.0 ? std::max(1.0, side * 0.08) : 0.5;
    const int col = slot % l.slotColumns;
    const int row = slot / l.slotColumns;
    return {parts.chips.left() + col * cw + inset, parts.chips.top() + row * ch + inset,
            cw - 2 * inset, ch - 2 * inset};
}

QRectF SmGridView::subPartitionRect(const QRectF& bounds, int sm, int part) const {
    const Layout& l = layoutFor(bounds);
    const TileParts parts = tileParts(smRect(bounds, sm), l.labelH);
    const double gap = parts.bars.width() > 12.0 ? 1.5 : 0.75;
    const double bw = (parts.bars.width() - (kParts - 1) * gap) / kParts;
    return {parts.bars.left() + part * (bw + gap), parts.bars.top(), bw, parts.bars.height()};
}

int SmGridView::smAt(const QPointF& pos) const {
    const QRectF bounds(rect());
    return indexAt(
        m_frame.smCount, [&](int sm) { return smRect(bounds, sm); }, pos);
}

void SmGridView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const Layout& l = layoutFor(bounds);

    drawWrapped(painter, l.title, l.titleText, m_theme.foreground);
    drawWrappedText(painter, l.caption, l.captionFont, m_theme.foreground, caption(m_frame));

    const int perScheduler = std::max(1, m_frame.maxWarpsPerSm / kParts);
    const QColor barFill = m_theme.muted;
    const QColor emptySlot =
        m_theme.isDark ? m_theme.background.lighter(130) : m_theme.grid.lighter(112);
    painter.setFont(l.labelFont);
    for (int sm = 0; sm < m_frame.smCount; ++sm) {
        const QRectF tile = smRect(bounds, sm);
        const SmState* state = static_cast<std::size_t>(sm) < m_frame.sms.size()
                                   ? &m_frame.sms[static_cast<std::size_t>(sm)]
                                   : nullptr;
        const bool busy = state != nullptr && !state->blocks.empty();
        // Busy SMs on the surface with an outline; idle ones are only a faint outline.
        painter.fillRect(tile, busy ? m_theme.grid : m_theme.background);
        painter.fillRect(tile.adjusted(1, 1, -1, -1), busy ? m_theme.surface : m_theme.background);
        if (!busy) {
            painter.setPen(QPen(m_theme.grid, 1.0, Qt::DashLine));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(tile.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        if (l.labels) {
            const TileParts parts = tileParts(tile, l.labelH);
            painter.setPen(busy ? m_theme.foreground : m_theme.muted);
            painter.drawText(parts.label, Qt::AlignLeft | Qt::AlignVCenter,
                             QStringLiteral("SM %1").arg(sm));
        }
        for (int slot = 0; slot < m_slots; ++slot) {
            const QRectF chip = blockRect(bounds, sm, slot);
            if (busy && static_cast<std::size_t>(slot) < state->blocks.size()) {
                const int block = state->blocks[static_cast<std::size_t>(slot)];
                painter.fillRect(chip, blockColor(block));
                if (l.chipText) {
                    painter.setFont(l.chipFont);
                    painter.setPen(Qt::white);
                    painter.drawText(chip.adjusted(0, 1, 0, 0), Qt::AlignTop | Qt::AlignHCenter,
                                     QString::number(block));
                    painter.setFont(l.labelFont);
                }
            } else if (busy) {
                painter.fillRect(chip, emptySlot);
            }
        }
        if (state != nullptr) {
            for (int part = 0; part < kParts; ++part) {
                const QRectF track = subPartitionRect(bounds, sm, part);
                painter.fillRect(track, busy ? emptySlot : m_theme.surface);
                const int warps = static_cast<std::size_t>(part) < state->subPartitionWarps.size()
                                      ? state->subPartitionWarps[static_cast<std::size_t>(part)]
                                      : 0;
                const double f = std::clamp(static_cast<double>(warps) / perScheduler, 0.0, 1.0);
                if (f > 0.0) {
                    const double fillH = track.height() * f;
                    painter.fillRect(
                        QRectF(track.left(), track.bottom() - fillH, track.width(), fillH),
                        barFill);
                }
            }
        }
    }

    // Key below the grid: what the chips and bars mean.
    const double lastRowBottom = smRect(bounds, std::max(0, m_frame.smCount - 1)).bottom();
    const QRectF key(l.grid.left(), lastRowBottom + l.em * 0.5, l.grid.width(), l.em * 1.4);
    if (key.bottom() <= bounds.bottom()) {
        const QFont keyFont = m_theme.fontAtPixels(l.em * 0.8);
        painter.setFont(keyFont);
        double x = key.left();
        const double sw = l.em * 0.8;
        for (int wave = 0; wave < std::min(m_frame.waves, 6); ++wave) {
            painter.fillRect(QRectF(x, key.center().y() - sw / 2, sw, sw),
                             m_theme.seriesColor(wave));
            x += sw * 1.4;
            const QString text = tr("wave %1").arg(wave + 1);
            painter.setPen(m_theme.muted);
            painter.drawText(QRectF(x, key.top(), key.right() - x, key.height()),
                             Qt::AlignLeft | Qt::AlignVCenter, text);
            x += QFontMetricsF(keyFont).horizontalAdvance(text) + l.em;
        }
        // The bars' entry whole, on the line of the waves when it fits there, else on a line of
        // its own below when the view has room for it, else left to the hover tip.
        const QString bars =
            tr("bars: warps on each of the 4 schedulers (of %1)").arg(perScheduler);
        const double barsW = sw * 0.9 + QFontMetricsF(keyFont).horizontalAdvance(bars);
        QRectF line = key;
        if (x + barsW > key.right()) {
            x = key.left();
            line.translate(0, key.height());
        }
        if (line.bottom() <= bounds.bottom() && x + barsW <= key.right()) {
            painter.fillRect(QRectF(x, line.center().y() - sw / 2, sw * 0.35, sw), barFill);
            x += sw * 0.9;
            painter.setPen(m_theme.muted);
            painter.drawText(QRectF(x, line.top(), line.right() - x, line.height()),
                             Qt::AlignLeft | Qt::AlignVCenter, bars);
        }
    }
    painter.restore();
}

bool SmGridView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](QPointF pos) {
            return tipOf(m_frame.sms, smAt(pos), &SmState::tip);
        }))
        return true;
    return QWidget::event(event);
}

} // namespace wb
