#pragma once
// The view area with its captions: scenario and step title above the frames, the narration
// and the data's provenance below. The main window, presentation mode and exports all use
// it, so an exported slide looks like the screen.
#include "drawing/theme.h"
#include "frames/frame.h"
#include "text/type_scale.h"

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
    // Presentation drops the scenario name from the title line and sets everything at the
    // presentation scale; the step number, the narration and the "Data:" line stay.
    void setPresentation(bool on);
    FrameStage* stage() const { return m_stage; }
    const SlideText& text() const { return m_text; }
    // The type scale of this slide: its height and, in presentation, the theme's scale.
    const TypeScale& typeScale() const { return m_type; }
    // The title line as shown ("Scenario · Step 2/7 · step title"; no scenario in presentation).
    QString titleLine() const;

signals:
    // The slide's size or presentation changed its type scale (the answer card follows it).
    void typeScaleChanged(const wb::TypeScale& scale);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    // Fonts and margins from the type scale; `force` re-applies them after a theme change.
    void applyFonts(bool force = true);

    FrameStage* m_stage;
    QLabel* m_title;
    QLabel* m_narration;
    QLabel* m_provenance;
    SlideText m_text;
    Theme m_theme;
    TypeScale m_type;
    bool m_presentation = false;
};

} // namespace wb
