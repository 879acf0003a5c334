#pragma once
// Transport glyphs (play, pause, previous, next) drawn in the palette's button text colour.
// The style's standard media icons are dark bitmaps that vanish on a dark palette.
#include <QIcon>
#include <QPalette>

namespace wb {

enum class MediaGlyph { Play, Pause, Previous, Next };

QIcon mediaIcon(MediaGlyph glyph, const QPalette& palette);

} // namespace wb
