#pragma once
// Verify TRIM end to end on a mounted filesystem: write a file of marker blocks, find where
// they sit on the device (FIEMAP), check they are there (O_DIRECT), delete the file, trim
// (FITRIM, or wait for online discard), then read those blocks again. Markers gone = the
// discard reached the device. Writes nothing outside the file it creates and removes that file
// on every path.

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "core/base/sysfs_root.h"
#include "core/maintenance/trim/audit.h"
#include "core/maintenance/trim/stack.h"

namespace ssdk::maintenance::trim {

enum class VerifyOutcome { Reached, NotReached, Inconclusive };
std::string_view toString(VerifyOutcome outcome); // "reached", "not-reached", "inconclusive"

enum class TrimMode {
    Fstrim,       // FITRIM the filesystem after deleting the file
    OnlineDiscard // rely on the discard mount option; wait up to onlineWait for it
};

struct VerifyOptions {
    std::uint32_t markerBlocks = 256; // 4 KiB each
    TrimMode mode = TrimMode::Fstrim;
    std::chrono::milliseconds onlineWait{std::chrono::seconds(10)};
    StackOptions stack;
};

struct BlockCounts {
    std::uint32_t markers = 0, zeros = 0, ones = 0, other = 0;
    std::uint32_t total() const { return markers + zeros + ones + other; }
};

struct VerifyResult {
    VerifyOutcome outcome = VerifyOutcome::Inconclusive;
    std::string reason;
    TrimAudit audit;
    std::string device;   // the filesystem's block device the blocks were read from
    std::string returned; // what the trimmed blocks read as: "zeros", "ones", "old data", …
    BlockCounts before, after;
    std::optional<Bytes> trimmed; // FITRIM's count
    std::string trimError;        // FITRIM's error, when it failed
    // Lab drives only: blocks whose place in the image file is a hole afterwards (the ground
    // truth: the discard punched it), out of after.total().
    std::optional<std::uint32_t> backingHoles;
};

using VerifyProgress = std::function<void(double fraction, const std::string& step)>;

Expected<VerifyResult> verifyTrim(const std::string& mountPoint, const SysfsRoot& root,
                                  const VerifyOptions& options,
                                  const VerifyProgress& progress = {});

// {"result", "reason", "device", "returned", "before": {...}, "after": {...}, "trimmed",
//  "trim_error", "backing_file_holes", "layers": [...], "audit": {...}}
Json toJson(const VerifyResult& result);

// Pure: the decision from what was read. `deterministic` says the device returns changed data
// for trimmed blocks (RZAT, DLFEAT, LBPRZ, a lab drive); `refused` that a layer refused the
// discard (FITRIM EOPNOTSUPP or the audit found a blocking layer).
VerifyOutcome decide(const BlockCounts& after, bool deterministic, bool refused,
                     std::string& reason, std::string& returned);

} // namespace ssdk::maintenance::trim
