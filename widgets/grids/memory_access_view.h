#pragma once
// One warp-wide memory instruction. Global: the 32 lanes with their addresses and lines to the
// 32-byte sectors (grouped in 128-byte lines) they touch, with request/sector counts. Shared:
// lines from the lanes to the 32 banks and a bank × row grid of the words hit, conflicting
// banks highlighted and broadcasts (several lanes on one word) shown distinctly.
#include "drawing/frame_view.h"
#include "drawing/theme.h"
#include "frames/memory_access_frame.h"
#include "text/legend_layout.h"

#include <QPainter>
#include <QWidget>
#include <cstdint>
#include <vector>

namespace wb {

class MemoryAccessView : public FrameView<MemoryAccessFrame> {
    Q_OBJECT
public:
    explicit MemoryAccessView(QWidget* parent = nullptr);

    void paint(QPainter& painter, const QRectF& bounds) const override;

    // Geometry paint() uses for `bounds`.
    QRectF laneRect(const QRectF& bounds, int lane) const;
    // Global: the box of frame().sectors[index], and of frame().lines[index].
    QRectF sectorRect(const QRectF& bounds, int index) const;
    QRectF lineRect(const QRectF& bounds, int index) const;
    // Shared: the header of `bank` and the cell of (bank, row) for a row value in bankRows().
    QRectF bankHeaderRect(const QRectF& bounds, int bank) const;
    QRectF bankCellRect(const QRectF& bounds, int bank, std::uint64_t row) const;
    // Shared: the distinct rows hit, ascending (at most the first 32 are drawn).
    const std::vector<std::uint64_t>& bankRows() const { return m_rows; }
    // Shared: banks serving more distinct words than the access's minimum wavefronts (one
    // when it asks for at most 128 bytes): they add wavefronts.
    bool bankConflicts(int bank) const;
    int laneAt(const QPointF& pos) const;

    QColor sectorColor(int index) const { return m_theme.seriesColor(index); }
    QColor conflictColor() const;
    QColor broadcastColor() const;
    // "1 request · 4 sectors · 4 sectors/request · 100 % efficiency" or, for shared memory,
    // "1 request · 8 banks used · bank conflict: 4 wavefronts where 1 would do for 128 B".
    static QString countsText(const MemoryAccessFrame& frame);

    QSize sizeHint() const override { return {900, 600}; }
    QSize minimumSizeHint() const override { return {320, 240}; }

protected:
    void frameChanged(const MemoryAccessFrame& previous) override;
    bool event(QEvent* event) override;

private:
    struct Layout {
        double em = 12.0;
        QRectF header;
        // Header text, wrapped to the view's width: title, instruction, the note on what the
        // offsets are, and the counts, each block below the previous one.
        WrappedText title, instruction, note, counts;
        bool noteBesideInstruction = false;
        // Offsets under the lanes, in the largest unit that lets every one fit its lane.
        double offsetScale = 1.0;
        QString offsetUnit;
        bool offsetsFit = true;
        // The key under the targets.
        WrappedText globalKey;
        LegendLayout sharedKey;
        double keyH = 0.0;
        int linesShown = 0; // global: lines that fit; the rest are counted in the key
        QRectF lanes;
        bool twoRows = false;
        double laneW = 0.0;
        double laneH = 0.0;
        double laneRowH = 0.0;
        QRectF arrows;
        QRectF targets; // sectors (global) or bank header + grid (shared)
        // Global
        int linesPerRow = 1;
        double lineW = 0.0;
        double lineH = 0.0;
        double lineGap = 0.0;
        // Shared
        double bankW = 0.0;
        double bankHeaderH = 0.0;
        double rowH = 0.0;
        double rowLabelW = 0.0;
    };
    Layout layoutFor(const QRectF& bounds) const;
    // The same rectangles from a layout already made (paint makes one and draws from it).
    QRectF laneRect(const Layout& l, int lane) const;
    QRectF sectorRect(const Layout& l, int index) const;
    QRectF lineRect(const Layout& l, int index) const;
    QRectF bankHeaderRect(const Layout& l, int bank) const;
    QRectF bankCellRect(const Layout& l, int bank, std::uint64_t row) const;
    std::vector<LegendEntry> sharedKeyEntries() const;
    void paintGlobal(QPainter& painter, const Layout& l) const;
    void paintShared(QPainter& painter, const Layout& l) const;
    int rowIndex(std::uint64_t row) const;

    std::vector<std::uint64_t> m_rows; // shared: distinct rows, ascending
    std::vector<int> m_wordsPerBank;   // shared: distinct words per bank
};

} // namespace wb
