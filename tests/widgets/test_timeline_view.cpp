// TimelineView draws each kernel in its kind's colour at its time in its row, nothing where no
// event is, follows the window, folds CPU threads, computes and paints selection statistics,
// hovers flows, answers its keys, keeps its zoom for an equal frame, and merges a million
// events into a few thousand rectangles.
#include "render_probe.h"
#include "timeline/timeline_view.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <memory>

using namespace wb;
using namespace wb::test;

namespace {

constexpr std::int64_t T0 = 1'700'000'000'000'000'000; // a Kineto-sized clock
constexpr std::int64_t kMs = 1'000'000;
const QSize kSize(1200, 640);

struct Small {
    std::shared_ptr<TraceStore> rank0, rank1;
    std::uint32_t s7 = 0, s13 = 0, cpu0 = 0; // rank 0's tracks
    std::uint32_t r1s7 = 0, cpu1 = 0;        // rank 1's tracks
};

std::uint32_t addEvent(TraceStore& s, std::uint32_t track, std::int64_t startNs, std::int64_t durNs,
                       EventKind kind, const char* name) {
    StoredEvent e;
    e.startNs = startNs;
    e.durNs = durNs;
    e.name = s.strings().intern(name);
    e.category = s.strings().intern(isDeviceKind(kind) ? "kernel" : "cpu_op");
    e.track = track;
    e.kind = kind;
    s.noteTime(e.startNs, e.endNs());
    return s.addEvent(e);
}

// Rank 0: stream 7 computes (gemm 2-3 ms, three short ones after 9 ms), stream 13 runs an
// NCCL all-reduce 5-7 ms, a CPU thread launches the first gemm (a flow from 1.55 ms to the
// gemm's start). Rank 1: one gemm 3-3.3 ms and a CPU op. Both span [T0, T0 + 10 ms].
Small smallTrace() {
    Small t;
    t.rank0 = std::make_shared<TraceStore>();
    TraceStore& a = *t.rank0;
    t.s7 = a.track("0", "7");
    t.s13 = a.track("0", "13");
    t.cpu0 = a.track("100", "1234");
    a.processAt(a.process("0")).name = "GPU 0";
    a.trackAt(t.s7).name = "stream 7";
    a.trackAt(t.s13).name = "stream 13";
    addEvent(a, t.s7, T0 + 2 * kMs, kMs, EventKind::Kernel, "gemm");
    addEvent(a, t.s7, T0 + 9'000'000, 100'000, EventKind::Kernel, "gemm");
    addEvent(a, t.s7, T0 + 9'200'000, 200'000, EventKind::Kernel, "gemm");
    addEvent(a, t.s7, T0 + 9'500'000, 50'000, EventKind::Kernel, "relu");
    addEvent(a, t.s13, T0 + 5 * kMs, 2 * kMs, EventKind::CommKernel, "ncclAllReduce");
    addEvent(a, t.cpu0, T0 + 1 * kMs, kMs, EventKind::CpuOp, "aten::mm");
    addEvent(a, t.cpu0, T0 + 1'500'000, 100'000, EventKind::Runtime, "cudaLaunchKernel");
    a.addFlowPoint({T0 + 1'550'000, 42, false, t.cpu0, 's', false});
    a.addFlowPoint({T0 + 2 * kMs, 42, false, t.s7, 'f', false});
    a.noteTime(T0, T0 + 10 * kMs);
    a.finish();

    t.rank1 = std::make_shared<TraceStore>();
    TraceStore& b = *t.rank1;
    t.r1s7 = b.track("1", "7");
    t.cpu1 = b.track("101", "2000");
    b.processAt(b.process("1")).name = "GPU 1";
    addEvent(b, t.r1s7, T0 + 3 * kMs, 300'000, EventKind::Kernel, "gemm");
    addEvent(b, t.cpu1, T0 + 500'000, 300'000, EventKind::CpuOp, "aten::add");
    b.noteTime(T0, T0 + 10 * kMs);
    b.finish();
    return t;
}

TimelineFrame frameOf(const Small& t, bool gpuOnly = false) {
    TimelineFrame f;
    f.lanes.push_back({t.rank0, "rank 0", false});
    f.lanes.push_back({t.rank1, "rank 1 (straggler)", true});
    f.gpuOnly = gpuOnly;
    f.caption = "two ranks";
    return f;
}

QImage render(const TimelineView& view, QSize size = kSize) {
    QImage image(size, QImage::Format_RGB32);
    QPainter p(&image);
    view.paint(p, QRectF(image.rect()));
    p.end();
    return image;
}

// The pixels of `colour` in row `row` between times t0 and t1 (whole row height).
int colourInRow(const QImage& image, const TimelineView& view, int row, std::int64_t t0,
                std::int64_t t1, QColor colour, int tolerance = 8) {
    const QRectF bounds(image.rect());
    const QRectF r = view.rowRect(bounds, row);
    const double x0 = std::max(r.left(), view.xOf(bounds, t0));
    const double x1 = std::min(r.right(), view.xOf(bounds, t1));
    if (x1 <= x0)
        return 0;
    return countNear(image, QRectF(x0, r.top(), x1 - x0, r.height()).toRect(), colour, tolerance);
}

// A sample 5x5 square at time t in the middle of row `row`.
int colourAt(const QImage& image, const TimelineView& view, int row, std::int64_t t,
             QColor colour) {
    const QRectF bounds(image.rect());
    const QPointF p(view.xOf(bounds, t), view.rowRect(bounds, row).center().y());
    return countNear(image, around(p, 2), colour, 8);
}

std::shared_ptr<TraceStore> bigLane(int lane, int perStream) {
    auto s = std::make_shared<TraceStore>();
    const std::string pid = std::to_string(lane);
    for (int stream = 0; stream < 2; ++stream) {
        const std::uint32_t track = s->track(pid, std::to_string(7 + stream));
        for (int i = 0; i < perStream; ++i) {
            const EventKind kind = stream == 1  ? EventKind::CommKernel
                                   : i % 5 == 0 ? EventKind::Memcpy
                                                : EventKind::Kernel;
            addEvent(*s, track, T0 + std::int64_t{i} * 100 + stream * 30, 60, kind,
                     i % 3 == 0 ? "a" : "b");
        }
    }
    s->finish();
    return s;
}

} // namespace

class TestTimelineView : public QObject {
    Q_OBJECT
private slots:
    // A name picked elsewhere (an analysis panel's kernel): its instances, and only its, are
    // outlined in the accent colour; a new frame keeps the name and finds it anew.
    void aHighlightedNameOutlinesItsInstances() {
        const Small t = smallTrace();
        TimelineView view;
        view.setFrame(frameOf(t, true));
        view.resize(kSize);
        const QColor accent = view.theme().accent;
        const QImage before = render(view);
        view.setHighlightedName("gemm");
        QCOMPARE(view.highlightedCount(), std::size_t{4});
        QCOMPARE(view.highlightedEvents(0).size(), std::size_t{3});
        QCOMPARE(view.highlightedEvents(1).size(), std::size_t{1});
        for (const std::uint32_t e : view.highlightedEvents(0))
            QCOMPARE(t.rank0->strings().text(t.rank0->events()[e].name), std::string_view("gemm"));
        const QImage after = render(view);
        const int row = view.rowOf(0, t.s7);
        // The 2-3 ms gemm is outlined; the all-reduce (another row, another name) is not.
        QVERIFY(colourInRow(after, view, row, T0 + 2 * kMs, T0 + 3 * kMs, accent, 4) >
                colourInRow(before, view, row, T0 + 2 * kMs, T0 + 3 * kMs, accent, 4) + 20);
        const int comm = view.rowOf(0, t.s13);
        QCOMPARE(colourInRow(after, view, comm, T0 + 5 * kMs + kMs / 4, T0 + 7 * kMs - kMs / 4,
                             accent, 4),
                 0);
        view.setFrame(frameOf(t, false));
        QCOMPARE(view.highlightedCount(), std::size_t{4});
        view.setHighlightedName({});
        QCOMPARE(view.highlightedCount(), std::size_t{0});
        view.setHighlightedName("no such kernel");
        QCOMPARE(view.highlightedCount(), std::size_t{0});
    }

    // The workspace follows the selection and the window through signals.
    void selectionAndWindowAreSignalled() {
        const Small t = smallTrace();
        TimelineView view;
        view.setFrame(frameOf(t));
        view.resize(kSize);
        QSignalSpy selection(&view, &TimelineView::selectionChanged);
        QSignalSpy window(&view, &TimelineView::windowChanged);
        view.setSelection(T0 + kMs, T0 + 2 * kMs);
        QCOMPARE(selection.size(), 1);
        view.clearSelection();
        view.clearSelection(); // nothing left to clear: no second signal
        QCOMPARE(selection.size(), 2);
        view.setWindow(T0 + kMs, T0 + 3 * kMs);
        QCOMPARE(window.size(), 1);
        QCOMPARE(window.back().at(0).toLongLong(), T0 + kMs);
        QTest::keyClick(&view, Qt::Key_W);
        QCOMPARE(window.size(), 2);
        QVERIFY(window.back().at(1).toLongLong() - window.back().at(0).toLongLong() < 2 * kMs);
    }

    void eventsInTheirColoursRowsAndTimes() {
        const Small t = smallTrace();
        TimelineView view;
        view.setFrame(frameOf(t));
        view.resize(kSize);
        const QImage image = render(view);
        saveForHumans(image, QStringLiteral("timeline_view_small"));
        const QRectF bounds(image.rect());
        QVERIFY(bounds.contains(view.plotRect(bounds)));
        QCOMPARE(view.rowCount(), 3);
        const int r7 = view.rowOf(0, t.s7);
        const int r13 = view.rowOf(0, t.s13);
        const int r1 = view.rowOf(1, t.r1s7);
        QCOMPARE(r7, 0);
        QCOMPARE(r13, 1);
        QCOMPARE(r1, 2);
        QVERIFY(view.row(r7).gpu);
        QVERIFY(view.row(r7).label.contains(QStringLiteral("GPU 0")));
        QVERIFY(view.rowRect(bounds, r7).bottom() <= view.rowRect(bounds, r13).top() + 0.5);
        // The window is the whole trace: 10 ms across the plot.
        QCOMPARE(view.axis().startNs(), T0);
        QCOMPARE(view.axis().endNs(), T0 + 10 * kMs);
        QCOMPARE(view.xOf(bounds, T0), view.plotRect(bounds).left());
        QVERIFY(qAbs(view.xOf(bounds, T0 + 10 * kMs) - view.plotRect(bounds).right()) < 0.5);

        const QColor compute = view.kindColor(EventKind::Kernel);
        const QColor comm = view.kindColor(EventKind::CommKernel);
        QVERIFY(!near(compute, comm, 40));
        // gemm 2-3 ms in stream 7's row, at 2.75 ms (clear of its name at the left).
        QVERIFY(colourAt(image, view, r7, T0 + 2'750'000, compute) >= 20);
        QCOMPARE(colourAt(image, view, r7, T0 + 2'750'000, comm), 0);
        // The all-reduce 5-7 ms in stream 13's row, not in stream 7's.
        QVERIFY(colourAt(image, view, r13, T0 + 6'500'000, comm) >= 20);
        QCOMPARE(colourInRow(image, view, r7, T0 + 3'100'000, T0 + 8'900'000, comm, 30), 0);
        // Rank 1's gemm at 3-3.3 ms.
        QVERIFY(colourAt(image, view, r1, T0 + 3'200'000, compute) >= 20);
        // Nothing between events: no event colour in stream 7 from 3.1 to 8.9 ms, in stream 13
        // before 4.9 ms, in rank 1 after 3.4 ms.
        for (const QColor c : {compute, comm, view.kindColor(EventKind::Memcpy)}) {
            QCOMPARE(colourInRow(image, view, r7, T0 + 3'100'000, T0 + 8'900'000, c, 30), 0);
            QCOMPARE(colourInRow(image, view, r13, T0, T0 + 4'900'000, c, 30), 0);
            QCOMPARE(colourInRow(image, view, r1, T0 + 3'400'000, T0 + 10 * kMs, c, 30), 0);
        }
        // The gemm's extent: compute pixels from x(2 ms) to x(3 ms), about 10% of the plot.
        const int across = colourInRow(image, view, r7, T0, T0 + 4 * kMs, compute);
        const double expectW = view.xOf(bounds, T0 + 3 * kMs) - view.xOf(bounds, T0 + 2 * kMs);
        const double rowH = view.rowRect(bounds, r7).height();
        QVERIFY2(across > 0.5 * expectW * rowH && across <= (expectW + 2) * rowH,
                 qPrintable(QStringLiteral("%1 vs %2x%3").arg(across).arg(expectW).arg(rowH)));
        QCOMPARE(view.lastEvents(), std::uint64_t{6}); // 4 + 1 + 1 on the GPU rows
    }

    void zoomingMovesWhatIsDrawn() {
        const Small t = smallTrace();
        TimelineView view;
        view.setFrame(frameOf(t));
        view.resize(kSize);
        const QColor compute = view.kindColor(EventKind::Kernel);
        const QColor comm = view.kindColor(EventKind::CommKernel);
        const int r7 = view.rowOf(0, t.s7);
        const int r13 = view.rowOf(0, t.s13);
        const QImage whole = render(view);
        const int commWhole = colourInRow(whole, view, r13, T0, T0 + 10 * kMs, comm);
        const QRectF bounds(whole.rect());
        const double xBefore = view.xOf(bounds, T0 + 6 * kMs);

        view.setWindow(T0 + 4 * kMs, T0 + 8 * kMs);
        QCOMPARE(view.axis().startNs(), T0 + 4 * kMs);
        QCOMPARE(view.axis().endNs(), T0 + 8 * kMs);
        const QImage zoomed = render(view);
        saveForHumans(zoomed, QStringLiteral("timeline_view_zoomed"));
        // 6 ms moved from 60% to the middle of the plot; the all-reduce is 2.5x wider.
        const double xAfter = view.xOf(bounds, T0 + 6 * kMs);
        QVERIFY(qAbs(xAfter - view.plotRect(bounds).center().x()) < 1.0);
        QVERIFY(xAfter < xBefore - 50);
        QVERIFY(colourAt(zoomed, view, r13, T0 + 6 * kMs, comm) >= 20);
        const int commZoomed = colourInRow(zoomed, view, r13, T0 + 4 * kMs, T0 + 8 * kMs, comm);
        QVERIFY2(commZoomed > 2 * commWhole,
                 qPrintable(QStringLiteral("%1 vs %2").arg(commZoomed).arg(commWhole)));
        // The gemms (2-3 ms, after 9 ms) left the window: no compute colour in the row.
        QVERIFY(colourInRow(whole, view, r7, T0, T0 + 10 * kMs, compute) > 0);
        const QRect row7 = view.rowRect(bounds, r7).toRect();
        QCOMPARE(countNear(zoomed, row7, compute, 30), 0);
        QCOMPARE(view.lastEvents(), std::uint64_t{1});

        // Zoomed into the gemm: it fills the plot.
        view.setWindow(T0 + 2'200'000, T0 + 2'800'000);
        const QImage inside = render(view);
        const QRectF plotRow = view.rowRect(bounds, r7);
        QVERIFY(countNear(inside, plotRow.toRect(), compute, 8) >
                0.5 * plotRow.width() * plotRow.height());
    }

    void cpuThreadsCollapseExpandAndGpuOnly() {
        const Small t = smallTrace();
        TimelineView view;
        view.setFrame(frameOf(t));
        view.resize(kSize);
        const QColor host = view.kindColor(EventKind::CpuOp);
        QCOMPARE(view.rowCount(), 3);
        QCOMPARE(view.cpuThreadCount(0), 1);
        QCOMPARE(view.cpuThreadCount(1), 1);
        QVERIFY(!view.cpuExpanded(0));
        QCOMPARE(view.rowOf(0, t.cpu0), -1);
        QCOMPARE(view.rowOf(1, t.cpu1), -1);
        const QRectF bounds(QPointF(0, 0), kSize);
        const QImage collapsed = render(view);
        // No row shows CPU work (the lane headers' grey fold text is not a row).
        for (int r = 0; r < view.rowCount(); ++r)
            QCOMPARE(countNear(collapsed, view.rowRect(bounds, r).toRect(), host, 4), 0);

        view.setCpuExpanded(0, true);
        QVERIFY(view.cpuExpanded(0));
        QCOMPARE(view.rowCount(), 4);
        const int cpuRow = view.rowOf(0, t.cpu0);
        QCOMPARE(cpuRow, 2); // below rank 0's streams, above rank 1
        QVERIFY(!view.row(cpuRow).gpu);
        QCOMPARE(view.rowOf(1, t.r1s7), 3);
        QCOMPARE(view.rowOf(1, t.cpu1), -1);
        const QImage expanded = render(view);
        saveForHumans(expanded, QStringLiteral("timeline_view_cpu"));
        // aten::mm 1-2 ms, muted, in the CPU row.
        QVERIFY(colourAt(expanded, view, cpuRow, T0 + 1'800'000, host) >= 20);
        view.setCpuExpanded(1, true);
        QCOMPARE(view.rowCount(), 5);
        view.setCpuExpanded(0, false);
        QCOMPARE(view.rowCount(), 4);
        QCOMPARE(view.rowOf(0, t.cpu0), -1);

        // gpuOnly: no CPU rows to expand.
        TimelineView gpu;
        gpu.setFrame(frameOf(t, true));
        gpu.resize(kSize);
        QCOMPARE(gpu.rowCount(), 3);
        QCOMPARE(gpu.cpuThreadCount(0), 0);
        gpu.setCpuExpanded(0, true);
        QCOMPARE(gpu.rowCount(), 3);
        QCOMPARE(gpu.rowOf(0, t.cpu0), -1);
        const QImage gpuImage = render(gpu);
        for (int r = 0; r < gpu.rowCount(); ++r)
            QCOMPARE(countNear(gpuImage, gpu.rowRect(bounds, r).toRect(), host, 4), 0);
    }

    void selectionStatistics() {
        const Small t = smallTrace();
        TimelineView view;
        view.setFrame(frameOf(t));
        view.resize(kSize);
        const QRectF bounds(QPointF(0, 0), kSize);
        const QImage before = render(view);
        QVERIFY(view.statsRect(bounds).isEmpty());
        QVERIFY(view.statsLines().isEmpty());

        // [2.5, 9.3) ms over the GPU rows: gemm 1 ms (whole), gemm 0.1 and 0.2 ms, rank 1's
        // gemm 0.3 ms, the all-reduce 2 ms; relu at 9.5 ms is out.
        view.setSelection(T0 + 9'300'000, T0 + 2'500'000); // reversed on purpose
        QVERIFY(view.hasSelection());
        QCOMPARE(view.selectionStartNs(), T0 + 2'500'000);
        QCOMPARE(view.selectionEndNs(), T0 + 9'300'000);
        const RangeSummary& s = view.selectionStats();
        QCOMPARE(s.count, std::uint64_t{5});
        QCOMPARE(s.totalNs, std::int64_t{3'600'000});
        QCOMPARE(s.names.size(), std::size_t{2});
        QCOMPARE(s.names[0].name, std::string("ncclAllReduce"));
        QCOMPARE(s.names[0].totalNs, std::int64_t{2'000'000});
        QCOMPARE(s.names[0].p50Ns, std::int64_t{2'000'000});
        QCOMPARE(s.names[1].name, std::string("gemm"));
        QCOMPARE(s.names[1].count, std::uint64_t{4});
        QCOMPARE(s.names[1].totalNs, std::int64_t{1'600'000});
        QCOMPARE(s.names[1].meanNs, 400'000.0);
        QCOMPARE(s.names[1].p50Ns, std::int64_t{200'000}); // 2nd of 0.1 0.2 0.3 1 ms
        QCOMPARE(s.names[1].p99Ns, std::int64_t{1'000'000});
        const QStringList lines = view.statsLines();
        QCOMPARE(lines.size(), 4);
        QVERIFY2(lines[1].startsWith(QStringLiteral("5 events")), qPrintable(lines[1]));
        QVERIFY2(lines[3].startsWith(QStringLiteral("gemm")), qPrintable(lines[3]));
        QVERIFY2(lines[3].contains(QStringLiteral("4\u00d7")), qPrintable(lines[3]));

        // The panel is painted where statsRect says, over the plot.
        const QRectF panel = view.statsRect(bounds);
        QVERIFY(!panel.isEmpty());
        QVERIFY(view.plotRect(bounds).contains(panel));
        const QImage after = render(view);
        saveForHumans(after, QStringLiteral("timeline_view_selection"));
        const QRect inner = panel.toRect().adjusted(2, 2, -2, -2);
        const int area = inner.width() * inner.height();
        QVERIFY(countNear(after, inner, view.theme().surface, 6) > area / 2);
        QVERIFY(countNear(after, inner, view.theme().foreground, 60) > 20); // its text
        int changed = 0;
        for (int y = inner.top(); y <= inner.bottom(); ++y) {
            for (int x = inner.left(); x <= inner.right(); ++x)
                changed += after.pixel(x, y) != before.pixel(x, y) ? 1 : 0;
        }
        QVERIFY(changed > area / 10);

        // Expanding rank 0's CPU thread adds its events to the statistics.
        view.setSelection(T0 + 1'550'000, T0 + 9'300'000);
        QCOMPARE(view.selectionStats().count, std::uint64_t{5});
        view.setCpuExpanded(0, true);
        QCOMPARE(view.selectionStats().count, std::uint64_t{7}); // + aten::mm, cudaLaunchKernel
        QCOMPARE(view.selectionStats().totalNs, std::int64_t{3'600'000 + 1'000'000 + 100'000});

        view.clearSelection();
        QVERIFY(!view.hasSelection());
        QVERIFY(view.statsRect(bounds).isEmpty());
        QCOMPARE(view.selectionStats().count, std::uint64_t{0});
    }

    void hoverFindsEventsAndFlows() {
        const Small t = smallTrace();
        TimelineView view;
        view.setFrame(frameOf(t));
        view.resize(kSize);
        const QRectF bounds(view.rect());
        QCOMPARE(t.rank0->flowLinks().size(), std::size_t{1});
        const int r7 = view.rowOf(0, t.s7);
        const int r13 = view.rowOf(0, t.s13);
        const QPointF onGemm(view.xOf(bounds, T0 + 2'500'000),
                             view.rowRect(bounds, r7).center().y());
        view.hoverAt(onGemm);
        QVERIFY(view.hovered().valid());
        QCOMPARE(view.hovered().lane, 0);
        const StoredEvent& e = t.rank0->events()[view.hovered().event];
        QCOMPARE(e.startNs, T0 + 2 * kMs);
        QCOMPARE(t.rank0->strings().text(e.name), std::string_view("gemm"));
        QCOMPARE(view.hoveredFlowCount(), 1);
        const QString tip = view.tipAt(onGemm);
        QVERIFY2(tip.startsWith(QStringLiteral("gemm")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("rank 0")), qPrintable(tip));
        // The hover outline and the flow arrow are drawn: the image differs from no hover.
        const QImage hovered = render(view);
        view.hoverAt(
            QPointF(view.xOf(bounds, T0 + 6 * kMs), view.rowRect(bounds, r13).center().y()));
        QVERIFY(view.hovered().valid());
        QCOMPARE(view.hoveredFlowCount(), 0);
        view.hoverAt(
            QPointF(view.xOf(bounds, T0 + 6 * kMs), view.rowRect(bounds, r7).center().y()));
        QVERIFY(!view.hovered().valid());
        QVERIFY(view.tipAt(QPointF(view.xOf(bounds, T0 + 6 * kMs),
                                   view.rowRect(bounds, r7).center().y()))
                    .isEmpty());
        const QImage plain = render(view);
        QVERIFY(hovered != plain);
    }

    void keysZoomPanAndFit() {
        const Small t = smallTrace();
        TimelineView view;
        view.setFrame(frameOf(t));
        view.resize(kSize);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setFocus();
        const std::int64_t whole = view.axis().spanNs();
        QCOMPARE(whole, 10 * kMs);
        QTest::keyClick(&view, Qt::Key_W);
        QCOMPARE(view.axis().spanNs(), std::int64_t{6'666'667}); // 10 ms / 1.5
        // About the centre: 5 ms stays in the middle.
        QVERIFY(qAbs(view.axis().startNs() + view.axis().spanNs() / 2 - (T0 + 5 * kMs)) <= 1);
        QTest::keyClick(&view, Qt::Key_Plus);
        QVERIFY(view.axis().spanNs() < 6'666'667 * 2 / 3 + 2);
        const std::int64_t start = view.axis().startNs();
        QTest::keyClick(&view, Qt::Key_D);
        QVERIFY(view.axis().startNs() > start);
        QTest::keyClick(&view, Qt::Key_A);
        QCOMPARE(view.axis().startNs(), start);
        QTest::keyClick(&view, Qt::Key_S);
        QVERIFY(view.axis().spanNs() > 4'444'444);
        QTest::keyClick(&view, Qt::Key_Home);
        QCOMPARE(view.axis().startNs(), T0);
        QCOMPARE(view.axis().spanNs(), whole);
        QTest::keyClick(&view, Qt::Key_W);
        QTest::keyClick(&view, Qt::Key_W);
        QVERIFY(view.axis().spanNs() < whole / 2);
        QTest::keyClick(&view, Qt::Key_0);
        QCOMPARE(view.axis().spanNs(), whole);
        // Escape drops the selection.
        view.setSelection(T0 + kMs, T0 + 2 * kMs);
        QTest::keyClick(&view, Qt::Key_Escape);
        QVERIFY(!view.hasSelection());
    }

    void equalFrameKeepsZoomNewFrameResets() {
        const Small t = smallTrace();
        TimelineView view;
        const TimelineFrame f = frameOf(t);
        view.setFrame(f);
        view.resize(kSize);
        view.setWindow(T0 + 4 * kMs, T0 + 5 * kMs);
        view.setSelection(T0 + 4 * kMs, T0 + 4'500'000);
        view.setCpuExpanded(0, true);
        const TimelineFrame same = f; // same stores, same labels
        view.setFrame(same);
        QCOMPARE(view.axis().startNs(), T0 + 4 * kMs);
        QCOMPARE(view.axis().endNs(), T0 + 5 * kMs);
        QVERIFY(view.hasSelection());
        QVERIFY(view.cpuExpanded(0));

        TimelineFrame next = f;
        next.caption = "the next step";
        view.setFrame(next);
        QCOMPARE(view.axis().startNs(), T0);
        QCOMPARE(view.axis().endNs(), T0 + 10 * kMs);
        QVERIFY(!view.hasSelection());
        QVERIFY(!view.cpuExpanded(0));
        QCOMPARE(view.rowCount(), 3);

        // A frame naming a window opens on it.
        TimelineFrame windowed = f;
        windowed.viewStartNs = T0 + 6 * kMs;
        windowed.viewEndNs = T0 + 7 * kMs;
        view.setFrame(windowed);
        QCOMPARE(view.axis().startNs(), T0 + 6 * kMs);
        QCOMPARE(view.axis().endNs(), T0 + 7 * kMs);
        // New stores with equal contents are a new frame too (rows follow the new store).
        const Small other = smallTrace();
        view.setWindow(T0 + 6 * kMs, T0 + 6'500'000);
        TimelineFrame fresh = windowed;
        fresh.lanes = frameOf(other).lanes;
        fresh.viewStartNs = fresh.viewEndNs = 0;
        view.setFrame(fresh);
        QCOMPARE(view.axis().spanNs(), 10 * kMs);
        const QImage image = render(view);
        QVERIFY(colourAt(image, view, 0, T0 + 2'750'000, view.kindColor(EventKind::Kernel)) >= 20);
    }

    // A step that reveals its trace draws nothing after the reveal instant, all before it.
    void revealHidesWhatHasNotHappened() {
        const Small t = smallTrace();
        TimelineView view;
        TimelineFrame f = frameOf(t, true);
        f.revealEndNs = T0 + 4 * kMs; // after the gemm (2-3 ms), before the all-reduce (5-7 ms)
        view.setFrame(f);
        const QImage image = render(view);
        const QColor compute = view.kindColor(EventKind::Kernel);
        const QColor comm = view.kindColor(EventKind::CommKernel);
        QVERIFY(colourAt(image, view, 0, T0 + 2'500'000, compute) >= 20);
        QCOMPARE(colourInRow(image, view, 1, T0 + 4 * kMs, T0 + 10 * kMs, comm), 0);
        QCOMPARE(colourInRow(image, view, 0, T0 + 5 * kMs, T0 + 10 * kMs, compute), 0);
        f.revealEndNs = 0; // all
        view.setFrame(f);
        const QImage all = render(view);
        QVERIFY(colourInRow(all, view, 1, T0 + 4 * kMs, T0 + 10 * kMs, comm) >= 200);
        QVERIFY(colourAt(all, view, 0, T0 + 9'300'000, compute) >= 5);
    }

    // Mouse hints belong to the interactive window: an offscreen render (an export) shows only
    // the window's span.
    void mouseHintsOnlyOnScreen() {
        const Small t = smallTrace();
        TimelineView shown;
        shown.setFrame(frameOf(t));
        shown.resize(kSize);
        shown.show();
        QVERIFY(QTest::qWaitForWindowExposed(&shown));
        QVERIFY2(shown.hintText().contains("wheel zoom"), qPrintable(shown.hintText()));
        QWidget offscreen;
        offscreen.setAttribute(Qt::WA_DontShowOnScreen);
        auto* exported = new TimelineView(&offscreen);
        exported->setFrame(frameOf(t));
        offscreen.resize(kSize);
        exported->resize(kSize);
        offscreen.show();
        QVERIFY(exported->isVisible());
        QVERIFY2(exported->hintText().contains(" of "), qPrintable(exported->hintText()));
        QVERIFY2(!exported->hintText().contains("wheel"), qPrintable(exported->hintText()));
        TimelineView hidden;
        hidden.setFrame(frameOf(t));
        QVERIFY(!hidden.hintText().contains("wheel"));
    }

    void aMillionEventsMerge() {
        // 2 lanes x 2 streams x 250'000 events of 60 ns every 100 ns: 25 ms per stream.
        TimelineFrame f;
        f.lanes.push_back({bigLane(0, 250'000), "rank 0", false});
        f.lanes.push_back({bigLane(1, 250'000), "rank 1", false});
        std::size_t total = 0;
        for (const TimelineLane& l : f.lanes)
            total += l.store->events().size();
        QCOMPARE(total, std::size_t{1'000'000});
        TimelineView view;
        view.setFrame(f);
        const QSize big(1920, 1080);
        view.resize(big);
        const QImage image = render(view, big);
        saveForHumans(image, QStringLiteral("timeline_view_million"));
        QCOMPARE(view.rowCount(), 4);
        QCOMPARE(view.lastEvents(), std::uint64_t{1'000'000});
        // Each row at most ~one rectangle per pixel column per colour; with dense events
        // the runs merge across the row.
        const double plotW = view.plotRect(QRectF(image.rect())).width();
        QVERIFY2(view.lastRects() > 0 && view.lastRects() < 4 * 3 * plotW,
                 qPrintable(QString::number(view.lastRects())));
        QVERIFY2(view.lastRects() < 1000, qPrintable(QString::number(view.lastRects())));
        const QColor compute = view.kindColor(EventKind::Kernel);
        const QColor comm = view.kindColor(EventKind::CommKernel);
        QVERIFY(colourAt(image, view, 0, T0 + 12 * kMs, compute) +
                    colourAt(image, view, 0, T0 + 12 * kMs, view.kindColor(EventKind::Memcpy)) >=
                20);
        QVERIFY(colourAt(image, view, 1, T0 + 12 * kMs, comm) >= 20);
        // Zoomed to 2 µs: 20 events per stream, each its own rectangle, unmerged.
        view.setWindow(T0 + 10 * kMs, T0 + 10 * kMs + 2'000);
        render(view, big);
        QVERIFY2(view.lastEvents() <= 4 * 21 && view.lastEvents() >= 4 * 19,
                 qPrintable(QString::number(view.lastEvents())));
        QCOMPARE(static_cast<std::uint64_t>(view.lastRects()), view.lastEvents());
    }
};

QTEST_MAIN(TestTimelineView)
#include "test_timeline_view.moc"
