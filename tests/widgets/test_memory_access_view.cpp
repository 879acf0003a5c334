// MemoryAccessView: global accesses draw lanes to the sectors they touch, in matching colours;
// shared accesses mark conflicting banks at the right bank and row and draw broadcasts apart.
#include "grids/memory_access_view.h"
#include "paint_counter.h"
#include "render_probe.h"

#include <QApplication>
#include <QHelpEvent>
#include <QTest>
#include <QToolTip>
#include <map>

using namespace wb;
using namespace wb::test;

namespace {

MemoryAccessFrame global(std::uint64_t strideBytes) {
    MemoryAccessFrame f;
    f.title = "store out[x * n + y]";
    f.instruction = "st.global.f32";
    f.space = MemoryAccessFrame::Space::Global;
    f.lanes.resize(32);
    for (std::uint64_t i = 0; i < 32; ++i) {
        LaneAccess& l = f.lanes[i];
        l.address = 0x1000 + i * strideBytes;
        f.sectors.push_back(l.address / 32);
        l.tip = "lane " + std::to_string(i);
    }
    std::sort(f.sectors.begin(), f.sectors.end());
    f.sectors.erase(std::unique(f.sectors.begin(), f.sectors.end()), f.sectors.end());
    for (const auto s : f.sectors) {
        if (f.lines.empty() || f.lines.back() != s / 4) {
            f.lines.push_back(s / 4);
        }
    }
    for (LaneAccess& l : f.lanes) {
        l.sector =
            static_cast<int>(std::lower_bound(f.sectors.begin(), f.sectors.end(), l.address / 32) -
                             f.sectors.begin());
    }
    f.sectorsPerRequest = static_cast<double>(f.sectors.size());
    f.efficiency = 128.0 / (32.0 * static_cast<double>(f.sectors.size()));
    f.highlightLane = 3;
    return f;
}

// Lane i reads 4-byte word words[i].
MemoryAccessFrame shared(const std::vector<std::uint64_t>& words) {
    MemoryAccessFrame f;
    f.title = "tile[threadIdx.x][k]";
    f.instruction = "ld.shared.f32";
    f.space = MemoryAccessFrame::Space::Shared;
    f.lanes.resize(32);
    std::map<std::uint64_t, std::vector<int>> byWord;
    for (std::size_t i = 0; i < 32; ++i) {
        LaneAccess& l = f.lanes[i];
        l.word = words[i];
        l.address = l.word * 4;
        l.bank = static_cast<int>(l.word % 32);
        byWord[l.word].push_back(static_cast<int>(i));
    }
    std::vector<int> perBank(32, 0);
    for (const auto& [word, lanes] : byWord) {
        f.bankHits.push_back({static_cast<int>(word % 32), word / 32, lanes});
        ++perBank[word % 32];
    }
    f.wavefronts = *std::max_element(perBank.begin(), perBank.end());
    f.bytesRequested = 4 * byWord.size(); // one 4-byte element per lane
    f.banksUsed = static_cast<int>(
        std::count_if(perBank.begin(), perBank.end(), [](int c) { return c > 0; }));
    return f;
}

// Lane i reads the 8-byte element i × stride: two words each, 256 bytes in all, so two
// wavefronts at least (as MemoryAccessModel::shared counts them).
MemoryAccessFrame eightByte(std::uint64_t stride) {
    MemoryAccessFrame f;
    f.title = "tile[threadIdx.x * stride]";
    f.instruction = "ld.shared.f64";
    f.space = MemoryAccessFrame::Space::Shared;
    f.elementBytes = 8;
    f.lanes.resize(32);
    std::vector<int> perBank(32, 0);
    for (std::size_t i = 0; i < 32; ++i) {
        LaneAccess& l = f.lanes[i];
        l.address = i * stride * 8;
        l.word = l.address / 4;
        l.bank = static_cast<int>(l.word % 32);
        for (const std::uint64_t w : {l.word, l.word + 1}) {
            f.bankHits.push_back({static_cast<int>(w % 32), w / 32, {static_cast<int>(i)}});
            ++perBank[w % 32];
        }
    }
    f.wavefronts = *std::max_element(perBank.begin(), perBank.end());
    f.bytesRequested = 256;
    f.minWavefronts = 2;
    f.banksUsed = static_cast<int>(
        std::count_if(perBank.begin(), perBank.end(), [](int c) { return c > 0; }));
    return f;
}

MemoryAccessFrame twoWay() {
    std::vector<std::uint64_t> words(32);
    for (std::size_t i = 0; i < 32; ++i) {
        words[i] = 2 * i; // even banks, rows 0 and 1: 2-way conflict
    }
    return shared(words);
}

} // namespace

class TestMemoryAccessView : public QObject {
    Q_OBJECT
private slots:
    void coalescedLanesMeetTheirSectors() {
        MemoryAccessView view;
        view.setFrame(global(4));
        view.resize(1920, 1080);
        const QImage image = grabImage(view);
        saveForHumans(image, QStringLiteral("memory_global_coalesced"));
        const QRectF bounds(view.rect());
        QCOMPARE(view.frame().sectors.size(), std::size_t{4});
        for (int s = 0; s < 4; ++s) {
            const QRectF r = view.sectorRect(bounds, s);
            QVERIFY(bounds.contains(r));
            QVERIFY(countNear(image, around(r.center() + QPointF(0, r.height() / 4), 3),
                              view.sectorColor(s), 8) > 30);
        }
        // Lane 9 is in sector 1: its box is in sector 1's colour.
        const QRectF lane9 = view.laneRect(bounds, 9);
        QVERIFY(countNear(image,
                          QRect(static_cast<int>(lane9.left() + 3),
                                static_cast<int>(lane9.top() + 3), 5, 5),
                          view.sectorColor(1), 8) > 20);
        QVERIFY(MemoryAccessView::countsText(view.frame()).contains(QStringLiteral("4 sectors")));
        QVERIFY(MemoryAccessView::countsText(view.frame())
                    .contains(QStringLiteral("100 % efficiency")));
    }

    void stridedAccessFillsManyLines() {
        MemoryAccessView view;
        view.setFrame(global(4096));
        for (const QSize size : {QSize(1920, 1080), QSize(900, 600)}) {
            view.resize(size);
            view.setTypeScale(TypeScale::forSlide(size.height())); // the view is the slide
            saveForHumans(grabImage(view),
                          QStringLiteral("memory_global_strided_%1").arg(size.width()));
            const QRectF bounds(view.rect());
            QCOMPARE(view.frame().lines.size(), std::size_t{32});
            for (int s = 0; s < 32; ++s) {
                QVERIFY(bounds.contains(view.sectorRect(bounds, s)));
                for (int t = s + 1; t < 32; ++t) {
                    QVERIFY(!view.sectorRect(bounds, s).intersects(view.sectorRect(bounds, t)));
                }
            }
        }
        QVERIFY(
            MemoryAccessView::countsText(global(4096)).contains(QStringLiteral("13 % efficiency")));
    }

    void conflictingBanksAreMarked() {
        MemoryAccessView view;
        view.setFrame(twoWay());
        view.resize(1920, 1080);
        const QImage image = grabImage(view);
        saveForHumans(image, QStringLiteral("memory_shared_2way"));
        const QRectF bounds(view.rect());
        const QColor conflict = view.conflictColor();
        QCOMPARE(view.bankRows(), (std::vector<std::uint64_t>{0, 1}));
        // Bank 2 holds words 2 (row 0, lane 1) and 34 (row 1, lane 17): both cells in red.
        QVERIFY(view.bankConflicts(2));
        QVERIFY(!view.bankConflicts(3));
        QVERIFY(countNear(image, view.bankHeaderRect(bounds, 2).toRect().adjusted(2, 2, -2, -2),
                          conflict, 8) > 20);
        QCOMPARE(countNear(image, view.bankHeaderRect(bounds, 3).toRect(), conflict, 8), 0);
        for (const std::uint64_t row : {0ULL, 1ULL}) {
            const QRectF cell = view.bankCellRect(bounds, 2, row);
            QVERIFY(bounds.contains(cell));
            QVERIFY(countNear(image,
                              QRect(static_cast<int>(cell.left() + 3),
                                    static_cast<int>(cell.top() + 3), 4, 4),
                              conflict, 8) > 10);
        }
        // Odd banks are not hit: no fill in their cells.
        const QRectF empty = view.bankCellRect(bounds, 3, 0);
        QCOMPARE(countNear(image, empty.toRect(), conflict, 30) +
                     countNear(image, empty.toRect(), view.theme().accent, 30),
                 0);
        QVERIFY(MemoryAccessView::countsText(view.frame())
                    .contains(
                        QStringLiteral("bank conflict: 2 wavefronts where 1 would do for 128 B")));
    }

    // 32 lanes × 8 bytes need two wavefronts however the words fall: two words in every bank
    // is the minimum, drawn as no conflict.
    void twoWavefrontsForEightByteElementsAreNoConflict() {
        MemoryAccessView view;
        view.setFrame(eightByte(1));
        for (int bank = 0; bank < 32; ++bank)
            QVERIFY(!view.bankConflicts(bank));
        const QString counts = MemoryAccessView::countsText(view.frame());
        QVERIFY2(counts.contains(QStringLiteral("conflict-free: 2 wavefronts")),
                 qPrintable(counts));
        QVERIFY(!counts.contains(QStringLiteral("bank conflict")));
        // Stride 16 puts every lane's two words in banks 0 and 1: 32 wavefronts, 30 of them extra.
        view.setFrame(eightByte(16));
        QVERIFY(view.bankConflicts(0) && view.bankConflicts(1) && !view.bankConflicts(2));
        QVERIFY(MemoryAccessView::countsText(view.frame())
                    .contains(QStringLiteral("32 wavefronts where 2 would do for 256 B")));
    }

    void broadcastLooksDifferent() {
        // Every lane reads word 5: one bank, one word, no conflict, a broadcast.
        MemoryAccessView view;
        view.setFrame(shared(std::vector<std::uint64_t>(32, 5)));
        view.resize(1280, 720);
        const QImage image = grabImage(view);
        saveForHumans(image, QStringLiteral("memory_shared_broadcast"));
        const QRectF bounds(view.rect());
        const QRectF cell = view.bankCellRect(bounds, 5, 0);
        QVERIFY(!view.bankConflicts(5));
        QVERIFY(countNear(image, around(cell.center() + QPointF(0, cell.height() / 3.5), 1),
                          view.broadcastColor(), 8) >= 3);
        QCOMPARE(countNear(image, cell.toRect(), view.conflictColor(), 8), 0);
        QVERIFY(
            MemoryAccessView::countsText(view.frame()).contains(QStringLiteral("conflict-free")));
    }

    void presentationPanel() {
        MemoryAccessView view;
        view.setTheme(Theme::presentation(true));
        view.setFrame(twoWay());
        view.resize(900, 600);
        const QRectF bounds(view.rect());
        QVERIFY(bounds.contains(view.bankCellRect(bounds, 30, 1)));
        saveForHumans(grabImage(view), QStringLiteral("memory_shared_presentation_panel"));
    }

    void laneTooltip() {
        MemoryAccessView view;
        view.setFrame(global(4));
        view.resize(1280, 720);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QPoint pos = view.laneRect(QRectF(view.rect()), 7).center().toPoint();
        QHelpEvent help(QEvent::ToolTip, pos, view.mapToGlobal(pos));
        QApplication::sendEvent(&view, &help);
        QTRY_COMPARE(QToolTip::text(), QStringLiteral("lane 7"));
    }

    void equalFramesDoNotRepaint() {
        MemoryAccessView view;
        QVERIFY(equalFrameSkipsRepaint(view, twoWay(), global(4)));
    }
};

QTEST_MAIN(TestMemoryAccessView)
#include "test_memory_access_view.moc"
