// The playback clock: stepping, seeking, playing through steps, speed — and no timer
// running when idle.
#include "playback_controller.h"

#include <QSignalSpy>
#include <QtTest>

using namespace wb;

class TestPlaybackController : public QObject {
    Q_OBJECT
private slots:
    void steppingAndSeeking() {
        PlaybackController c;
        QSignalSpy pos(&c, &PlaybackController::positionChanged);
        c.setSteps({1.0, 1.0, 1.0});
        QCOMPARE(c.step(), 0);
        QCOMPARE(c.t(), 0.0);
        c.previous();
        QCOMPARE(c.step(), 0);
        c.last();
        QCOMPARE(c.step(), 2);
        QCOMPARE(c.t(), 1.0);
        c.first();
        QCOMPARE(c.step(), 0);
        c.seek(0.4);
        QCOMPARE(c.t(), 0.4);
        c.seek(7.0);
        QCOMPARE(c.t(), 1.0);
        c.goToStep(99, false);
        QCOMPARE(c.step(), 2);
        QVERIFY(pos.count() >= 6);
        QVERIFY(!c.isPlaying());
    }
    void nextPlaysTheStepOnceThenStops() {
        PlaybackController c;
        c.setSteps({0.05, 0.05, 0.05});
        c.setSpeed(4.0);
        c.next();
        QCOMPARE(c.step(), 1);
        QVERIFY(c.isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(!c.isPlaying(), 2000);
        QCOMPARE(c.step(), 1); // did not run on into step 3
        QCOMPARE(c.t(), 1.0);
    }
    void playRunsThroughTheRemainingSteps() {
        PlaybackController c;
        c.setSteps({0.05, 0.05, 0.05});
        QSignalSpy playing(&c, &PlaybackController::playingChanged);
        c.play();
        QVERIFY(c.isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(!c.isPlaying(), 3000);
        QCOMPARE(c.step(), 2);
        QCOMPARE(c.t(), 1.0);
        QVERIFY(playing.count() >= 2);
        QCOMPARE(playing.last().first().toBool(), false);
    }
    void speedIsClamped() {
        PlaybackController c;
        c.setSpeed(100);
        QCOMPARE(c.speed(), 4.0);
        c.setSpeed(0.01);
        QCOMPARE(c.speed(), 0.25);
    }
    void pauseStopsTheClock() {
        PlaybackController c;
        c.setSteps({10.0});
        c.play();
        QTest::qWait(50);
        c.pause();
        const double t = c.t();
        QVERIFY(t > 0.0 && t < 1.0);
        QTest::qWait(80);
        QCOMPARE(c.t(), t);
        QVERIFY(!c.isPlaying());
    }
};

QTEST_GUILESS_MAIN(TestPlaybackController)
#include "test_playback_controller.moc"
