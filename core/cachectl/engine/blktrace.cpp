#include "core/cachectl/engine/blktrace.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fmt/format.h>
#include <optional>

namespace ssdk::cachectl::engine {

namespace {

constexpr std::size_t kRecordBytes = 48;
constexpr std::uint32_t kMagic = 0x65617400; // BLK_IO_TRACE_MAGIC, the low byte is the version
constexpr std::uint32_t kVersion = 0x07;     // what blkparse reads

// blk_io_trace.action: the action in the low 16 bits (bit 8 flags a cgroup id in the payload),
// the categories (BLK_TC_*) in the high 16.
constexpr std::uint32_t kActionMask = 0xffff & ~(std::uint32_t{1} << 8);
constexpr std::uint32_t kActionQueue = 1; // __BLK_TA_QUEUE
constexpr std::uint32_t category(unsigned bit) {
    return std::uint32_t{1} << (16 + bit);
}
constexpr std::uint32_t kRead = category(0);
constexpr std::uint32_t kWrite = category(1);
constexpr std::uint32_t kPassThrough = category(9); // BLK_TC_PC
constexpr std::uint32_t kNotify = category(10);
constexpr std::uint32_t kDiscard = category(13);

struct Record {
    std::uint32_t magic;
    std::uint64_t timeNs;
    std::uint64_t sector;
    std::uint32_t bytes;
    std::uint32_t action;
    std::uint32_t device;
    std::uint16_t payloadBytes;
};

template <typename T> T load(const char* at, bool swapped) {
    T value;
    std::memcpy(&value, at, sizeof(value));
    return swapped ? std::byteswap(value) : value;
}

// The record's fields at `at` (kRecordBytes readable), in the stream's byte order.
Record decode(const char* at, bool swapped) {
    return Record{.magic = load<std::uint32_t>(at, swapped),
                  .timeNs = load<std::uint64_t>(at + 8, swapped),
                  .sector = load<std::uint64_t>(at + 16, swapped),
                  .bytes = load<std::uint32_t>(at + 24, swapped),
                  .action = load<std::uint32_t>(at + 28, swapped),
                  .device = load<std::uint32_t>(at + 36, swapped),
                  .payloadBytes = load<std::uint16_t>(at + 46, swapped)};
}

std::string deviceName(std::uint32_t device) {
    return fmt::format("{},{}", device >> 20, device & 0xfffff); // the kernel's MAJOR/MINOR
}

} // namespace

bool looksLikeBlktrace(std::string_view bytes) {
    if (bytes.size() < sizeof(std::uint32_t)) {
        return false;
    }
    const auto magic = load<std::uint32_t>(bytes.data(), false);
    return (magic & 0xffffff00) == kMagic || (std::byteswap(magic) & 0xffffff00) == kMagic;
}

Expected<std::vector<std::uint64_t>> parseBlktrace(std::string_view bytes) {
    constexpr std::uint64_t sectorBytes = 512; // blk_io_trace.sector's unit
    constexpr std::uint64_t blockBytes = 4096;
    struct Request {
        std::uint64_t timeNs;
        std::uint64_t first;
        std::uint64_t last;
    };
    std::vector<Request> requests;
    std::optional<std::uint32_t> device;
    std::size_t index = 0;
    std::size_t start = 0; // of the record at hand
    std::size_t offset = 0;
    const auto recordError = [&](std::string_view what) {
        return fail(ErrorCode::Parse,
                    fmt::format("blktrace record {} (byte {}): {}", index, start, what));
    };
    while (offset < bytes.size()) {
        // Zero bytes where a record would start are relay padding: the rest of a per-CPU
        // sub-buffer the kernel switched away from (BLKTRACESTOP flushes the buffers), which
        // blktrace's stream (-o -) can pass on when it reads around the switch. No record
        // begins with a zero byte (its magic's low byte is the version, its high byte 0x65).
        offset = std::min(bytes.find_first_not_of('\0', offset), bytes.size());
        if (offset == bytes.size()) {
            break;
        }
        ++index;
        start = offset;
        if (bytes.size() - offset < kRecordBytes) {
            return recordError(
                fmt::format("cut short: {} of its {} bytes", bytes.size() - offset, kRecordBytes));
        }
        const char* const at = bytes.data() + offset;
        const std::uint32_t nativeMagic = load<std::uint32_t>(at, false);
        const bool swapped = (nativeMagic & 0xffffff00) != kMagic;
        const Record record = decode(at, swapped);
        if ((record.magic & 0xffffff00) != kMagic) {
            return recordError(fmt::format(
                "magic {:#010x} is not blktrace's: expected blktrace's files or stream, or what "
                "blkparse -d writes",
                nativeMagic));
        }
        if ((record.magic & 0xff) != kVersion) {
            return recordError(fmt::format("version {:#04x}, only {:#04x} is read",
                                           record.magic & 0xff, kVersion));
        }
        if (bytes.size() - offset - kRecordBytes < record.payloadBytes) {
            return recordError(
                fmt::format("its {} payload bytes are cut short", record.payloadBytes));
        }
        offset += kRecordBytes + record.payloadBytes;
        const bool data = (record.action & (kRead | kWrite)) != 0 &&
                          (record.action & (kNotify | kDiscard | kPassThrough)) == 0;
        if ((record.action & kActionMask) != kActionQueue || !data || record.bytes == 0) {
            continue;
        }
        if (device && *device != record.device) {
            return recordError(fmt::format("events of devices {} and {}: trace one device at a "
                                           "time (blktrace -d DEV)",
                                           deviceName(*device), deviceName(record.device)));
        }
        device = record.device;
        if (record.sector > UINT64_MAX / sectorBytes - (std::uint64_t{1} << 40)) {
            return recordError(fmt::format("sector {} is past any device", record.sector));
        }
        const std::uint64_t byte = record.sector * sectorBytes;
        requests.push_back(
            {record.timeNs, byte / blockBytes, (byte + record.bytes - 1) / blockBytes});
    }
    // Each CPU's records are in time order, but a stream interleaves the CPUs' buffers as they
    // were flushed (and concatenated per-CPU files follow one another): blkparse's order is by
    // time, and so is the replay's.
    std::ranges::stable_sort(requests, {}, &Request::timeNs);
    std::vector<std::uint64_t> refs;
    for (const Request& request : requests) {
        for (std::uint64_t block = request.first; block <= request.last; ++block) {
            refs.push_back(block);
        }
    }
    return refs;
}

} // namespace ssdk::cachectl::engine
