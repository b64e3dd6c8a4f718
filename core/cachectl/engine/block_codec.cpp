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

// Looks like random data: 256 bytes sampled across the block (every 16th) spread over so many
// byte values that LZ4 would find no matches. The sum of squared counts is 256 * 256 / distinct
// values for an even spread: about 511 for random bytes and well over 1000 for text, code,
// tables or zero-filled data.
bool looksIncompressible(const std::byte* in) {
    std::array<std::uint16_t, 256> counts{};
    for (std::size_t i = 0; i < kCodecBlockBytes; i += 16) {
        ++counts[static_cast<std::uint8_t>(in[i])];
    }
    unsigned sumOfSquares = 0;
    for (const auto count : counts) {
        sumOfSquares += unsigned{count} * count;
    }
    return sumOfSquares < 640;
}

} // namespace

std::size_t encodeBlock(const std::byte* in, std::byte* out, bool& compressed) {
    static_assert(kCodecMaxEncoded >= kHeaderBytes + LZ4_COMPRESSBOUND(kProbeBytes) +
                                          LZ4_COMPRESSBOUND(kRestBytes) - 64);
    if (looksIncompressible(in)) {
        return storeRaw(compressed);
    }
    char* const first = asChars(out) + kHeaderBytes;
    const int firstBytes =
        LZ4_compress_default(asChars(in), first, kProbeBytes, kProbeBytes - kProbeBytes / 8);
    if (firstBytes <= 0) {
        return storeRaw(compressed);
    }
    const std::size_t used = kHeaderBytes + static_cast<std::size_t>(firstBytes);
    const int budget = static_cast<int>(kCodecBlockBytes - kCodecBlockBytes / 8 - used);
    const int restBytes =
        LZ4_compress_default(asChars(in) + kProbeBytes, asChars(out) + used, kRestBytes, budget);
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
    const int rest = LZ4_decompress_safe(asChars(stored) + restStart, asChars(out) + kProbeBytes,
                                         static_cast<int>(storedBytes - restStart), kRestBytes);
    return first == kProbeBytes && rest == kRestBytes;
}

} // namespace ssdk::cachectl::engine
