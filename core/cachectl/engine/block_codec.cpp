#include "core/cachectl/engine/block_codec.h"

#include <array>
#include <cstring>
#include <lz4.h>

namespace ssdk::cachectl::engine {

namespace {

const char* asChars(const std::byte* bytes) {
    return reinterpret_cast<const char*>(bytes);
}
char* asChars(std::byte* bytes) {
    return reinterpret_cast<char*>(bytes);
}

std::size_t storeRaw(bool& compressed) {
    compressed = false;
    return kCodecBlockBytes;
}

// Looks like random data: 64 bytes sampled from the block's first 256 (every 4th byte) take
// at least 50 distinct values. Random bytes give about 57 (256 * (1 - (255/256)^64)) and fall
// below 50 for 0.16% of blocks (below 52: 1.5%, each then paying an LZ4 attempt); text, code,
// tables and zero-filled data give far fewer. Only four cache lines are sampled: on data not
// yet in the CPU cache, sampling the whole block costs as much as copying it.
bool looksIncompressible(const std::byte* in) {
    // Marks are plain byte stores (no read-modify-write chain through one bitmap word), then
    // summed eight at a time: each byte lane of the sum stays <= 32, the total <= 64.
    alignas(8) std::array<std::uint8_t, 256> seen{};
    for (std::size_t i = 0; i < 256; i += 4) {
        seen[static_cast<std::uint8_t>(in[i])] = 1;
    }
    std::uint64_t lanes = 0;
    for (std::size_t i = 0; i < seen.size(); i += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, seen.data() + i, sizeof(word));
        lanes += word;
    }
    const auto distinct = static_cast<int>((lanes * 0x0101010101010101ULL) >> 56);
    return distinct >= 50;
}

// One LZ4 state per thread (LZ4_compress_fast_extState initializes it on every call, as
// LZ4_compress_default does with one on its stack).
LZ4_stream_t& threadState() {
    thread_local LZ4_stream_t state;
    return state;
}

} // namespace

std::size_t encodeBlock(const std::byte* in, std::byte* out, bool& compressed) {
    if (looksIncompressible(in)) {
        return storeRaw(compressed);
    }
    // LZ4 gives up (0) as soon as its output would pass the limit.
    const int bytes = LZ4_compress_fast_extState(&threadState(), asChars(in), asChars(out),
                                                 static_cast<int>(kCodecBlockBytes),
                                                 static_cast<int>(kCodecMaxEncoded), 1);
    if (bytes <= 0) {
        return storeRaw(compressed);
    }
    compressed = true;
    return static_cast<std::size_t>(bytes);
}

std::size_t encodeBlock(const std::byte* in, std::byte* out, bool& compressed,
                        EncodeHistory& history) {
    if (history.skipNext()) {
        return storeRaw(compressed);
    }
    const std::size_t stored = encodeBlock(in, out, compressed);
    history.record(compressed);
    return stored;
}

bool decodeBlock(const std::byte* stored, std::size_t storedBytes, bool compressed,
                 std::byte* out) {
    if (!compressed) {
        if (storedBytes != kCodecBlockBytes) {
            return false;
        }
        std::memcpy(out, stored, kCodecBlockBytes);
        return true;
    }
    if (storedBytes == 0 || storedBytes > kCodecMaxEncoded) {
        return false;
    }
    return LZ4_decompress_safe(asChars(stored), asChars(out), static_cast<int>(storedBytes),
                               static_cast<int>(kCodecBlockBytes)) ==
           static_cast<int>(kCodecBlockBytes);
}

} // namespace ssdk::cachectl::engine
