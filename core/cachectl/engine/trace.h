#pragma once
// Block reference traces for the simulator: parsers are pure functions from bytes to the
// sequence of referenced 4 KiB block numbers (formats in shared/fixtures/traces/REFERENCE.md).
//
// - lis:              "start_block nblocks ignore request_no" per line; expands to nblocks refs.
// - lirs:             one decimal block number per line; "*" lines and empty lines are skipped.
// - cloudphysics-csv: header "version,time,op,size,lbn"; size in bytes, lbn in 512-byte sectors;
//                     each row expands to the 4 KiB blocks it touches.
// - u32be:            binary, one big-endian unsigned 32-bit block number per reference.
// - blocks:           one decimal block number per line, optionally followed by a block count
//                     ("start count", what `ssdkeeperctl trace record` and blkparse exports
//                     reduce to); "#" starts a comment.
// - blktrace:         blktrace's binary events (blktrace.h): each read or write as queued.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"

namespace ssdk::cachectl::engine {

enum class TraceFormat { Lis, Lirs, CloudPhysicsCsv, U32be, Blocks, Blktrace };

Expected<TraceFormat> parseTraceFormat(std::string_view name);
std::vector<std::string> traceFormatNames();

// Parse error naming the line (1-based) for malformed text.
Expected<std::vector<std::uint64_t>> parseTrace(std::string_view bytes, TraceFormat format);

// gzip (1f 8b) and zstd (28 b5 2f fd) input is decompressed; anything else is returned as is.
Expected<std::string> decompressIfNeeded(std::string bytes);

// Reads path ("-" is standard input), decompresses and parses it.
Expected<std::vector<std::uint64_t>> readTrace(const std::filesystem::path& path,
                                               TraceFormat format);

} // namespace ssdk::cachectl::engine
