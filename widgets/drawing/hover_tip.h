#pragma once
// Pointer handling the views share: which item is under the mouse (indexAt) and the hover
// explanation for it. handleHoverTip answers a QEvent::ToolTip with the text `tipAt` gives for
// the hovered point (empty: no tip). Every view's event() calls this one function, so they
// all show, hide and ignore tooltip events the same way.
#include <QEvent>
#include <QHelpEvent>
#include <QString>
#include <QToolTip>
#include <QWidget>

namespace wb {

template <typename TipAt> bool handleHoverTip(QWidget* view, QEvent* event, TipAt tipAt) {
    if (event->type() != QEvent::ToolTip)
        return false;
    auto* help = static_cast<QHelpEvent*>(event);
    const QString tip = tipAt(QPointF(help->pos()));
    if (tip.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), tip, view);
    }
    return true;
}

// The tip of element `index` of `items` (each with a std::string `field`), or "".
template <typename Items, typename Field>
QString tipOf(const Items& items, int index, Field field) {
    if (index < 0 || static_cast<std::size_t>(index) >= items.size())
        return {};
    return QString::fromStdString(items[static_cast<std::size_t>(index)].*field);
}

// The first of `count` items whose rectangle, extended downward by `labelBelow` of its own
// height (where a caption sits under the box), contains `pos`; -1 if none.
template <typename RectOf>
int indexAt(int count, RectOf rectOf, const QPointF& pos, double labelBelow = 0.0) {
    for (int i = 0; i < count; ++i) {
        const QRectF r = rectOf(i);
        if (r.adjusted(0, 0, 0, r.height() * labelBelow).contains(pos))
            return i;
    }
    return -1;
}

} // namespace wb
