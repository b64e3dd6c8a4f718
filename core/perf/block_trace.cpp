#include "core/perf/block_trace.h"

#include <charconv>
#include <fmt/format.h>

namespace ssdk::perf {

namespace {

constexpr std::string_view kEventMarker = "block_bio_queue: ";
constexpr std::uint64_t kSectorsPerBlock = kTraceBlockBytes / kTraceSectorBytes;

template <typename T> std::optional<T> takeNumber(std::string_view& text) {
    T value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end == text.data()) {
        return std::nullopt;
    }
    text.remove_prefix(static_cast<std::size_t>(end - text.data()));
    return value;
}

bool takePrefix(std::string_view& text, std::string_view prefix) {
    if (!text.starts_with(prefix)) {
        return false;
    }
    text.remove_prefix(prefix.size());
    return true;
}

std::string_view takeWord(std::string_view& text) {
    const auto end = std::min(text.find(' '), text.size());
    const auto word = text.substr(0, end);
    text.remove_prefix(end);
    return word;
}

// Header values on one comment line each, whatever they hold.
std::string oneLine(std::string text) {
    for (char& c : text) {
        if (c == '\n' || c == '\r') {
            c = ' ';
        }
    }
    return text;
}

bool isOperation(char c) {
    return c == 'R' || c == 'W' || c == 'D' || c == 'F' || c == 'N';
}

std::optional<BlockOp> operationOf(std::string_view rwbs, std::uint64_t sectors) {
    bool preflush = false;
    if (rwbs.size() >= 2 && rwbs[0] == 'F' && isOperation(rwbs[1])) {
        preflush = true;
        rwbs.remove_prefix(1);
    }
    if (rwbs.empty()) {
        return std::nullopt;
    }
    for (const char c : rwbs.substr(1)) {
        if (c < 'A' || c > 'Z') {
            return std::nullopt;
        }
    }
    switch (rwbs[0]) {
    case 'R':
        return BlockOp::Read;
    case 'W':
        return preflush && sectors == 0 ? BlockOp::Flush : BlockOp::Write;
    case 'D':
        return BlockOp::Discard;
    case 'F':
        return BlockOp::Flush;
    case 'N':
        return BlockOp::Other;
    default:
        return std::nullopt;
    }
}

} // namespace

std::optional<BioQueueEvent> parseBioQueueLine(std::string_view line) {
    const auto marker = line.find(kEventMarker);
    if (marker == std::string_view::npos) {
        return std::nullopt;
    }
    std::string_view rest = line.substr(marker + kEventMarker.size());
    BioQueueEvent event;
    const auto major = takeNumber<unsigned>(rest);
    if (!major || !takePrefix(rest, ",")) {
        return std::nullopt;
    }
    const auto minor = takeNumber<unsigned>(rest);
    if (!minor || !takePrefix(rest, " ")) {
        return std::nullopt;
    }
    const std::string_view rwbs = takeWord(rest);
    if (!takePrefix(rest, " ")) {
        return std::nullopt;
    }
    const auto sector = takeNumber<std::uint64_t>(rest);
    if (!sector || !takePrefix(rest, " + ")) {
        return std::nullopt;
    }
    const auto sectors = takeNumber<std::uint64_t>(rest);
    // The task name follows in brackets; a line cut short before it is still a whole request.
    if (!sectors || !(rest.empty() || rest.starts_with(" ["))) {
        return std::nullopt;
    }
    const auto op = operationOf(rwbs, *sectors);
    if (!op) {
        return std::nullopt;
    }
    event.major = *major;
    event.minor = *minor;
    event.request = BlockRequest{*op, *sector, *sectors};
    return event;
}

std::optional<std::uint64_t> parseLostEventsLine(std::string_view line) {
    if (!takePrefix(line, "CPU:") || !takeNumber<unsigned>(line) || !takePrefix(line, " [LOST ")) {
        return std::nullopt;
    }
    const auto lost = takeNumber<std::uint64_t>(line);
    if (!lost || !takePrefix(line, " EVENTS]")) {
        return std::nullopt;
    }
    return lost;
}

std::optional<BlockRequest> toWindow(const BlockRequest& request,
                                     const std::optional<SectorWindow>& window) {
    if (!window) {
        return request;
    }
    if (request.sectors == 0 || request.sector < window->start ||
        request.sector - window->start > window->sectors ||
        request.sectors > window->sectors - (request.sector - window->start)) {
        return std::nullopt;
    }
    BlockRequest shifted = request;
    shifted.sector -= window->start;
    return shifted;
}

bool isTraced(const BlockRequest& request) {
    return request.sectors > 0 && (request.op == BlockOp::Read || request.op == BlockOp::Write);
}

BlockSpan blockSpan(const BlockRequest& request) {
    if (request.sectors == 0) {
        return {request.sector / kSectorsPerBlock, 0};
    }
    const std::uint64_t first = request.sector / kSectorsPerBlock;
    const std::uint64_t last = (request.sector + request.sectors - 1) / kSectorsPerBlock;
    return {first, last - first + 1};
}

std::string blocksLine(const BlockRequest& request) {
    if (!isTraced(request)) {
        return {};
    }
    const auto span = blockSpan(request);
    return fmt::format("{} {}\n", span.first, span.count);
}

void TraceSummary::add(const BlockRequest& request) {
    ++requests;
    const std::uint64_t bytes = request.sectors * kTraceSectorBytes;
    if (request.sectors == 0 && request.op != BlockOp::Flush) {
        ++other;
        return;
    }
    switch (request.op) {
    case BlockOp::Read:
        ++reads;
        bytesRead += bytes;
        break;
    case BlockOp::Write:
        ++writes;
        bytesWritten += bytes;
        break;
    case BlockOp::Discard:
        ++discards;
        break;
    case BlockOp::Flush:
        ++flushes;
        break;
    case BlockOp::Other:
        ++other;
        break;
    }
}

void BlocksTraceWriter::add(const BlockRequest& request) {
    m_summary.add(request);
    if (isTraced(request)) {
        m_body += blocksLine(request);
        ++m_lines;
    }
}

std::string BlocksTraceWriter::takeBody() {
    std::string body;
    body.swap(m_body);
    return body;
}

std::string BlocksTraceWriter::document(const BlocksTraceInfo& info) const {
    return header(info) + m_body;
}

std::string BlocksTraceWriter::header(const BlocksTraceInfo& info) const {
    const TraceSummary& s = m_summary;
    std::string text = fmt::format(
        "# SSD Keeper block trace (ssdkeeperctl trace record), format \"blocks\": one line\n"
        "# \"FIRST COUNT\" per read or write, in 4 KiB blocks, in the order they were queued.\n"
        "# Replay: ssdkeeperctl cache simulate --trace FILE --format blocks --mrc\n"
        "# device: {}{}\n"
        "# recorded: {} for {:.1f} s{}\n"
        "# requests: {} ({} reads, {} writes, {} discards, {} flushes, {} other); "
        "{} bytes read, {} bytes written\n"
        "# unparsed lines: {}, lost events: {}\n",
        oneLine(info.device), info.origin.empty() ? "" : " (" + oneLine(info.origin) + ")",
        oneLine(info.recordedAt), info.seconds, info.stoppedEarly ? " (stopped early)" : "",
        s.requests, s.reads, s.writes, s.discards, s.flushes, s.other, s.bytesRead, s.bytesWritten,
        info.unparsed, info.lostEvents);
    if (!info.truncatedReason.empty()) {
        text += "# truncated: " + oneLine(info.truncatedReason) + "\n";
    }
    return text;
}

} // namespace ssdk::perf
