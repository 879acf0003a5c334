#pragma once
// The parameter panel, generated from a scenario's ParamSpecs: a slider with a spin box for
// numbers (log-scaled where the spec says so), a combo box for choices, a line edit for text.
// Under each editor a line for the error the model gave for that value, hidden while none.
#include "engine/params.h"

#include <QWidget>

class QFormLayout;
class QLabel;

namespace wb {

class ParamPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParamPanel(QWidget* parent = nullptr);

    void setParams(const Params& params); // rebuilds the editors
    int editorCount() const;
    // The message beside `name`'s editor (empty hides it); clearErrors hides them all.
    void showError(const QString& name, const QString& message);
    void clearErrors();
    QString errorText(const QString& name) const;
    // Shows `value` in a choice's or a text's editor without reporting it as an edit.
    void showValue(const QString& name, const QString& value);

signals:
    void paramChanged(const QString& name, const QString& value);

private:
    QWidget* numberEditor(const ParamSpec& spec, double value);
    QWidget* choiceEditor(const ParamSpec& spec, const std::string& value);
    QWidget* textEditor(const ParamSpec& spec, const std::string& value);

    QLabel* errorLabel(const QString& name) const;

    QFormLayout* m_form;
};

} // namespace wb
