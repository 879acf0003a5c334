// Lessons that stay true under every parameter: for each scenario that follows the lesson
// mechanism, every parameter at its extremes and seeded random combinations build, every
// number on every resting slide is a value the model computed, and the story closes on its
// whiteboard answer.
#include "scenario_sweep.h"

using namespace wb;
using namespace wb::test;

class TestScenarioSweep : public QObject {
    Q_OBJECT
private slots:
    void wordsComeFromResults_data() {
        QTest::addColumn<QString>("id");
        for (const char* id : kSweptScenarios)
            QTest::newRow(id) << QString(id);
    }
    void wordsComeFromResults() {
        QFETCH(QString, id);
        const Scenario* s = findScenario(id.toStdString());
        QVERIFY(s);
        int built = 0;
        for (const SweepCase& c : sweepCases(*s)) {
            const std::optional<Story> story = sweepBuild(*s, c.params);
            if (!story)
                continue;
            ++built;
            for (const Step& step : story->steps) {
                const auto misses = unexplainedNumbers(restingWords(step),
                                                       quotableValues(*s, c.params, *story, step));
                if (!misses.empty())
                    QFAIL(qPrintable(QString::fromStdString(c.label + ", step \"" + step.title +
                                                            "\": " + misses.front())));
            }
        }
        QVERIFY2(built >= 3, "the sweep built too few cases to mean anything");
    }

    void closesOnTheWhiteboardAnswer_data() { wordsComeFromResults_data(); }
    void closesOnTheWhiteboardAnswer() {
        QFETCH(QString, id);
        const Scenario* s = findScenario(id.toStdString());
        QVERIFY(s);
        const Story story = s->build(s->defaultParams());
        QVERIFY(!story.steps.empty());
        QCOMPARE(QString::fromStdString(story.steps.back().title), QString(kWhiteboardTitle));
        QVERIFY(!story.whiteboard.question.empty());
        QVERIFY(story.whiteboard.points.size() >= 3 && story.whiteboard.points.size() <= 6);
        // The slide draws the same points the answer card shows.
        const Frames frames = story.steps.back().frames(1.0);
        bool drawn = false;
        for (const Frame& f : frames.items)
            if (const auto* facts = std::get_if<FactsFrame>(&f)) {
                QCOMPARE(facts->rows.size(), story.whiteboard.points.size());
                for (std::size_t i = 0; i < facts->rows.size(); ++i)
                    QCOMPARE(facts->rows[i].label, story.whiteboard.points[i].text);
                drawn = true;
            }
        QVERIFY(drawn);
    }

    // Check yourself: 1-3 questions the model answers for every swept case; the model's own
    // answer passes, and one outside the tolerance fails.
    void asksQuestionsTheModelAnswers_data() { wordsComeFromResults_data(); }
    void asksQuestionsTheModelAnswers() {
        QFETCH(QString, id);
        const Scenario* s = findScenario(id.toStdString());
        QVERIFY(s);
        for (const SweepCase& c : sweepCases(*s)) {
            const std::optional<Story> story = sweepBuild(*s, c.params);
            if (!story)
                continue;
            QVERIFY2(!story->checks.empty() && story->checks.size() <= 3, c.label.c_str());
            for (const CheckQuestion& q : story->checks) {
                QVERIFY2(!q.question.empty() && !q.working.empty(), c.label.c_str());
                QVERIFY2(std::isfinite(q.answer), (c.label + ": " + q.question).c_str());
                QVERIFY(checkAnswer(q, q.answer));
                const double off =
                    q.answer == 0.0 ? 1.0 : q.answer * (1.0 + 2.0 * q.tolerance) + 1.0;
                QVERIFY2(!checkAnswer(q, off), (c.label + ": " + q.question).c_str());
            }
        }
    }

    void aCheckAcceptsWithinItsTolerance() {
        const CheckQuestion q{"How many?", 200.0, "GB/s", 0.05, "…"};
        QVERIFY(checkAnswer(q, 200.0) && checkAnswer(q, 190.0) && checkAnswer(q, 210.0));
        QVERIFY(!checkAnswer(q, 189.0) && !checkAnswer(q, 211.0));
        QVERIFY(!checkAnswer(q, std::nan("")));
        const CheckQuestion exact{"How many waves?", 3.0, "waves", 0.0, "…"};
        QVERIFY(checkAnswer(exact, 3.0) && !checkAnswer(exact, 3.5));
    }

    void theExtractorReadsUnitsAndSkipsNames() {
        const auto q = quotedNumbers("H100 runs 1,057 blocks in 2.73 GB at 25 % (§3.1, BF16) "
                                     "for 4096³ and 41.8 ms");
        QCOMPARE(q.size(), std::size_t(5));
        QCOMPARE(q[0].shown, 1057.0);
        QVERIFY(shows(q[1], 2.73e9) && shows(q[1], 2.734) && !shows(q[1], 2.74e9));
        QVERIFY(q[2].percent && shows(q[2], 0.25) && shows(q[2], 25.0));
        QCOMPARE(q[3].shown, 4096.0);
        QVERIFY(shows(q[4], 0.0418) && !shows(q[4], 0.042));
    }
};

QTEST_GUILESS_MAIN(TestScenarioSweep)
#include "test_scenario_sweep.moc"
