#pragma once
// The parameter panel, generated from a scenario's ParamSpecs: a slider with a spin box for
// numbers (log-scaled where the spec says so), a combo box for choices.
#include "engine/params.h"

#include <QWidget>

class QFormLayout;

namespace wb {

class ParamPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParamPanel(QWidget* parent = nullptr);

    void setParams(const Params& params); // rebuilds the editors
    int editorCount() const;

signals:
    void paramChanged(const QString& name, const QString& value);

private:
    QWidget* numberEditor(const ParamSpec& spec, double value);
    QWidget* choiceEditor(const ParamSpec& spec, const std::string& value);
    QWidget* textEditor(const ParamSpec& spec, const std::string& value);

    QFormLayout* m_form;
};

} // namespace wb
