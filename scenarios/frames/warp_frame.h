#pragma once
// One warp at one moment of a per-lane SIMT interpretation: which lanes are active, their
// values, the instruction being issued and the reconvergence stack.
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct WarpLane {
    bool active = false;
    bool exited = false;    // finished the program (greyed like idle)
    std::int64_t value = 0; // the lane's register the program computes
    std::string tip;        // hover text: what this lane did and why
    bool operator==(const WarpLane&) const = default;
};

struct ReconvergenceEntry {
    std::uint32_t mask = 0; // lanes that run this entry's path
    int pc = 0;             // where the path resumes
    int reconvergePc = -1;  // where it joins the others again (-1: end of program)
    std::string label;      // "then", "else", "after if"
    bool operator==(const ReconvergenceEntry&) const = default;
};

// One issued instruction and the lanes it ran for: together the warp's active-mask record.
struct IssuedMask {
    int pc = -1;
    std::uint32_t mask = 0; // bit l: lane l was active
    bool operator==(const IssuedMask&) const = default;
};

struct WarpFrame {
    std::string title;                     // "if (threadIdx.x % 2)"
    std::vector<std::string> program;      // the instruction list, one line each
    int pc = -1;                           // index of the instruction being issued, -1 = none
    std::vector<WarpLane> lanes;           // 32
    std::vector<ReconvergenceEntry> stack; // top is back()
    int issued = 0;                        // instructions issued so far
    int activeLaneSlots = 0;               // sum over issued instructions of active lanes
    double efficiency = 1.0;               // activeLaneSlots / (32 × issued)
    bool diverged = false;                 // the warp split at some branch
    // Every instruction issued up to and including this one, oldest first: the serialized
    // paths stay on screen after the warp has reconverged (empty: no record drawn).
    std::vector<IssuedMask> issuedMasks;
    bool operator==(const WarpFrame&) const = default;
};

} // namespace wb
