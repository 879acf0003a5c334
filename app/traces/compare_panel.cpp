#include "traces/compare_panel.h"

#include "analysis/trace_compare.h"

#include <QPainter>

namespace wb {

ComparePanel::ComparePanel(QWidget* parent)
    : QWidget(parent) {}

void ComparePanel::setComparison(std::shared_ptr<const TraceComparison> comparison) {
    m_comparison = std::move(comparison);
    update();
}

void ComparePanel::render(QPainter& /*painter*/, const QRectF& /*bounds*/) const {}

} // namespace wb
