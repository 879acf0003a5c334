#pragma once
// Everything a scenario draws besides its parameters, passed in explicitly so that the same
// parameters and the same inputs always give the same story: the user's imported files and
// the recordings a scenario may replay (live ones the app measured, shipped ones embedded in
// the binary). The app owns its current inputs and hands them to every build; a caller that
// has only parameters builds against ScenarioInputs::shipped() (no imports, no live
// recordings). Nothing in scenarios/ reads a global for these any more.
//
// A user's selection on a picture (a clicked component) is not an input of its own: the
// scenario maps it to parameter values (Scenario::paramsForClick), so a selection is always
// reproducible from the parameters alone.
#include "engine/imported_set.h"
#include "engine/recording_set.h"

namespace wb {

// A component the user clicked on a cluster map: `kind` is the map's component kind
// (MapKind / ComponentKind numbers), `index` the component's index among those of its kind.
struct ClickTarget {
    int kind = 0;
    int index = 0;
};

struct ScenarioInputs {
    ImportedSet imported;    // the user's files; empty by default
    RecordingSet recordings; // live recordings; shipped ones are found through it

    // No imports and no live recordings: scenarios replay only what ships with the program.
    static const ScenarioInputs& shipped();
};

} // namespace wb
