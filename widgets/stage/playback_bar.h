#pragma once
// Transport controls for a story: play/pause, previous/next step, a scrubber for the time
// within the step, a speed choice and "Step 3/7". It only reports what the user did; the app
// owns the clock and the keyboard, and feeds state back through the slots, which never echo
// the user signals.
#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace wb {

class PlaybackBar : public QWidget {
    Q_OBJECT
public:
    explicit PlaybackBar(QWidget* parent = nullptr);

    static constexpr int kScrubSteps = 1000;

    bool isPlaying() const { return m_playing; }
    double position() const;
    double speed() const;
    int stepIndex() const { return m_index; }
    int stepCount() const { return m_count; }
    QString stepText() const;

    // Parts, for tests and for the app to add shortcuts to.
    QToolButton* playButton() const { return m_play; }
    QToolButton* previousButton() const { return m_previous; }
    QToolButton* nextButton() const { return m_next; }
    QSlider* scrubber() const { return m_scrub; }
    QComboBox* speedBox() const { return m_speed; }

public slots:
    void setPlaying(bool playing);
    // t in [0, 1] within the current step; does not emit scrubbed().
    void setPosition(double t);
    // 0-based index shown 1-based: setStep(2, 7) shows "Step 3/7".
    void setStep(int index, int count);
    void setSpeed(double speed);

signals:
    void playToggled(bool playing);
    void previousRequested();
    void nextRequested();
    void scrubbed(double t);
    void speedChanged(double speed);

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateIcons();
    void updatePlayButton();
    void updateStepControls();

    QToolButton* m_previous = nullptr;
    QToolButton* m_play = nullptr;
    QToolButton* m_next = nullptr;
    QSlider* m_scrub = nullptr;
    QComboBox* m_speed = nullptr;
    QLabel* m_step = nullptr;
    bool m_playing = false;
    int m_index = 0;
    int m_count = 0;
};

} // namespace wb
