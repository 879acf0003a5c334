// PenOverlay keeps strokes per page, undoes and clears them, lets mouse events through when
// off, and stops its fade timer once the laser trail is gone.
#include "render_probe.h"
#include "stage/pen_overlay.h"

#include <QSignalSpy>
#include <QTest>

using namespace wb;
using namespace wb::test;

namespace {

QImage render(PenOverlay& overlay) {
    QImage image(overlay.size(), QImage::Format_RGB32);
    image.fill(Qt::white);
    // No window background: the overlay is transparent over whatever it covers.
    overlay.render(&image, QPoint(), QRegion(), QWidget::DrawChildren);
    return image;
}

int accentAt(PenOverlay& overlay, QPointF at) {
    return countNear(render(overlay), around(at, 2), overlay.theme().accent, 30);
}

} // namespace

class TestPenOverlay : public QObject {
    Q_OBJECT
private slots:
    void strokesBelongToTheirPage() {
        PenOverlay overlay;
        overlay.resize(400, 300);
        QSignalSpy changed(&overlay, &PenOverlay::strokesChanged);
        overlay.addStroke({{50, 150}, {350, 150}});
        QCOMPARE(overlay.strokeCount(), 1);
        QCOMPARE(changed.count(), 1);
        QVERIFY(accentAt(overlay, {200, 150}) > 10);
        QCOMPARE(accentAt(overlay, {200, 60}), 0);
        saveForHumans(render(overlay), QStringLiteral("pen_stroke"));

        overlay.setPage(1);
        QCOMPARE(overlay.strokeCount(), 0);
        QCOMPARE(accentAt(overlay, {200, 150}), 0);
        overlay.addStroke({{200, 20}, {200, 280}});
        QVERIFY(accentAt(overlay, {200, 60}) > 10);

        overlay.setPage(0);
        QCOMPARE(overlay.strokeCount(), 1);
        QVERIFY(accentAt(overlay, {200, 150}) > 10);
        QCOMPARE(accentAt(overlay, {200, 60}), 0);
    }

    void undoAndClear() {
        PenOverlay overlay;
        overlay.resize(400, 300);
        overlay.addStroke({{50, 100}, {350, 100}});
        overlay.addStroke({{50, 200}, {350, 200}});
        overlay.undo();
        QCOMPARE(overlay.strokeCount(), 1);
        QVERIFY(accentAt(overlay, {200, 100}) > 10);
        QCOMPARE(accentAt(overlay, {200, 200}), 0);
        overlay.clear();
        QCOMPARE(overlay.strokeCount(), 0);
        QCOMPARE(accentAt(overlay, {200, 100}), 0);
        overlay.undo(); // nothing left: harmless
        QCOMPARE(overlay.strokeCount(), 0);
    }

    void strokesFollowResizes() {
        PenOverlay overlay;
        overlay.resize(400, 300);
        overlay.addStroke({{50, 150}, {350, 150}});
        overlay.resize(800, 600);
        QVERIFY(accentAt(overlay, {400, 300}) > 10);
    }

    void offModeLetsTheMouseThrough() {
        PenOverlay overlay;
        QVERIFY(overlay.testAttribute(Qt::WA_TransparentForMouseEvents));
        overlay.setMode(PenOverlay::Mode::Pen);
        QVERIFY(!overlay.testAttribute(Qt::WA_TransparentForMouseEvents));
        overlay.setMode(PenOverlay::Mode::Laser);
        QVERIFY(!overlay.testAttribute(Qt::WA_TransparentForMouseEvents));
        QVERIFY(overlay.hasMouseTracking());
        overlay.setMode(PenOverlay::Mode::Off);
        QVERIFY(overlay.testAttribute(Qt::WA_TransparentForMouseEvents));
    }

    void mouseDragDrawsAStroke() {
        PenOverlay overlay;
        overlay.resize(400, 300);
        overlay.setMode(PenOverlay::Mode::Pen);
        overlay.show();
        QVERIFY(QTest::qWaitForWindowExposed(&overlay));
        QTest::mousePress(&overlay, Qt::LeftButton, Qt::NoModifier, QPoint(50, 150));
        QTest::mouseMove(&overlay, QPoint(200, 150));
        QTest::mouseMove(&overlay, QPoint(350, 150));
        QTest::mouseRelease(&overlay, Qt::LeftButton, Qt::NoModifier, QPoint(350, 150));
        QCOMPARE(overlay.strokeCount(), 1);
        QVERIFY(accentAt(overlay, {275, 150}) > 10);
    }

    void laserFadesAndStopsItsTimer() {
        PenOverlay overlay;
        overlay.resize(400, 300);
        overlay.setMode(PenOverlay::Mode::Laser);
        QVERIFY(!overlay.isFading());
        overlay.addLaserPoint({100, 100});
        overlay.addLaserPoint({150, 120});
        overlay.addLaserPoint({200, 140});
        QVERIFY(overlay.isFading());
        QCOMPARE(overlay.laserTrailSize(), 3);
        const QImage lit = render(overlay);
        QVERIFY(countNotNear(lit, around({200, 140}, 4), Qt::white, 30) > 10);
        QTRY_VERIFY_WITH_TIMEOUT(!overlay.isFading(), PenOverlay::kTrailMs * 3);
        QCOMPARE(overlay.laserTrailSize(), 0);
        // Leaving Laser mode drops everything laser-related.
        overlay.addLaserPoint({10, 10});
        overlay.setMode(PenOverlay::Mode::Off);
        QVERIFY(!overlay.isFading());
        QCOMPARE(overlay.laserTrailSize(), 0);
        QCOMPARE(countNotNear(render(overlay), overlay.rect(), Qt::white, 5), 0);
    }
};

QTEST_MAIN(TestPenOverlay)
#include "test_pen_overlay.moc"
