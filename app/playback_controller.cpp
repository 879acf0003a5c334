#include "playback_controller.h"

#include <algorithm>
#include <cmath>

namespace wb {

PlaybackController::PlaybackController(QObject* parent)
    : QObject(parent) {
    m_anim.setEasingCurve(QEasingCurve::Linear);
    connect(&m_anim, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) {
        m_t = v.toDouble();
        emit positionChanged(m_step, m_t);
    });
    connect(&m_anim, &QVariantAnimation::finished, this, &PlaybackController::onFinished);
    connect(&m_anim, &QVariantAnimation::stateChanged, this,
            [this](QAbstractAnimation::State now, QAbstractAnimation::State before) {
                if ((now == QAbstractAnimation::Running) != (before == QAbstractAnimation::Running))
                    emit playingChanged(now == QAbstractAnimation::Running);
            });
}

void PlaybackController::setSteps(std::vector<double> durationsS, int start) {
    m_anim.stop();
    m_durations = std::move(durationsS);
    m_step = std::clamp(start, 0, std::max(0, stepCount() - 1));
    m_t = 0.0;
    emit positionChanged(m_step, m_t);
}

void PlaybackController::startAnimation() {
    if (m_durations.empty())
        return;
    if (m_t >= 1.0)
        m_t = 0.0;
    const double seconds = m_durations[static_cast<size_t>(m_step)] * (1.0 - m_t) / m_speed;
    m_anim.stop();
    m_anim.setStartValue(m_t);
    m_anim.setEndValue(1.0);
    m_anim.setDuration(std::max(1, static_cast<int>(std::lround(seconds * 1000.0))));
    m_anim.start();
}

void PlaybackController::onFinished() {
    m_t = 1.0;
    if (m_continuous && m_step + 1 < stepCount()) {
        ++m_step;
        m_t = 0.0;
        emit positionChanged(m_step, m_t);
        startAnimation();
        return;
    }
    m_continuous = false;
}

void PlaybackController::play() {
    if (m_durations.empty())
        return;
    if (m_t >= 1.0 && m_step + 1 < stepCount()) {
        ++m_step;
        m_t = 0.0;
        emit positionChanged(m_step, m_t);
    }
    m_continuous = true;
    startAnimation();
}

void PlaybackController::pause() {
    m_continuous = false;
    m_anim.stop();
}

void PlaybackController::togglePlay() {
    if (isPlaying())
        pause();
    else
        play();
}

void PlaybackController::goToStep(int step, bool animate) {
    if (m_durations.empty())
        return;
    pause();
    m_step = std::clamp(step, 0, stepCount() - 1);
    m_t = animate ? 0.0 : 1.0;
    emit positionChanged(m_step, m_t);
    if (animate)
        startAnimation();
}

void PlaybackController::next() {
    if (m_step + 1 < stepCount())
        goToStep(m_step + 1, true);
    else
        goToStep(m_step, false);
}

void PlaybackController::previous() {
    goToStep(m_step - 1, false);
}

void PlaybackController::first() {
    goToStep(0, false);
}

void PlaybackController::last() {
    goToStep(stepCount() - 1, false);
}

void PlaybackController::seek(double t) {
    pause();
    m_t = std::clamp(t, 0.0, 1.0);
    emit positionChanged(m_step, m_t);
}

void PlaybackController::setSpeed(double speed) {
    m_speed = std::clamp(speed, 0.25, 4.0);
    if (isPlaying())
        startAnimation(); // keep the current moment, change the remaining duration
}

} // namespace wb
