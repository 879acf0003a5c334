#include "grids/memory_access_view.h"

#include "drawing/hover_tip.h"
#include "grids/lanes_per_warp.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace wb {

namespace {

constexpr int kBanks = 32;
constexpr int kSectorsPerLine = 4;
constexpr std::size_t kMaxRows = 32;

// `colour` laid over `base` at `alpha`, as an opaque colour (see mixColors).
QColor over(const QColor& colour, const QColor& base, double alpha) {
    return mixColors(base, colour, alpha);
}

// A polyline of `width` pixels drawn as parallel 1-pixel antialiased polylines. Qt's raster
// engine has a fast path for thin pens only; wide antialiased strokes (or their outlines as
// polygons) of long, shallow lines cost about ten times more, and 32 links are most of the frame.
void thickPolyline(QPainter& painter, const std::vector<QPointF>& points, double width,
                   const QColor& colour) {
    if (points.size() < 2) {
        return;
    }
    std::vector<QPointF> normals(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        const QPointF a = points[i == 0 ? 0 : i - 1];
        const QPointF b = points[i + 1 < points.size() ? i + 1 : i];
        const QPointF d = b - a;
        const double len = std::hypot(d.x(), d.y());
        normals[i] = len > 0.0 ? QPointF(-d.y() / len, d.x() / len) : QPointF();
    }
    const int strands = std::max(1, static_cast<int>(std::lround(width)));
    QPen pen(colour, 1.0);
    pen.setCosmetic(true);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    QPolygonF line(static_cast<int>(points.size()));
    for (int k = 0; k < strands; ++k) {
        const double offset = (k - (strands - 1) / 2.0) * 0.9;
        for (std::size_t i = 0; i < points.size(); ++i) {
            line[static_cast<int>(i)] = points[i] + normals[i] * offset;
        }
        painter.drawPolyline(line);
    }
}

QString dot() {
    return QStringLiteral(" \u00b7 ");
}

QString counted(long long n, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(n).arg(QString::fromLatin1(n == 1 ? one : many));
}

} // namespace

MemoryAccessView::MemoryAccessView(QWidget* parent)
    : FrameView(parent) {}

void MemoryAccessView::frameChanged(const MemoryAccessFrame& /*previous*/) {
    m_rows.clear();
    m_wordsPerBank.assign(kBanks, 0);
    for (const BankHit& hit : m_frame.bankHits) {
        m_rows.push_back(hit.row);
        if (hit.bank >= 0 && hit.bank < kBanks) {
            ++m_wordsPerBank[static_cast<std::size_t>(hit.bank)];
        }
    }
    std::sort(m_rows.begin(), m_rows.end());
    m_rows.erase(std::unique(m_rows.begin(), m_rows.end()), m_rows.end());
}

QColor MemoryAccessView::conflictColor() const {
    return m_theme.seriesColor(3);
}

QColor MemoryAccessView::broadcastColor() const {
    return m_theme.seriesColor(2);
}

bool MemoryAccessView::bankConflicts(int bank) const {
    return bank >= 0 && bank < kBanks && static_cast<std::size_t>(bank) < m_wordsPerBank.size() &&
           m_wordsPerBank[static_cast<std::size_t>(bank)] > m_frame.minWavefronts;
}

int MemoryAccessView::rowIndex(std::uint64_t row) const {
    const auto it = std::lower_bound(m_rows.begin(), m_rows.end(), row);
    return it != m_rows.end() && *it == row ? static_cast<int>(it - m_rows.begin()) : -1;
}

QString MemoryAccessView::countsText(const MemoryAccessFrame& frame) {
    const QString requests = counted(frame.requests, "request", "requests");
    if (frame.space == MemoryAccessFrame::Space::Global) {
        const auto sectors = static_cast<int>(frame.sectors.size());
        return requests + dot() + counted(sectors, "sector", "sectors") + dot() +
               tr("%1 sectors/request").arg(frame.sectorsPerRequest, 0, 'g', 3) + dot() +
               tr("%1 % efficiency").arg(std::lround(frame.efficiency * 100.0));
    }
    const QString bytes = QString::fromStdString(formatBytes(double(frame.bytesRequested)));
    const QString wavefronts = counted(frame.wavefronts, "wavefront", "wavefronts");
    const int extra = extraWavefronts(frame);
    const QString conflict =
        extra <= 0 ? tr("conflict-free: %1, the fewest %2 can take").arg(wavefronts, bytes)
                   : tr("bank conflict: %1 where %2 would do for %3")
                         .arg(wavefronts)
                         .arg(frame.minWavefronts)
                         .arg(bytes);
    return requests + dot() + counted(frame.banksUsed, "bank", "banks") + tr(" used") + dot() +
           conflict;
}

std::vector<LegendEntry> MemoryAccessView::sharedKeyEntries() const {
    return {{m_theme.accent, Qt::NoPen, tr("one lane, one word")},
            {conflictColor(), Qt::NoPen,
             tr("bank conflict: a bank holds more words than the fewest wavefronts")},
            {broadcastColor(), Qt::NoPen, tr("broadcast: several lanes, one word")}};
}

MemoryAccessView::Layout MemoryAccessView::layoutFor(const QRectF& bounds) const {
    Layout l;
    const double h = bounds.height();
    l.em = layoutEm(bounds, {36.0, 24.0, 1.0});
    const double em = l.em;
    const double pad = em * 0.8;
    const QRectF inner = bounds.adjusted(pad, pad, -pad, -pad);
    const bool shared = m_frame.space == MemoryAccessFrame::Space::Shared;

    // Header: every block wraps to the width, and the header is as tall as they need.
    const double w = inner.width();
    l.title =
        wrapText(m_theme.fontAtPixels(em * 1.15, true), QString::fromStdString(m_frame.title), w);
    const QFont instrFont = m_theme.monoFontAtPixels(em * 0.95);
    l.instruction = wrapText(instrFont, QString::fromStdString(m_frame.instruction), w);
    std::uint64_t base = UINT64_MAX;
    std::uint64_t span = 0;
    for (const LaneAccess& lane : m_frame.lanes)
        if (lane.active)
            base = std::min(base, lane.address);
    for (const LaneAccess& lane : m_frame.lanes)
        if (lane.active)
            span = std::max(span, lane.address - base);
    const double instrW = l.instruction.empty() ? 0.0 : l.instruction.width() + em;
    const QFont countsFont = m_theme.fontAtPixels(em * 1.0, true);
    l.counts = wrapText(countsFont, countsText(m_frame), w);

    l.rowLabelW = shared ? em * 3.6 : 0.0;
    const double lanesLeft = inner.left() + l.rowLabelW;
    const double lanesW = inner.width() - l.rowLabelW;
    const double gap = std::max(1.5, em * 0.15);
    l.twoRows = (lanesW - (kLanesPerWarp - 1) * gap) / kLanesPerWarp < em * 2.4;
    const int perRow = l.twoRows ? kLanesPerWarp / 2 : kLanesPerWarp;
    l.laneW = (lanesW - (perRow - 1) * gap) / perRow;

    // Offsets under the lanes in B, kB, MB or GB: the first unit in which the widest fits.
    if (!shared && base != UINT64_MAX) {
        const QFontMetricsF am(m_theme.monoFontAtPixels(std::min(em * 0.72, l.laneW * 0.3)));
        const std::array<std::pair<double, const char*>, 4> units{
            {{1.0, "B"}, {1e3, "kB"}, {1e6, "MB"}, {1e9, "GB"}}};
        l.offsetsFit = false;
        for (const auto& [scale, unit] : units) {
            const QString widest = QStringLiteral("+") +
                                   QString::fromStdString(formatSignificant(
                                       static_cast<double>(span) / scale, scale == 1.0 ? 12 : 3));
            if (am.horizontalAdvance(widest) <= l.laneW + 4.0) {
                l.offsetScale = scale;
                l.offsetUnit = QString::fromLatin1(unit);
                l.offsetsFit = true;
                break;
            }
        }
        const QString note =
            l.offsetsFit
                ? tr("under each lane: offset in %1 from 0x%2").arg(l.offsetUnit).arg(base, 0, 16)
                : tr("offsets from 0x%1: hover a lane").arg(base, 0, 16);
        const QFont noteFont = m_theme.fontAtPixels(em * 0.8);
        l.noteBesideInstruction =
            QFontMetricsF(noteFont).horizontalAdvance(note) <= w - instrW && !l.instruction.empty();
        l.note = wrapText(noteFont, note, l.noteBesideInstruction ? w - instrW : w);
    }
    double headerH = l.title.height() + em * 0.3 + std::max(l.instruction.height(), em * 1.1);
    if (!l.note.empty() && !l.noteBesideInstruction)
        headerH += l.note.height();
    headerH += em * 0.2 + l.counts.height() + em * 0.2;
    l.header = QRectF(inner.left(), inner.top(), inner.width(), headerH);

    l.laneH = em * 1.7;
    l.laneRowH = l.laneH + em * 1.2;
    l.lanes = QRectF(lanesLeft, l.header.bottom() + em * 0.4, lanesW,
                     l.twoRows ? 2.0 * l.laneRowH + em * 0.2 : l.laneRowH);

    // The key: wrapped, and the targets get what is left.
    const QFont keyFont = m_theme.fontAtPixels(em * 0.8);
    if (shared) {
        l.sharedKey = layoutLegend(sharedKeyEntries(), keyFont, inner.width());
        l.keyH = l.sharedKey.height + em * 0.4;
    }

    double arrowsH = std::clamp(h * (shared ? 0.16 : 0.22), em * 2.5, em * 9.0);
    if (shared) {
        // Many bank rows take room from the arrows first: the rows are the point.
        const double rowsWanted =
            em * 1.5 + em * 1.1 * static_cast<double>(std::min(kMaxRows, m_rows.size()));
        const double spare = inner.bottom() - l.lanes.bottom() - l.keyH - rowsWanted;
        arrowsH = std::clamp(spare, em * 2.5, arrowsH);
    }
    l.arrows = QRectF(lanesLeft, l.lanes.bottom(), lanesW, arrowsH);

    if (shared) {
        l.targets = QRectF(inner.left(), l.arrows.bottom(), inner.width(),
                           std::max(0.0, inner.bottom() - l.arrows.bottom() - l.keyH));
        l.bankW = lanesW / kBanks;
        l.bankHeaderH = em * 1.5;
        const auto rows =
            static_cast<double>(std::max<std::size_t>(1, std::min(kMaxRows, m_rows.size())));
        l.rowH = std::min(em * 2.1, std::max(0.0, l.targets.height() - l.bankHeaderH) / rows);
        return l;
    }

    const int lines = std::max(1, static_cast<int>(m_frame.lines.size()));
    l.lineGap = em * 0.6;
    const double minSector = em * 1.6;
    const int fit = std::max(1, static_cast<int>((inner.width() + l.lineGap) /
                                                 (kSectorsPerLine * minSector + l.lineGap)));
    l.linesPerRow = std::min(lines, fit);
    l.lineW =
        std::min(em * 16.0, (inner.width() - (l.linesPerRow - 1) * l.lineGap) / l.linesPerRow);
    const double labelH = em * 1.3;
    const double minLineH = em * 0.9;
    // Rows of lines that fit with the key below them; lines past those are counted, not drawn
    // on top of each other.
    const auto keyFor = [&](int shown) {
        QString key = tr("lanes and their sectors share a colour \u00b7 filled: 32-byte sector "
                         "moved \u00b7 dashed: rest of the 128-byte line, not moved");
        if (shown < static_cast<int>(m_frame.lines.size()))
            key += tr(" \u00b7 %1 of %2 lines shown").arg(shown).arg(m_frame.lines.size());
        return wrapText(keyFont, key, inner.width());
    };
    l.linesShown = static_cast<int>(m_frame.lines.size());
    for (int pass = 0; pass < 2; ++pass) {
        l.globalKey = keyFor(l.linesShown);
        l.keyH = l.globalKey.height() + em * 0.4;
        const double targetsH = std::max(0.0, inner.bottom() - l.arrows.bottom() - l.keyH);
        const int rowsFit =
            std::max(1, static_cast<int>(targetsH / (labelH + minLineH + em * 0.4)));
        const int rowsWanted = (l.linesShown + l.linesPerRow - 1) / l.linesPerRow;
        if (rowsWanted <= rowsFit)
            break;
        l.linesShown = std::min(l.linesShown, rowsFit * l.linesPerRow);
    }
    l.targets = QRectF(inner.left(), l.arrows.bottom(), inner.width(),
                       std::max(0.0, inner.bottom() - l.arrows.bottom() - l.keyH));
    const int lineRows = std::max(1, (l.linesShown + l.linesPerRow - 1) / l.linesPerRow);
    l.lineH = std::clamp(l.targets.height() / lineRows - labelH - em * 0.4, 4.0, em * 3.2);
    return l;
}

QRectF MemoryAccessView::laneRect(const QRectF& bounds, int lane) const {
    return laneRect(layoutFor(bounds), lane);
}

QRectF MemoryAccessView::laneRect(const Layout& l, int lane) const {
    const int perRow = l.twoRows ? kLanesPerWarp / 2 : kLanesPerWarp;
    const double gap = perRow > 1 ? (l.lanes.width() - perRow * l.laneW) / (perRow - 1) : 0.0;
    const int row = lane / perRow;
    const int col = lane % perRow;
    return {l.lanes.left() + col * (l.laneW + gap), l.lanes.top() + row * (l.laneRowH + l.em * 0.2),
            l.laneW, l.laneH};
}

QRectF MemoryAccessView::lineRect(const QRectF& bounds, int index) const {
    return lineRect(layoutFor(bounds), index);
}

QRectF MemoryAccessView::lineRect(const Layout& l, int index) const {
    const int lines = l.linesShown;
    if (index < 0 || index >= lines) {
        return {};
    }
    const int row = index / l.linesPerRow;
    const int col = index % l.linesPerRow;
    const int inRow = std::min(l.linesPerRow, lines - row * l.linesPerRow);
    const double rowW = inRow * l.lineW + (inRow - 1) * l.lineGap;
    const double left = l.targets.left() + (l.targets.width() - rowW) / 2.0;
    const double labelH = l.em * 1.3;
    const double rowPitch = labelH + l.lineH + l.em * 0.4;
    // The line's label goes underneath, out of the way of the links coming in from above.
    return {left + col * (l.lineW + l.lineGap), l.targets.top() + row * rowPitch + l.em * 0.2,
            l.lineW, l.lineH};
}

QRectF MemoryAccessView::sectorRect(const QRectF& bounds, int index) const {
    return sectorRect(layoutFor(bounds), index);
}

QRectF MemoryAccessView::sectorRect(const Layout& l, int index) const {
    if (index < 0 || static_cast<std::size_t>(index) >= m_frame.sectors.size()) {
        return {};
    }
    const std::uint64_t sector = m_frame.sectors[static_cast<std::size_t>(index)];
    const std::uint64_t line = sector / kSectorsPerLine;
    const auto it = std::lower_bound(m_frame.lines.begin(), m_frame.lines.end(), line);
    if (it == m_frame.lines.end() || *it != line) {
        return {};
    }
    const QRectF box = lineRect(l, static_cast<int>(it - m_frame.lines.begin()));
    const double w = box.width() / kSectorsPerLine;
    const auto slot = static_cast<double>(sector % kSectorsPerLine);
    return {box.left() + slot * w, box.top(), w, box.height()};
}

QRectF MemoryAccessView::bankHeaderRect(const QRectF& bounds, int bank) const {
    return bankHeaderRect(layoutFor(bounds), bank);
}

QRectF MemoryAccessView::bankHeaderRect(const Layout& l, int bank) const {
    return {l.lanes.left() + bank * l.bankW, l.targets.top(), l.bankW, l.bankHeaderH};
}

QRectF MemoryAccessView::bankCellRect(const QRectF& bounds, int bank, std::uint64_t row) const {
    return bankCellRect(layoutFor(bounds), bank, row);
}

QRectF MemoryAccessView::bankCellRect(const Layout& l, int bank, std::uint64_t row) const {
    const int index = rowIndex(row);
    if (index < 0 || static_cast<std::size_t>(index) >= kMaxRows) {
        return {};
    }
    return {l.lanes.left() + bank * l.bankW, l.targets.top() + l.bankHeaderH + index * l.rowH,
            l.bankW, l.rowH};
}

int MemoryAccessView::laneAt(const QPointF& pos) const {
    const Layout l = layoutFor(QRectF(rect()));
    const int count = std::min(kLanesPerWarp, static_cast<int>(m_frame.lanes.size()));
    return indexAt(
        count, [&](int lane) { return laneRect(l, lane); }, pos, 0.7);
}

void MemoryAccessView::paint(QPainter& painter, const QRectF& bounds) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.fillRect(bounds, m_theme.background);
    const Layout l = layoutFor(bounds);
    const double em = l.em;
    const bool shared = m_frame.space == MemoryAccessFrame::Space::Shared;

    // Header: title, instruction (with the offsets' note beside it or below), counts.
    double y = l.header.top();
    y += drawWrapped(painter, QRectF(l.header.left(), y, l.header.width(), l.title.height()),
                     l.title, m_theme.foreground) +
         em * 0.3;
    const double instrH = std::max(l.instruction.height(), em * 1.1);
    drawWrapped(painter, QRectF(l.header.left(), y, l.header.width(), instrH), l.instruction,
                m_theme.muted, Qt::AlignLeft | Qt::AlignVCenter);
    if (!l.note.empty()) {
        const double noteX = l.noteBesideInstruction ? l.instruction.width() + em : 0.0;
        const double noteY = l.noteBesideInstruction ? y : y + instrH;
        drawWrapped(painter,
                    QRectF(l.header.left() + noteX, noteY, l.header.width() - noteX,
                           l.noteBesideInstruction ? instrH : l.note.height()),
                    l.note, m_theme.muted, Qt::AlignLeft | Qt::AlignVCenter);
        if (!l.noteBesideInstruction)
            y += l.note.height();
    }
    y += instrH + em * 0.2;
    // The counts, on their own lines so they are never cut.
    drawWrapped(painter, QRectF(l.header.left(), y, l.header.width(), l.counts.height()), l.counts,
                shared && extraWavefronts(m_frame) > 0 ? conflictColor() : m_theme.foreground);
    const std::uint64_t base = [&] {
        std::uint64_t b = UINT64_MAX;
        for (const LaneAccess& lane : m_frame.lanes)
            if (lane.active)
                b = std::min(b, lane.address);
        return b;
    }();

    // The lanes, with what each one addresses underneath.
    const QFont laneFont = m_theme.fontAtPixels(std::min(em * 0.9, l.laneW * 0.45), true);
    const QFont addrFont = m_theme.monoFontAtPixels(std::min(em * 0.72, l.laneW * 0.3));
    const int count = std::min(kLanesPerWarp, static_cast<int>(m_frame.lanes.size()));
    for (int i = 0; i < count; ++i) {
        const LaneAccess& lane = m_frame.lanes[static_cast<std::size_t>(i)];
        const QRectF box = laneRect(l, i);
        const bool highlight = i == m_frame.highlightLane;
        QColor fill = m_theme.surface;
        QColor text = m_theme.muted;
        if (lane.active) {
            if (shared) {
                fill = bankConflicts(lane.bank) ? conflictColor() : m_theme.accent;
            } else {
                fill = sectorColor(std::max(0, lane.sector));
            }
            text = QColor(Qt::white);
        }
        painter.setPen(highlight ? QPen(m_theme.foreground, m_theme.lineWidth(em * 0.18))
                                 : (lane.active ? QPen(Qt::NoPen) : QPen(m_theme.grid, 1.0)));
        painter.setBrush(fill);
        const double radius = std::min(em * 0.25, box.width() * 0.2);
        painter.drawRoundedRect(box, radius, radius);
        painter.setFont(laneFont);
        painter.setPen(text);
        painter.drawText(box, Qt::AlignCenter, QString::number(i));
        QString under;
        if (lane.active && shared) {
            under = QStringLiteral("b%1").arg(lane.bank);
        } else if (lane.active && l.offsetsFit) {
            const double offset = static_cast<double>(lane.address - base) / l.offsetScale;
            under =
                QStringLiteral("+") +
                QString::fromStdString(formatSignificant(offset, l.offsetScale == 1.0 ? 12 : 3));
        }
        painter.setFont(addrFont);
        painter.setPen(highlight ? m_theme.foreground : m_theme.muted);
        const QRectF addr(box.left() - 2.0, box.bottom(), box.width() + 4.0, em * 1.1);
        if (QFontMetricsF(addrFont).horizontalAdvance(under) <= addr.width())
            painter.drawText(addr, Qt::AlignCenter, under);
    }

    if (shared) {
        paintShared(painter, l);
    } else {
        paintGlobal(painter, l);
    }
    painter.restore();
}

void MemoryAccessView::paintGlobal(QPainter& painter, const Layout& l) const {
    const double em = l.em;
    // Lines from each lane to its sector, the highlighted lane's last so it sits on top.
    const int count = std::min(kLanesPerWarp, static_cast<int>(m_frame.lanes.size()));
    const auto link = [&](int i, bool emphasis) {
        const LaneAccess& lane = m_frame.lanes[static_cast<std::size_t>(i)];
        const QRectF target = sectorRect(l, lane.sector);
        if (!lane.active || target.isEmpty()) {
            return;
        }
        const QRectF box = laneRect(l, i);
        const QPointF from(box.center().x(), l.arrows.top() + em * 0.2);
        const QPointF to(target.center().x(), target.top() - em * 0.1);
        const QColor colour = over(sectorColor(lane.sector), m_theme.background, 0.7);
        // An S-curve: down from the lane, across, down into the sector.
        const double midY = (from.y() + to.y()) / 2.0;
        const QPointF c1(from.x(), midY);
        const QPointF c2(to.x(), midY);
        std::vector<QPointF> points;
        constexpr int kSteps = 24;
        for (int k = 0; k <= kSteps; ++k) {
            const double t = static_cast<double>(k) / kSteps;
            const double u = 1.0 - t;
            points.push_back(from * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) +
                             to * (t * t * t));
        }
        thickPolyline(painter, points,
                      m_theme.lineWidth(emphasis ? em * 0.2 : std::max(1.0, em * 0.09)),
                      emphasis ? m_theme.foreground : colour);
    };
    for (int i = 0; i < count; ++i) {
        if (i != m_frame.highlightLane) {
            link(i, false);
        }
    }
    if (m_frame.highlightLane >= 0 && m_frame.highlightLane < count) {
        link(m_frame.highlightLane, true);
    }

    // The 128-byte lines, each split into four 32-byte sectors; untouched sectors dashed.
    const QFont labelFont = m_theme.fontAtPixels(em * 0.78);
    const QFont sectorFont = m_theme.fontAtPixels(std::min(em * 0.75, l.lineW / 4.0 * 0.32));
    const int highlightSector =
        m_frame.highlightLane >= 0 && m_frame.highlightLane < count
            ? m_frame.lanes[static_cast<std::size_t>(m_frame.highlightLane)].sector
            : -1;
    const QFontMetricsF labelMetrics(labelFont);
    for (int li = 0; li < l.linesShown; ++li) {
        const QRectF box = lineRect(l, li);
        const std::uint64_t line = m_frame.lines[static_cast<std::size_t>(li)];
        painter.setFont(labelFont);
        painter.setPen(m_theme.muted);
        // "line N", or just N where the line is too narrow for the word.
        QString label = tr("line %1").arg(line);
        if (labelMetrics.horizontalAdvance(label) > box.width())
            label = QString::number(line);
        if (labelMetrics.horizontalAdvance(label) <= box.width())
            painter.drawText(QRectF(box.left(), box.bottom() + em * 0.1, box.width(),
                                    std::max(em * 1.2, labelMetrics.height())),
                             Qt::AlignLeft | Qt::AlignTop, label);
        for (int slot = 0; slot < kSectorsPerLine; ++slot) {
            const std::uint64_t sector = line * kSectorsPerLine + static_cast<std::uint64_t>(slot);
            const auto it =
                std::lower_bound(m_frame.sectors.begin(), m_frame.sectors.end(), sector);
            const bool touched = it != m_frame.sectors.end() && *it == sector;
            const double w = box.width() / kSectorsPerLine;
            const QRectF cell(box.left() + slot * w + 1.0, box.top(), w - 2.0, box.height());
            if (touched) {
                const int index = static_cast<int>(it - m_frame.sectors.begin());
                painter.setPen(index == highlightSector
                                   ? QPen(m_theme.foreground, m_theme.lineWidth(em * 0.18))
                                   : QPen(Qt::NoPen));
                painter.setBrush(sectorColor(index));
                painter.drawRect(cell);
                if (cell.height() > em * 1.2) {
                    painter.setFont(sectorFont);
                    painter.setPen(QColor(Qt::white));
                    painter.drawText(cell, Qt::AlignCenter, QStringLiteral("32 B"));
                }
            } else {
                painter.setPen(QPen(m_theme.grid, 1.0, Qt::DashLine));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(cell.adjusted(0.5, 0.5, -0.5, -0.5));
            }
        }
    }

    // Key, wrapped; it says how many lines are drawn when not all fit.
    drawWrapped(painter,
                QRectF(l.targets.left(), l.targets.bottom() + em * 0.2, l.targets.width(),
                       l.globalKey.height()),
                l.globalKey, m_theme.muted);
}

void MemoryAccessView::paintShared(QPainter& painter, const Layout& l) const {
    const double em = l.em;
    const int count = std::min(kLanesPerWarp, static_cast<int>(m_frame.lanes.size()));
    // Lane → bank lines.
    const auto link = [&](int i, bool emphasis) {
        const LaneAccess& lane = m_frame.lanes[static_cast<std::size_t>(i)];
        if (!lane.active || lane.bank < 0 || lane.bank >= kBanks) {
            return;
        }
        const QRectF box = laneRect(l, i);
        const QRectF head = bankHeaderRect(l, lane.bank);
        const QColor colour = over(bankConflicts(lane.bank) ? conflictColor() : m_theme.accent,
                                   m_theme.background, 0.6);
        thickPolyline(painter,
                      {QPointF(box.center().x(), l.arrows.top() + em * 0.2),
                       QPointF(head.center().x(), head.top() - em * 0.1)},
                      m_theme.lineWidth(emphasis ? em * 0.2 : std::max(1.0, em * 0.09)),
                      emphasis ? m_theme.foreground : colour);
    };
    for (int i = 0; i < count; ++i) {
        if (i != m_frame.highlightLane) {
            link(i, false);
        }
    }
    if (m_frame.highlightLane >= 0 && m_frame.highlightLane < count) {
        link(m_frame.highlightLane, true);
    }

    // The grid is all axis-aligned rectangles: plain fills, no antialiasing.
    painter.setRenderHint(QPainter::Antialiasing, false);
    // Bank headers: conflicting banks filled.
    const QFont headFont = m_theme.fontAtPixels(std::min(em * 0.8, l.bankW * 0.42), true);
    painter.setFont(headFont);
    // Every bank numbered when two digits fit a column, else every second or third one.
    const double headTextW = QFontMetricsF(headFont).horizontalAdvance(QStringLiteral("31")) + 2.0;
    const int headEvery = std::max(1, static_cast<int>(std::ceil(headTextW / l.bankW)));
    for (int bank = 0; bank < kBanks; ++bank) {
        const QRectF column = bankHeaderRect(l, bank);
        const QRectF head = column.adjusted(1.0, 0.0, -1.0, -em * 0.15);
        const bool conflict = bankConflicts(bank);
        painter.fillRect(head, conflict ? conflictColor() : m_theme.surface);
        if (bank % headEvery != 0)
            continue;
        painter.setPen(conflict ? QColor(Qt::white) : m_theme.muted);
        painter.drawText(
            QRectF(column.center().x() - headTextW / 2, head.top(), headTextW, head.height()),
            Qt::AlignCenter, QString::number(bank));
    }
    const QFont labelFont = m_theme.fontAtPixels(std::min(em * 0.78, l.rowH * 0.6));
    painter.setFont(labelFont);
    painter.setPen(m_theme.muted);
    painter.drawText(
        QRectF(l.targets.left(), l.targets.top(), l.rowLabelW - em * 0.4, l.bankHeaderH),
        Qt::AlignRight | Qt::AlignVCenter, tr("bank"));

    // Grid rows: background stripes, then the words hit.
    const std::size_t rows = std::min(kMaxRows, m_rows.size());
    const double labelLineH = QFontMetricsF(labelFont).height();
    const auto labelEvery =
        static_cast<std::size_t>(std::max(1.0, std::ceil(labelLineH / std::max(1.0, l.rowH))));
    for (std::size_t r = 0; r < rows; ++r) {
        const QRectF first = bankCellRect(l, 0, m_rows[r]);
        const QRectF band(first.left(), first.top(), l.bankW * kBanks, first.height());
        painter.fillRect(band, m_theme.grid);
        painter.fillRect(band.adjusted(1.0, 1.0, -1.0, r + 1 == rows ? -1.0 : 0.0),
                         r % 2 == 0 ? m_theme.background : m_theme.surface);
        // Rows thinner than a line of text are labelled every few rows, each label centred
        // on its row, so labels neither shrink below the floor nor run into each other.
        if (r % labelEvery != 0)
            continue;
        const double labelH = std::max(band.height(), labelLineH);
        painter.setFont(labelFont);
        painter.setPen(m_theme.muted);
        painter.drawText(QRectF(l.targets.left(), band.center().y() - labelH / 2,
                                l.rowLabelW - em * 0.4, labelH),
                         Qt::AlignRight | Qt::AlignVCenter, tr("row %1").arg(m_rows[r]));
    }
    const QFont cellFont =
        m_theme.fontAtPixels(std::min({em * 0.78, l.bankW * 0.4, l.rowH * 0.6}), true);
    painter.setFont(cellFont);
    // Lane numbers in the cells only when every one fits: the cell's colour and its hover tip
    // carry the same information when the grid is too dense for digits.
    const QFontMetricsF cellMetrics(cellFont);
    const QRectF sampleCell = QRectF(0, 0, l.bankW, l.rowH).adjusted(1.5, 1.5, -1.5, -1.5);
    const bool cellDigits =
        cellMetrics.height() <= sampleCell.height() + 2.0 &&
        cellMetrics.horizontalAdvance(QStringLiteral("\u00d732")) <= sampleCell.width() + 2.0;
    for (const BankHit& hit : m_frame.bankHits) {
        const QRectF cell = bankCellRect(l, hit.bank, hit.row);
        if (cell.isEmpty()) {
            continue;
        }
        const bool broadcast = hit.lanes.size() > 1;
        const bool conflict = bankConflicts(hit.bank);
        const bool highlight =
            std::find(hit.lanes.begin(), hit.lanes.end(), m_frame.highlightLane) != hit.lanes.end();
        const QRectF inset = cell.adjusted(1.5, 1.5, -1.5, -1.5);
        const QColor fill = conflict ? conflictColor() : m_theme.accent;
        if (broadcast) {
            // One word, several lanes: served once and broadcast. A rounded pill in its own colour.
            painter.setRenderHint(QPainter::Antialiasing, true);
            painter.setPen(Qt::NoPen);
            painter.setBrush(broadcastColor());
            painter.drawRoundedRect(inset, inset.height() * 0.45, inset.height() * 0.45);
            painter.setRenderHint(QPainter::Antialiasing, false);
        } else {
            painter.fillRect(inset, fill);
        }
        if (highlight) {
            const double w = m_theme.lineWidth(em * 0.16);
            painter.setPen(QPen(m_theme.foreground, w));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(inset.adjusted(w / 2, w / 2, -w / 2, -w / 2));
        }
        QString text = broadcast
                           ? QStringLiteral("\u00d7%1").arg(hit.lanes.size())
                           : (hit.lanes.empty() ? QString() : QString::number(hit.lanes.front()));
        if (cellDigits) {
            painter.setPen(QColor(Qt::white));
            painter.drawText(inset.adjusted(-1.0, -1.0, 1.0, 1.0), Qt::AlignCenter, text);
        }
    }
    if (m_rows.size() > kMaxRows) {
        painter.setFont(labelFont);
        painter.setPen(m_theme.muted);
        const QRectF last = bankCellRect(l, 0, m_rows[kMaxRows - 1]);
        painter.drawText(QRectF(l.lanes.left(), last.bottom(), l.lanes.width(), em * 1.1),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         tr("+%1 more rows").arg(m_rows.size() - kMaxRows));
    }

    // Key, wrapped into rows as the width allows.
    painter.setRenderHint(QPainter::Antialiasing, true);
    drawLegend(painter, QPointF(l.targets.left(), l.targets.bottom() + em * 0.2), l.sharedKey,
               sharedKeyEntries(), m_theme.muted);
}

bool MemoryAccessView::event(QEvent* event) {
    if (handleHoverTip(this, event, [this](QPointF pos) {
            const int lane = laneAt(pos);
            if (lane >= 0)
                return tipOf(m_frame.lanes, lane, &LaneAccess::tip);
            if (m_frame.space != MemoryAccessFrame::Space::Shared)
                return QString();
            for (const BankHit& hit : m_frame.bankHits) {
                if (!bankCellRect(QRectF(rect()), hit.bank, hit.row).contains(pos))
                    continue;
                QStringList lanes;
                for (const int l : hit.lanes)
                    lanes << QString::number(l);
                return tr("bank %1, row %2: lanes %3")
                    .arg(hit.bank)
                    .arg(hit.row)
                    .arg(lanes.join(QStringLiteral(", ")));
            }
            return QString();
        }))
        return true;
    return QWidget::event(event);
}

} // namespace wb
