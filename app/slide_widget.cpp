#include "slide_widget.h"

#include "frame_stage.h"

#include <QLabel>
#include <QVBoxLayout>

namespace wb {

SlideWidget::SlideWidget(QWidget* parent)
    : QWidget(parent)
    , m_stage(new FrameStage(this))
    , m_title(new QLabel(this))
    , m_narration(new QLabel(this))
    , m_provenance(new QLabel(this))
    , m_theme(Theme::light()) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->setSpacing(8);
    m_title->setObjectName("slideTitle");
    m_narration->setObjectName("slideNarration");
    m_provenance->setObjectName("slideProvenance");
    m_narration->setWordWrap(true);
    // A long provenance (imported file names) or title must never widen the slide past its
    // window or export size: the provenance wraps, a title too long is clipped.
    m_provenance->setWordWrap(true);
    m_title->setMinimumWidth(1);
    m_title->setTextFormat(Qt::PlainText);
    m_narration->setTextFormat(Qt::PlainText);
    m_provenance->setTextFormat(Qt::PlainText);
    layout->addWidget(m_title);
    layout->addWidget(m_stage, 1);
    layout->addWidget(m_narration);
    layout->addWidget(m_provenance);
    setAutoFillBackground(true);
    setTheme(m_theme);
}

void SlideWidget::setText(const SlideText& text) {
    m_text = text;
    m_title->setText(text.scenarioTitle + "  ·  " + text.stepLabel + "  ·  " + text.stepTitle);
    m_narration->setText(text.narration);
    m_provenance->setText("Data: " + text.provenance);
}

void SlideWidget::setFrames(const Frames& frames) {
    m_stage->setFrames(frames);
}

void SlideWidget::setTheme(const Theme& theme) {
    m_theme = theme;
    QPalette pal = palette();
    pal.setColor(QPalette::Window, theme.background);
    pal.setColor(QPalette::WindowText, theme.foreground);
    setPalette(pal);
    QPalette mutedPal = pal;
    mutedPal.setColor(QPalette::WindowText, theme.muted);
    m_provenance->setPalette(mutedPal);
    m_stage->setTheme(theme);
    applyFonts();
}

void SlideWidget::setPresentation(bool on) {
    m_presentation = on;
    m_title->setVisible(!on);
    m_provenance->setVisible(!on);
    applyFonts();
}

void SlideWidget::applyFonts() {
    m_title->setFont(m_theme.font(20, true));
    m_narration->setFont(m_theme.font(m_presentation ? 22 : 16));
    m_provenance->setFont(m_theme.font(12));
}

} // namespace wb
