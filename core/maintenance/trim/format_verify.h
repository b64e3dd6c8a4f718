#pragma once
// Quick format + verify TRIM: sample blocks that hold data before formatting (from the old
// filesystem's file extents, or a scan for non-empty blocks), run the formatter the user chose,
// then read the samples back: zeros/ones = discarded, unchanged = the formatter did not
// discard, other = rewritten by the new filesystem's metadata.

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

struct SampleCounts {
    std::uint32_t discarded = 0; // read as zeros or ones afterwards
    std::uint32_t kept = 0;      // the same data as before
    std::uint32_t rewritten = 0; // different, non-empty data (the new filesystem's metadata)
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
    SampleCounts counts;
    std::optional<VerifyOutcome> outcome; // empty when not verified or nothing sampled
    std::string reason;
    bool offerBlkdiscard = false;
    // Lab drives: per sampled block, discarded (as read) agrees with the image having a hole.
    std::optional<std::uint32_t> groundTruthHoles;
    std::optional<std::uint32_t> groundTruthAgreements;
};

using FormatProgress = std::function<void(double fraction, const std::string& step)>;

// partition: a /dev node of an unmounted partition (or a whole unpartitioned disk) without
// holders. The caller has validated it (helper::validateBlockDevice); this checks again that
// nothing is mounted from it.
Expected<FormatResult> quickFormat(const std::string& partition, const FormatOptions& options,
                                   const SysfsRoot& root, ProcessRunner& runner,
                                   const FormatProgress& progress = {});

// Pure: the outcome, reason and offerBlkdiscard of a verified format from result.sampled and
// result.counts; the outcome stays empty when no sampled block held data to judge. program: the
// formatter, named when it did not discard.
void decideFormat(FormatResult& result, const std::string& program);

Json toJson(const FormatResult& result);

} // namespace ssdk::maintenance::trim
