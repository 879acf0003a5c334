#pragma once
// Chooses Qt's offscreen platform when there is no display, before any application object
// exists, so exports and the no-display run work on servers and in CI.

namespace wb {

// True when a display (X11 or Wayland) or an explicit QT_QPA_PLATFORM is available.
bool hasDisplay();
// Selects "offscreen" when !hasDisplay(). Call before constructing QApplication.
void selectOffscreenIfHeadless();
// Drops the offscreen plugin's "does not support propagateSizeHints()" notice, which says
// nothing to a user of exports; every other message passes through.
void quietOffscreenNotices();

} // namespace wb
