#pragma once
// Chooses Qt's offscreen platform when there is no display, before any application object
// exists, so exports and the no-display run work on servers and in CI.

#include <memory>

class QApplication;

namespace wb {

// True when a display (X11 or Wayland) or an explicit QT_QPA_PLATFORM is available.
bool hasDisplay();
// Selects "offscreen" when !hasDisplay(). Call before constructing QApplication.
void selectOffscreenIfHeadless();
// Drops the offscreen plugin's "does not support propagateSizeHints()" notice, which says
// nothing to a user of exports; every other message passes through.
void quietOffscreenNotices();
// Clears the x86 vector registers' upper halves, which starting Qt's platform plugin leaves
// set. While they are set, every SSE instruction on this thread waits on them: the models,
// compiled for plain x86-64, then ran about five times slower (a 64-expert MoE router step
// took 9 ms instead of 1.6 ms). Call right after constructing the application object and
// before running models on the GUI thread (ScenarioSession does); a no-op on other CPUs.
void clearVectorUpperState();

// The application object every entry point starts the same way: offscreen when headless,
// the offscreen notice quieted, the vector registers cleared after construction. `argc` must
// outlive the application (QApplication keeps a reference to it).
std::unique_ptr<QApplication> startApplication(int& argc, char** argv);

} // namespace wb
