// A step's resting frame (t = 1, what an export shows) is a picture of its own: for every
// scenario held to the lesson mechanism, consecutive steps at rest differ in at least 1 % of
// the stage's pixels, so no step repeats the one before it on screen.
#include "../scenarios/scenario_sweep.h"
#include "scenario_session.h"
#include "step_exporter.h"

#include <QImage>
#include <QPainter>
#include <QtTest>

using namespace wb;
using namespace wb::test;

namespace {

// The stage alone: the same (empty) words on every slide, so only the frames differ.
QImage restingStage(const ScenarioSession& session, int step) {
    ExportRequest r;
    r.frames = session.frames(step, 1.0);
    r.theme = Theme::light();
    r.size = QSize(1280, 720);
    QImage image(r.size, QImage::Format_ARGB32_Premultiplied);
    image.fill(r.theme.background);
    QPainter painter(&image);
    renderSlide(painter, r);
    return image;
}

double differingShare(const QImage& a, const QImage& b) {
    long long differ = 0;
    for (int y = 0; y < a.height(); ++y) {
        const auto* pa = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* pb = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        for (int x = 0; x < a.width(); ++x)
            differ += pa[x] != pb[x];
    }
    return static_cast<double>(differ) / (static_cast<double>(a.width()) * a.height());
}

} // namespace

class TestRestingFrames : public QObject {
    Q_OBJECT
private slots:
    void consecutiveStepsDiffer_data() {
        QTest::addColumn<QString>("id");
        for (const char* id : kSweptScenarios)
            QTest::newRow(id) << QString(id);
    }
    void consecutiveStepsDiffer() {
        QFETCH(QString, id);
        const Scenario* s = findScenario(id.toStdString());
        QVERIFY(s);
        const ScenarioSession session(*s, s->defaultParams());
        QImage previous = restingStage(session, 0);
        for (int step = 1; step < session.stepCount(); ++step) {
            const QImage image = restingStage(session, step);
            const double share = differingShare(previous, image);
            QVERIFY2(share >= 0.01,
                     qPrintable(QString("steps %1 and %2 differ in %3 % of the stage")
                                    .arg(step)
                                    .arg(step + 1)
                                    .arg(share * 100.0, 0, 'f', 2)));
            previous = image;
        }
    }
};

QTEST_MAIN(TestRestingFrames)
#include "test_resting_frames.moc"
