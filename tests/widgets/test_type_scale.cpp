// The type scale: sizes proportional to the slide's height, a floor of 10 px at 720 lines and
// 14 px at 1080, presentation larger, and bad inputs that cannot make text vanish or explode.
#include "text/type_scale.h"

#include <QTest>
#include <cmath>
#include <limits>

using namespace wb;

class TestTypeScale : public QObject {
    Q_OBJECT
private slots:
    void floorIsTenAt720AndFourteenAt1080() {
        QCOMPARE(TypeScale::forSlide(720).floor(), 10.0);
        QCOMPARE(TypeScale::forSlide(1080).floor(), 14.0);
        // Never under 10, however small the slide.
        QCOMPARE(TypeScale::forSlide(300).floor(), 10.0);
        QCOMPARE(TypeScale::floorFor(2160), 28.0);
    }

    void everyRoleIsAtLeastTheFloorAndOrdered() {
        for (double h : {240.0, 720.0, 900.0, 1080.0, 2160.0, 8000.0}) {
            const TypeScale s = TypeScale::forSlide(h);
            const double title = s.px(TextRole::Title), heading = s.px(TextRole::Heading),
                         body = s.px(TextRole::Body), label = s.px(TextRole::Label),
                         caption = s.px(TextRole::Caption);
            QVERIFY(caption >= s.floor());
            QVERIFY(title >= heading && heading >= body && body >= label && label >= caption);
        }
    }

    void sizesScaleWithTheSlide() {
        // An 8000-line export scales type with the picture instead of keeping 1080p sizes.
        const TypeScale ref = TypeScale::forSlide(1080), big = TypeScale::forSlide(8000);
        QVERIFY(std::abs(big.px(TextRole::Body) / ref.px(TextRole::Body) - 8000.0 / 1080.0) < 1e-9);
        QVERIFY(std::abs(big.floor() / ref.floor() - 8000.0 / 1080.0) < 1e-9);
    }

    void presentationIsLarger() {
        const TypeScale normal = TypeScale::forSlide(1080),
                        present = TypeScale::forSlide(1080, 1.4);
        QVERIFY(present.floor() > normal.floor());
        QVERIFY(present.px(TextRole::Body) > normal.px(TextRole::Body));
        QCOMPARE(present.presentationScale(), 1.4);
    }

    void absurdInputsFallBackToTheReferenceSlide() {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const TypeScale ref = TypeScale::forSlide(1080);
        for (double h : {nan, -5.0, 0.0, 1e12, std::numeric_limits<double>::infinity()})
            QCOMPARE(TypeScale::forSlide(h), ref);
        QCOMPARE(TypeScale::forSlide(1080, nan), ref);
        QCOMPARE(TypeScale::forSlide(1080, 100.0), ref);
        QCOMPARE(TypeScale::forSlide(1080).atLeastFloor(3.0), 14.0);
        QCOMPARE(TypeScale::forSlide(1080).atLeastFloor(30.0), 30.0);
    }
};

QTEST_APPLESS_MAIN(TestTypeScale)
#include "test_type_scale.moc"
