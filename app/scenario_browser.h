#pragma once
// The scenario list grouped as in the catalogue: inside one GPU, collectives and fabrics,
// reliability at scale.
#include <QTreeWidget>

namespace wb {

class ScenarioBrowser : public QTreeWidget {
    Q_OBJECT
public:
    explicit ScenarioBrowser(QWidget* parent = nullptr);
    void select(const QString& id); // does not emit scenarioChosen

signals:
    // A different scenario became current, or the current one was clicked again: both
    // (re)open it from its first step with its answer hidden.
    void scenarioChosen(const QString& id);

protected:
    void mousePressEvent(QMouseEvent* event) override;
};

} // namespace wb
