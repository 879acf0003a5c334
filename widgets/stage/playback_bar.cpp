#include "stage/playback_bar.h"

#include "stage/media_icon.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>
#include <algorithm>
#include <array>
#include <cmath>

namespace wb {

namespace {

constexpr std::array<double, 5> kSpeeds = {0.25, 0.5, 1.0, 2.0, 4.0};

QToolButton* makeButton(QWidget* parent, const QString& tip) {
    auto* button = new QToolButton(parent);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    button->setIconSize(QSize(20, 20));
    return button;
}

} // namespace

PlaybackBar::PlaybackBar(QWidget* parent)
    : QWidget(parent) {
    m_previous = makeButton(this, tr("Previous step (%1)").arg(QChar(0x2190)));
    m_play = makeButton(this, tr("Play (Space)"));
    m_next = makeButton(this, tr("Next step (%1)").arg(QChar(0x2192)));

    m_scrub = new QSlider(Qt::Horizontal, this);
    m_scrub->setRange(0, kScrubSteps);
    m_scrub->setToolTip(tr("Time within the step"));

    m_speed = new QComboBox(this);
    for (double s : kSpeeds) {
        m_speed->addItem(QStringLiteral("%1\u00d7").arg(s), s);
    }
    m_speed->setCurrentIndex(2); // 1x
    m_speed->setToolTip(tr("Playback speed"));

    m_step = new QLabel(this);
    m_step->setMinimumWidth(m_step->fontMetrics().horizontalAdvance(QStringLiteral("Step 88/88")));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(m_previous);
    layout->addWidget(m_play);
    layout->addWidget(m_next);
    layout->addWidget(m_scrub, 1);
    layout->addWidget(m_step);
    layout->addWidget(m_speed);

    connect(m_play, &QToolButton::clicked, this, [this] {
        setPlaying(!m_playing);
        emit playToggled(m_playing);
    });
    connect(m_previous, &QToolButton::clicked, this, &PlaybackBar::previousRequested);
    connect(m_next, &QToolButton::clicked, this, &PlaybackBar::nextRequested);
    // valueChanged covers drags, clicks on the groove and keyboard steps alike; setPosition
    // blocks it so only the user's changes are reported.
    connect(m_scrub, &QSlider::valueChanged, this,
            [this](int value) { emit scrubbed(static_cast<double>(value) / kScrubSteps); });
    connect(m_speed, &QComboBox::currentIndexChanged, this,
            [this](int) { emit speedChanged(speed()); });

    updateStepControls();
    updateIcons();
}

double PlaybackBar::position() const {
    return static_cast<double>(m_scrub->value()) / kScrubSteps;
}

double PlaybackBar::speed() const {
    return m_speed->currentData().toDouble();
}

QString PlaybackBar::stepText() const {
    return m_count > 0 ? tr("Step %1/%2").arg(m_index + 1).arg(m_count) : QString();
}

void PlaybackBar::setPlaying(bool playing) {
    m_playing = playing;
    updatePlayButton();
}

void PlaybackBar::setPosition(double t) {
    const QSignalBlocker block(m_scrub);
    m_scrub->setValue(static_cast<int>(std::lround(std::clamp(t, 0.0, 1.0) * kScrubSteps)));
}

void PlaybackBar::setStep(int index, int count) {
    m_count = std::max(count, 0);
    m_index = m_count > 0 ? std::clamp(index, 0, m_count - 1) : 0;
    updateStepControls();
}

void PlaybackBar::setSpeed(double value) {
    // The nearest offered speed, without echoing speedChanged.
    const QSignalBlocker block(m_speed);
    const auto nearest =
        std::min_element(kSpeeds.begin(), kSpeeds.end(), [value](double a, double b) {
            return std::fabs(a - value) < std::fabs(b - value);
        });
    m_speed->setCurrentIndex(static_cast<int>(nearest - kSpeeds.begin()));
}

void PlaybackBar::updatePlayButton() {
    m_play->setIcon(mediaIcon(m_playing ? MediaGlyph::Pause : MediaGlyph::Play, palette()));
    m_play->setToolTip(m_playing ? tr("Pause (Space)") : tr("Play (Space)"));
}

void PlaybackBar::updateIcons() {
    m_previous->setIcon(mediaIcon(MediaGlyph::Previous, palette()));
    m_next->setIcon(mediaIcon(MediaGlyph::Next, palette()));
    updatePlayButton();
}

void PlaybackBar::changeEvent(QEvent* event) {
    // Icons are drawn in palette colours, so a theme switch redraws them.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        updateIcons();
    }
    QWidget::changeEvent(event);
}

void PlaybackBar::updateStepControls() {
    m_step->setText(stepText());
    m_previous->setEnabled(m_count > 0 && m_index > 0);
    m_next->setEnabled(m_count > 0 && m_index + 1 < m_count);
}

} // namespace wb
