// The answer card's "Check yourself" section, driven like a user: type a number, press Enter
// or Check, read Right / Not quite and the working; junk gets a message beside its field; a
// new run's questions clear the old answers; Reveal shows every working.
#include "answer_card.h"
#include "engine/registry.h"
#include "engine/story.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QtTest>

using namespace wb;

namespace {

const Scenario& siliconMapping() {
    const Scenario* s = findScenario("silicon-mapping");
    if (!s)
        qFatal("silicon-mapping is not registered");
    return *s;
}

Story build(const Scenario& s, const std::vector<std::pair<std::string, std::string>>& set = {}) {
    Params p = s.defaultParams();
    for (const auto& [name, value] : set)
        if (p.set(name, value))
            qFatal("cannot set %s", name.c_str());
    return s.build(p);
}

// A card as MainWindow fills it for one run of `scenario`, shown offscreen.
struct ShownCard {
    explicit ShownCard(const Scenario& scenario, const Story& story) {
        card.setScenario(scenario);
        card.setWhiteboard(story.whiteboard);
        card.setChecks(story.checks);
        card.resize(420, 700);
        card.show();
    }
    QLineEdit* field(int i) const {
        return card.findChild<QLineEdit*>(QString("checkField%1").arg(i));
    }
    QLabel* result(int i) const { return card.findChild<QLabel*>(QString("checkResult%1").arg(i)); }
    QLabel* working(int i) const {
        return card.findChild<QLabel*>(QString("checkWorking%1").arg(i));
    }
    QPushButton* button(int i) const {
        return card.findChild<QPushButton*>(QString("checkButton%1").arg(i));
    }
    QWidget* section() const { return card.findChild<QWidget*>("checkYourself"); }
    // Types `text` into question i's field and presses Enter, as a user does.
    void answer(int i, const QString& text) const {
        field(i)->clear();
        QTest::keyClicks(field(i), text);
        QTest::keyClick(field(i), Qt::Key_Return);
    }
    AnswerCard card;
};

CheckQuestion bandwidthQuestion() {
    return {"What bandwidth does the copy reach?", 200.0, "GB/s", 0.05, "400 MB in 2 ms."};
}

} // namespace

class TestAnswerCard : public QObject {
    Q_OBJECT
private slots:
    void asksTheStorysQuestionsBeforeReveal() {
        const Story story = build(siliconMapping());
        QVERIFY(!story.checks.empty());
        ShownCard c(siliconMapping(), story);
        QVERIFY(c.section() && c.section()->isVisible());
        for (std::size_t i = 0; i < story.checks.size(); ++i) {
            const int n = static_cast<int>(i);
            QVERIFY(c.field(n) && c.button(n) && c.result(n) && c.working(n));
            QCOMPARE(c.field(n)->accessibleName(),
                     QString::fromStdString(story.checks[i].question));
            QVERIFY(!c.result(n)->isVisible());
            QVERIFY(!c.working(n)->isVisible()); // the working would give the answer away
        }
        // The question and its unit are on the card.
        QStringList shown;
        for (const QLabel* l : c.section()->findChildren<QLabel*>())
            shown << l->text();
        QVERIFY2(shown.contains(QString::fromStdString(story.checks[0].question)),
                 qPrintable(shown.join(" | ")));
        QVERIFY(shown.contains(QString::fromStdString(story.checks[0].unit)));
    }
    void theModelsAnswerIsRightAndShowsTheWorking() {
        const Story story = build(siliconMapping());
        ShownCard c(siliconMapping(), story);
        for (std::size_t i = 0; i < story.checks.size(); ++i) {
            const CheckQuestion& q = story.checks[i];
            const int n = static_cast<int>(i);
            c.answer(n, QString::number(q.answer));
            QVERIFY(c.result(n)->isVisible());
            QCOMPARE(c.result(n)->text(), QString("Right — exactly."));
            QVERIFY(c.working(n)->isVisible());
            QVERIFY2(c.working(n)->text().contains(QString::fromStdString(q.working)),
                     qPrintable(c.working(n)->text()));
        }
    }
    void aWrongNumberIsNotQuite() {
        const Story story = build(siliconMapping());
        ShownCard c(siliconMapping(), story);
        c.answer(0, QString::number(story.checks[0].answer + 1));
        QCOMPARE(c.result(0)->text(), QString("Not quite — the answer must match exactly."));
        QVERIFY(c.working(0)->isVisible()); // how to get there, once a number was tried
        QVERIFY(!c.result(1)->isVisible()); // the other question is untouched
    }
    void theToleranceIsStated() {
        ShownCard c(siliconMapping(), build(siliconMapping()));
        c.card.setChecks({bandwidthQuestion()});
        c.answer(0, "205");
        QCOMPARE(c.result(0)->text(), QString("Right — within ±5 %."));
        c.answer(0, "211 GB/s");
        QCOMPARE(c.result(0)->text(), QString("Not quite — the answer must be within ±5 %."));
        // The Check button checks as Enter does.
        c.field(0)->setText("1.9e2");
        QTest::mouseClick(c.button(0), Qt::LeftButton);
        QCOMPARE(c.result(0)->text(), QString("Right — within ±5 %."));
    }
    void percentagesReadWithTheirSign() {
        ShownCard c(siliconMapping(), build(siliconMapping()));
        c.card.setChecks({{"How full is the tail wave?", 75.0, "%", 0.0, "6 of 8 slots."}});
        for (const char* typed : {"75 %", "75%", " 75", "75"}) {
            c.answer(0, typed);
            QVERIFY2(c.result(0)->text().startsWith("Right"), qPrintable(typed));
        }
    }
    void junkGetsAMessageBesideItsField() {
        const Story story = build(siliconMapping());
        ShownCard c(siliconMapping(), story);
        for (const char* junk : {"eight", "1,5", "8x", "", "  "}) {
            c.answer(0, junk);
            QCOMPARE(c.result(0)->text(), QString("Type a number, e.g. 1,057"));
            QVERIFY(c.result(0)->isVisible());
            QVERIFY(!c.working(0)->isVisible()); // nothing was answered yet
            QCOMPARE(c.field(0)->accessibleDescription(), c.result(0)->text());
        }
        // Beside the field: right under its row, over the field's own column, before the
        // next question.
        QCoreApplication::processEvents();
        const QRect fieldRect = c.field(0)->geometry();
        const QRect resultRect = c.result(0)->geometry();
        QVERIFY(resultRect.top() >= fieldRect.bottom());
        QVERIFY2(resultRect.top() - fieldRect.bottom() < 3 * fieldRect.height(),
                 qPrintable(QString("%1 %2").arg(resultRect.top()).arg(fieldRect.bottom())));
        QVERIFY(resultRect.bottom() < c.field(1)->geometry().top());
        // A number then replaces the message.
        c.answer(0, QString::number(story.checks[0].answer));
        QVERIFY(c.result(0)->text().startsWith("Right"));
    }
    void aNewRunClearsOldAnswers() {
        const Story first = build(siliconMapping());
        ShownCard c(siliconMapping(), first);
        c.answer(1, QString::number(first.checks[1].answer));
        QVERIFY(c.result(1)->isVisible());
        const Story second = build(siliconMapping(), {{"blocks", "500"}});
        QVERIFY(second.checks[1].question != first.checks[1].question);
        c.card.setChecks(second.checks);
        QVERIFY(c.field(1)->text().isEmpty());
        QVERIFY(!c.result(1)->isVisible());
        QVERIFY(!c.working(1)->isVisible());
        QCOMPARE(c.field(1)->accessibleName(), QString::fromStdString(second.checks[1].question));
        // The old answer checked against the new run.
        c.answer(1, QString::number(second.checks[1].answer));
        QVERIFY(c.result(1)->text().startsWith("Right"));
    }
    void revealShowsEveryWorking() {
        const Story story = build(siliconMapping());
        ShownCard c(siliconMapping(), story);
        for (const CheckQuestion& q : story.checks)
            QVERIFY(!c.card.shownText().contains(QString::fromStdString(q.working)));
        c.card.setRevealed(true);
        for (const CheckQuestion& q : story.checks)
            QVERIFY2(c.card.shownText().contains(QString::fromStdString(q.working)),
                     qPrintable(c.card.shownText()));
        QVERIFY(c.card.shownText().contains("Check yourself"));
        QVERIFY(!c.section()->isVisible()); // the answer says it all
        c.answer(0, "1");                   // typed before Hide...
        c.card.setRevealed(false);
        QVERIFY(c.section()->isVisible());
        QVERIFY(c.result(0)->isVisible()); // ...is kept: the run did not change
    }
    void scenariosWithoutChecksShowNoSection() {
        const Story story = build(siliconMapping());
        ShownCard c(siliconMapping(), story);
        c.card.setChecks({});
        QVERIFY(!c.section()->isVisible());
        QVERIFY(!c.card.findChild<QLineEdit*>());
        c.card.setRevealed(true);
        QVERIFY(!c.card.shownText().contains("Check yourself"));
        // Another scenario opens without the last one's questions.
        c.card.setRevealed(false);
        c.card.setChecks(story.checks);
        c.card.setScenario(siliconMapping());
        QVERIFY(!c.section()->isVisible());
    }
    void keyboardOnly() {
        const Story story = build(siliconMapping());
        ShownCard c(siliconMapping(), story);
        auto* reveal = c.card.findChildren<QPushButton*>().last();
        QVERIFY(reveal->text().contains("Reveal"));
        // Tab: field, its Check button, the next field, ..., then Reveal.
        c.field(0)->setFocus();
        QTest::keyClicks(c.field(0), QString::number(story.checks[0].answer));
        QTest::keyClick(c.field(0), Qt::Key_Tab);
        QCOMPARE(c.card.focusWidget(), static_cast<QWidget*>(c.button(0)));
        QTest::keyClick(c.button(0), Qt::Key_Space);
        QVERIFY(c.result(0)->text().startsWith("Right"));
        QTest::keyClick(c.button(0), Qt::Key_Tab);
        QCOMPARE(c.card.focusWidget(), static_cast<QWidget*>(c.field(1)));
        QTest::keyClick(c.field(1), Qt::Key_Tab);
        QTest::keyClick(c.button(1), Qt::Key_Tab);
        QCOMPARE(c.card.focusWidget(), static_cast<QWidget*>(reveal));
    }
    void followsTheTypeScale() {
        const Story story = build(siliconMapping());
        ShownCard c(siliconMapping(), story);
        const TypeScale window = TypeScale::forSlide(700);
        const TypeScale presenting = TypeScale::forSlide(1080, 1.6);
        QVERIFY(presenting.px(TextRole::Body) > window.px(TextRole::Body));
        for (const TypeScale& scale : {window, presenting}) {
            c.card.setTypeScale(scale);
            const int px = static_cast<int>(std::lround(scale.px(TextRole::Body)));
            for (QWidget* w :
                 {static_cast<QWidget*>(c.field(0)), static_cast<QWidget*>(c.button(0)),
                  static_cast<QWidget*>(c.result(0))})
                QCOMPARE(w->font().pixelSize(), px);
        }
        // A new run's questions come at the size already set.
        c.card.setChecks(story.checks);
        QCOMPARE(c.field(0)->font().pixelSize(),
                 static_cast<int>(std::lround(presenting.px(TextRole::Body))));
        // And the section is drawn: the heading's pixels differ from the card's background.
        const QImage image = c.section()->grab().toImage();
        QVERIFY(!image.isNull());
        const QColor background = image.pixelColor(image.width() - 1, image.height() - 1);
        int ink = 0;
        for (int y = 0; y < image.height() / 4; ++y)
            for (int x = 0; x < image.width(); ++x)
                ink += image.pixelColor(x, y) != background;
        QVERIFY2(ink > 50, qPrintable(QString::number(ink)));
    }
};

QTEST_MAIN(TestAnswerCard)
#include "test_answer_card.moc"
