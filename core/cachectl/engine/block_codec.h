#pragma once
// How the engine stores one 4 KiB block in RAM: raw, or LZ4-compressed as two LZ4 blocks of one
// stream (the first KiB, then the remaining 3 KiB with the first as its dictionary) behind a
// 2-byte length of the first. The early abort has two steps: a byte histogram of 256 sampled
// bytes stores random-looking data raw at once; otherwise the first KiB is compressed and, when
// it does not shrink by 1/8, the block is stored raw without compressing the rest.

#include <cstddef>
#include <cstdint>

namespace ssdk::cachectl::engine {

inline constexpr std::size_t kCodecBlockBytes = 4096;
// Room encodeBlock needs in out.
inline constexpr std::size_t kCodecMaxEncoded = kCodecBlockBytes + 64;

// Writes the compressed form of the 4096 bytes at in to out, returns its size and sets
// compressed. A block stored raw returns 4096 with compressed false and leaves out unspecified:
// its stored form is the input itself (the caller copies it, once).
std::size_t encodeBlock(const std::byte* in, std::byte* out, bool& compressed);
// Reverses encodeBlock into 4096 bytes at out. False when the stored form is corrupt.
bool decodeBlock(const std::byte* stored, std::size_t storedBytes, bool compressed, std::byte* out);

} // namespace ssdk::cachectl::engine
