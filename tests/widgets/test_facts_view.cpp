// FactsView paints every row (label, value, source) and knows which row is under the mouse.
#include "render_probe.h"
#include "text/facts_view.h"

#include <QApplication>
#include <QHelpEvent>
#include <QTest>
#include <QToolTip>

using namespace wb;
using namespace wb::test;

namespace {

FactsFrame facts() {
    FactsFrame f;
    f.title = "Ring all-reduce, 8 x H100";
    f.rows = {{"Bytes each GPU sends", "1.75 GB", "2(N-1)K/N, K = 1 GB", false},
              {"NVLink bandwidth", "450 GB/s", "NVIDIA H100 datasheet (per direction)", false},
              {"Predicted time", "3.89 ms", "alpha-beta model, alpha = 5 us", true}};
    return f;
}

} // namespace

class TestFactsView : public QObject {
    Q_OBJECT
private slots:
    void everyRowHasInk() {
        FactsView view;
        view.setFrame(facts());
        view.resize(520, 300);
        const QImage image = grabImage(view);
        saveForHumans(image, QStringLiteral("facts_light"));
        const std::vector<QRectF> rows = view.rowRects(QRectF(view.rect()));
        QCOMPARE(rows.size(), std::size_t{3});
        for (const QRectF& row : rows) {
            QVERIFY(row.bottom() <= view.height());
            // Label on the left, value on the right, source below the label.
            const QRect r = row.toRect();
            const QRect left(r.left(), r.top(), r.width() / 2, r.height() * 2 / 3);
            const QRect right(r.left() + r.width() / 2, r.top(), r.width() / 2, r.height() / 2);
            const QRect source(r.left(), r.top() + r.height() / 2, r.width() / 2, r.height() / 2);
            QVERIFY(countNear(image, left, view.theme().foreground, 60) > 20);
            QVERIFY(countNear(image, right, view.theme().foreground, 60) +
                        countNear(image, right, view.theme().accent, 60) >
                    20);
            QVERIFY(countNear(image, source, view.theme().muted, 40) > 10);
        }
        // The emphasised row is marked in the accent colour; the others are not.
        QVERIFY(countNear(image, rows[2].toRect(), view.theme().accent, 10) > 50);
        QCOMPARE(countNear(image, rows[0].toRect(), view.theme().accent, 10), 0);
    }

    void rowAtFindsTheRowForTooltips() {
        FactsView view;
        view.setFrame(facts());
        view.resize(520, 300);
        const std::vector<QRectF> rows = view.rowRects(QRectF(view.rect()));
        QCOMPARE(view.rowAt(rows[1].center()), 1);
        QCOMPARE(view.rowAt(QPointF(2, 2)), -1);

        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QPoint pos = rows[1].center().toPoint();
        QHelpEvent help(QEvent::ToolTip, pos, view.mapToGlobal(pos));
        QApplication::sendEvent(&view, &help);
        QTRY_COMPARE(QToolTip::text(), QStringLiteral("NVIDIA H100 datasheet (per direction)"));
    }

    void manyRowsShrinkToFitButNotBelowTheFloor() {
        FactsFrame frame = facts();
        for (int i = 0; i < 4; ++i) {
            frame.rows.push_back({"row", "1", "src", false});
        }
        FactsView view;
        view.setTheme(Theme::presentation(true));
        view.setTypeScale(TypeScale::forSlide(1080, Theme::presentation(true).fontScale));
        view.setFrame(frame);
        view.resize(700, 560);
        // At the slide's body size these rows would not fit; smaller type makes them fit.
        std::vector<QRectF> rows = view.rowRects(QRectF(view.rect()));
        QVERIFY(rows.back().bottom() <= 560.0);
        const double fitted = rows.front().height();
        saveForHumans(grabImage(view), QStringLiteral("facts_many_dark"));
        // Far too many rows: type stops at the floor and no further; the rows that fit are
        // drawn whole and a line under them counts the ones left out.
        for (int i = 0; i < 20; ++i)
            frame.rows.push_back({"row", "1", "src", false});
        view.setFrame(frame);
        rows = view.rowRects(QRectF(view.rect()));
        QVERIFY(rows.size() < frame.rows.size());
        QVERIFY(rows.back().bottom() <= 560.0);
        const double floor = view.typeScale().floor();
        QVERIFY(rows.back().height() >= floor * 2.0); // a value line and a source line
        QVERIFY(rows.back().height() <= fitted);
        // The count line is drawn below the last row, in the muted colour.
        const QImage image = grabImage(view);
        saveForHumans(image, QStringLiteral("facts_overflow_dark"));
        const QRect below(0, static_cast<int>(rows.back().bottom()) + 2, view.width(),
                          std::max(1, 560 - static_cast<int>(rows.back().bottom()) - 2));
        QVERIFY(countNear(image, below, view.theme().muted, 40) > 20);
    }
};

QTEST_MAIN(TestFactsView)
#include "test_facts_view.moc"
