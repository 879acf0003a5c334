#include "answer_card.h"

#include "engine/number_format.h"
#include "engine/typed_number.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>

namespace wb {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// "8 blocks", "75 %", "3350": the model's answer as the card writes it.
QString withUnit(double value, const std::string& unit) {
    QString text = qs(formatSignificant(value, 4));
    if (!unit.empty())
        text += ' ' + qs(unit);
    return text;
}

// How close a typed answer must be: "within ±5 %", or "exactly" for a tolerance of 0.
QString toleranceWords(double tolerance) {
    if (tolerance <= 0.0)
        return AnswerCard::tr("exactly");
    return AnswerCard::tr("within ±%1").arg(qs(formatPercent(tolerance * 100.0)));
}

QLabel* wrappedLabel(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

} // namespace

AnswerCard::AnswerCard(QWidget* parent)
    : QWidget(parent)
    , m_text(new QTextBrowser(this))
    , m_checkScroll(new QScrollArea(this))
    , m_checkBox(new QWidget)
    , m_reveal(new QPushButton(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_text->setOpenExternalLinks(true);
    m_checkBox->setObjectName("checkYourself");
    auto* checkLayout = new QVBoxLayout(m_checkBox);
    checkLayout->setContentsMargins(0, 0, 0, 0);
    checkLayout->addStretch(1); // the questions (inserted above it) sit at the top
    // Before Reveal the text is only the question: the questions get the larger share, and
    // either scrolls in a short dock rather than pushing the other out of sight.
    m_checkScroll->setWidget(m_checkBox);
    m_checkScroll->setWidgetResizable(true);
    m_checkScroll->setFrameShape(QFrame::NoFrame);
    m_checkScroll->hide();
    layout->addWidget(m_text, 1);
    layout->addWidget(m_checkScroll, 2);
    layout->addWidget(m_reveal);
    connect(m_reveal, &QPushButton::clicked, this, [this] { setRevealed(!m_revealed); });
}

void AnswerCard::setScenario(const Scenario& scenario) {
    m_scenario = &scenario;
    m_whiteboard = {};  // the new story brings its own
    setChecks({});      // and its own questions
    setRevealed(false); // refreshes: the question changed even if the answer was hidden
}

void AnswerCard::setWhiteboard(const Whiteboard& whiteboard) {
    m_whiteboard = whiteboard;
    refresh();
}

void AnswerCard::setChecks(const std::vector<CheckQuestion>& checks) {
    m_checks = checks;
    m_checkRows.clear();
    // A new run's questions replace the old widgets, and with them what was typed.
    delete m_checkBox->findChild<QWidget*>("checkQuestions", Qt::FindDirectChildrenOnly);
    if (!m_checks.empty()) {
        auto* questions = new QWidget(m_checkBox);
        questions->setObjectName("checkQuestions");
        auto* column = new QVBoxLayout(questions);
        column->setContentsMargins(8, 8, 8, 8);
        auto* heading = new QLabel("<b>" + tr("Check yourself") + "</b>", questions);
        column->addWidget(heading);
        QWidget* previous = m_text;
        for (std::size_t i = 0; i < m_checks.size(); ++i) {
            const CheckQuestion& q = m_checks[i];
            const QString n = QString::number(i);
            auto* question = wrappedLabel(qs(q.question), questions);
            auto* row = new QHBoxLayout;
            CheckRow widgets;
            widgets.field = new QLineEdit(questions);
            widgets.field->setObjectName("checkField" + n);
            widgets.field->setAccessibleName(qs(q.question));
            auto* button = new QPushButton(tr("Check"), questions);
            button->setObjectName("checkButton" + n);
            button->setAccessibleName(tr("Check: %1").arg(qs(q.question)));
            row->addWidget(widgets.field, 1);
            if (!q.unit.empty())
                row->addWidget(new QLabel(qs(q.unit), questions));
            row->addWidget(button);
            widgets.result = wrappedLabel({}, questions);
            widgets.result->setObjectName("checkResult" + n);
            widgets.result->hide();
            widgets.working = wrappedLabel({}, questions);
            widgets.working->setObjectName("checkWorking" + n);
            widgets.working->hide();
            if (i > 0)
                column->addSpacing(question->fontMetrics().height() / 2); // apart from the last
            column->addWidget(question);
            column->addLayout(row);
            column->addWidget(widgets.result);
            column->addWidget(widgets.working);
            connect(widgets.field, &QLineEdit::returnPressed, this, [this, i] { check(i); });
            connect(button, &QPushButton::clicked, this, [this, i] { check(i); });
            // Tab goes question by question, field then button, and on to Reveal.
            setTabOrder(previous, widgets.field);
            setTabOrder(widgets.field, button);
            previous = button;
            m_checkRows.push_back(widgets);
        }
        setTabOrder(previous, m_reveal);
        qobject_cast<QVBoxLayout*>(m_checkBox->layout())->insertWidget(0, questions);
        questions->show(); // now, not when the event loop next runs (a new run on a shown card)
    }
    refresh();
}

void AnswerCard::check(std::size_t index) {
    const CheckQuestion& q = m_checks.at(index);
    const CheckRow& row = m_checkRows.at(index);
    const auto typed = parseTypedNumber(row.field->text().toStdString(), q.unit);
    QString result;
    if (!typed) {
        result = tr("Type a number, e.g. 1,057");
    } else if (checkAnswer(q, *typed)) {
        result = tr("Right — %1.").arg(toleranceWords(q.tolerance));
    } else {
        result = q.tolerance > 0.0
                     ? tr("Not quite — the answer must be %1.").arg(toleranceWords(q.tolerance))
                     : tr("Not quite — the answer must match exactly.");
    }
    row.result->setText(result);
    row.result->show();
    row.field->setAccessibleDescription(result);
    // The working follows any checked number; a field that held no number shows none yet.
    if (typed) {
        row.working->setText(tr("Working: %1").arg(qs(q.working)));
        row.working->show();
    }
    // In a short dock the answer to a check scrolls into view once the layout has it.
    QTimer::singleShot(0, this, [this, index] {
        if (index < m_checkRows.size()) {
            const CheckRow& shown = m_checkRows[index];
            m_checkScroll->ensureWidgetVisible(shown.working->isHidden() ? shown.result
                                                                         : shown.working);
        }
    });
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
    m_checkBox->setFont(f); // its labels, fields and buttons inherit it
    m_reveal->setFont(f);
}

QString AnswerCard::shownText() const {
    return m_text->toPlainText();
}

void AnswerCard::refresh() {
    // Before Reveal the questions are asked; after it the answer says them with workings.
    m_checkScroll->setVisible(!m_revealed && !m_checks.empty());
    if (!m_scenario)
        return;
    QString md = "#### Question\n\n" + qs(m_scenario->question()) + "\n\n";
    if (m_revealed) {
        if (!m_whiteboard.points.empty()) {
            md += "#### Answer, with these parameters\n\n";
            for (const WhiteboardPoint& p : m_whiteboard.points) {
                md += "- " + qs(p.text);
                if (!p.source.empty())
                    md += " *(" + qs(p.source) + ")*";
                md += "\n";
            }
            md += "\n#### In depth\n\n";
        } else {
            md += "#### Answer\n\n";
        }
        md += qs(m_scenario->answer()) + "\n\n";
        if (!m_checks.empty()) {
            md += "#### Check yourself\n\n";
            for (const CheckQuestion& q : m_checks)
                md += "- " + qs(q.question) + " **" + withUnit(q.answer, q.unit) + "**. " +
                      qs(q.working) + "\n";
            md += "\n";
        }
        md += "#### Sources\n\n";
        for (const auto& s : m_scenario->sources())
            md += "- [" + qs(s.label) + "](" + qs(s.url) + ")\n";
    } else {
        md += "*The answer is hidden. Work it out, then press Reveal (or A).*\n";
    }
    m_text->setMarkdown(md);
    m_reveal->setText(m_revealed ? tr("Hide answer") : tr("Reveal answer"));
}

} // namespace wb
