#pragma once
// How the engine stores one 4 KiB block in RAM: raw, or as one LZ4 block when that is at most
// 7/8 of the block. The early abort has two steps: a byte histogram of 64 sampled bytes stores
// random-looking data raw without running LZ4; otherwise LZ4 stops as soon as its output would
// pass 7/8 and the block is stored raw. A writer's EncodeHistory lets a long run of
// incompressible blocks skip most of those checks.
//
// The compressed form is exactly what LZ4_compress_default makes of the block: for a 4 KiB input
// LZ4 uses 16-bit positions and a 4-byte hash, which on real files (a 32 MiB sample of Debian's
// shared libraries: 1.94:1) compresses better than its streaming API's 32-bit positions and
// 5-byte hash (1.81:1), and runs faster (docs/daemon.md, "LZ4 admission").

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace ssdk::cachectl::engine {

inline constexpr std::size_t kCodecBlockBytes = 4096;
// Room encodeBlock needs in out: the largest compressed form kept (7/8 of the block).
inline constexpr std::size_t kCodecMaxEncoded = kCodecBlockBytes - kCodecBlockBytes / 8;

// Writes the compressed form of the 4096 bytes at in to out, returns its size and sets
// compressed. A block stored raw returns 4096 with compressed false and leaves out unspecified:
// its stored form is the input itself (the caller copies it, once).
std::size_t encodeBlock(const std::byte* in, std::byte* out, bool& compressed);

// What encodeBlock recently decided for one writer (a thread), so that a run of incompressible
// data (media, encrypted or already compressed files) stops paying the early-abort check on
// every block: after kRawStreak blocks in a row were stored raw, only every kProbeEvery-th
// block is tried, the others are stored raw at once. A tried block that compresses ends the
// run, so compressible data that follows is stored raw for at most kProbeEvery - 1 blocks.
class EncodeHistory {
public:
    static constexpr std::uint32_t kRawStreak = 16;
    static constexpr std::uint32_t kProbeEvery = 8;

    // True when the next block should skip the check and be stored raw.
    bool skipNext() {
        if (m_rawStreak < kRawStreak) {
            return false;
        }
        return ++m_skipped % kProbeEvery != 0;
    }
    void record(bool compressed) {
        m_rawStreak = compressed ? 0 : std::min(m_rawStreak + 1, kRawStreak);
        if (compressed) {
            m_skipped = 0;
        }
    }

private:
    std::uint32_t m_rawStreak = 0;
    std::uint32_t m_skipped = 0;
};

// encodeBlock guided by history: stores the block raw without looking at it when history says
// so, otherwise encodes it and records the outcome.
std::size_t encodeBlock(const std::byte* in, std::byte* out, bool& compressed,
                        EncodeHistory& history);
// Reverses encodeBlock into 4096 bytes at out. False when the stored form is corrupt.
bool decodeBlock(const std::byte* stored, std::size_t storedBytes, bool compressed, std::byte* out);

} // namespace ssdk::cachectl::engine
