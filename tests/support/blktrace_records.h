#pragma once
// Builds blktrace binary records (struct blk_io_trace, include/uapi/linux/blktrace_api.h) for
// tests of the blktrace trace format: the unit tests parse them, the integration test has
// Debian's blkparse read the same bytes.
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

namespace ssdk::test {

// blk_io_trace.action: the action in the low 16 bits, categories (BLK_TC_*) in the high 16.
namespace blk {
constexpr std::uint32_t kQueue = 1; // __BLK_TA_QUEUE
constexpr std::uint32_t kIssue = 7; // __BLK_TA_ISSUE
constexpr std::uint32_t kCgroup = 1 << 8;
constexpr std::uint32_t category(unsigned bit) {
    return std::uint32_t{1} << (16 + bit);
}
constexpr std::uint32_t kRead = category(0);
constexpr std::uint32_t kWrite = category(1);
constexpr std::uint32_t kFlush = category(2);
constexpr std::uint32_t kQueueCategory = category(4);
constexpr std::uint32_t kIssueCategory = category(6);
constexpr std::uint32_t kNotify = category(10);
constexpr std::uint32_t kDiscard = category(13);
constexpr std::uint32_t kQueuedRead = kQueue | kQueueCategory | kRead;
constexpr std::uint32_t kQueuedWrite = kQueue | kQueueCategory | kWrite;
} // namespace blk

struct BlkRecord {
    std::uint32_t sequence = 1;
    std::uint64_t timeNs = 0;
    std::uint64_t sector = 0;
    std::uint32_t bytes = 0;
    std::uint32_t action = 0;
    std::uint32_t pid = 100;
    std::uint32_t device = 7 << 20; // 7,0: loop0
    std::uint32_t cpu = 0;
    std::string payload;
};

// The record's 48 bytes and its payload, little-endian, or big-endian when swapped.
inline std::string encodeBlkRecord(const BlkRecord& record, bool swapped = false) {
    std::string out;
    const auto put = [&](auto value) {
        if (swapped) {
            value = std::byteswap(value);
        }
        char bytes[sizeof(value)];
        std::memcpy(bytes, &value, sizeof(value));
        out.append(bytes, sizeof(value));
    };
    put(std::uint32_t{0x65617407}); // BLK_IO_TRACE_MAGIC | version 7
    put(record.sequence);
    put(record.timeNs);
    put(record.sector);
    put(record.bytes);
    put(record.action);
    put(record.pid);
    put(record.device);
    put(record.cpu);
    put(std::uint16_t{0}); // error
    put(static_cast<std::uint16_t>(record.payload.size()));
    return out + record.payload;
}

} // namespace ssdk::test
