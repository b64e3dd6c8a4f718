#pragma once
// Quick format + verify TRIM: sample blocks that hold data before formatting (from the old
// filesystem's file extents, or a scan for non-empty blocks), run the formatter the user chose,
// read the NEW filesystem's free-space map, and judge only the sampled blocks it leaves wholly
// free: zeros/ones = discarded, unchanged = the formatter did not discard, other = rewritten.
// A sampled block the new filesystem uses may have been written (zeroed) by the formatter, so it
// is never judged.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/base/json.h"
#include "core/base/process_runner.h"
#include "core/base/sysfs_root.h"
#include "core/maintenance/trim/verify.h"

namespace ssdk::maintenance::trim {

struct Formatter {
    std::string fsType;                 // "ext4"
    std::string program;                // "mkfs.ext4"
    std::vector<std::string> quickArgs; // before the device
    bool discardsByDefault = false;     // what the tool's documentation says
    std::string discardNote;
};

// ext4, xfs, btrfs, ntfs, exfat, vfat.
const std::vector<Formatter>& formatters();
const Formatter* findFormatter(const std::string& fsType);

struct FormatOptions {
    std::string fsType;
    bool verify = true;
    bool discardFirst = false; // BLKDISCARD the whole partition before the formatter runs
    std::uint32_t sampleBlocks = 256;
};

// Of the sampled blocks: the judged ones (wholly free in the new filesystem) by what they read
// afterwards, and the ones the new filesystem uses (never judged).
struct SampleCounts {
    std::uint32_t discarded = 0;    // judged, read as zeros or ones afterwards
    std::uint32_t kept = 0;         // judged, the same data as before
    std::uint32_t rewritten = 0;    // judged, different non-empty data
    std::uint32_t inUseByNewFs = 0; // in use by the new filesystem (or written by its formatter)
    std::uint32_t judged() const { return discarded + kept + rewritten; }
    bool operator==(const SampleCounts&) const = default;
};

struct FormatResult {
    std::string device;
    std::string fsType;
    std::string formatterCommand;
    bool formatterDiscardsByDefault = false;
    std::string formatterNote;
    bool discardedFirst = false;
    std::string sampleSource; // "old-filesystem-extents" or "non-empty-scan"
    std::string oldFsType;
    std::uint32_t sampled = 0;
    // What the new filesystem's free space was read from ("dumpe2fs", "the FAT", ...), or why it
    // could not be read (then nothing is judged and there is no outcome).
    std::string freeMapSource;
    std::string freeMapError;
    SampleCounts counts;
    std::optional<VerifyOutcome> outcome; // empty when not verified or nothing sampled
    std::string reason;
    bool offerBlkdiscard = false;
    // Lab drives: per judged block, discarded (as read) agrees with the image having a hole.
    std::optional<std::uint32_t> groundTruthHoles;
    std::optional<std::uint32_t> groundTruthAgreements;
    // The image contradicts the reading on a judged block: a bug in this verifier, said loudly.
    bool groundTruthDisagrees = false;
    std::string groundTruthWarning;
};

using FormatProgress = std::function<void(double fraction, const std::string& step)>;

// partition: a /dev node of an unmounted partition (or a whole unpartitioned disk) without
// holders. The caller has validated it (helper::validateBlockDevice); this checks again that
// nothing is mounted from it.
Expected<FormatResult> quickFormat(const std::string& partition, const FormatOptions& options,
                                   const SysfsRoot& root, ProcessRunner& runner,
                                   const FormatProgress& progress = {});

// Pure: the outcome, reason and offerBlkdiscard of a verified format from result.sampled,
// result.counts (only judged blocks count) and result.freeMapError; the outcome stays empty
// when the free map could not be read or no judged block held data. program: the formatter,
// named when it did not discard.
void decideFormat(FormatResult& result, const std::string& program);

// Pure: result.groundTruth* from the lab image's holes at the judged blocks: holes, agreements
// (hole == read as discarded) and, on any disagreement, the loud warning.
void compareWithImage(FormatResult& result, std::uint32_t holes, std::uint32_t agreements);

Json toJson(const FormatResult& result);

} // namespace ssdk::maintenance::trim
