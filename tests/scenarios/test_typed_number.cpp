// The answer card's number reader: what a person types for "Check yourself", read or refused.
#include "engine/typed_number.h"

#include <QtTest>

using namespace wb;

class TestTypedNumber : public QObject {
    Q_OBJECT
private slots:
    void readsWhatPeopleType_data() {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<double>("value");
        QTest::newRow("plain") << "1057"
                               << "" << 1057.0;
        QTest::newRow("comma groups") << "1,057"
                                      << "" << 1057.0;
        QTest::newRow("space groups") << "1 057"
                                      << "" << 1057.0;
        QTest::newRow("no-break space groups") << "1\u00a0057"
                                               << "" << 1057.0;
        QTest::newRow("narrow no-break space") << "1\u202f057\u202f000"
                                               << "" << 1057000.0;
        QTest::newRow("millions") << "1,057,000"
                                  << "" << 1057000.0;
        QTest::newRow("groups and a fraction") << "1,057.25"
                                               << "" << 1057.25;
        QTest::newRow("exponent") << "3.35e3"
                                  << "" << 3350.0;
        QTest::newRow("capital exponent") << "3.35E3"
                                          << "" << 3350.0;
        QTest::newRow("negative exponent") << "2.5e-3"
                                           << "" << 0.0025;
        QTest::newRow("fraction") << "0.83"
                                  << "" << 0.83;
        QTest::newRow("bare fraction") << ".5"
                                       << "" << 0.5;
        QTest::newRow("spaces around") << "  42 "
                                       << "" << 42.0;
        QTest::newRow("tab around") << "\t42\t"
                                    << "" << 42.0;
        QTest::newRow("minus") << "-3"
                               << "" << -3.0;
        QTest::newRow("typographic minus") << "\u22123"
                                           << "" << -3.0;
        QTest::newRow("plus") << "+1,057"
                              << "" << 1057.0;
        QTest::newRow("percent") << "75%"
                                 << "%" << 75.0;
        QTest::newRow("percent, spaced") << "75 %"
                                         << "%" << 75.0;
        QTest::newRow("percent, spaces around") << " 75 % "
                                                << "%" << 75.0;
        QTest::newRow("percent without the sign") << "75"
                                                  << "%" << 75.0;
        QTest::newRow("the question's unit") << "8 blocks"
                                             << "blocks" << 8.0;
        QTest::newRow("the unit in capitals") << "8 Blocks"
                                              << "blocks" << 8.0;
        QTest::newRow("unit with a slash") << "3,350GB/s"
                                           << "GB/s" << 3350.0;
    }
    void readsWhatPeopleType() {
        QFETCH(QString, typed);
        QFETCH(QString, unit);
        QFETCH(double, value);
        const auto read = parseTypedNumber(typed.toStdString(), unit.toStdString());
        QVERIFY2(read.has_value(), qPrintable(typed));
        QCOMPARE(*read, value);
    }
    void refusesWhatIsNotOneNumber_data() {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("unit");
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("spaces") << "   "
                                << "";
        QTest::newRow("a word") << "eight"
                                << "";
        QTest::newRow("trailing letters") << "8x"
                                          << "";
        QTest::newRow("another unit") << "8 waves"
                                      << "blocks";
        QTest::newRow("percent for a count") << "75%"
                                             << "blocks";
        QTest::newRow("decimal comma") << "1,5"
                                       << "";
        QTest::newRow("group of four") << "1,0570"
                                       << "";
        QTest::newRow("group of two") << "12 34"
                                      << "";
        QTest::newRow("leading separator") << ",057"
                                           << "";
        QTest::newRow("mixed separators") << "1,057 000"
                                          << "";
        QTest::newRow("two numbers") << "8 9"
                                     << "";
        QTest::newRow("two points") << "1.2.3"
                                    << "";
        QTest::newRow("grouped fraction") << "1.057,5"
                                          << "";
        QTest::newRow("spaced exponent") << "3.35 e3"
                                         << "";
        QTest::newRow("bare exponent") << "e3"
                                       << "";
        QTest::newRow("sign only") << "-"
                                   << "";
        QTest::newRow("unit only") << "%"
                                   << "%";
        QTest::newRow("not finite") << "inf"
                                    << "";
        QTest::newRow("not a number") << "nan"
                                      << "";
        QTest::newRow("too big") << "1e999"
                                 << "";
        QTest::newRow("hex") << "0x10"
                             << "";
    }
    void refusesWhatIsNotOneNumber() {
        QFETCH(QString, typed);
        QFETCH(QString, unit);
        QVERIFY2(!parseTypedNumber(typed.toStdString(), unit.toStdString()), qPrintable(typed));
    }
};

QTEST_APPLESS_MAIN(TestTypedNumber)
#include "test_typed_number.moc"
