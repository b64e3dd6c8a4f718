#include "core/cachectl/engine/block_codec.h"

#include <array>
#include <cstring>
#include <lz4.h>

namespace ssdk::cachectl::engine {

namespace {

constexpr int kProbeBytes = 1024;
constexpr int kRestBytes = static_cast<int>(kCodecBlockBytes) - kProbeBytes;
constexpr std::size_t kHeaderBytes = 2;

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
// below 50 for 0.16% of blocks (below 52: 1.5%, each then paying a 1 KiB LZ4 probe); text,
// code, tables and zero-filled data give far fewer. Only four cache
// lines are sampled: on data not yet in the CPU cache, sampling the whole block costs as much
// as copying it (the LZ4 probe then decides from the first KiB anyway).
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

// One LZ4 stream per thread, initialized once: LZ4_resetStream_fast then starts each block
// without clearing the 16 KiB hash table (LZ4_compress_default clears it on every call).
LZ4_stream_t& threadStream() {
    thread_local LZ4_stream_t stream;
    thread_local const bool initialized = LZ4_initStream(&stream, sizeof(stream)) != nullptr;
    (void)initialized;
    return stream;
}

} // namespace

std::size_t encodeBlock(const std::byte* in, std::byte* out, bool& compressed) {
    static_assert(kCodecMaxEncoded >= kHeaderBytes + LZ4_COMPRESSBOUND(kProbeBytes) +
                                          LZ4_COMPRESSBOUND(kRestBytes) - 64);
    if (looksIncompressible(in)) {
        return storeRaw(compressed);
    }
    LZ4_stream_t& stream = threadStream();
    LZ4_resetStream_fast(&stream);
    char* const first = asChars(out) + kHeaderBytes;
    const int firstBytes = LZ4_compress_fast_continue(&stream, asChars(in), first, kProbeBytes,
                                                      kProbeBytes - kProbeBytes / 8, 1);
    if (firstBytes <= 0) {
        return storeRaw(compressed);
    }
    const std::size_t used = kHeaderBytes + static_cast<std::size_t>(firstBytes);
    const int budget = static_cast<int>(kCodecBlockBytes - kCodecBlockBytes / 8 - used);
    // The rest continues the stream: it may refer back into the first KiB, as whole-block
    // compression would.
    const int restBytes = LZ4_compress_fast_continue(&stream, asChars(in) + kProbeBytes,
                                                     asChars(out) + used, kRestBytes, budget, 1);
    if (restBytes <= 0) {
        return storeRaw(compressed);
    }
    out[0] = static_cast<std::byte>(firstBytes & 0xff);
    out[1] = static_cast<std::byte>(firstBytes >> 8);
    compressed = true;
    return used + static_cast<std::size_t>(restBytes);
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
    if (storedBytes < kHeaderBytes) {
        return false;
    }
    const auto firstBytes =
        static_cast<std::size_t>(stored[0]) | (static_cast<std::size_t>(stored[1]) << 8);
    if (kHeaderBytes + firstBytes > storedBytes) {
        return false;
    }
    const int first = LZ4_decompress_safe(asChars(stored) + kHeaderBytes, asChars(out),
                                          static_cast<int>(firstBytes), kProbeBytes);
    const std::size_t restStart = kHeaderBytes + firstBytes;
    if (first != kProbeBytes) {
        return false;
    }
    // The rest was compressed with the first KiB as its dictionary (it precedes it in out).
    const int rest = LZ4_decompress_safe_usingDict(
        asChars(stored) + restStart, asChars(out) + kProbeBytes,
        static_cast<int>(storedBytes - restStart), kRestBytes, asChars(out), kProbeBytes);
    return rest == kRestBytes;
}

} // namespace ssdk::cachectl::engine
