// The frame a step rests on (t = 1, what an export shows) shows the step's point, so each
// swept scenario's consecutive resting frames differ in at least 1 % of the stage's pixels.
// Only the stage is compared: the title line and the narration always differ.
#include "drawing/theme.h"
#include "render_probe.h"
#include "scenario_session.h"
#include "scenario_sweep.h"
#include "step_exporter.h"

#include <QImage>
#include <QtTest>
#include <vector>

using namespace wb;

namespace {

constexpr QSize kStageSize{1280, 720};
constexpr double kLeastDifference = 0.01; // of the stage's pixels

// The share of pixels that differ between two images of one size.
double differingShare(const QImage& a, const QImage& b) {
    const QImage x = a.convertToFormat(QImage::Format_RGB32);
    const QImage y = b.convertToFormat(QImage::Format_RGB32);
    if (x.size() != y.size())
        return 1.0;
    qint64 differing = 0;
    for (int row = 0; row < x.height(); ++row) {
        const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(row));
        const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(row));
        for (int col = 0; col < x.width(); ++col)
            differing += p[col] != q[col];
    }
    return double(differing) / (double(x.width()) * x.height());
}

// Each step's resting stage for the scenario at its default parameters.
std::vector<QImage> restingStages(const ScenarioSession& session) {
    std::vector<QImage> out;
    for (int i = 0; i < session.stepCount(); ++i)
        out.push_back(renderStage(session.frames(i, 1.0), Theme::light(), kStageSize));
    return out;
}

// "silicon-mapping: steps 3 “Waves” and 4 “The tail” rest on stages differing in 0.42 % of
// their pixels (at least 1 % needed)" for each pair too alike.
std::vector<QString> tooAlike(const ScenarioSession& session, const std::vector<QImage>& stages) {
    std::vector<QString> out;
    const Story& story = session.story();
    for (std::size_t i = 1; i < stages.size(); ++i) {
        const double share = differingShare(stages[i - 1], stages[i]);
        if (share >= kLeastDifference)
            continue;
        out.push_back(QString("%1: steps %2 “%3” and %4 “%5” rest on stages differing in "
                              "%6 % of their pixels (at least %7 % needed)")
                          .arg(QString::fromStdString(session.scenario().id()))
                          .arg(i)
                          .arg(QString::fromStdString(story.steps[i - 1].title))
                          .arg(i + 1)
                          .arg(QString::fromStdString(story.steps[i].title))
                          .arg(share * 100.0, 0, 'f', 2)
                          .arg(kLeastDifference * 100.0));
    }
    return out;
}

} // namespace

class TestRestingFrames : public QObject {
    Q_OBJECT
private slots:
    void consecutiveRestingFramesDiffer() {
        QStringList failures;
        for (const char* id : wb::test::kSweptScenarios) {
            const Scenario* scenario = findScenario(id);
            QVERIFY2(scenario, id);
            const ScenarioSession session(*scenario, scenario->defaultParams());
            QVERIFY2(session.stepCount() >= 2, id);
            const std::vector<QImage> stages = restingStages(session);
            for (std::size_t i = 0; i < stages.size(); ++i)
                wb::test::saveForHumans(stages[i], QString("rest_%1_%2").arg(id).arg(i + 1));
            for (const QString& f : tooAlike(session, stages))
                failures << f;
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
    }
    void aStepBesideItselfFails() {
        // The rule can fail: a step repeated (its resting frame again) is named with its titles.
        const Scenario* scenario = findScenario(wb::test::kSweptScenarios[0]);
        QVERIFY(scenario);
        const ScenarioSession session(*scenario, scenario->defaultParams());
        std::vector<QImage> stages = restingStages(session);
        QVERIFY(stages.size() >= 2);
        stages[1] = stages[0];
        const std::vector<QString> found = tooAlike(session, stages);
        QCOMPARE(found.size(), std::size_t{1});
        const QString& message = found.front();
        QVERIFY2(message.startsWith(QString::fromStdString(scenario->id()) + ": steps 1 “"),
                 qPrintable(message));
        for (int i : {0, 1})
            QVERIFY2(message.contains(
                         QString::fromStdString(session.story().steps[std::size_t(i)].title)),
                     qPrintable(message));
        QVERIFY2(message.contains("differing in 0.00 %"), qPrintable(message));
    }
    void theStageIsDrawn() {
        // A blank stage would make every comparison meaningless: each resting stage has ink.
        const Scenario* scenario = findScenario(wb::test::kSweptScenarios[0]);
        QVERIFY(scenario);
        const ScenarioSession session(*scenario, scenario->defaultParams());
        const QImage stage = renderStage(session.frames(0, 1.0), Theme::light(), kStageSize);
        QCOMPARE(stage.size(), kStageSize);
        const int ink = wb::test::countNotNear(stage, stage.rect(), Theme::light().background);
        QVERIFY2(ink > stage.width() * stage.height() / 100, qPrintable(QString::number(ink)));
    }
};

QTEST_MAIN(TestRestingFrames)
#include "test_resting_frames.moc"
