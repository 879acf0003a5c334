// The Qt-free maths of the timeline, against hand-computed values: TimelineAxis (ns <-> px at
// Kineto-sized absolute times, zoom, pan, clamping, ticks, labels), visibleSlice (overlap,
// instants, clipping, sub-pixel merging, colours), eventNear and RangeStatistics.
#include "timeline/timeline_axis.h"
#include "timeline/timeline_slice.h"
#include "timeline/timeline_stats.h"

#include <QTest>
#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using namespace wb;

namespace {

// A Kineto-sized clock: ~1.7e18 ns, where a double resolves only 256 ns.
constexpr std::int64_t T0 = 1'700'000'000'000'000'000;

struct Ev {
    std::int64_t start = 0; // offset from T0
    std::int64_t dur = 0;
    EventKind kind = EventKind::Kernel;
    const char* name = "k";
};

// One track ("0", "7") holding `events` (offsets from T0), finished.
TraceStore storeOf(const std::vector<Ev>& events) {
    TraceStore s;
    const std::uint32_t track = s.track("0", "7");
    for (const Ev& e : events) {
        StoredEvent se;
        se.startNs = T0 + e.start;
        se.durNs = e.dur;
        se.name = s.strings().intern(e.name);
        se.track = track;
        se.kind = e.kind;
        s.addEvent(se);
        s.noteTime(se.startNs, se.endNs());
    }
    s.finish();
    return s;
}

bool sameRect(const SliceRect& r, double x0, double x1, std::uint32_t count, TimelineColour c) {
    return r.x0 == x0 && r.x1 == x1 && r.count == count && r.colour == c;
}

QString describe(const std::vector<SliceRect>& rects) {
    QString out;
    for (const SliceRect& r : rects) {
        out += QStringLiteral("[%1,%2) n=%3 c=%4 e=%5 ")
                   .arg(r.x0)
                   .arg(r.x1)
                   .arg(r.count)
                   .arg(static_cast<int>(r.colour))
                   .arg(r.event);
    }
    return out;
}

} // namespace

class TestTimelineMaths : public QObject {
    Q_OBJECT
private slots:
    // ---- TimelineAxis ------------------------------------------------------------------

    void axisStartsAsWholeTrace() {
        const TimelineAxis a(T0, T0 + 10'000'000, 1000.0);
        QCOMPARE(a.startNs(), T0);
        QCOMPARE(a.endNs(), T0 + 10'000'000);
        QCOMPARE(a.limitStartNs(), T0);
        QCOMPARE(a.limitEndNs(), T0 + 10'000'000);
        // A one-instant trace still gets a kMinSpanNs window.
        const TimelineAxis one(T0, T0, 500.0);
        QCOMPARE(one.spanNs(), TimelineAxis::kMinSpanNs);
        QCOMPARE(one.startNs(), T0);
    }

    void roundTripAtKinetoTimes() {
        TimelineAxis a(T0, T0 + 10'000'000'000, 1000.0);
        a.setWindow(T0 + 1'000'000, T0 + 2'000'000); // 1 ms over 1000 px: 1 px = 1 µs
        QCOMPARE(a.spanNs(), std::int64_t{1'000'000});
        QCOMPARE(a.toPx(T0 + 1'000'000), 0.0);
        QCOMPARE(a.toPx(T0 + 1'500'000), 500.0);
        QCOMPARE(a.toPx(T0 + 2'000'000), 1000.0);
        QCOMPARE(a.toPx(T0 + 1'000'001), 0.001);
        QCOMPARE(a.toNs(500.0), T0 + 1'500'000);
        QCOMPARE(a.toNs(0.0004), T0 + 1'000'000); // rounds to the nearest ns
        QCOMPARE(a.toNs(0.0006), T0 + 1'000'001);
        // Every ns in the window survives px and back: absolute doubles would lose 256 ns.
        for (std::int64_t off = 0; off <= 1'000'000; off += 997) {
            const std::int64_t t = T0 + 1'000'000 + off;
            QCOMPARE(a.toNs(a.toPx(t)), t);
        }
        // Odd spans too (pxPerNs not a power of ten).
        a.setWidth(1917.0);
        a.setWindow(T0 + 123'456'789, T0 + 123'456'789 + 3'333'333);
        for (std::int64_t off = 0; off <= 3'333'333; off += 7'919) {
            const std::int64_t t = a.startNs() + off;
            QCOMPARE(a.toNs(a.toPx(t)), t);
        }
    }

    void zoomAboutKeepsTheAnchor() {
        TimelineAxis a(T0, T0 + 10'000'000'000, 1000.0);
        a.setWindow(T0 + 1'000'000, T0 + 2'000'000);
        // Anchor at a quarter: anchorNs = +1'250'000, new span 500'000, start +1'125'000.
        a.zoomAbout(250.0, 2.0);
        QCOMPARE(a.startNs(), T0 + 1'125'000);
        QCOMPARE(a.endNs(), T0 + 1'625'000);
        QCOMPARE(a.toNs(250.0), T0 + 1'250'000);
        // Zooming out about another point keeps that one.
        const std::int64_t under = a.toNs(730.0);
        a.zoomAbout(730.0, 1.0 / 3.0);
        QCOMPARE(a.spanNs(), std::int64_t{1'500'000});
        QCOMPARE(a.toNs(730.0), under);
        // Repeated zooms at Kineto times do not drift the anchor.
        const std::int64_t mid = a.toNs(600.0);
        for (int i = 0; i < 20; ++i)
            a.zoomAbout(600.0, 1.37);
        QVERIFY(std::abs(a.toNs(600.0) - mid) <= 1);
        // Nonsense factors change nothing.
        const std::int64_t s0 = a.startNs(), e0 = a.endNs();
        a.zoomAbout(100.0, 0.0);
        a.zoomAbout(100.0, -2.0);
        a.zoomAbout(100.0, std::numeric_limits<double>::quiet_NaN());
        a.zoomAbout(100.0, std::numeric_limits<double>::infinity());
        QCOMPARE(a.startNs(), s0);
        QCOMPARE(a.endNs(), e0);
    }

    void zoomClampsToMinSpanAndLimits() {
        TimelineAxis a(T0, T0 + 10'000'000, 1000.0);
        a.zoomAbout(500.0, 1e9);
        QCOMPARE(a.spanNs(), TimelineAxis::kMinSpanNs);
        // About the centre: anchor +5'000'000, start = anchor - 50.
        QCOMPARE(a.startNs(), T0 + 5'000'000 - 50);
        a.zoomAbout(500.0, 1e-9);
        QCOMPARE(a.startNs(), T0);
        QCOMPARE(a.endNs(), T0 + 10'000'000);
        // Zooming out near an edge clamps inside the limits, keeping the span.
        a.setWindow(T0 + 100, T0 + 1'100);
        a.zoomAbout(0.0, 0.25); // anchored at the left edge: T0 + 100 stays there
        QCOMPARE(a.startNs(), T0 + 100);
        QCOMPARE(a.spanNs(), std::int64_t{4'000});
        a.setWindow(T0 + 100, T0 + 1'100);
        a.zoomAbout(1000.0, 0.25); // anchored at the right: would start at T0 - 2900
        QCOMPARE(a.spanNs(), std::int64_t{4'000});
        QCOMPARE(a.startNs(), T0);
    }

    void setWindowMinSpanAndClamp() {
        TimelineAxis a(T0, T0 + 10'000'000, 800.0);
        // Narrower than kMinSpanNs: widened about the centre (T0+1005): start 1005 - 50.
        a.setWindow(T0 + 1'000, T0 + 1'010);
        QCOMPARE(a.startNs(), T0 + 955);
        QCOMPARE(a.endNs(), T0 + 1'055);
        // Inverted: centre 1500, span 100.
        a.setWindow(T0 + 2'000, T0 + 1'000);
        QCOMPARE(a.startNs(), T0 + 1'450);
        QCOMPARE(a.endNs(), T0 + 1'550);
        // Before the start / past the end: moved inside, span kept.
        a.setWindow(T0 - 5'000, T0 + 5'000);
        QCOMPARE(a.startNs(), T0);
        QCOMPARE(a.endNs(), T0 + 10'000);
        a.setWindow(T0 + 9'999'000, T0 + 10'004'000);
        QCOMPARE(a.startNs(), T0 + 9'995'000);
        QCOMPARE(a.endNs(), T0 + 10'000'000);
        // Wider than the trace: all of it.
        a.setWindow(T0 - 1'000'000'000, T0 + 1'000'000'000);
        QCOMPARE(a.startNs(), T0);
        QCOMPARE(a.endNs(), T0 + 10'000'000);
        // A min-span window at the very start stays inside.
        a.setWindow(T0, T0 + 1);
        QCOMPARE(a.startNs(), T0);
        QCOMPARE(a.spanNs(), TimelineAxis::kMinSpanNs);
    }

    void panClampsAtLimits() {
        TimelineAxis a(T0, T0 + 10'000'000, 1000.0);
        a.setWindow(T0 + 50'000, T0 + 1'050'000); // 1 px = 1 µs
        a.pan(10.0);
        QCOMPARE(a.startNs(), T0 + 60'000);
        QCOMPARE(a.endNs(), T0 + 1'060'000);
        a.pan(-100.0); // would start 40 µs before the trace
        QCOMPARE(a.startNs(), T0);
        QCOMPARE(a.endNs(), T0 + 1'000'000);
        a.pan(1e9);
        QCOMPARE(a.endNs(), T0 + 10'000'000);
        QCOMPARE(a.startNs(), T0 + 9'000'000);
        a.pan(-0.4); // 0.4 px = 400 ns
        QCOMPARE(a.startNs(), T0 + 8'999'600);
        // The whole trace cannot pan at all.
        a.fitAll();
        a.pan(250.0);
        QCOMPARE(a.startNs(), T0);
        QCOMPARE(a.endNs(), T0 + 10'000'000);
    }

    void tickStepIsOneTwoFive() {
        TimelineAxis a(T0, T0 + 10'000'000'000, 1000.0);
        a.setWindow(T0, T0 + 1'000'000);                      // 1 px = 1000 ns
        QCOMPARE(a.tickStepNs(11.0), std::int64_t{20'000});   // raw 11000
        QCOMPARE(a.tickStepNs(30.0), std::int64_t{50'000});   // raw 30000
        QCOMPARE(a.tickStepNs(90.0), std::int64_t{100'000});  // raw 90000
        QCOMPARE(a.tickStepNs(120.0), std::int64_t{200'000}); // raw 120000
        QCOMPARE(a.tickStepNs(270.0), std::int64_t{500'000}); // raw 270000
        QCOMPARE(a.tickStepNs(600.0), std::int64_t{1'000'000});
        QCOMPARE(a.tickStepNs(7.0), std::int64_t{10'000});
        // Every step is 1, 2 or 5 x 10^k and leaves at least the asked-for pixels.
        for (double minPx = 0.5; minPx < 5000.0; minPx *= 1.173) {
            std::int64_t step = a.tickStepNs(minPx);
            QVERIFY(static_cast<double>(step) * a.pxPerNs() >= minPx - 1e-9);
            while (step % 10 == 0)
                step /= 10;
            QVERIFY2(step == 1 || step == 2 || step == 5, qPrintable(QString::number(minPx)));
        }
        // At 10 px per ns the step never drops below 1 ns.
        a.setWindow(T0, T0 + 100);
        QCOMPARE(a.tickStepNs(5.0), std::int64_t{1});
        QCOMPARE(a.tickStepNs(25.0), std::int64_t{5});
        QCOMPARE(a.tickStepNs(101.0), std::int64_t{20});
    }

    void ticksInsideTheWindow() {
        TimelineAxis a(T0, T0 + 10'000'000'000, 1000.0);
        a.setWindow(T0 + 125'000, T0 + 625'000); // 1 px = 500 ns
        QCOMPARE(a.firstTickNs(100'000), T0 + 200'000);
        QCOMPARE(a.firstTickNs(125'000), T0 + 125'000); // on a multiple: itself
        QCOMPARE(a.firstTickNs(1), T0 + 125'000);
        QCOMPARE(a.tickStepNs(90.0), std::int64_t{50'000}); // raw 45000
        const std::vector<std::int64_t> ticks = a.ticks(90.0);
        QCOMPARE(ticks.size(), std::size_t{10});
        QCOMPARE(ticks.front(), T0 + 150'000);
        QCOMPARE(ticks.back(), T0 + 600'000);
        for (std::size_t i = 1; i < ticks.size(); ++i)
            QCOMPARE(ticks[i] - ticks[i - 1], std::int64_t{50'000});
    }

    void tickLabels() {
        QCOMPARE(TimelineAxis::tickLabel(1'250'000, 50'000), std::string("1.25 ms"));
        QCOMPARE(TimelineAxis::tickLabel(40'000, 10'000), std::string("0.04 ms"));
        QCOMPARE(TimelineAxis::tickLabel(20'000, 20'000), std::string("0.02 ms"));
        QCOMPARE(TimelineAxis::tickLabel(15'000, 5'000), std::string("0.015 ms"));
        // 1000 steps of 1 ms reach a second: seconds with three decimals.
        QCOMPARE(TimelineAxis::tickLabel(3'000'000, 1'000'000), std::string("0.003 s"));
        QCOMPARE(TimelineAxis::tickLabel(3'000'000, 2'000'000), std::string("0.003 s"));
        QCOMPARE(TimelineAxis::tickLabel(40'000, 100), std::string("40.0 \u00b5s"));
        QCOMPARE(TimelineAxis::tickLabel(2'000'000'000, 1'000'000'000), std::string("2 s"));
        QCOMPARE(TimelineAxis::tickLabel(2'500'000'000, 500'000'000), std::string("2.5 s"));
        QCOMPARE(TimelineAxis::tickLabel(0, 1'000'000'000), std::string("0 s"));
        QCOMPARE(TimelineAxis::tickLabel(500, 100), std::string("0.5 \u00b5s"));
        QCOMPARE(TimelineAxis::tickLabel(7, 1), std::string("0.007 \u00b5s"));
        QCOMPARE(TimelineAxis::tickLabel(40'000'000'000, 10'000'000'000), std::string("40 s"));
        // Neighbouring ticks never share a label.
        for (const std::int64_t step : {1LL, 2LL, 5LL, 20LL, 500LL, 2'000LL, 50'000LL, 1'000'000LL,
                                        20'000'000LL, 500'000'000LL}) {
            for (std::int64_t k = 0; k < 30; ++k) {
                QVERIFY(TimelineAxis::tickLabel(k * step, step) !=
                        TimelineAxis::tickLabel((k + 1) * step, step));
            }
        }
    }

    // ---- visibleSlice --------------------------------------------------------------------

    void colours() {
        QVERIFY(timelineColourOf(EventKind::Kernel) == TimelineColour::Compute);
        QVERIFY(timelineColourOf(EventKind::CommKernel) == TimelineColour::Comm);
        QVERIFY(timelineColourOf(EventKind::Memcpy) == TimelineColour::Memory);
        QVERIFY(timelineColourOf(EventKind::Memset) == TimelineColour::Memory);
        for (const EventKind k :
             {EventKind::Runtime, EventKind::CpuOp, EventKind::Annotation, EventKind::Other})
            QVERIFY(timelineColourOf(k) == TimelineColour::Host);
        QVERIFY(isDeviceKind(EventKind::Kernel));
        QVERIFY(isDeviceKind(EventKind::CommKernel));
        QVERIFY(isDeviceKind(EventKind::Memcpy));
        QVERIFY(isDeviceKind(EventKind::Memset));
        QVERIFY(!isDeviceKind(EventKind::Runtime));
        QVERIFY(!isDeviceKind(EventKind::CpuOp));
        QVERIFY(!isDeviceKind(EventKind::Annotation));
        QVERIFY(!isDeviceKind(EventKind::Other));
    }

    void overlapsWindowRule() {
        StoredEvent e;
        e.startNs = 100;
        e.durNs = 50;                          // [100, 150)
        QVERIFY(!overlapsWindow(e, 150, 200)); // touching the start is not overlapping
        QVERIFY(overlapsWindow(e, 149, 200));
        QVERIFY(!overlapsWindow(e, 0, 100)); // starts at the end: outside
        QVERIFY(overlapsWindow(e, 0, 101));
        e.durNs = 0; // instant at 100
        QVERIFY(overlapsWindow(e, 100, 101));
        QVERIFY(!overlapsWindow(e, 101, 200));
        QVERIFY(!overlapsWindow(e, 0, 100));
    }

    void sliceExcludesEventsEndingBeforeTheWindow() {
        // Window [T0, T0+1000) over 125 px: 8 ns per pixel, exact in doubles.
        const TraceStore s = storeOf({
            {-1'000, 1'400, EventKind::Kernel, "long"},  // [-1000, 400): clipped to [0, 50)
            {-800, 100, EventKind::Kernel, "before"},    // [-800, -700): in range, not visible
            {-600, 600, EventKind::CommKernel, "touch"}, // ends at t0 exactly: not visible
            {-5, 0, EventKind::Kernel, "instantBefore"},
            {600, 0, EventKind::Kernel, "instant"},        // [75, 76)
            {1'000, 0, EventKind::Kernel, "instantAtEnd"}, // at t1: outside
            {1'000, 50, EventKind::Kernel, "after"},
        });
        // The store's range lets the early events in: the filter must drop them.
        const auto [first, last] = s.overlapping(0, T0, T0 + 1'000);
        QVERIFY(last - first >= 4);
        std::vector<SliceRect> out;
        visibleSlice(s, 0, T0, T0 + 1'000, 125.0, out);
        QCOMPARE(out.size(), std::size_t{2});
        QVERIFY2(sameRect(out[0], 0.0, 50.0, 1, TimelineColour::Compute),
                 qPrintable(describe(out)));
        QCOMPARE(s.strings().text(s.events()[out[0].event].name), std::string_view("long"));
        QVERIFY2(sameRect(out[1], 75.0, 76.0, 1, TimelineColour::Compute),
                 qPrintable(describe(out)));
        QCOMPARE(s.strings().text(s.events()[out[1].event].name), std::string_view("instant"));
    }

    void sliceClipsAHugeEvent() {
        const TraceStore s = storeOf({{-1'000'000'000, 2'000'000'000, EventKind::Memcpy, "huge"}});
        std::vector<SliceRect> out;
        visibleSlice(s, 0, T0 + 5'000, T0 + 6'000, 640.0, out);
        QCOMPARE(out.size(), std::size_t{1});
        QVERIFY2(sameRect(out[0], 0.0, 640.0, 1, TimelineColour::Memory),
                 qPrintable(describe(out)));
        // Appends: what is already in `out` stays.
        visibleSlice(s, 0, T0 + 5'000, T0 + 6'000, 100.0, out);
        QCOMPARE(out.size(), std::size_t{2});
        QVERIFY(sameRect(out[1], 0.0, 100.0, 1, TimelineColour::Memory));
        // A bad track or an empty window adds nothing.
        visibleSlice(s, 7, T0, T0 + 6'000, 100.0, out);
        visibleSlice(s, 0, T0 + 6'000, T0 + 6'000, 100.0, out);
        visibleSlice(s, 0, T0, T0 + 6'000, 0.0, out);
        QCOMPARE(out.size(), std::size_t{2});
    }

    void sliceMergesSubPixelNeighbours() {
        // 8 ns per pixel. Kernels of 4 ns at 100, 104, 108 overlap once widened to 1 px:
        // [12.5,13.5) + [13,14) + [13.5,14.5) -> [12.5, 14.5) x3. The one at 116 starts
        // exactly where that run ends: a new run [14.5, 15.5). A comm kernel at 102 runs in
        // its own colour. Two 1-px kernels at 400 and 408 stay separate though they touch.
        const TraceStore s = storeOf({
            {100, 4, EventKind::Kernel, "a"},
            {102, 2, EventKind::CommKernel, "c"},
            {104, 4, EventKind::Kernel, "a"},
            {108, 4, EventKind::Kernel, "a"},
            {116, 4, EventKind::Kernel, "a"},
            {200, 4, EventKind::Kernel, "a"},
            {400, 8, EventKind::Kernel, "wide1"},
            {408, 8, EventKind::Kernel, "wide2"},
            {410, 2, EventKind::Kernel, "under"}, // [51.25, 52.25): merges nothing
            {999, 0, EventKind::Memset, "edge"},  // instant at 124.875: kept inside [124, 125)
        });
        std::vector<SliceRect> out;
        visibleSlice(s, 0, T0, T0 + 1'000, 125.0, out);
        QVERIFY2(out.size() == 8, qPrintable(describe(out)));
        QVERIFY2(sameRect(out[0], 12.5, 14.5, 3, TimelineColour::Compute),
                 qPrintable(describe(out)));
        QVERIFY(sameRect(out[1], 12.75, 13.75, 1, TimelineColour::Comm));
        QVERIFY(sameRect(out[2], 14.5, 15.5, 1, TimelineColour::Compute));
        QVERIFY(sameRect(out[3], 25.0, 26.0, 1, TimelineColour::Compute));
        QVERIFY(sameRect(out[4], 50.0, 51.0, 1, TimelineColour::Compute));
        QVERIFY(sameRect(out[5], 51.0, 52.0, 1, TimelineColour::Compute));
        QVERIFY(sameRect(out[6], 51.25, 52.25, 1, TimelineColour::Compute));
        QVERIFY(sameRect(out[7], 124.0, 125.0, 1, TimelineColour::Memory));
        QCOMPARE(s.strings().text(s.events()[out[4].event].name), std::string_view("wide1"));
        QCOMPARE(s.strings().text(s.events()[out[5].event].name), std::string_view("wide2"));
        // The first merged event is the earliest one.
        QCOMPARE(s.events()[out[0].event].startNs, T0 + 100);
        std::uint32_t merged = 0;
        for (const SliceRect& r : out)
            merged += r.count;
        QCOMPARE(merged, std::uint32_t{10});
    }

    void sliceMergesAMillionIntoAboutOnePerPixel() {
        // 200'000 kernels of 10 ns every 20 ns, compute and comm alternating, over 1000 px:
        // 4000 ns per pixel, 200 events per pixel column. Each widened event starts inside
        // its colour's open run, so each colour merges into one run across the whole row.
        std::vector<Ev> evs;
        for (int i = 0; i < 200'000; ++i)
            evs.push_back(
                {std::int64_t{i} * 20, 10, i % 2 ? EventKind::Kernel : EventKind::CommKernel, "k"});
        const TraceStore s = storeOf(evs);
        std::vector<SliceRect> out;
        visibleSlice(s, 0, T0, T0 + 4'000'000, 1000.0, out);
        std::uint64_t total = 0;
        for (const SliceRect& r : out) {
            total += r.count;
            QVERIFY(r.x0 >= 0.0 && r.x1 <= 1000.0 && r.x1 - r.x0 >= 1.0);
        }
        QCOMPARE(total, std::uint64_t{200'000});
        QVERIFY2(out.size() == 2, qPrintable(describe(out)));
        QVERIFY(sameRect(out[0], 0.0, 1000.0, 100'000, TimelineColour::Comm));
        QVERIFY(out[1].colour == TimelineColour::Compute);
        QCOMPARE(out[1].x0, 0.005); // the first compute kernel, at 20 ns
        QCOMPARE(out[1].x1, 1000.0);
        QCOMPARE(out[1].count, std::uint32_t{100'000});
    }

    void sliceMatchesAPlainReference() {
        // Random nested and overlapping events of every kind against the rule written out
        // plainly (overlapsWindow, clip, widen, merge per colour, order by x0), at many zooms.
        std::mt19937 rng(11);
        std::vector<Ev> evs;
        for (int i = 0; i < 20'000; ++i) {
            const std::int64_t start =
                std::uniform_int_distribution<std::int64_t>(-50'000, 2'000'000)(rng);
            const int shape = std::uniform_int_distribution<int>(0, 9)(rng);
            const std::int64_t dur =
                shape == 0   ? 0
                : shape == 1 ? std::uniform_int_distribution<std::int64_t>(0, 500'000)(rng)
                             : std::uniform_int_distribution<std::int64_t>(1, 300)(rng);
            evs.push_back({start, dur,
                           static_cast<EventKind>(std::uniform_int_distribution<int>(0, 7)(rng)),
                           "r"});
        }
        const TraceStore s = storeOf(evs);
        const auto reference = [&s](std::int64_t t0, std::int64_t t1, double w) {
            std::vector<SliceRect> out;
            std::array<SliceRect, kTimelineColours> open{};
            const double k = w / static_cast<double>(t1 - t0);
            for (std::uint32_t i = 0; i < s.events().size(); ++i) {
                const StoredEvent& e = s.events()[i];
                if (!overlapsWindow(e, t0, t1))
                    continue;
                const double x0 = std::max(0.0, static_cast<double>(e.startNs - t0) * k);
                const double x1 = std::min(w, static_cast<double>(e.endNs() - t0) * k);
                const TimelineColour c = timelineColourOf(e.kind);
                if (x1 - x0 >= 1.0) {
                    out.push_back({x0, x1, i, 1, c});
                    continue;
                }
                const double nx0 = std::max(0.0, std::min(x0, w - 1.0));
                const double nx1 = std::max(x1, nx0 + 1.0);
                SliceRect& run = open[static_cast<std::size_t>(c)];
                if (run.count > 0 && nx0 < run.x1) {
                    run.x1 = std::max(run.x1, nx1);
                    ++run.count;
                    continue;
                }
                if (run.count > 0)
                    out.push_back(run);
                run = {nx0, nx1, i, 1, c};
            }
            for (const SliceRect& run : open) {
                if (run.count > 0)
                    out.push_back(run);
            }
            std::stable_sort(out.begin(), out.end(), [](const SliceRect& a, const SliceRect& b) {
                return a.x0 < b.x0 || (a.x0 == b.x0 && a.event < b.event);
            });
            return out;
        };
        for (const auto& [a, b, w] : std::vector<std::tuple<std::int64_t, std::int64_t, double>>{
                 {0, 2'000'000, 1000.0},
                 {-60'000, 3'000'000, 1917.0},
                 {500'000, 510'000, 800.0},
                 {123'457, 124'000, 333.0},
                 {1'999'000, 2'000'300, 0.5},
                 {0, 100, 1920.0}}) {
            std::vector<SliceRect> got;
            visibleSlice(s, 0, T0 + a, T0 + b, w, got);
            const std::vector<SliceRect> want = reference(T0 + a, T0 + b, w);
            QCOMPARE(got.size(), want.size());
            QVERIFY(got == want);
        }
    }

    // ---- eventNear ---------------------------------------------------------------------

    void eventNearPrefersInnermostThenNearest() {
        // P [100,200) holds C [120,150); Q [300,310); an instant I at 400.
        const TraceStore s = storeOf({
            {100, 100, EventKind::CpuOp, "P"},
            {120, 30, EventKind::CpuOp, "C"},
            {300, 10, EventKind::CpuOp, "Q"},
            {400, 0, EventKind::CpuOp, "I"},
        });
        const auto nameAt = [&s](std::int64_t t, std::int64_t tol) -> std::string {
            const auto e = eventNear(s, 0, T0 + t, tol);
            return e ? std::string(s.strings().text(s.events()[*e].name)) : std::string("-");
        };
        QCOMPARE(nameAt(130, 0), std::string("C"));
        QCOMPARE(nameAt(120, 0), std::string("C"));
        QCOMPARE(nameAt(150, 0), std::string("P")); // C ends at 150
        QCOMPARE(nameAt(110, 0), std::string("P"));
        QCOMPARE(nameAt(160, 20), std::string("P")); // containing beats near
        QCOMPARE(nameAt(240, 60), std::string("P")); // gaps: P 40, Q 60
        QCOMPARE(nameAt(290, 20), std::string("Q")); // gaps: P 90, Q 10
        QCOMPARE(nameAt(250, 10), std::string("-"));
        QCOMPARE(nameAt(400, 0), std::string("I"));
        QCOMPARE(nameAt(403, 3), std::string("I"));
        QCOMPARE(nameAt(404, 3), std::string("-"));
        QCOMPARE(nameAt(50, 0), std::string("-"));
        QVERIFY(!eventNear(s, 9, T0 + 130, 0));
    }

    // ---- RangeStatistics -----------------------------------------------------------------

    void statisticsByName() {
        RangeStatistics st;
        for (const std::int64_t d : {30, 10, 40, 20})
            st.add("gemm", d);
        std::vector<std::int64_t> ds(100);
        std::iota(ds.begin(), ds.end(), std::int64_t{1});
        std::shuffle(ds.begin(), ds.end(), std::mt19937(7));
        for (const std::int64_t d : ds)
            st.add("nccl", d);
        st.add("b", 25);
        st.add("a", 25); // ties on total: by name
        const RangeSummary all = st.summary(10);
        QCOMPARE(all.count, std::uint64_t{106});
        QCOMPARE(all.totalNs, std::int64_t{100 + 5050 + 50});
        QCOMPARE(all.distinctNames, std::size_t{4});
        QCOMPARE(all.names.size(), std::size_t{4});
        const NameStats& nccl = all.names[0];
        QCOMPARE(nccl.name, std::string("nccl"));
        QCOMPARE(nccl.count, std::uint64_t{100});
        QCOMPARE(nccl.totalNs, std::int64_t{5050});
        QCOMPARE(nccl.meanNs, 50.5);
        QCOMPARE(nccl.p50Ns, std::int64_t{50}); // ceil(0.50 * 100) = 50th
        QCOMPARE(nccl.p99Ns, std::int64_t{99}); // ceil(0.99 * 100) = 99th
        const NameStats& gemm = all.names[1];
        QCOMPARE(gemm.name, std::string("gemm"));
        QCOMPARE(gemm.count, std::uint64_t{4});
        QCOMPARE(gemm.totalNs, std::int64_t{100});
        QCOMPARE(gemm.meanNs, 25.0);
        QCOMPARE(gemm.p50Ns, std::int64_t{20}); // ceil(2) = 2nd of 10 20 30 40
        QCOMPARE(gemm.p99Ns, std::int64_t{40}); // ceil(3.96) = 4th
        QCOMPARE(all.names[2].name, std::string("a"));
        QCOMPARE(all.names[3].name, std::string("b"));
        QCOMPARE(all.names[2].p50Ns, std::int64_t{25});
        // Top 1: one name listed, totals over all of them.
        const RangeSummary top = st.summary(1);
        QCOMPARE(top.names.size(), std::size_t{1});
        QCOMPARE(top.names[0].name, std::string("nccl"));
        QCOMPARE(top.count, std::uint64_t{106});
        QCOMPARE(top.distinctNames, std::size_t{4});
        // Odd counts: p50 of 5 is the 3rd.
        RangeStatistics five;
        for (const std::int64_t d : {9, 1, 7, 3, 5})
            five.add("x", d);
        QCOMPARE(five.summary(1).names[0].p50Ns, std::int64_t{5});
        QCOMPARE(five.summary(1).names[0].p99Ns, std::int64_t{9});
        QCOMPARE(RangeStatistics::percentile({}, 50.0), std::int64_t{0});
        QCOMPARE(RangeStatistics::percentile({4}, 0.0), std::int64_t{4});
        st.clear();
        QCOMPARE(st.summary(5).count, std::uint64_t{0});
    }

    void statisticsCountWholeEventsAtTheEdges() {
        const TraceStore s = storeOf({
            {0, 100, EventKind::Kernel, "a"},     // ends at 100
            {50, 200, EventKind::Kernel, "b"},    // [50, 250)
            {200, 0, EventKind::Kernel, "i"},     // instant at 200
            {250, 10, EventKind::Kernel, "a"},    // [250, 260)
            {300, 1'000, EventKind::Kernel, "c"}, // [300, 1300)
            {300, 0, EventKind::Kernel, "i"},     // instant at 300
        });
        {
            RangeStatistics st;
            st.addTrack(s, 0, T0 + 100, T0 + 300);
            const RangeSummary r = st.summary(10);
            // a@0 touches the start (out), b whole, i@200, a@250; c and i@300 start at t1 (out).
            QCOMPARE(r.count, std::uint64_t{3});
            QCOMPARE(r.totalNs, std::int64_t{210});
            QCOMPARE(r.names[0].name, std::string("b"));
            QCOMPARE(r.names[0].totalNs, std::int64_t{200}); // whole, not clipped to 150
            QCOMPARE(r.names[1].name, std::string("a"));
            QCOMPARE(r.names[1].count, std::uint64_t{1});
            QCOMPARE(r.names[2].name, std::string("i"));
            QCOMPARE(r.names[2].totalNs, std::int64_t{0});
        }
        {
            RangeStatistics st;
            st.addTrack(s, 0, T0 + 250, T0 + 301);
            const RangeSummary r = st.summary(10);
            // b ends at 250 (out); a@250, c whole (1000 > the 51 ns range), i@300.
            QCOMPARE(r.count, std::uint64_t{3});
            QCOMPARE(r.totalNs, std::int64_t{1'010});
            QCOMPARE(r.names[0].name, std::string("c"));
            QCOMPARE(r.names[0].p50Ns, std::int64_t{1'000});
        }
        {
            // Two tracks' worth accumulate; an empty window or bad track adds nothing.
            RangeStatistics st;
            st.addTrack(s, 0, T0, T0 + 2'000);
            st.addTrack(s, 0, T0, T0 + 2'000);
            st.addTrack(s, 0, T0 + 10, T0 + 10);
            st.addTrack(s, 3, T0, T0 + 2'000);
            const RangeSummary r = st.summary(10);
            QCOMPARE(r.count, std::uint64_t{12});
            QCOMPARE(r.totalNs, std::int64_t{2 * (100 + 200 + 10 + 1'000)});
            QCOMPARE(r.names[0].name, std::string("c"));
            QCOMPARE(r.names[1].name, std::string("b")); // c 2000, b 400, a 220, i 0
            QCOMPARE(r.names[2].name, std::string("a"));
            QCOMPARE(r.names[2].count, std::uint64_t{4});
            QCOMPARE(r.names[3].name, std::string("i"));
        }
    }
};

QTEST_GUILESS_MAIN(TestTimelineMaths)
#include "test_timeline_maths.moc"
