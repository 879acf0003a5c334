#pragma once
// The playback clock: which step is shown and how far into it (t in [0,1]). Driven by a
// QVariantAnimation, so it ticks with Qt's animation timer only while playing and costs
// nothing when idle.
#include <QObject>
#include <QVariantAnimation>
#include <vector>

namespace wb {

class PlaybackController : public QObject {
    Q_OBJECT
public:
    explicit PlaybackController(QObject* parent = nullptr);

    // Step durations in seconds at 1×; resets to step `start` at t = 0, paused.
    void setSteps(std::vector<double> durationsS, int start = 0);
    int step() const { return m_step; }
    int stepCount() const { return static_cast<int>(m_durations.size()); }
    double t() const { return m_t; }
    bool isPlaying() const { return m_anim.state() == QAbstractAnimation::Running; }
    double speed() const { return m_speed; }

public slots:
    void play(); // from the current moment through the remaining steps
    void pause();
    void togglePlay();
    void next();     // next step, played once to its end
    void previous(); // previous step, shown at its end
    void first();
    void last();
    void goToStep(int step, bool animate);
    void seek(double t);         // pauses
    void setSpeed(double speed); // 0.25…4

signals:
    void positionChanged(int step, double t);
    void playingChanged(bool playing);

private:
    void startAnimation();
    void onFinished();

    QVariantAnimation m_anim;
    std::vector<double> m_durations;
    int m_step = 0;
    double m_t = 0.0;
    double m_speed = 1.0;
    bool m_continuous = false; // play on into the next steps
};

} // namespace wb
