#pragma once
// The question as an interviewer asks it, and the answer card hidden until "Reveal".
// Whether a scenario's card was revealed is remembered across runs.
#include "engine/scenario.h"

#include <QWidget>

class QPushButton;
class QTextBrowser;

namespace wb {

class AnswerCard : public QWidget {
    Q_OBJECT
public:
    explicit AnswerCard(QWidget* parent = nullptr);

    void setScenario(const Scenario& scenario);
    bool isRevealed() const { return m_revealed; }
    void setRevealed(bool revealed);
    QString shownText() const; // plain text of what is on screen (for tests)

private:
    void refresh();

    QTextBrowser* m_text;
    QPushButton* m_reveal;
    const Scenario* m_scenario = nullptr;
    bool m_revealed = false;
};

} // namespace wb
