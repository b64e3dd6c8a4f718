#include "core/perf/disk_stat.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

namespace ssdk::perf {

Expected<DiskStat> parseDiskStat(std::string_view text) {
    std::array<std::uint64_t, 17> fields{};
    std::size_t count = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n')) {
            ++pos;
        }
        if (pos == text.size()) {
            break;
        }
        if (count == fields.size()) {
            return fail(ErrorCode::Parse, "block stat has more than 17 fields");
        }
        std::uint64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data() + pos, text.data() + text.size(), value);
        if (ec != std::errc() ||
            (end != text.data() + text.size() && *end != ' ' && *end != '\t' && *end != '\n')) {
            return fail(ErrorCode::Parse,
                        "block stat field " + std::to_string(count + 1) + " is not a number");
        }
        fields[count++] = value;
        pos = static_cast<std::size_t>(end - text.data());
    }
    if (count != 11 && count != 15 && count != 17) {
        return fail(ErrorCode::Parse,
                    "block stat has " + std::to_string(count) + " fields, expected 11, 15 or 17");
    }
    DiskStat stat;
    stat.readIos = fields[0];
    stat.readMerges = fields[1];
    stat.readSectors = fields[2];
    stat.readTicksMs = fields[3];
    stat.writeIos = fields[4];
    stat.writeMerges = fields[5];
    stat.writeSectors = fields[6];
    stat.writeTicksMs = fields[7];
    stat.inFlight = fields[8];
    stat.ioTicksMs = fields[9];
    stat.timeInQueueMs = fields[10];
    stat.discardIos = fields[11];
    stat.discardMerges = fields[12];
    stat.discardSectors = fields[13];
    stat.discardTicksMs = fields[14];
    stat.flushIos = fields[15];
    stat.flushTicksMs = fields[16];
    return stat;
}

std::uint64_t counterDelta(std::uint64_t previous, std::uint64_t current) {
    if (current >= previous) {
        return current - previous;
    }
    constexpr std::uint64_t kMax32 = std::numeric_limits<std::uint32_t>::max();
    if (previous <= kMax32) {
        return (kMax32 - previous) + current + 1;
    }
    // Unsigned arithmetic wraps at 2^64 exactly like the counter did.
    return current - previous;
}

DiskRates computeRates(const DiskStat& previous, const DiskStat& current,
                       std::chrono::nanoseconds interval) {
    DiskRates rates;
    rates.intervalS = std::chrono::duration<double>(interval).count();
    if (rates.intervalS <= 0) {
        return rates;
    }
    rates.readBytes = counterDelta(previous.readSectors, current.readSectors) * 512;
    rates.writeBytes = counterDelta(previous.writeSectors, current.writeSectors) * 512;
    rates.readIos = counterDelta(previous.readIos, current.readIos);
    rates.writeIos = counterDelta(previous.writeIos, current.writeIos);
    rates.readBytesPerS = static_cast<double>(rates.readBytes) / rates.intervalS;
    rates.writeBytesPerS = static_cast<double>(rates.writeBytes) / rates.intervalS;
    rates.readIops = static_cast<double>(rates.readIos) / rates.intervalS;
    rates.writeIops = static_cast<double>(rates.writeIos) / rates.intervalS;
    const std::uint64_t ios = rates.readIos + rates.writeIos;
    const std::uint64_t ticks = counterDelta(previous.readTicksMs, current.readTicksMs) +
                                counterDelta(previous.writeTicksMs, current.writeTicksMs);
    rates.avgLatencyMs = ios == 0 ? 0.0 : static_cast<double>(ticks) / static_cast<double>(ios);
    const double intervalMs = rates.intervalS * 1000.0;
    rates.queueDepth =
        static_cast<double>(counterDelta(previous.timeInQueueMs, current.timeInQueueMs)) /
        intervalMs;
    rates.utilization = std::min(
        1.0, static_cast<double>(counterDelta(previous.ioTicksMs, current.ioTicksMs)) / intervalMs);
    return rates;
}

} // namespace ssdk::perf
