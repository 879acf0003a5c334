// Parameter validation: what the CLI and the panel report for bad values.
#include "engine/number_format.h"
#include "engine/params.h"

#include <QtTest>

using namespace wb;

class TestParams : public QObject {
    Q_OBJECT
private slots:
    void defaultsAndSetting() {
        Params p({ParamSpec::integer("ranks", "Ranks", "", 2, 16, 4),
                  ParamSpec::real("bytes", "Bytes", "B", 1, 1e9, 1e6, true),
                  ParamSpec::choice("algo", "Algorithm", {"ring", "tree"}, "ring")});
        QCOMPARE(p.integer("ranks"), 4LL);
        QCOMPARE(p.text("algo"), std::string("ring"));
        QVERIFY(!p.isSet("ranks"));
        QVERIFY(!p.set("ranks", "8"));
        QVERIFY(p.isSet("ranks"));
        QCOMPARE(p.integer("ranks"), 8LL);
        QVERIFY(!p.set("bytes", "2.5e6"));
        QCOMPARE(p.number("bytes"), 2.5e6);
        QVERIFY(!p.set("algo", "tree"));
    }
    void errorsNameTheAllowedValues() {
        Params p({ParamSpec::integer("ranks", "Ranks", "", 2, 16, 4),
                  ParamSpec::choice("algo", "Algorithm", {"ring", "tree"}, "ring")});
        auto e = p.set("ranks", "17");
        QVERIFY(e);
        QVERIFY2(QString::fromStdString(*e).contains("2…16"), e->c_str());
        e = p.set("ranks", "3.5");
        QVERIFY(e && e->find("whole number") != std::string::npos);
        e = p.set("ranks", "abc");
        QVERIFY(e && e->find("not a number") != std::string::npos);
        e = p.set("ranks", "nan");
        QVERIFY(e);
        e = p.set("algo", "butterfly");
        QVERIFY(e && e->find("ring|tree") != std::string::npos);
        e = p.set("nope", "1");
        QVERIFY(e && e->find("unknown parameter 'nope'") != std::string::npos);
        QCOMPARE(p.integer("ranks"), 4LL); // rejected values change nothing
    }
    void numberText() {
        QCOMPARE(parseNumber("1e6"), std::optional<double>(1e6));
        QCOMPARE(parseNumber(" 8 "), std::optional<double>(8));
        QVERIFY(!parseNumber("8x"));
        QVERIFY(!parseNumber(""));
        QVERIFY(!parseNumber("inf"));
        QCOMPARE(formatBytes(1.75e9), std::string("1.75 GB"));
        QCOMPARE(formatBytes(512), std::string("512 B"));
        QCOMPARE(formatSi(3.2e-6, "s"), std::string("3.2 µs"));
        QCOMPARE(formatSi(0.0, "s"), std::string("0 s"));
        QCOMPARE(formatSi(999.96e3, "B"), std::string("1 MB")); // rounding carries upward
    }
    void significantDigits() {
        QCOMPARE(formatSignificant(295.34, 4), std::string("295.3"));
        QCOMPARE(formatIndexRanges({0, 1, 2, 3, 4, 6, 7, 9}), std::string("0–4, 6–7, 9"));
        QCOMPARE(formatIndexRanges({5}), std::string("5"));
        QCOMPARE(formatIndexRanges({}), std::string());
        QCOMPARE(formatSignificant(20.0, 4), std::string("20"));
        QCOMPARE(formatSignificant(1.0 / 12.0, 3), std::string("0.0833"));
        QCOMPARE(formatSignificant(1365.33, 3), std::string("1365"));
        QCOMPARE(formatSignificant(0.0, 3), std::string("0"));
        QCOMPARE(formatSignificant(-2.5, 3), std::string("-2.5"));
        QCOMPARE(formatPercent(99.688), std::string("99.7 %"));
        QCOMPARE(formatShare(0.25), std::string("25 %"));
        QCOMPARE(formatShare(1.0 / 3.0, 2), std::string("33 %"));
    }
    void fixedWidthBytes() {
        // Counters keep three digits so they do not change width while animating.
        QCOMPARE(formatBytes(0, true), std::string("0 B"));
        QCOMPARE(formatBytes(512, true), std::string("512 B"));
        QCOMPARE(formatBytes(1500, true), std::string("1.50 kB"));
        QCOMPARE(formatBytes(1.5e6, true), std::string("1.50 MB"));
        QCOMPARE(formatBytes(999'999, true), std::string("1.00 MB"));
        QCOMPARE(formatBytes(42.5e9, true), std::string("42.5 GB"));
        QCOMPARE(formatBytes(120e12, true), std::string("120 TB"));
        QCOMPARE(formatBytes(NAN), std::string("? B"));
    }
};

QTEST_APPLESS_MAIN(TestParams)
#include "test_params.moc"
