// Themes: dark is dark, light is light, presentation is bigger, and rank colours are distinct.
#include "drawing/theme.h"

#include <QTest>

using namespace wb;

namespace {

int distance(QColor a, QColor b) {
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
           std::abs(a.blue() - b.blue());
}

} // namespace

class TestTheme : public QObject {
    Q_OBJECT
private slots:
    void backgroundsMatchTheirNames() {
        QVERIFY(Theme::dark().background.lightnessF() < 0.2f);
        QVERIFY(Theme::light().background.lightnessF() > 0.9f);
        QVERIFY(Theme::presentation(true).background.lightnessF() < 0.2f);
        QVERIFY(Theme::presentation(false).background.lightnessF() > 0.9f);
        QVERIFY(Theme::dark().isDark);
        QVERIFY(!Theme::light().isDark);
        // Text contrasts with its background.
        for (const Theme& t : {Theme::light(), Theme::dark()}) {
            QVERIFY(std::abs(t.foreground.lightnessF() - t.background.lightnessF()) > 0.7f);
        }
    }

    void presentationIsBiggerAndStronger() {
        const Theme p = Theme::presentation(true);
        QVERIFY(p.fontScale > 1.0);
        QVERIFY(p.highContrast);
        QCOMPARE(Theme::light().fontScale, 1.0);
        QVERIFY(p.font(10).pixelSize() >= 14);
        QCOMPARE(Theme::light().font(10).pixelSize(), 10);
        QVERIFY(p.lineWidth(2.0) > Theme::light().lineWidth(2.0));
    }

    void rankColoursAreDistinct() {
        for (const Theme& t : {Theme::light(), Theme::dark()}) {
            for (int n = 2; n <= 16; ++n) {
                for (int a = 0; a < n; ++a) {
                    for (int b = a + 1; b < n; ++b) {
                        QVERIFY2(distance(t.rankColor(a, n), t.rankColor(b, n)) > 40,
                                 qPrintable(QStringLiteral("n=%1: %2 vs %3").arg(n).arg(a).arg(b)));
                    }
                    // Ring neighbours are far apart so side-by-side stripes separate.
                    QVERIFY(distance(t.rankColor(a, n), t.rankColor((a + 1) % n, n)) > 150);
                }
            }
            QCOMPARE(t.rankColor(3, 8), t.rankColor(3, 8));
        }
    }

    void seriesPaletteWraps() {
        const Theme t = Theme::light();
        QVERIFY(t.series.size() >= 8);
        QCOMPARE(t.seriesColor(0), t.series.front());
        QCOMPARE(t.seriesColor(static_cast<int>(t.series.size())), t.series.front());
        QCOMPARE(t.seriesColor(-1), t.series.back());
    }

    void paletteCarriesTheColours() {
        const Theme t = Theme::dark();
        const QPalette p = t.palette();
        QCOMPARE(p.color(QPalette::Window), t.background);
        QCOMPARE(p.color(QPalette::WindowText), t.foreground);
        QCOMPARE(p.color(QPalette::Highlight), t.accent);
    }
};

QTEST_MAIN(TestTheme)
#include "test_theme.moc"
