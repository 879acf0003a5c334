// The lint must be able to fail: a planted slide with five defects gives exactly those five
// findings, through the same recorder and widget rendering the slides use; a clean slide gives
// none.
#include "charts/bar_chart_view.h"
#include "lint/layout_lint.h"
#include "lint/paint_recorder.h"
#include "text/type_scale.h"

#include <QApplication>
#include <QPainter>
#include <QTest>
#include <QWidget>
#include <algorithm>

using namespace wb;

namespace {

// Draws in its own coordinates; the slide places it at an offset, so the recorder has to
// follow the painter's transform to find the texts where they land on the slide.
class PlantedView : public QWidget {
public:
    explicit PlantedView(bool defects, QWidget* parent)
        : QWidget(parent)
        , m_defects(defects) {}

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), Qt::white); // contains all its text: no finding
        QFont f = font();
        f.setPixelSize(16);
        p.setFont(f);
        p.setPen(Qt::black);
        p.drawText(QPointF(20, 120), QStringLiteral("A label that reads fine"));
        // A bar with its value inside: contained, no finding.
        p.fillRect(QRectF(20, 300, 300, 60), QColor(40, 90, 200));
        p.drawText(QPointF(40, 336), QStringLiteral("12.5 GB"));
        if (!m_defects)
            return;
        // 1. An elided title.
        QFont title = f;
        title.setPixelSize(22);
        p.setFont(title);
        p.drawText(QPointF(20, 40),
                   QStringLiteral("Ring all-reduce, step by step \u00b7 Step 1/7 \u00b7 cu\u2026"));
        // 2. Text under the floor (9 px on a 1280x720 slide, floor 10).
        QFont tiny = f;
        tiny.setPixelSize(9);
        p.setFont(tiny);
        p.drawText(QPointF(20, 180), QStringLiteral("tiny print"));
        // 3. Two labels on top of each other.
        p.setFont(f);
        p.drawText(QPointF(500, 200), QStringLiteral("GEMM 1024\u00b3"));
        p.drawText(QPointF(510, 204), QStringLiteral("GEMM 4096\u00b3"));
        // 4. Text at x = 1300 on the slide (the view sits at x = 100).
        p.drawText(QPointF(1200, 250), QStringLiteral("off the slide"));
        // 5. A label straddling a bar's top edge.
        p.fillRect(QRectF(700, 400, 200, 120), QColor(200, 60, 40));
        p.drawText(QPointF(720, 405), QStringLiteral("over the edge"));
    }

private:
    bool m_defects;
};

std::vector<LintFinding> lintPlanted(bool defects) {
    QWidget slide;
    slide.setAttribute(Qt::WA_DontShowOnScreen);
    slide.resize(1280, 720);
    // The view is wider than the slide on purpose: its clip is not what catches x = 1300.
    auto* view = new PlantedView(defects, &slide);
    view->setGeometry(100, 50, 1400, 660);
    slide.show();
    PaintRecorder recorder(slide.size());
    {
        QPainter painter(&recorder);
        slide.render(&painter);
    }
    return lintLayout(recorder.record(), QRectF(0, 0, 1280, 720), 10.0);
}

} // namespace

class TestLayoutLint : public QObject {
    Q_OBJECT
private slots:
    void findsExactlyThePlantedDefects() {
        const std::vector<LintFinding> findings = lintPlanted(true);
        for (const LintFinding& f : findings)
            qInfo("%s: %s", lintKindName(f.kind), qPrintable(f.text));
        QCOMPARE(findings.size(), std::size_t{5});
        const auto has = [&](LintKind kind, const QString& text) {
            return std::any_of(findings.begin(), findings.end(), [&](const LintFinding& f) {
                return f.kind == kind && f.text == text;
            });
        };
        QVERIFY(
            has(LintKind::Elided,
                QStringLiteral("Ring all-reduce, step by step \u00b7 Step 1/7 \u00b7 cu\u2026")));
        QVERIFY(has(LintKind::BelowFloor, QStringLiteral("tiny print")));
        QVERIFY(has(LintKind::Overlap, QStringLiteral("GEMM 4096\u00b3")));
        QVERIFY(has(LintKind::Outside, QStringLiteral("off the slide")));
        QVERIFY(has(LintKind::Crosses, QStringLiteral("over the edge")));
    }

    void boxesLandWhereTheSlideShowsThem() {
        const std::vector<LintFinding> findings = lintPlanted(true);
        const auto it = std::find_if(findings.begin(), findings.end(), [](const LintFinding& f) {
            return f.kind == LintKind::Outside;
        });
        QVERIFY(it != findings.end());
        // Drawn at x = 1200 inside a view placed at x = 100.
        QVERIFY(std::abs(it->box.left() - 1300.0) < 1.0);
        QVERIFY(it->box.top() > 50 + 250 - 20 && it->box.bottom() < 50 + 250 + 8);
    }

    void aCleanSlideHasNoFindings() {
        const std::vector<LintFinding> findings = lintPlanted(false);
        for (const LintFinding& f : findings)
            qInfo("%s: %s", lintKindName(f.kind), qPrintable(f.text));
        QVERIFY(findings.empty());
    }

    void aDenseBarChartLabelsOnlyWhatFits() {
        // 64 experts on one axis: labels at full size never overlap or leave the view.
        BarChartFrame f;
        f.title = "Tokens per expert";
        f.series = {"tokens"};
        for (int e = 0; e < 64; ++e) {
            std::string label = "e"; // built in two steps: GCC 12 -Wrestrict misfires on "e" + s
            label += std::to_string(e);
            f.categories.push_back({label, {{double(10 + e % 7), 0, ""}}, ""});
        }
        BarChartView view;
        view.setTypeScale(TypeScale::forSlide(720));
        view.setFrame(f);
        PaintRecorder recorder(QSize(800, 450));
        {
            QPainter painter(&recorder);
            view.paint(painter, QRectF(0, 0, 800, 450));
        }
        const auto findings = lintLayout(recorder.record(), QRectF(0, 0, 800, 450), 10.0);
        for (const LintFinding& finding : findings)
            qInfo("%s: %s", lintKindName(finding.kind), qPrintable(finding.text));
        QVERIFY(findings.empty());
        // Some labels were drawn, and not all 64.
        const auto labels = std::count_if(
            recorder.record().texts.begin(), recorder.record().texts.end(),
            [](const RecordedText& t) { return t.text.startsWith(QLatin1Char('e')); });
        QVERIFY(labels >= 4 && labels < 64);
    }

    void aShapeUnderTheTextsOwnPlateDoesNotCount() {
        // A packet dot under a label's plate is hidden by it; the same dot drawn after the
        // label is on top of the text and counts.
        PaintRecord record;
        record.shapes.push_back({QRectF(0, 0, 400, 300), 0}); // the view's background
        record.shapes.push_back({QRectF(95, 95, 12, 12), 1}); // a packet
        record.shapes.push_back({QRectF(88, 90, 80, 24), 2}); // the label's plate
        record.texts.push_back({QStringLiteral("leaf 0"), QRectF(90, 92, 60, 20), 14.0, {}, 3});
        QVERIFY(lintLayout(record, QRectF(0, 0, 400, 300), 10.0).empty());
        record.shapes.push_back({QRectF(95, 95, 12, 12), 4}); // the packet again, on top
        const auto findings = lintLayout(record, QRectF(0, 0, 400, 300), 10.0);
        QCOMPARE(findings.size(), std::size_t{1});
        QCOMPARE(findings.front().kind, LintKind::Crosses);
    }

    void theFloorFollowsTheSlide() {
        // The same 12 px text is fine on a 720-line slide and too small on a 1080-line one.
        PaintRecord record;
        record.texts.push_back({QStringLiteral("label"), QRectF(10, 10, 40, 14), 12.0, {}, 0});
        QVERIFY(lintLayout(record, QRectF(0, 0, 1280, 720), 10.0).empty());
        const auto at1080 = lintLayout(record, QRectF(0, 0, 1920, 1080), 14.0);
        QCOMPARE(at1080.size(), std::size_t{1});
        QCOMPARE(at1080.front().kind, LintKind::BelowFloor);
    }
};

QTEST_MAIN(TestLayoutLint)
#include "test_layout_lint.moc"
