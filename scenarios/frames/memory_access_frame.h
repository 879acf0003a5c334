#pragma once
// One warp-wide memory instruction: every lane's address, the 32-byte sectors and 128-byte
// lines it touches in global memory, or the shared-memory banks it hits and the wavefronts
// they take. The same struct serves global (sectors) and shared (banks) accesses.
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct LaneAccess {
    bool active = true;
    std::uint64_t address = 0; // bytes
    int sector = -1;           // index into MemoryAccessFrame::sectors (global)
    int bank = -1;             // 0…31 (shared)
    std::uint64_t word = 0;    // 4-byte word index (shared)
    std::string tip;
    bool operator==(const LaneAccess&) const = default;
};

struct BankHit {
    int bank = 0;
    std::uint64_t row = 0;  // word / 32: which row of the bank
    std::vector<int> lanes; // lanes reading this word
    bool operator==(const BankHit&) const = default;
};

struct MemoryAccessFrame {
    enum class Space { Global, Shared };
    std::string title;       // "naive transpose · store out[x * n + y]"
    std::string instruction; // "st.global.f32", "ld.shared.f32"
    Space space = Space::Global;
    int elementBytes = 4;
    std::vector<LaneAccess> lanes; // 32
    // Global: distinct 32-byte sectors and 128-byte lines, by address.
    std::vector<std::uint64_t> sectors;
    std::vector<std::uint64_t> lines;
    int requests = 1;
    double sectorsPerRequest = 0.0;
    double efficiency = 1.0; // bytes requested / bytes moved
    // Both: distinct bytes the active lanes ask for (a byte several lanes read counts once).
    std::uint64_t bytesRequested = 0;
    // Shared: every distinct word a lane hit, by bank.
    std::vector<BankHit> bankHits;
    // Shared: wavefronts the instruction takes (one per clock; the most distinct words any one
    // bank must deliver) and the fewest any access of bytesRequested could take, ⌈bytes / 128⌉
    // (32 banks × 4 bytes per clock). Wavefronts beyond that minimum are bank conflicts; a
    // warp reading 32 × 8 bytes needs two wavefronts and has none.
    int wavefronts = 1;
    int minWavefronts = 1;
    int banksUsed = 0;
    int highlightLane = -1;
    bool operator==(const MemoryAccessFrame&) const = default;
};

// Shared: the wavefronts bank conflicts add, beyond the minimum the bytes need.
inline int extraWavefronts(const MemoryAccessFrame& f) {
    return f.wavefronts - f.minWavefronts;
}

} // namespace wb
