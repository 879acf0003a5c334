#pragma once
// The question as an interviewer asks it, and the answer card hidden until "Reveal".
// Opening a scenario always hides its answer and nothing about it is saved: the study habit
// is to work the answer out first, every time, including after a restart.
#include "engine/scenario.h"
#include "text/type_scale.h"

#include <QWidget>

class QPushButton;
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
    bool isRevealed() const { return m_revealed; }
    void setRevealed(bool revealed);
    QString shownText() const; // plain text of what is on screen (for tests)
    // The card's text at the slide's body size (never under its floor), so question and
    // answer read at the size of the slide they explain.
    void setTypeScale(const TypeScale& scale);

signals:
    void revealedChanged(bool revealed); // keeps the View menu's check mark in step

private:
    void refresh();

    QTextBrowser* m_text;
    QPushButton* m_reveal;
    const Scenario* m_scenario = nullptr;
    Whiteboard m_whiteboard;
    bool m_revealed = false;
};

} // namespace wb
