#pragma once
// The Traces workspace's comparison of two trace sets ("before" = the open files, "after" =
// the second set opened to compare): the tables of `warpboard analyze --compare`
// (scenarios/analysis/trace_compare.h), kernels and operators, sorted by impact.
#include <QRectF>
#include <QWidget>
#include <memory>

class QPainter;

namespace wb {

struct TraceComparison;

class ComparePanel : public QWidget {
    Q_OBJECT
public:
    explicit ComparePanel(QWidget* parent = nullptr);
    // What to show; null: no second set is open.
    void setComparison(std::shared_ptr<const TraceComparison> comparison);
    const TraceComparison* comparison() const { return m_comparison.get(); }
    // Draws the panel as exported into `bounds`.
    void render(QPainter& painter, const QRectF& bounds) const;

signals:
    // A click on a kernel or operator row.
    void itemActivated(const QString& name);

private:
    std::shared_ptr<const TraceComparison> m_comparison;
};

} // namespace wb
