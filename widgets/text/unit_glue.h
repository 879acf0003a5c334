#pragma once
// Where a line may not break: a number keeps the short word after it ("200 GB/s", "34 %",
// "5 µs", "4 NICs") and a compound unit stays whole ("GB/s" never ends a line at "GB/").
// Qt's line breaker follows Unicode's rules, which allow both breaks; a reader on a shared
// screen then sees "34" at the end of one line and "% SM activity" on the next.
#include <QString>
#include <vector>

namespace wb {

struct GluedText {
    QString text; // `source` with no-break spaces and word joiners where a break must not fall
    // For each character of `text`, its index in `source`; -1 for an inserted word joiner.
    std::vector<int> sourceIndex;
};

GluedText glueUnits(const QString& source);

// glueUnits(source).text, for a label that wraps by itself (QLabel).
QString keepUnitsTogether(const QString& source);

} // namespace wb
