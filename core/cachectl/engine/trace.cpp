#include "core/cachectl/engine/trace.h"

#include <charconv>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <zlib.h>
#include <zstd.h>

#include "core/cachectl/engine/blktrace.h"

namespace ssdk::cachectl::engine {

namespace {

constexpr std::uint64_t kBlockBytes = 4096;
constexpr std::uint64_t kSectorBytes = 512;

// Splits bytes into lines without their "\n" or "\r\n".
template <typename Fn> Expected<void> forEachLine(std::string_view bytes, Fn&& fn) {
    std::size_t lineNumber = 0;
    while (!bytes.empty()) {
        ++lineNumber;
        const std::size_t end = bytes.find('\n');
        std::string_view line = bytes.substr(0, end);
        bytes = end == std::string_view::npos ? std::string_view{} : bytes.substr(end + 1);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (auto result = fn(line, lineNumber); !result) {
            return result;
        }
    }
    return {};
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
        text.remove_suffix(1);
    }
    return text;
}

// Whitespace-separated fields.
std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t pos = 0;
    while (pos < line.size()) {
        while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) {
            ++pos;
        }
        const std::size_t start = pos;
        while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t') {
            ++pos;
        }
        if (pos > start) {
            out.push_back(line.substr(start, pos - start));
        }
    }
    return out;
}

std::optional<std::uint64_t> parseNumber(std::string_view text, int base = 10) {
    std::uint64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (error != std::errc{} || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

std::unexpected<Error> lineError(std::size_t lineNumber, std::string_view what,
                                 std::string_view line) {
    return fail(ErrorCode::Parse, "line " + std::to_string(lineNumber) + ": " + std::string(what) +
                                      ": '" + std::string(line.substr(0, 80)) + "'");
}

Expected<void> expand(std::vector<std::uint64_t>& out, std::uint64_t start, std::uint64_t count,
                      std::size_t lineNumber, std::string_view line) {
    // A single request over a billion blocks is corrupt input, not a trace.
    if (count > (1ULL << 30)) {
        return lineError(lineNumber, "block count too large", line);
    }
    for (std::uint64_t i = 0; i < count; ++i) {
        out.push_back(start + i);
    }
    return {};
}

Expected<std::vector<std::uint64_t>> parseLis(std::string_view bytes) {
    std::vector<std::uint64_t> refs;
    auto result = forEachLine(bytes, [&](std::string_view line, std::size_t n) -> Expected<void> {
        const auto parts = fields(line);
        if (parts.empty()) {
            return {};
        }
        if (parts.size() < 2) {
            return lineError(n, "expected 'start_block nblocks ...'", line);
        }
        auto start = parseNumber(parts[0]);
        auto count = parseNumber(parts[1]);
        if (!start || !count) {
            return lineError(n, "not a block number and count", line);
        }
        return expand(refs, *start, *count, n, line);
    });
    if (!result) {
        return std::unexpected(result.error());
    }
    return refs;
}

Expected<std::vector<std::uint64_t>> parseDecimalLines(std::string_view bytes, bool allowCount) {
    std::vector<std::uint64_t> refs;
    auto result = forEachLine(bytes, [&](std::string_view line, std::size_t n) -> Expected<void> {
        if (allowCount) {
            line = line.substr(0, line.find('#'));
        }
        line = trim(line);
        if (line.empty() || line == "*") {
            return {};
        }
        const auto parts = fields(line);
        if (parts.size() > (allowCount ? 2U : 1U)) {
            return lineError(n, "unexpected fields", line);
        }
        auto block = parseNumber(parts[0]);
        if (!block) {
            return lineError(n, "not a block number", line);
        }
        std::uint64_t count = 1;
        if (parts.size() == 2) {
            auto parsed = parseNumber(parts[1]);
            if (!parsed) {
                return lineError(n, "not a block count", line);
            }
            count = *parsed;
        }
        return expand(refs, *block, count, n, line);
    });
    if (!result) {
        return std::unexpected(result.error());
    }
    return refs;
}

Expected<std::vector<std::uint64_t>> parseCloudPhysics(std::string_view bytes) {
    std::vector<std::uint64_t> refs;
    bool header = true;
    auto result = forEachLine(bytes, [&](std::string_view line, std::size_t n) -> Expected<void> {
        if (trim(line).empty()) {
            return {};
        }
        std::vector<std::string_view> columns;
        std::size_t start = 0;
        for (;;) {
            const std::size_t comma = line.find(',', start);
            columns.push_back(trim(line.substr(start, comma - start)));
            if (comma == std::string_view::npos) {
                break;
            }
            start = comma + 1;
        }
        if (header) {
            header = false;
            if (columns.size() != 5 || columns[3] != "size" || columns[4] != "lbn") {
                return lineError(n, "expected the header 'version,time,op,size,lbn'", line);
            }
            return {};
        }
        if (columns.size() != 5) {
            return lineError(n, "expected 5 columns", line);
        }
        auto size = parseNumber(columns[3]);
        auto lbn = parseNumber(columns[4]);
        if (!size || !lbn || *lbn > (UINT64_MAX / kSectorBytes) - (1ULL << 40)) {
            return lineError(n, "bad size or lbn", line);
        }
        if (*size == 0) {
            return {};
        }
        const std::uint64_t first = *lbn * kSectorBytes / kBlockBytes;
        const std::uint64_t last = (*lbn * kSectorBytes + *size - 1) / kBlockBytes;
        return expand(refs, first, last - first + 1, n, line);
    });
    if (!result) {
        return std::unexpected(result.error());
    }
    return refs;
}

Expected<std::vector<std::uint64_t>> parseU32be(std::string_view bytes) {
    if (bytes.size() % 4 != 0) {
        return fail(ErrorCode::Parse, "u32be trace of " + std::to_string(bytes.size()) +
                                          " bytes is not a whole number of 4-byte entries");
    }
    std::vector<std::uint64_t> refs;
    refs.reserve(bytes.size() / 4);
    for (std::size_t i = 0; i < bytes.size(); i += 4) {
        const auto byte = [&](std::size_t k) {
            return static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i + k]));
        };
        refs.push_back(byte(0) << 24 | byte(1) << 16 | byte(2) << 8 | byte(3));
    }
    return refs;
}

Expected<std::string> gunzip(std::string_view bytes) {
    z_stream stream{};
    if (inflateInit2(&stream, 15 + 32) != Z_OK) {
        return fail(ErrorCode::Internal, "inflateInit2 failed");
    }
    std::string out;
    std::string chunk(1 << 16, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream.avail_in = static_cast<uInt>(bytes.size());
    int status = Z_OK;
    while (status != Z_STREAM_END) {
        stream.next_out = reinterpret_cast<Bytef*>(chunk.data());
        stream.avail_out = static_cast<uInt>(chunk.size());
        status = inflate(&stream, Z_NO_FLUSH);
        if (status != Z_OK && status != Z_STREAM_END) {
            inflateEnd(&stream);
            return fail(ErrorCode::Parse, "corrupt gzip data");
        }
        out.append(chunk.data(), chunk.size() - stream.avail_out);
        if (status == Z_OK && stream.avail_in == 0 && stream.avail_out != 0) {
            inflateEnd(&stream);
            return fail(ErrorCode::Parse, "truncated gzip data");
        }
    }
    inflateEnd(&stream);
    return out;
}

Expected<std::string> unzstd(std::string_view bytes) {
    ZSTD_DStream* stream = ZSTD_createDStream();
    if (stream == nullptr) {
        return fail(ErrorCode::Internal, "ZSTD_createDStream failed");
    }
    std::string out;
    std::string chunk(ZSTD_DStreamOutSize(), '\0');
    ZSTD_inBuffer input{bytes.data(), bytes.size(), 0};
    std::size_t status = 0;
    for (;;) {
        ZSTD_outBuffer output{chunk.data(), chunk.size(), 0};
        status = ZSTD_decompressStream(stream, &output, &input);
        if (ZSTD_isError(status) != 0) {
            ZSTD_freeDStream(stream);
            return fail(ErrorCode::Parse,
                        std::string("corrupt zstd data: ") + ZSTD_getErrorName(status));
        }
        out.append(chunk.data(), output.pos);
        if (input.pos == input.size && output.pos < output.size) {
            break;
        }
    }
    ZSTD_freeDStream(stream);
    if (status != 0) {
        return fail(ErrorCode::Parse, "truncated zstd data");
    }
    return out;
}

} // namespace

std::vector<std::string> traceFormatNames() {
    return {"lis", "lirs", "cloudphysics-csv", "u32be", "blocks", "blktrace"};
}

Expected<TraceFormat> parseTraceFormat(std::string_view name) {
    if (name == "lis") {
        return TraceFormat::Lis;
    }
    if (name == "lirs") {
        return TraceFormat::Lirs;
    }
    if (name == "cloudphysics-csv") {
        return TraceFormat::CloudPhysicsCsv;
    }
    if (name == "u32be") {
        return TraceFormat::U32be;
    }
    if (name == "blocks") {
        return TraceFormat::Blocks;
    }
    if (name == "blktrace") {
        return TraceFormat::Blktrace;
    }
    return fail(ErrorCode::InvalidArgument,
                "unknown trace format '" + std::string(name) +
                    "' (lis, lirs, cloudphysics-csv, u32be, blocks, blktrace)");
}

Expected<std::vector<std::uint64_t>> parseTrace(std::string_view bytes, TraceFormat format) {
    // Text formats only: a u32be trace may begin with any 4 bytes.
    const bool text = format != TraceFormat::Blktrace && format != TraceFormat::U32be;
    if (text && looksLikeBlktrace(bytes)) {
        return fail(ErrorCode::Parse, "this is a blktrace capture: read it as format blktrace");
    }
    switch (format) {
    case TraceFormat::Lis:
        return parseLis(bytes);
    case TraceFormat::Lirs:
        return parseDecimalLines(bytes, false);
    case TraceFormat::CloudPhysicsCsv:
        return parseCloudPhysics(bytes);
    case TraceFormat::U32be:
        return parseU32be(bytes);
    case TraceFormat::Blocks:
        return parseDecimalLines(bytes, true);
    case TraceFormat::Blktrace:
        return parseBlktrace(bytes);
    }
    return fail(ErrorCode::Internal, "unhandled trace format");
}

Expected<std::string> decompressIfNeeded(std::string bytes) {
    if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
        static_cast<unsigned char>(bytes[1]) == 0x8b) {
        return gunzip(bytes);
    }
    if (bytes.size() >= 4 && static_cast<unsigned char>(bytes[0]) == 0x28 &&
        static_cast<unsigned char>(bytes[1]) == 0xb5 &&
        static_cast<unsigned char>(bytes[2]) == 0x2f &&
        static_cast<unsigned char>(bytes[3]) == 0xfd) {
        return unzstd(bytes);
    }
    return bytes;
}

Expected<std::vector<std::uint64_t>> readTrace(const std::filesystem::path& path,
                                               TraceFormat format) {
    std::string bytes;
    if (path == "-") {
        bytes.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    } else {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            return failErrno(errno, "opening trace " + path.string());
        }
        std::ostringstream buffer;
        buffer << in.rdbuf();
        bytes = std::move(buffer).str();
    }
    auto plain = decompressIfNeeded(std::move(bytes));
    if (!plain) {
        return std::unexpected(std::move(plain.error()).addContext("reading " + path.string()));
    }
    return withContext(parseTrace(*plain, format), "parsing trace " + path.string());
}

} // namespace ssdk::cachectl::engine
