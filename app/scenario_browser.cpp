#include "scenario_browser.h"

#include "engine/registry.h"

#include <QMouseEvent>
#include <QSignalBlocker>

namespace wb {

ScenarioBrowser::ScenarioBrowser(QWidget* parent)
    : QTreeWidget(parent) {
    setHeaderHidden(true);
    setRootIsDecorated(true);
    for (ScenarioGroup g : {ScenarioGroup::InsideOneGpu, ScenarioGroup::CollectivesAndFabrics,
                            ScenarioGroup::ReliabilityAtScale}) {
        auto* groupItem = new QTreeWidgetItem(this, {QString::fromStdString(groupTitle(g))});
        groupItem->setFlags(Qt::ItemIsEnabled);
        QFont f = groupItem->font(0);
        f.setBold(true);
        groupItem->setFont(0, f);
        for (const auto& s : allScenarios()) {
            if (s->group() != g)
                continue;
            auto* item = new QTreeWidgetItem(groupItem, {QString::fromStdString(s->title())});
            item->setData(0, Qt::UserRole, QString::fromStdString(s->id()));
            item->setToolTip(0, QString::fromStdString(s->question()));
        }
        if (groupItem->childCount() == 0)
            groupItem->setText(0, groupItem->text(0) + tr(" (coming)"));
    }
    expandAll();
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item && item->data(0, Qt::UserRole).isValid())
            emit scenarioChosen(item->data(0, Qt::UserRole).toString());
    });
}

void ScenarioBrowser::select(const QString& id) {
    const QSignalBlocker block(this);
    QTreeWidgetItemIterator it(this);
    for (; *it; ++it) {
        if ((*it)->data(0, Qt::UserRole).toString() == id) {
            setCurrentItem(*it);
            return;
        }
    }
}

void ScenarioBrowser::mousePressEvent(QMouseEvent* event) {
    // currentItemChanged covers every other choice; only a click on the item that is already
    // current changes nothing, and that is the one way to start the open scenario over.
    QTreeWidgetItem* before = currentItem();
    QTreeWidget::mousePressEvent(event);
    QTreeWidgetItem* clicked = itemAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && clicked && clicked == before &&
        clicked->data(0, Qt::UserRole).isValid())
        emit scenarioChosen(clicked->data(0, Qt::UserRole).toString());
}

} // namespace wb
