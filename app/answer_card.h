#pragma once
// The question as an interviewer asks it, and the answer card hidden until "Reveal".
// Opening a scenario always hides its answer and nothing about it is saved: the study habit
// is to work the answer out first, every time, including after a restart.
#include "engine/scenario.h"
#include "text/type_scale.h"

#include <QWidget>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QTextBrowser;

namespace wb {

class AnswerCard : public QWidget {
    Q_OBJECT
public:
    explicit AnswerCard(QWidget* parent = nullptr);

    void setScenario(const Scenario& scenario); // shows its question, answer hidden
    // This run's whiteboard answer (the story's last step): the card's answer leads with it,
    // so card and slide say the same with the same numbers. Keeps the card hidden or shown.
    void setWhiteboard(const Whiteboard& whiteboard);
    // This run's "Check yourself" questions (Story::checks), asked before Reveal: a number
    // field and a Check button each, with the result and the working beside it. Every call
    // is a new run, so what was typed and checked before is cleared; none: no section.
    void setChecks(const std::vector<CheckQuestion>& checks);
    bool isRevealed() const { return m_revealed; }
    void setRevealed(bool revealed);
    QString shownText() const; // plain text of what is on screen (for tests)
    // The card's text at the slide's body size (never under its floor), so question and
    // answer read at the size of the slide they explain.
    void setTypeScale(const TypeScale& scale);

signals:
    void revealedChanged(bool revealed); // keeps the View menu's check mark in step

private:
    // One question's widgets; their object names end in the question's index
    // ("checkField0", "checkResult0", "checkWorking0") for tests and style sheets.
    struct CheckRow {
        QLineEdit* field = nullptr;
        QLabel* result = nullptr;
        QLabel* working = nullptr;
    };
    void refresh();
    void check(std::size_t index); // reads the field and says Right, Not quite, or why not

    QTextBrowser* m_text;
    QScrollArea* m_checkScroll;
    QWidget* m_checkBox; // the "Check yourself" section, in m_checkScroll
    QPushButton* m_reveal;
    const Scenario* m_scenario = nullptr;
    Whiteboard m_whiteboard;
    std::vector<CheckQuestion> m_checks;
    std::vector<CheckRow> m_checkRows;
    bool m_revealed = false;
};

} // namespace wb
