#include "engine/scenario.h"

namespace wb {

std::string groupTitle(ScenarioGroup g) {
    switch (g) {
    case ScenarioGroup::InsideOneGpu:
        return "Inside one GPU";
    case ScenarioGroup::CollectivesAndFabrics:
        return "Collectives and fabrics";
    case ScenarioGroup::ReliabilityAtScale:
        return "Reliability at scale";
    }
    return {};
}

std::string groupKey(ScenarioGroup g) {
    switch (g) {
    case ScenarioGroup::InsideOneGpu:
        return "inside-one-gpu";
    case ScenarioGroup::CollectivesAndFabrics:
        return "collectives-and-fabrics";
    case ScenarioGroup::ReliabilityAtScale:
        return "reliability-at-scale";
    }
    return {};
}

} // namespace wb
