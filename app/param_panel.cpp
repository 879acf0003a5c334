#include "param_panel.h"

#include "engine/number_format.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <cmath>

namespace wb {

namespace {
constexpr int kSliderSteps = 1000;

// Slider position ↔ value, linear or logarithmic over [min, max].
double sliderToValue(const ParamSpec& s, int pos) {
    const double f = double(pos) / kSliderSteps;
    double v = s.logScale && s.min > 0 ? std::exp(std::log(s.min) + f * std::log(s.max / s.min))
                                       : s.min + f * (s.max - s.min);
    if (s.kind == ParamSpec::Kind::Integer)
        v = std::round(v);
    return std::clamp(v, s.min, s.max);
}

int valueToSlider(const ParamSpec& s, double v) {
    const double f = s.logScale && s.min > 0 ? std::log(v / s.min) / std::log(s.max / s.min)
                                             : (v - s.min) / (s.max - s.min);
    return int(std::lround(std::clamp(f, 0.0, 1.0) * kSliderSteps));
}
} // namespace

ParamPanel::ParamPanel(QWidget* parent)
    : QWidget(parent)
    , m_form(new QFormLayout(this)) {
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // In a narrow dock a long label moves its editor to the next line instead of forcing a
    // horizontal scroll bar.
    m_form->setRowWrapPolicy(QFormLayout::WrapLongRows);
}

int ParamPanel::editorCount() const {
    return m_form->rowCount();
}

void ParamPanel::setParams(const Params& params) {
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    for (const auto& spec : params.specs()) {
        QWidget* editor = nullptr;
        if (spec.kind == ParamSpec::Kind::Choice)
            editor = choiceEditor(spec, params.text(spec.name));
        else if (spec.kind == ParamSpec::Kind::Text)
            editor = textEditor(spec, params.text(spec.name));
        else
            editor = numberEditor(spec, params.number(spec.name));
        QString label = QString::fromStdString(spec.label);
        if (!spec.unit.empty())
            label += " (" + QString::fromStdString(spec.unit) + ")";
        auto* l = new QLabel(label, this);
        l->setToolTip(QString::fromStdString(Params::describe(spec) +
                                             (spec.help.empty() ? "" : "\n" + spec.help)));
        editor->setToolTip(l->toolTip());
        // The editor with its error line beneath it, so a rejected value says why right there.
        auto* field = new QWidget(this);
        auto* column = new QVBoxLayout(field);
        column->setContentsMargins(0, 0, 0, 0);
        column->setSpacing(2);
        editor->setParent(field);
        column->addWidget(editor);
        auto* error = new QLabel(field);
        error->setObjectName(QString::fromStdString(spec.name) + "-error");
        error->setWordWrap(true);
        error->setTextInteractionFlags(Qt::TextSelectableByMouse);
        QPalette red = error->palette();
        red.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
        error->setPalette(red);
        error->hide();
        column->addWidget(error);
        m_form->addRow(l, field);
    }
}

QLabel* ParamPanel::errorLabel(const QString& name) const {
    return findChild<QLabel*>(name + "-error");
}

void ParamPanel::showError(const QString& name, const QString& message) {
    if (QLabel* error = errorLabel(name)) {
        error->setText(message);
        error->setVisible(!message.isEmpty());
    }
}

void ParamPanel::clearErrors() {
    for (QLabel* error : findChildren<QLabel*>())
        if (error->objectName().endsWith("-error")) {
            error->clear();
            error->hide();
        }
}

QString ParamPanel::errorText(const QString& name) const {
    const QLabel* error = errorLabel(name);
    return error && !error->isHidden() ? error->text() : QString();
}

void ParamPanel::showValue(const QString& name, const QString& value) {
    if (auto* combo = findChild<QComboBox*>(name)) {
        const QSignalBlocker block(combo);
        combo->setCurrentText(value);
    } else if (auto* edit = findChild<QLineEdit*>(name)) {
        edit->setText(value);
        edit->setModified(false);
    }
}

QWidget* ParamPanel::numberEditor(const ParamSpec& spec, double value) {
    auto* box = new QWidget(this);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    auto* slider = new QSlider(Qt::Horizontal, box);
    slider->setRange(0, kSliderSteps);
    slider->setValue(valueToSlider(spec, value));
    auto* spin = new QDoubleSpinBox(box);
    spin->setRange(spec.min, spec.max);
    const bool integer = spec.kind == ParamSpec::Kind::Integer;
    // Large ranges (bytes, parameter counts) read better without decimals.
    spin->setDecimals(integer || spec.max >= 1e5 ? 0 : 2);
    spin->setValue(value);
    spin->setMinimumWidth(90);
    spin->setMaximumWidth(130);
    slider->setMinimumWidth(90);
    spin->setObjectName(QString::fromStdString(spec.name));
    row->addWidget(slider, 1);
    row->addWidget(spin);
    const QString name = QString::fromStdString(spec.name);
    connect(slider, &QSlider::valueChanged, spin,
            [spin, spec](int pos) { spin->setValue(sliderToValue(spec, pos)); });
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, slider, spec, name](double v) {
        {
            const QSignalBlocker block(slider);
            slider->setValue(valueToSlider(spec, v));
        }
        emit paramChanged(name, QString::fromStdString(formatNumber(v)));
    });
    return box;
}

QWidget* ParamPanel::choiceEditor(const ParamSpec& spec, const std::string& value) {
    auto* combo = new QComboBox(this);
    combo->setObjectName(QString::fromStdString(spec.name));
    for (const auto& c : spec.choices)
        combo->addItem(QString::fromStdString(c));
    combo->setCurrentText(QString::fromStdString(value));
    const QString name = QString::fromStdString(spec.name);
    connect(combo, &QComboBox::currentTextChanged, this,
            [this, name](const QString& v) { emit paramChanged(name, v); });
    return combo;
}

QWidget* ParamPanel::textEditor(const ParamSpec& spec, const std::string& value) {
    auto* edit = new QLineEdit(QString::fromStdString(value), this);
    edit->setObjectName(QString::fromStdString(spec.name));
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    const QString name = QString::fromStdString(spec.name);
    // Applied on Enter or focus loss: a half-typed expression is not an error yet. A text
    // that selects a choice when typed ignores leaving the field without an edit, so clicking
    // through it changes nothing; Enter always applies.
    const bool selects = !spec.selectsParam.empty();
    connect(edit, &QLineEdit::editingFinished, this, [this, edit, name, selects] {
        if (selects && !edit->isModified() && !edit->hasFocus())
            return;
        edit->setModified(false);
        emit paramChanged(name, edit->text());
    });
    return edit;
}

} // namespace wb
