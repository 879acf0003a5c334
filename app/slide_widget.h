#pragma once
// The view area with its captions: scenario and step title above the frames, the narration
// and the data's provenance below. The main window, presentation mode and exports all use
// it, so an exported slide looks like the screen.
#include "frames/frame.h"
#include "theme.h"

#include <QWidget>

class QLabel;

namespace wb {

class FrameStage;

struct SlideText {
    QString scenarioTitle;
    QString stepLabel; // "Step 2/7"
    QString stepTitle;
    QString narration;
    QString provenance; // "modeled on CPU", or a trace's device and date
};

class SlideWidget : public QWidget {
    Q_OBJECT
public:
    explicit SlideWidget(QWidget* parent = nullptr);

    void setText(const SlideText& text);
    void setFrames(const Frames& frames);
    void setTheme(const Theme& theme);
    // Presentation hides everything but the frames and one narration line.
    void setPresentation(bool on);
    FrameStage* stage() const { return m_stage; }
    const SlideText& text() const { return m_text; }

private:
    void applyFonts();

    FrameStage* m_stage;
    QLabel* m_title;
    QLabel* m_narration;
    QLabel* m_provenance;
    SlideText m_text;
    Theme m_theme;
    bool m_presentation = false;
};

} // namespace wb
