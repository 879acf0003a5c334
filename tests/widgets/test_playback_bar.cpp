// PlaybackBar reports what the user does and accepts state from the app without echoing it.
#include "drawing/theme.h"
#include "stage/playback_bar.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QToolButton>

using namespace wb;

class TestPlaybackBar : public QObject {
    Q_OBJECT
private slots:
    void playButtonToggles() {
        PlaybackBar bar;
        QSignalSpy toggled(&bar, &PlaybackBar::playToggled);
        QTest::mouseClick(bar.playButton(), Qt::LeftButton);
        QCOMPARE(toggled.count(), 1);
        QCOMPARE(toggled.takeFirst().at(0).toBool(), true);
        QVERIFY(bar.isPlaying());
        QVERIFY(bar.playButton()->toolTip().contains(QStringLiteral("Pause")));
        bar.setPlaying(false); // from the app: no echo
        QCOMPARE(toggled.count(), 0);
        QVERIFY(!bar.isPlaying());
        QTest::mouseClick(bar.playButton(), Qt::LeftButton);
        QCOMPARE(toggled.takeFirst().at(0).toBool(), true);
    }

    void stepButtonsAndLabel() {
        PlaybackBar bar;
        QSignalSpy previous(&bar, &PlaybackBar::previousRequested);
        QSignalSpy next(&bar, &PlaybackBar::nextRequested);
        bar.setStep(2, 7);
        QCOMPARE(bar.stepText(), QStringLiteral("Step 3/7"));
        QTest::mouseClick(bar.nextButton(), Qt::LeftButton);
        QTest::mouseClick(bar.previousButton(), Qt::LeftButton);
        QCOMPARE(next.count(), 1);
        QCOMPARE(previous.count(), 1);
        bar.setStep(0, 7);
        QVERIFY(!bar.previousButton()->isEnabled());
        bar.setStep(6, 7);
        QVERIFY(!bar.nextButton()->isEnabled());
        QVERIFY(bar.previousButton()->isEnabled());
    }

    void scrubbingReportsOnlyUserChanges() {
        PlaybackBar bar;
        QSignalSpy scrubbed(&bar, &PlaybackBar::scrubbed);
        bar.setPosition(0.6);
        QCOMPARE(scrubbed.count(), 0);
        QCOMPARE(bar.position(), 0.6);
        QCOMPARE(bar.scrubber()->maximum(), PlaybackBar::kScrubSteps);
        bar.scrubber()->setValue(250); // what a drag or click does
        QCOMPARE(scrubbed.count(), 1);
        QCOMPARE(scrubbed.takeFirst().at(0).toDouble(), 0.25);
        bar.setPosition(2.0);
        QCOMPARE(bar.position(), 1.0);
        QCOMPARE(scrubbed.count(), 0);
    }

    void speedChoices() {
        PlaybackBar bar;
        QSignalSpy speed(&bar, &PlaybackBar::speedChanged);
        QCOMPARE(bar.speed(), 1.0);
        QCOMPARE(bar.speedBox()->count(), 5);
        bar.speedBox()->setCurrentIndex(3);
        QCOMPARE(speed.count(), 1);
        QCOMPARE(speed.takeFirst().at(0).toDouble(), 2.0);
        bar.setSpeed(0.25);
        QCOMPARE(bar.speed(), 0.25);
        QCOMPARE(speed.count(), 0);
    }

    void iconsFollowThePalette() {
        PlaybackBar bar;
        bar.setPalette(Theme::dark().palette());
        const QImage icon = bar.playButton()->icon().pixmap(QSize(24, 24)).toImage();
        int lit = 0;
        for (int y = 0; y < icon.height(); ++y) {
            for (int x = 0; x < icon.width(); ++x) {
                const QColor c = icon.pixelColor(x, y);
                lit += c.alpha() > 200 && c.lightnessF() > 0.8f ? 1 : 0;
            }
        }
        QVERIFY(lit > 40); // a light glyph that shows on the dark background
    }

    void tooltipsNameTheShortcuts() {
        PlaybackBar bar;
        QVERIFY(bar.playButton()->toolTip().contains(QStringLiteral("Space")));
        QVERIFY(bar.previousButton()->toolTip().contains(QChar(0x2190)));
        QVERIFY(bar.nextButton()->toolTip().contains(QChar(0x2192)));
    }
};

QTEST_MAIN(TestPlaybackBar)
#include "test_playback_bar.moc"
