#include "answer_card.h"

#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <cmath>

namespace wb {

AnswerCard::AnswerCard(QWidget* parent)
    : QWidget(parent)
    , m_text(new QTextBrowser(this))
    , m_reveal(new QPushButton(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_text->setOpenExternalLinks(true);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_reveal);
    connect(m_reveal, &QPushButton::clicked, this, [this] { setRevealed(!m_revealed); });
}

void AnswerCard::setScenario(const Scenario& scenario) {
    m_scenario = &scenario;
    m_whiteboard = {};  // the new story brings its own
    setRevealed(false); // refreshes: the question changed even if the answer was hidden
}

void AnswerCard::setWhiteboard(const Whiteboard& whiteboard) {
    m_whiteboard = whiteboard;
    refresh();
}

void AnswerCard::setRevealed(bool revealed) {
    const bool changed = revealed != m_revealed;
    m_revealed = revealed;
    refresh();
    if (changed)
        emit revealedChanged(revealed);
}

void AnswerCard::setTypeScale(const TypeScale& scale) {
    QFont f = m_text->font();
    f.setPixelSize(static_cast<int>(std::lround(scale.px(TextRole::Body))));
    m_text->setFont(f);
}

QString AnswerCard::shownText() const {
    return m_text->toPlainText();
}

void AnswerCard::refresh() {
    if (!m_scenario)
        return;
    QString md = "#### Question\n\n" + QString::fromStdString(m_scenario->question()) + "\n\n";
    if (m_revealed) {
        if (!m_whiteboard.points.empty()) {
            md += "#### Answer, with these parameters\n\n";
            for (const WhiteboardPoint& p : m_whiteboard.points) {
                md += "- " + QString::fromStdString(p.text);
                if (!p.source.empty())
                    md += " *(" + QString::fromStdString(p.source) + ")*";
                md += "\n";
            }
            md += "\n#### In depth\n\n";
        } else {
            md += "#### Answer\n\n";
        }
        md += QString::fromStdString(m_scenario->answer()) + "\n\n#### Sources\n\n";
        for (const auto& s : m_scenario->sources())
            md += "- [" + QString::fromStdString(s.label) + "](" + QString::fromStdString(s.url) +
                  ")\n";
    } else {
        md += "*The answer is hidden. Work it out, then press Reveal (or A).*\n";
    }
    m_text->setMarkdown(md);
    m_reveal->setText(m_revealed ? tr("Hide answer") : tr("Reveal answer"));
}

} // namespace wb
