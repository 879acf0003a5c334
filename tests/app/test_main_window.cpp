// The main window driven like a user: scenarios, steps, keys, parameters, the answer card,
// presentation mode with the pen, exports.
#include "answer_card.h"
#include "device/device_query.h"
#include "engine/registry.h"
#include "frames/cluster_map_frame.h"
#include "main_window.h"
#include "param_panel.h"
#include "playback_controller.h"
#include "scenario_browser.h"
#include "slide_widget.h"
#include "stage/frame_stage.h"
#include "stage/pen_overlay.h"

#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace wb;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("WarpboardTest");
        QSettings().clear();
    }
    void opensTheDefaultScenario() {
        MainWindow w;
        w.openInitial(nullptr, 0, false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(QString::fromStdString(w.session()->scenario().id()), QString("ring-allreduce"));
        QCOMPARE(w.playback()->step(), 0);
        QVERIFY(w.slide()->text().stepLabel.startsWith("Step 1/"));
        QVERIFY(w.slide()->text().provenance.contains("modeled on CPU"));
    }
    void longTextsNeverWidenTheSlide() {
        // Imported file names make long provenance lines; exports render at a fixed size, so
        // the slide must not ask for more width than it is given.
        SlideWidget slide;
        SlideText text;
        text.scenarioTitle = QString(400, QChar('T'));
        text.stepLabel = "Step 1/1";
        text.stepTitle = "title";
        text.narration = QString("word ").repeated(200);
        text.provenance = QString("IMPORTED from file_%1.csv, ").repeated(60).arg(7);
        slide.setText(text);
        QVERIFY2(slide.minimumSizeHint().width() < 1000,
                 qPrintable(QString::number(slide.minimumSizeHint().width())));
    }
    void keysStepThroughTheStory() {
        MainWindow w;
        w.openInitial(findScenario("roofline"), 0, false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.slide()->setFocus();
        QTest::keyClick(&w, Qt::Key_Right);
        QCOMPARE(w.playback()->step(), 1);
        QTest::keyClick(&w, Qt::Key_Space);
        QCOMPARE(w.playback()->step(), 2);
        QTest::keyClick(&w, Qt::Key_Left);
        QCOMPARE(w.playback()->step(), 1);
        QTest::keyClick(&w, Qt::Key_End);
        QCOMPARE(w.playback()->step(), w.session()->stepCount() - 1);
        QTest::keyClick(&w, Qt::Key_Home);
        QCOMPARE(w.playback()->step(), 0);
        QTest::keyClick(&w, Qt::Key_4);
        QCOMPARE(w.playback()->step(), 3);
        QVERIFY(w.slide()->text().stepLabel.startsWith("Step 4/"));
    }
    void parameterChangesRebuildTheStory() {
        MainWindow w;
        w.openInitial(findScenario("ring-allreduce"), 1, false);
        const Frames before = w.session()->frames(1, 0.5);
        auto* ranks = w.paramPanel()->findChild<QDoubleSpinBox*>("ranks");
        QVERIFY(ranks);
        ranks->setValue(8);
        QCOMPARE(w.session()->params().integer("ranks"), 8LL);
        QCOMPARE(w.playback()->step(), 1); // the step is kept
        QVERIFY(!(w.session()->frames(1, 0.5) == before));
        const Frames after = w.session()->frames(1, 0.5);
        const auto& ring = std::get<RingFrame>(after.items.front());
        QCOMPARE(ring.ranks, 8);
    }
    void aClickOnTheClusterMapFailsThatComponent() {
        // MainWindow asks the scenario what a click means (Scenario::paramsForClick); for
        // blast-radius a rack clicked on the map becomes fail=rack, index=5 in the panel too.
        MainWindow w;
        w.openInitial(findScenario("blast-radius"), 1, false);
        const int step = w.playback()->step();
        emit w.slide()->stage()->componentClicked(static_cast<int>(MapKind::Rack), 5);
        QCOMPARE(w.session()->params().text("fail"), std::string("rack"));
        QCOMPARE(w.session()->params().integer("index"), 5LL);
        QCOMPARE(w.playback()->step(), step); // the step is kept
        auto* fail = w.paramPanel()->findChild<QComboBox*>("fail");
        QVERIFY(fail);
        QCOMPARE(fail->currentText(), QString("rack"));
        // A scenario without a map ignores clicks: nothing changes.
        w.openScenario("ring-allreduce", 0);
        const Params before = w.session()->params();
        emit w.slide()->stage()->componentClicked(static_cast<int>(MapKind::Rack), 5);
        QVERIFY(w.session()->params() == before);
    }
    void answersStartHiddenAfterARestart() {
        {
            MainWindow w;
            w.openInitial(findScenario("roofline"), 0, false);
            QVERIFY(!w.answerCard()->isRevealed());
            QVERIFY(!w.answerCard()->shownText().contains("295"));
            w.answerCard()->setRevealed(true);
            QVERIFY(w.answerCard()->shownText().contains("295"));
            w.close();
        }
        // Nothing about answers is saved; the restart reopens the scenario, answer hidden.
        QVERIFY2(QSettings().allKeys().filter("answer", Qt::CaseInsensitive).isEmpty(),
                 qPrintable(QSettings().allKeys().join(", ")));
        MainWindow again;
        again.openInitial(nullptr, 0, false);
        QCOMPARE(QString::fromStdString(again.session()->scenario().id()), QString("roofline"));
        QVERIFY(!again.answerCard()->isRevealed());
        QVERIFY(!again.answerCard()->shownText().contains("295"));
    }
    void answersSavedByEarlierVersionsAreForgotten() {
        QSettings().setValue("answers/revealed/roofline", true);
        MainWindow w;
        w.openInitial(findScenario("roofline"), 0, false);
        QVERIFY(!w.answerCard()->isRevealed());
        QVERIFY(!QSettings().contains("answers/revealed/roofline"));
    }
    void keyAndMenuRevealTheAnswerAndReopeningHidesIt() {
        MainWindow w;
        w.openInitial(findScenario("ring-allreduce"), 0, false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* action = w.findChild<QAction*>("revealAnswer");
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::Key_A));
        w.slide()->setFocus();
        QTest::keyClick(&w, Qt::Key_A);
        QVERIFY(w.answerCard()->isRevealed());
        QVERIFY(action->isChecked());
        action->trigger();
        QVERIFY(!w.answerCard()->isRevealed());
        action->trigger();
        QVERIFY(w.answerCard()->isRevealed());

        // Another scenario opens hidden; so does the same one clicked again in the browser,
        // from its first step.
        w.openScenario("roofline");
        QVERIFY(!w.answerCard()->isRevealed());
        QVERIFY(!action->isChecked());
        w.answerCard()->setRevealed(true);
        w.playback()->goToStep(2, false);
        auto* browser = w.findChild<ScenarioBrowser*>();
        QVERIFY(browser);
        QTreeWidgetItem* item = browser->currentItem();
        QVERIFY(item);
        QCOMPARE(item->data(0, Qt::UserRole).toString(), QString("roofline"));
        browser->scrollToItem(item);
        QTest::mouseClick(browser->viewport(), Qt::LeftButton, {},
                          browser->visualItemRect(item).center());
        QVERIFY(!w.answerCard()->isRevealed());
        QVERIFY(!action->isChecked());
        QCOMPARE(w.playback()->step(), 0);
    }
    void typingTheLetterAInAFieldDoesNotReveal() {
        MainWindow w;
        w.openInitial(findScenario("blast-radius"), 0, false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* layout = w.paramPanel()->findChild<QLineEdit*>("layout");
        QVERIFY(layout);
        layout->setFocus();
        layout->end(false);
        QTest::keyClick(layout, Qt::Key_A);
        QVERIFY(layout->text().endsWith('a'));
        QVERIFY(!w.answerCard()->isRevealed());
        // The window is destroyed with the edited field still focused (see ~MainWindow).
    }
    void checkYourselfFollowsTheRun() {
        MainWindow w;
        w.openInitial(findScenario("silicon-mapping"), 0, false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const std::vector<CheckQuestion> checks = w.session()->story().checks;
        QCOMPARE(checks.size(), std::size_t{2});
        auto* field = w.answerCard()->findChild<QLineEdit*>("checkField1");
        auto* result = w.answerCard()->findChild<QLabel*>("checkResult1");
        QVERIFY(field && result);
        QCOMPARE(field->accessibleName(), QString::fromStdString(checks[1].question));
        // Digits and letters typed into the field stay there: no step jump, no reveal.
        field->setFocus();
        QTest::keyClicks(field, "3a");
        QCOMPARE(field->text(), QString("3a"));
        QCOMPARE(w.playback()->step(), 0);
        QVERIFY(!w.answerCard()->isRevealed());
        field->clear();
        QTest::keyClicks(field, QString::number(checks[1].answer));
        QTest::keyClick(field, Qt::Key_Return);
        QVERIFY(result->isVisible());
        QVERIFY(result->text().startsWith("Right"));
        // A parameter change is a new run: new numbers in the question, the old answer gone.
        auto* blocks = w.paramPanel()->findChild<QDoubleSpinBox*>("blocks");
        QVERIFY(blocks);
        blocks->setValue(500);
        const std::vector<CheckQuestion> after = w.session()->story().checks;
        QVERIFY(after[1].question != checks[1].question);
        field = w.answerCard()->findChild<QLineEdit*>("checkField1");
        result = w.answerCard()->findChild<QLabel*>("checkResult1");
        QVERIFY(field && result);
        QCOMPARE(field->accessibleName(), QString::fromStdString(after[1].question));
        QVERIFY(field->text().isEmpty());
        QVERIFY(!result->isVisible());
        // Every shipped lesson has questions now; a card without any hides its section
        // (test_answer_card: scenariosWithoutChecksShowNoSection).
    }
    void presentationModeHidesEverythingButTheView() {
        MainWindow w;
        w.openInitial(findScenario("ring-allreduce"), 0, false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setPresentation(true);
        QVERIFY(w.isPresenting());
        QVERIFY(!w.menuBar()->isVisible());
        for (auto* d : w.findChildren<QDockWidget*>())
            QVERIFY(!d->isVisible());
        // Pen: P, draw, Z undo; pages are per step.
        QTest::keyClick(&w, Qt::Key_P);
        QCOMPARE(w.pen()->mode(), PenOverlay::Mode::Pen);
        w.pen()->addStroke({QPointF(10, 10), QPointF(200, 120), QPointF(300, 60)});
        QCOMPARE(w.pen()->strokeCount(), 1);
        QTest::keyClick(&w, Qt::Key_Right);
        QCOMPARE(w.pen()->strokeCount(), 0);
        QTest::keyClick(&w, Qt::Key_Left);
        QCOMPARE(w.pen()->strokeCount(), 1);
        QTest::keyClick(&w, Qt::Key_Z);
        QCOMPARE(w.pen()->strokeCount(), 0);
        QTest::keyClick(&w, Qt::Key_B);
        QVERIFY(w.isBlanked());
        QTest::keyClick(&w, Qt::Key_B);
        QVERIFY(!w.isBlanked());
        QTest::keyClick(&w, Qt::Key_Escape);
        QVERIFY(!w.isPresenting());
        QVERIFY(w.menuBar()->isVisible());
    }
    void typingAConditionSelectsCustomAndShowsItsErrorBesideTheField() {
        MainWindow w;
        w.openInitial(findScenario("warp-divergence"), 1, false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const auto param = [&](const char* name) {
            return QString::fromStdString(w.session()->params().text(name));
        };
        auto* condition = w.paramPanel()->findChild<QLineEdit*>("condition");
        auto* branch = w.paramPanel()->findChild<QComboBox*>("branch");
        auto* error = w.paramPanel()->findChild<QLabel*>("condition-error");
        QVERIFY(condition && branch && error);
        QCOMPARE(param("branch"), QString("odd-even"));
        QVERIFY(!error->isVisible());

        // Leaving the field without typing changes nothing.
        emit condition->editingFinished();
        QCOMPARE(param("branch"), QString("odd-even"));

        // Typing a condition selects the custom branch, and the story follows it.
        condition->selectAll();
        QTest::keyClicks(condition, "lane < 4");
        QTest::keyClick(condition, Qt::Key_Return);
        QCOMPARE(param("branch"), QString("custom"));
        QCOMPARE(param("condition"), QString("lane < 4"));
        QCOMPARE(branch->currentText(), QString("custom"));
        QCOMPARE(w.playback()->step(), 1);
        QVERIFY(QString::fromStdString(w.session()->story().steps[1].title).contains("lane < 4"));
        QVERIFY(w.paramPanel()->errorText("condition").isEmpty());

        // A condition that does not parse: the error shows beside the field, with its column,
        // and the last good condition stays.
        condition->selectAll();
        QTest::keyClicks(condition, "lane < (4");
        QTest::keyClick(condition, Qt::Key_Return);
        QVERIFY2(w.paramPanel()->errorText("condition").contains("column"),
                 qPrintable(w.paramPanel()->errorText("condition")));
        QVERIFY(error->isVisible());
        QCOMPARE(param("condition"), QString("lane < 4"));
        if (const QString dir = qEnvironmentVariable("WB_RENDER_DIR"); !dir.isEmpty())
            w.grab().save(dir + "/condition_error.png");

        // Fixed, the error goes.
        condition->selectAll();
        QTest::keyClicks(condition, "lane >= 12");
        QTest::keyClick(condition, Qt::Key_Return);
        QCOMPARE(param("condition"), QString("lane >= 12"));
        QVERIFY(!error->isVisible());
        QVERIFY(w.paramPanel()->errorText("condition").isEmpty());
    }
    void exportsTheCurrentStepWithPenStrokes() {
        MainWindow w;
        w.openInitial(findScenario("ring-allreduce"), 4, false);
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTemporaryDir dir;
        QCOMPARE(w.exportCurrentStep(dir.filePath("a.png"), {960, 540}), QString());
        QImage plain(dir.filePath("a.png"));
        QCOMPARE(plain.size(), QSize(960, 540));
        w.pen()->addStroke({QPointF(0, 0), QPointF(w.pen()->width(), w.pen()->height())});
        QCOMPARE(w.exportCurrentStep(dir.filePath("b.png"), {960, 540}), QString());
        QImage withPen(dir.filePath("b.png"));
        QVERIFY(plain != withPen); // the drawing is in the export
        QCOMPARE(w.exportCurrentStep(dir.filePath("c.svg")), QString());
        QVERIFY(QFileInfo(dir.filePath("c.svg")).size() > 1000);
        QVERIFY(!w.exportCurrentStep(dir.filePath("d.bmp")).isEmpty());
    }
    void drawsNothingWhenIdle() {
        // After a step has played, no timer may keep repainting the view.
        MainWindow w;
        w.openInitial(findScenario("ring-allreduce"), 0, false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.playback()->setSpeed(4.0);
        w.playback()->next();
        QVERIFY(w.playback()->isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(!w.playback()->isPlaying(), 10000);
        struct PaintCounter : QObject {
            int paints = 0;
            bool eventFilter(QObject*, QEvent* e) override {
                paints += e->type() == QEvent::Paint;
                return false;
            }
        } counter;
        QTest::qWait(100); // let the last frame land
        for (QWidget* child : w.findChildren<QWidget*>())
            child->installEventFilter(&counter);
        QTest::qWait(400);
        QCOMPARE(counter.paints, 0);
    }
    void playingRepaintsTheView() {
        MainWindow w;
        w.openInitial(findScenario("ring-allreduce"), 0, false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const Frames first = w.session()->frames(1, 0.0);
        w.playback()->next();
        QTest::qWait(300);
        QVERIFY(w.playback()->t() > 0.0);
        QVERIFY(!(w.session()->frames(1, w.playback()->t()) == first)); // chunks moved
        w.playback()->pause();
    }
    void runOnThisGpuWithoutAGpuKeepsTheRecording() {
        MainWindow w;
        w.openInitial(findScenario("coalescing-transpose"), 4, false);
        const Frames before = w.session()->frames(4, 1.0);
        const QString provenanceBefore = w.slide()->text().provenance;
        QSignalSpy done(&w, &MainWindow::liveRunFinished);
        w.runOnThisGpu();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30000);
        if (done.first().at(0).toBool())
            QSKIP("this machine has a GPU: the live path ran");
        // Said as the status line says it, not as CUDA's error text.
        QCOMPARE(done.first().at(1).toString(),
                 QString::fromStdString(queryDevices().statusLine()));
        QVERIFY2(!done.first().at(1).toString().contains("no GPU:"),
                 qPrintable(done.first().at(1).toString()));
        QVERIFY(w.session()->frames(4, 1.0) == before); // nothing the user had open is lost
        QCOMPARE(w.slide()->text().provenance, provenanceBefore);
        QVERIFY(!w.isRecording());
    }
    void deviceStatusIsASentenceWithTheDetailsInItsTooltip() {
        MainWindow w;
        w.openInitial(nullptr, 0, false);
        auto* status = w.findChild<QLabel*>("deviceStatus");
        QVERIFY(status);
        QTRY_VERIFY_WITH_TIMEOUT(status->text() != QString("Looking for a GPU…"), 30000);
        const DeviceQuery q = queryDevices();
        QCOMPARE(status->text(), QString::fromStdString(q.statusLine()));
        QCOMPARE(status->toolTip(), QString::fromStdString(q.diagnostics()));
        if (q.hasGpu())
            QSKIP("this machine has a GPU: the line names it");
        // No GPU: a sentence on the line, CUDA's own text and code only in the tooltip.
        QVERIFY2(status->text().endsWith("showing recorded or modeled data"),
                 qPrintable(status->text()));
        QVERIFY2(!status->text().contains("no GPU:"), qPrintable(status->text()));
        QVERIFY2(status->toolTip().startsWith("no GPU: "), qPrintable(status->toolTip()));
    }
    void modelOnlyScenariosSayTheyHaveNoKernels() {
        MainWindow w;
        w.openInitial(findScenario("ring-allreduce"), 0, false);
        QSignalSpy done(&w, &MainWindow::liveRunFinished);
        w.runOnThisGpu();
        QCOMPARE(done.count(), 1);
        QCOMPARE(done.first().at(0).toBool(), false);
        QVERIFY(done.first().at(1).toString().contains("no GPU kernels"));
    }
    void themeSwitchPersists() {
        {
            MainWindow w;
            w.openInitial(nullptr, 0, std::nullopt);
            w.setDarkTheme(true);
            QVERIFY(w.slide()->palette().color(QPalette::Window).lightness() < 100);
        }
        MainWindow again;
        again.openInitial(nullptr, 0, std::nullopt);
        QVERIFY(again.isDarkTheme());
        again.setDarkTheme(false);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
