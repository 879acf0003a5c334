// The parameter panel is generated from the specs and reports edits by name.
#include "param_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QSlider>
#include <QtTest>

using namespace wb;

class TestParamPanel : public QObject {
    Q_OBJECT
private slots:
    void editorsFollowTheSpecs() {
        ParamPanel panel;
        Params p({ParamSpec::integer("ranks", "GPUs", "", 2, 16, 4),
                  ParamSpec::real("bytes", "Size", "B", 1e3, 1e10, 1e6, true),
                  ParamSpec::choice("algorithm", "Algorithm", {"ring", "tree"}, "ring")});
        panel.setParams(p);
        QCOMPARE(panel.editorCount(), 3);
        auto* ranks = panel.findChild<QDoubleSpinBox*>("ranks");
        auto* algo = panel.findChild<QComboBox*>("algorithm");
        QVERIFY(ranks && algo);
        QCOMPARE(ranks->value(), 4.0);
        QCOMPARE(ranks->maximum(), 16.0);
        QCOMPARE(algo->count(), 2);
        QSignalSpy spy(&panel, &ParamPanel::paramChanged);
        ranks->setValue(8);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.last().at(0).toString(), QString("ranks"));
        QCOMPARE(spy.last().at(1).toString(), QString("8"));
        algo->setCurrentText("tree");
        QCOMPARE(spy.last().at(1).toString(), QString("tree"));
        // The log slider of "bytes" maps its middle to the geometric mean of the range.
        auto* bytes = panel.findChild<QDoubleSpinBox*>("bytes");
        auto* slider = bytes->parentWidget()->findChild<QSlider*>();
        slider->setValue(500);
        QVERIFY(std::fabs(bytes->value() - std::sqrt(1e3 * 1e10)) / bytes->value() < 0.01);
        panel.setParams(p); // rebuilding replaces, not appends
        QCOMPARE(panel.editorCount(), 3);
    }
};

QTEST_MAIN(TestParamPanel)
#include "test_param_panel.moc"
