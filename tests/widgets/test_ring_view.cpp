// RingView renders where RingLayout says: rank colours on the cards, chunk tokens on the arc at
// their progress, the complete look for fully reduced chunks, and byte counters.
#include "render_probe.h"
#include "topology/chunk_cell.h"
#include "topology/ring_layout.h"
#include "topology/ring_view.h"

#include <QPainter>
#include <QTest>

using namespace wb;
using namespace wb::test;

namespace {

RingFrame startFrame(int ranks) {
    RingFrame f;
    f.ranks = ranks;
    f.holdings.assign(static_cast<std::size_t>(ranks), {});
    for (int r = 0; r < ranks; ++r) {
        f.holdings[static_cast<std::size_t>(r)].assign(static_cast<std::size_t>(ranks),
                                                       ContributorMask{1} << r);
    }
    f.bytesSent.assign(static_cast<std::size_t>(ranks), 0.0);
    f.bytesTarget = 3e6;
    f.phase = "reduce-scatter";
    f.round = 2;
    f.roundsInPhase = 3;
    return f;
}

QRectF bounds(QSize size = {800, 700}) {
    return {QPointF(0, 0), size};
}

QImage render(const RingFrame& frame, const Theme& theme, QSize size = {800, 700}) {
    RingView view;
    view.setTheme(theme);
    view.setFrame(frame);
    QImage image(size, QImage::Format_RGB32);
    QPainter painter(&image);
    view.paint(painter, bounds(size));
    return image;
}

// The layout the view painted with.
RingLayout layoutOf(const RingFrame& frame, const Theme& theme, QSize size = {800, 700}) {
    RingView view;
    view.setTheme(theme);
    view.setFrame(frame);
    return view.layoutFor(bounds(size));
}

} // namespace

class TestRingView : public QObject {
    Q_OBJECT
private slots:
    void rankColoursSitOnTheirCards() {
        const Theme theme = Theme::light();
        const RingFrame frame = startFrame(4);
        const QImage image = render(frame, theme);
        saveForHumans(image, QStringLiteral("ring_start_4"));
        const RingLayout layout = layoutOf(frame, theme);
        for (int r = 0; r < 4; ++r) {
            const QColor colour = theme.rankColor(r, 4);
            // Each rank's own chunks carry its colour, and no other rank's card does.
            const QRectF cell = layout.cellRect(r, 0);
            QVERIFY2(countNear(image, around(cell.center(), 2), colour, 6) >= 20,
                     qPrintable(QStringLiteral("rank %1 colour missing").arg(r)));
            const int other = (r + 1) % 4;
            QCOMPARE(countNear(image, layout.cardRect(other).toRect(), colour, 6), 0);
        }
        // Nodes go clockwise from the top.
        QVERIFY(layout.node(0).y() < layout.node(2).y());
        QVERIFY(layout.node(1).x() > layout.node(3).x());
    }

    void transferTokenFollowsProgress() {
        const Theme theme = Theme::light();
        RingFrame frame = startFrame(4);
        const ContributorMask carried = ContributorMask{1} << 0;
        frame.transfers.push_back({0, 1, 3, carried, 0.5});
        const RingLayout layout = layoutOf(frame, theme);
        const QPointF middle = layout.transferPoint(0, 1, 0.5);
        const QPointF start = layout.transferPoint(0, 1, 0.0);
        QVERIFY(QLineF(middle, start).length() > 40.0);
        const QColor sender = theme.rankColor(0, 4);

        QImage image = render(frame, theme);
        saveForHumans(image, QStringLiteral("ring_transfer_half"));
        QVERIFY(countNear(image, around(middle, 3), sender, 6) >= 30);
        QCOMPARE(countNear(image, around(start, 3), sender, 6), 0);

        frame.transfers.front().progress = 0.0;
        image = render(frame, theme);
        QVERIFY(countNear(image, around(start, 3), sender, 6) >= 30);
        QCOMPARE(countNear(image, around(middle, 3), sender, 6), 0);
    }

    void fullyReducedChunkLooksComplete() {
        const Theme theme = Theme::light();
        RingFrame frame = startFrame(4);
        frame.holdings[2][1] = fullMask(4);
        frame.holdings[2][2] = 0b0111; // three of four: still partial
        const QImage image = render(frame, theme);
        const RingLayout layout = layoutOf(frame, theme);
        const QRect complete = layout.cellRect(2, 1).toRect().adjusted(2, 2, -2, -2);
        const QRect partial = layout.cellRect(2, 2).toRect().adjusted(2, 2, -2, -2);
        const int area = complete.width() * complete.height();
        QVERIFY(countNear(image, complete, theme.foreground, 10) > area / 3);
        QCOMPARE(countNear(image, partial, theme.foreground, 10), 0);
        // A partial chunk shows each contributor's stripe.
        for (int r = 0; r < 3; ++r) {
            QVERIFY(countNear(image, partial, theme.rankColor(r, 4), 6) > 0);
        }
        QCOMPARE(countNear(image, partial, theme.rankColor(3, 4), 6), 0);
        QVERIFY(isComplete(fullMask(16), 16));
        QVERIFY(!isComplete(fullMask(15), 16));
        QCOMPARE(fullMask(64), ~ContributorMask{0});
    }

    void byteCounterShowsProgress() {
        const Theme theme = Theme::light();
        RingFrame frame = startFrame(4);
        frame.bytesSent = {1.5e6, 0.0, 3e6, 750e3};
        QCOMPARE(RingView::counterText(frame, 0), QStringLiteral("1.50 MB / 3.00 MB"));
        QCOMPARE(RingView::counterText(frame, 3), QStringLiteral("750 kB / 3.00 MB"));
        const QImage image = render(frame, theme);
        saveForHumans(image, QStringLiteral("ring_counters"));
        const RingLayout layout = layoutOf(frame, theme);
        for (int r = 0; r < 4; ++r) {
            const QRectF bar = layout.barRect(r);
            const QRect row(bar.toRect().left(), static_cast<int>(bar.center().y()),
                            bar.toRect().width(), 1);
            const double filled = countNear(image, row, theme.rankColor(r, 4), 20);
            const double expected = frame.bytesSent[static_cast<std::size_t>(r)] / 3e6;
            QVERIFY2(std::abs(filled / row.width() - expected) < 0.06,
                     qPrintable(QStringLiteral("rank %1: %2 vs %3")
                                    .arg(r)
                                    .arg(filled / row.width())
                                    .arg(expected)));
        }
    }

    void captionNamesPhaseAndRound() {
        RingFrame frame = startFrame(4);
        QCOMPARE(RingView::caption(frame), QStringLiteral("Reduce-scatter \u00b7 round 2/3"));
        frame.round = 0;
        frame.phase = "done";
        QCOMPARE(RingView::caption(frame), QStringLiteral("Done"));
        frame.phase.clear();
        QVERIFY(RingView::caption(frame).isEmpty());
    }

    void cardsFitWithoutOverlapFrom2To16() {
        for (const QSize size : {QSize(1150, 1040), QSize(800, 700), QSize(480, 420)}) {
            for (const Theme& theme : {Theme::light(), Theme::presentation(true)}) {
                for (int n = 2; n <= 16; ++n) {
                    const RingLayout layout = RingLayout::compute(
                        bounds(size), n, theme, QStringLiteral("Reduce-scatter \u00b7 round 9/15"));
                    QVERIFY(bounds(size).contains(layout.captionRect()));
                    for (int a = 0; a < n; ++a) {
                        QVERIFY(bounds(size).contains(layout.cardRect(a)));
                        for (int b = a + 1; b < n; ++b) {
                            QVERIFY2(!layout.cardRect(a).intersects(layout.cardRect(b)),
                                     qPrintable(
                                         QStringLiteral("n=%1 ranks %2,%3").arg(n).arg(a).arg(b)));
                        }
                    }
                    if (size.width() >= 800) {
                        QVERIFY(layout.fontPx() >= 7.0);
                    }
                }
            }
        }
    }

    void captionMovesAboveANarrowRing() {
        const RingFrame frame = startFrame(4);
        const Theme theme = Theme::presentation(true);
        const QSize narrow(520, 700);
        const RingLayout layout = layoutOf(frame, theme, narrow);
        const QRectF caption = layout.captionRect();
        QVERIFY(caption.bottom() <= layout.cardRect(0).top());
        const QFontMetricsF metrics(theme.fontAtPixels(layout.captionFontPx(), true));
        QVERIFY(metrics.horizontalAdvance(RingView::caption(frame)) <= caption.width());
        saveForHumans(render(frame, theme, narrow), QStringLiteral("ring_narrow_presentation"));
        // A roomy view keeps the caption inside the ring.
        const RingLayout roomy = layoutOf(frame, Theme::light(), {1000, 900});
        QVERIFY(roomy.captionRect().top() > roomy.cardRect(0).bottom());
    }

    void typeScalesWithSizeAndTheme() {
        const RingLayout small = RingLayout::compute(bounds({400, 350}), 4, Theme::light());
        const RingLayout large = RingLayout::compute(bounds({1200, 1050}), 4, Theme::light());
        const RingLayout present =
            RingLayout::compute(bounds({1200, 1050}), 4, Theme::presentation(false));
        QVERIFY(large.fontPx() > small.fontPx());
        QVERIFY(present.fontPx() > large.fontPx() * 1.3);
    }

    void rendersLargeRingsAndDarkTheme() {
        for (int n : {2, 3, 8, 16}) {
            RingFrame frame = startFrame(n);
            frame.transfers.push_back({n - 1, 0, 1, fullMask(n) >> 1, 0.3});
            frame.holdings[0][0] = fullMask(n);
            frame.highlightRank = 1;
            const QImage image = render(frame, Theme::dark(), {1150, 1040});
            saveForHumans(image, QStringLiteral("ring_dark_%1").arg(n));
            QVERIFY(countNear(image, image.rect(), Theme::dark().background, 4) >
                    image.width() * image.height() / 2);
        }
    }

    void widgetPaintsLikePaint() {
        RingView view;
        view.setFrame(startFrame(5));
        view.resize(640, 600);
        const QImage viaWidget = grabImage(view);
        QImage direct(640, 600, QImage::Format_RGB32);
        {
            QPainter painter(&direct);
            view.paint(painter, QRectF(0, 0, 640, 600));
        }
        QCOMPARE(viaWidget, direct);
    }
};

QTEST_MAIN(TestRingView)
#include "test_ring_view.moc"
