#include "core/cachectl/engine/block_codec.h"

#include <array>
#include <bit>
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
// at least 52 distinct values. Random bytes give about 57 (256 * (1 - (255/256)^64), standard
// deviation under 2); text, code, tables and zero-filled data far fewer. Only four cache
// lines are sampled: on data not yet in the CPU cache, sampling the whole block costs as much
// as copying it (the LZ4 probe then decides from the first KiB anyway).
bool looksIncompressible(const std::byte* in) {
    // Indexed, not selected with comparisons: on random data those branches mispredict.
    std::array<std::uint64_t, 4> bits{};
    for (std::size_t i = 0; i < 256; i += 4) {
        const auto value = static_cast<unsigned>(in[i]);
        bits[value >> 6U] |= std::uint64_t{1} << (value & 63U);
    }
    const int distinct = std::popcount(bits[0]) + std::popcount(bits[1]) + std::popcount(bits[2]) +
                         std::popcount(bits[3]);
    return distinct >= 52;
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
