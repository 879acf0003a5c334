#include "slide_widget.h"

#include "stage/frame_stage.h"
#include "text/unit_glue.h"

#include <QLabel>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <cmath>

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
    // Nothing on the slide is cut: a long title, narration or provenance (imported file
    // names) wraps onto more lines and the stage gives up the height.
    m_provenance->setWordWrap(true);
    m_title->setWordWrap(true);
    m_title->setMinimumWidth(1);
    m_narration->setMinimumWidth(1);
    m_provenance->setMinimumWidth(1);
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
    m_title->setText(keepUnitsTogether(titleLine()));
    m_narration->setText(keepUnitsTogether(text.narration));
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

QString SlideWidget::titleLine() const {
    const QString sep = QStringLiteral("  \u00b7  ");
    QString line = m_text.stepLabel + sep + m_text.stepTitle;
    if (!m_presentation && !m_text.scenarioTitle.isEmpty())
        line = m_text.scenarioTitle + sep + line;
    return line;
}

void SlideWidget::setPresentation(bool on) {
    m_presentation = on;
    m_title->setText(keepUnitsTogether(titleLine()));
    applyFonts();
}

void SlideWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    applyFonts(false);
}

void SlideWidget::applyFonts(bool force) {
    // Sizes follow the slide's height, so a window, a 1080p export and an 8000-pixel export
    // all read the same; presentation enlarges them by the theme's scale.
    const TypeScale type = TypeScale::forSlide(height(), m_presentation ? m_theme.fontScale : 1.0);
    const bool changed = !(type == m_type);
    if (!changed && !force)
        return; // a resize that keeps the height (a width drag) changes no font
    m_type = type;
    const double u = type.unit();
    auto* layout = this->layout();
    const int h = static_cast<int>(std::lround(24 * u)), v = static_cast<int>(std::lround(14 * u));
    layout->setContentsMargins(h, v, h, v);
    layout->setSpacing(static_cast<int>(std::lround(10 * u)));
    m_title->setFont(m_theme.fontAtPixels(type.px(TextRole::Title), true));
    m_narration->setFont(m_theme.fontAtPixels(type.px(TextRole::Body)));
    m_provenance->setFont(m_theme.fontAtPixels(type.px(TextRole::Caption)));
    m_stage->setTypeScale(type);
    if (changed)
        emit typeScaleChanged(type);
}

} // namespace wb
