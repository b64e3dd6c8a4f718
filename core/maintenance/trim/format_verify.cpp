#include "core/maintenance/trim/format_verify.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <unistd.h>

#include "core/base/log.h"
#include "core/base/system_process_runner.h"
#include "core/base/unique_fd.h"
#include "core/device/mountinfo.h"
#include "core/maintenance/block_io.h"
#include "core/maintenance/block_ioctl.h"
#include "core/maintenance/extents.h"
#include "core/maintenance/trim/new_fs_free_space.h"

namespace ssdk::maintenance::trim {

namespace fs = std::filesystem;

namespace {

// The bytes read (and checked for a hole in the image) per sampled block.
constexpr std::size_t kProbeBlock = 4096;

struct Sample {
    std::uint64_t offset;
    std::array<std::uint8_t, 32> head; // the first bytes, to tell kept from rewritten
    std::uint64_t checksum;
};

std::uint64_t checksum(std::span<const std::uint8_t> block) {
    std::uint64_t hash = 1469598103934665603ULL; // FNV-1a
    for (const std::uint8_t byte : block) {
        hash = (hash ^ byte) * 1099511628211ULL;
    }
    return hash;
}

std::string blkidType(ProcessRunner& runner, const std::string& device) {
    auto probed = runner.run({.argv = {"blkid", "-p", "-o", "value", "-s", "TYPE", device}});
    if (!probed || !probed->succeeded()) {
        return {};
    }
    std::string type = probed->standardOutput;
    while (!type.empty() && (type.back() == '\n' || type.back() == ' ')) {
        type.pop_back();
    }
    return type;
}

bool mountedAnywhere(const SysfsRoot& root, const std::string& device) {
    auto text = root.tryString(root.proc() / "self" / "mountinfo");
    if (!text) {
        return false;
    }
    std::error_code ec;
    const auto canonical = fs::canonical(device, ec);
    for (const auto& mount : device::parseMountInfo(*text)) {
        if (mount.source == device || (!ec && mount.source == canonical.string())) {
            return true;
        }
    }
    return false;
}

// Offsets of data blocks of the old filesystem's files, spread over the files found, through
// a private read-only mount. Empty when it cannot be mounted or maps no extents.
std::vector<std::uint64_t> extentSample(const std::string& device, const std::string& fsType,
                                        std::uint32_t wanted, ProcessRunner& runner) {
    std::vector<std::uint64_t> offsets;
    // btrfs reports logical addresses and FUSE filesystems have no FIEMAP: scan instead.
    if (fsType.empty() || fsType == "btrfs" || fsType == "ntfs") {
        return offsets;
    }
    char pattern[] = "/tmp/ssdkeeper-format-sample-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) {
        return offsets;
    }
    const std::string mountPoint = pattern;
    auto mounted = runner.run({.argv = {"mount", "-o", "ro,noload,nosuid,nodev,noexec", "-t",
                                        fsType, device, mountPoint}});
    if (!mounted || !mounted->succeeded()) {
        mounted = runner.run(
            {.argv = {"mount", "-o", "ro,nosuid,nodev,noexec", "-t", fsType, device, mountPoint}});
    }
    if (mounted && mounted->succeeded()) {
        std::vector<std::uint64_t> all;
        std::error_code ec;
        for (auto it = fs::recursive_directory_iterator(mountPoint, ec);
             !ec && it != fs::recursive_directory_iterator() && all.size() < 65536;
             it.increment(ec)) {
            if (!it->is_regular_file(ec)) {
                continue;
            }
            auto extents = fileExtents(it->path().string());
            if (!extents) {
                continue;
            }
            for (const Extent& extent : *extents) {
                if (!extent.mappable) {
                    continue;
                }
                for (std::uint64_t pos = 0;
                     pos + kProbeBlock <= extent.length && all.size() < 65536; pos += kProbeBlock) {
                    all.push_back(extent.physical + pos);
                }
            }
        }
        (void)runner.run({.argv = {"umount", mountPoint}});
        const std::size_t step = std::max<std::size_t>(1, all.size() / wanted);
        for (std::size_t i = 0; i < all.size() && offsets.size() < wanted; i += step) {
            offsets.push_back(all[i]);
        }
    }
    ::rmdir(mountPoint.c_str());
    return offsets;
}

// Non-empty blocks found by probing up to 65536 places spread over the whole device (every
// block of a partition up to 256 MiB: an old filesystem with no files has few), then
// `wanted` of them spread over what was found (not the first ones found: those would all lie at
// the start, where the new filesystem's metadata goes).
std::vector<std::uint64_t> scanSample(const DirectReader& reader, std::uint32_t wanted) {
    const std::uint64_t blocks = reader.size().value / kProbeBlock;
    const std::uint64_t probes = std::min<std::uint64_t>(blocks, 65536);
    AlignedBuffer buffer(kProbeBlock);
    std::vector<std::uint64_t> found;
    for (std::uint64_t i = 0; i < probes; ++i) {
        const std::uint64_t offset = (blocks * i / probes) * kProbeBlock;
        if (reader.read(offset, buffer.span()) &&
            classifyBlock(buffer.span()) == BlockContent::Other) {
            found.push_back(offset);
        }
    }
    std::vector<std::uint64_t> offsets;
    const std::size_t step = std::max<std::size_t>(1, found.size() / std::max(wanted, 1U));
    for (std::size_t i = 0; i < found.size() && offsets.size() < wanted; i += step) {
        offsets.push_back(found[i]);
    }
    return offsets;
}

std::optional<std::pair<std::string, std::uint64_t>> labImageOf(const SysfsRoot& root,
                                                                const std::string& device) {
    const std::string name = fs::path(device).filename().string();
    const auto dir = blockSysfsDir(root, name);
    if (dir.empty()) {
        return std::nullopt;
    }
    std::uint64_t offset = 0;
    fs::path loopDir = dir;
    if (root.tryString(dir / "partition")) {
        offset = root.tryU64(dir / "start").value_or(0) * 512;
        loopDir = dir.parent_path();
    }
    auto backing = root.tryString(loopDir / "loop" / "backing_file");
    if (!backing) {
        return std::nullopt;
    }
    offset += root.tryU64(loopDir / "loop" / "offset").value_or(0);
    return std::make_pair(*backing, offset);
}

Expected<void> discardWhole(const std::string& device) {
    UniqueFd fd(::open(device.c_str(), O_WRONLY | O_EXCL | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + device + " exclusively");
    }
    const auto size = blockDeviceSize(fd.get());
    if (!size) {
        return failErrno(size.error(), "BLKGETSIZE64 " + device);
    }
    if (auto discarded = discardRange(fd.get(), 0, *size); !discarded) {
        return failErrno(discarded.error(), "BLKDISCARD " + device);
    }
    return {};
}

} // namespace

const std::vector<Formatter>& formatters() {
    static const std::vector<Formatter> list{
        {"ext4",
         "mkfs.ext4",
         {"-F", "-q"},
         true,
         "mke2fs discards the whole device before writing (-E nodiscard turns it off)"},
        {"xfs",
         "mkfs.xfs",
         {"-f", "-q"},
         true,
         "mkfs.xfs discards the whole device first (-K turns it off)"},
        {"btrfs",
         "mkfs.btrfs",
         {"-f", "-q"},
         true,
         "mkfs.btrfs trims the whole device first (-K/--nodiscard turns it off)"},
        {"ntfs",
         "mkfs.ntfs",
         {"-Q", "-F", "-q"},
         false,
         "mkntfs -Q (quick) writes only the metadata and never discards"},
        {"exfat",
         "mkfs.exfat",
         {},
         false,
         "mkfs.exfat (exfatprogs) writes only the metadata and never discards"},
        {"vfat", "mkfs.vfat", {}, false, "mkfs.fat writes only the metadata and never discards"},
    };
    return list;
}

const Formatter* findFormatter(const std::string& fsType) {
    for (const Formatter& formatter : formatters()) {
        if (formatter.fsType == fsType) {
            return &formatter;
        }
    }
    return nullptr;
}

void decideFormat(FormatResult& result, const std::string& program) {
    const SampleCounts& counts = result.counts;
    const std::string fs = result.fsType.empty() ? std::string("filesystem") : result.fsType;
    result.outcome.reset();
    result.offerBlkdiscard = false;
    if (!result.freeMapError.empty()) {
        result.reason = fmt::format("the new {}'s free space could not be read ({}), so no "
                                    "sampled block could be judged and there is no verdict",
                                    fs, result.freeMapError);
        return;
    }
    const std::string excluded =
        counts.inUseByNewFs == 0
            ? std::string()
            : fmt::format("; {} sampled block{} now used by the new {} and {} not judged",
                          counts.inUseByNewFs, counts.inUseByNewFs == 1 ? " is" : "s are", fs,
                          counts.inUseByNewFs == 1 ? "was" : "were");
    const std::string rewritten =
        counts.rewritten == 0 ? std::string()
                              : fmt::format("; {} judged block{} other data now", counts.rewritten,
                                            counts.rewritten == 1 ? " holds" : "s hold");
    const std::uint32_t withData = counts.discarded + counts.kept;
    const std::string judged =
        fmt::format("sampled data block{} the new {} leaves free", withData == 1 ? "" : "s", fs);
    if (result.sampled == 0) {
        result.reason = "no block held data before the format, so there was nothing to check";
    } else if (counts.judged() == 0) {
        result.reason = fmt::format("all {} sampled blocks are now used by the new {}, so none "
                                    "could be judged: nothing to check",
                                    result.sampled, fs);
    } else if (withData == 0) {
        result.reason = fmt::format("the {} sampled blocks the new {} leaves free all hold other "
                                    "data now, so there was nothing to check{}",
                                    counts.rewritten, fs, excluded);
    } else if (counts.kept == 0) {
        result.outcome = VerifyOutcome::Reached;
        result.reason = fmt::format("all {} {} were discarded{}{}", counts.discarded, judged,
                                    rewritten, excluded);
    } else if (counts.discarded == 0) {
        result.outcome = VerifyOutcome::NotReached;
        result.reason = fmt::format("all {} {} still hold the old data: {} did not discard{}{}",
                                    counts.kept, judged, program, rewritten, excluded);
        result.offerBlkdiscard = true;
    } else {
        result.outcome = VerifyOutcome::Inconclusive;
        result.reason =
            fmt::format("{} of {} {} were discarded, {} kept the old data{}{}", counts.discarded,
                        withData, judged, counts.kept, rewritten, excluded);
        result.offerBlkdiscard = true;
    }
}

void compareWithImage(FormatResult& result, std::uint32_t holes, std::uint32_t agreements) {
    const std::uint32_t judged = result.counts.judged();
    result.groundTruthHoles = holes;
    result.groundTruthAgreements = agreements;
    result.groundTruthDisagrees = agreements != judged;
    result.groundTruthWarning =
        result.groundTruthDisagrees
            ? fmt::format("BUG: the lab drive's image contradicts this verdict on {} of {} judged "
                          "blocks ({} are holes in the image, {} read as discarded); the verdict "
                          "cannot be trusted, please report it",
                          judged - agreements, judged, holes, result.counts.discarded)
            : std::string();
}

Expected<FormatResult> quickFormat(const std::string& partition, const FormatOptions& options,
                                   const SysfsRoot& root, ProcessRunner& runner,
                                   const FormatProgress& progress) {
    auto report = [&](double fraction, const std::string& step) {
        if (progress) {
            progress(fraction, step);
        }
    };
    const Formatter* formatter = findFormatter(options.fsType);
    if (formatter == nullptr) {
        return fail(ErrorCode::InvalidArgument,
                    "unknown filesystem '" + options.fsType +
                        "' (choose ext4, xfs, btrfs, ntfs, exfat or vfat)");
    }
    if (findExecutable(formatter->program).empty()) {
        return fail(ErrorCode::ToolMissing, formatter->program + " is not installed");
    }
    if (mountedAnywhere(root, partition)) {
        return fail(ErrorCode::Busy, partition + " is mounted; unmount it before formatting");
    }
    FormatResult result;
    result.device = partition;
    result.fsType = formatter->fsType;
    result.formatterDiscardsByDefault = formatter->discardsByDefault;
    result.formatterNote = formatter->discardNote;
    std::vector<Sample> samples;
    auto reader = DirectReader::open(partition);
    if (!reader) {
        return std::unexpected(reader.error());
    }
    if (options.verify) {
        report(0.05, "sampling blocks that hold data");
        result.oldFsType = blkidType(runner, partition);
        auto offsets = extentSample(partition, result.oldFsType, options.sampleBlocks, runner);
        result.sampleSource = "old-filesystem-extents";
        if (offsets.empty()) {
            offsets = scanSample(*reader, options.sampleBlocks);
            result.sampleSource = "non-empty-scan";
        }
        AlignedBuffer buffer(kProbeBlock);
        for (const std::uint64_t offset : offsets) {
            if (offset + kProbeBlock > reader->size().value ||
                !reader->read(offset, buffer.span())) {
                continue;
            }
            if (classifyBlock(buffer.span()) != BlockContent::Other) {
                continue; // holds no data now: it says nothing about a discard
            }
            Sample sample{offset, {}, checksum(buffer.span())};
            std::memcpy(sample.head.data(), buffer.span().data(), sample.head.size());
            samples.push_back(sample);
        }
        result.sampled = static_cast<std::uint32_t>(samples.size());
    }
    if (options.discardFirst) {
        report(0.3, "discarding the whole partition (BLKDISCARD)");
        if (auto discarded = discardWhole(partition); !discarded) {
            return std::unexpected(discarded.error());
        }
        result.discardedFirst = true;
    }
    std::vector<std::string> argv{formatter->program};
    argv.insert(argv.end(), formatter->quickArgs.begin(), formatter->quickArgs.end());
    argv.push_back(partition);
    result.formatterCommand = describeCommand(argv);
    report(0.4, "running " + result.formatterCommand);
    auto formatted = runChecked(runner, {.argv = argv, .timeout = std::chrono::minutes(30)});
    if (!formatted) {
        return std::unexpected(Error(formatted.error()).addContext("formatting " + partition));
    }
    if (!options.verify) {
        report(1.0, "done");
        return result;
    }
    report(0.8, "reading the new filesystem's free space");
    auto freeMap = readNewFsFreeMap(formatter->fsType, partition, *reader, runner);
    if (freeMap) {
        result.freeMapSource = freeMap->source;
    } else {
        result.freeMapError = freeMap.error().describe();
    }
    report(0.9, "reading the sampled blocks back");
    AlignedBuffer buffer(kProbeBlock);
    std::vector<std::pair<std::uint64_t, bool>> judged; // offset, read as discarded
    for (const Sample& sample : samples) {
        if (!freeMap) {
            break;
        }
        if (!freeMap->map.whollyFree(sample.offset, kProbeBlock)) {
            ++result.counts.inUseByNewFs;
            continue;
        }
        if (auto read = reader->read(sample.offset, buffer.span()); !read) {
            return std::unexpected(read.error());
        }
        const BlockContent content = classifyBlock(buffer.span());
        if (content == BlockContent::Zeros || content == BlockContent::Ones) {
            ++result.counts.discarded;
            judged.emplace_back(sample.offset, true);
        } else if (checksum(buffer.span()) == sample.checksum) {
            ++result.counts.kept;
            judged.emplace_back(sample.offset, false);
        } else {
            ++result.counts.rewritten;
            judged.emplace_back(sample.offset, false);
        }
    }
    decideFormat(result, formatter->program);
    if (auto image = labImageOf(root, partition)) {
        std::uint32_t holes = 0, agreements = 0;
        for (const auto& [offset, readAsDiscarded] : judged) {
            auto hole = isHoleInFile(image->first, image->second + offset, kProbeBlock);
            const bool isHole = hole && *hole;
            holes += isHole ? 1U : 0U;
            agreements += isHole == readAsDiscarded ? 1U : 0U;
        }
        compareWithImage(result, holes, agreements);
        if (result.groundTruthDisagrees) {
            log::get("maintenance")
                ->error("format verify on {}: {}", partition, result.groundTruthWarning);
        }
    }
    report(1.0, "done");
    return result;
}

Json toJson(const FormatResult& result) {
    auto optionalU32 = [](const std::optional<std::uint32_t>& value) {
        return value ? Json(*value) : Json(nullptr);
    };
    return Json{
        {"device", result.device},
        {"fs", result.fsType},
        {"formatter", result.formatterCommand},
        {"formatter_discards", result.formatterDiscardsByDefault},
        {"formatter_note", result.formatterNote},
        {"discarded_first", result.discardedFirst},
        {"old_fs", result.oldFsType},
        {"sample_source", result.sampleSource},
        {"sampled", result.sampled},
        {"discarded", result.counts.discarded},
        {"kept", result.counts.kept},
        {"rewritten", result.counts.rewritten},
        {"in_use_by_new_fs", result.counts.inUseByNewFs},
        {"judged", result.counts.judged()},
        {"free_map", result.freeMapSource},
        {"free_map_error", result.freeMapError},
        {"result", result.outcome ? Json(std::string(toString(*result.outcome))) : Json(nullptr)},
        {"reason", result.reason},
        {"offer_blkdiscard", result.offerBlkdiscard},
        {"backing_file_holes", optionalU32(result.groundTruthHoles)},
        {"ground_truth_agreements", optionalU32(result.groundTruthAgreements)},
        {"ground_truth_disagrees", result.groundTruthDisagrees},
        {"ground_truth_warning", result.groundTruthWarning},
    };
}

} // namespace ssdk::maintenance::trim
