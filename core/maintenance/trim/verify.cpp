#include "core/maintenance/trim/verify.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <random>
#include <thread>
#include <unistd.h>

#include "core/base/log.h"
#include "core/base/unique_fd.h"
#include "core/maintenance/block_io.h"
#include "core/maintenance/extents.h"
#include "core/maintenance/trim/fstrim.h"

namespace ssdk::maintenance::trim {

namespace {

constexpr std::size_t kBlock = 4096;
constexpr std::string_view kMagic = "SSDK-TRIM-MARKER"; // 16 bytes

// Block i of a run: magic, the run's nonce, i, then bytes from a generator seeded by both,
// so no two blocks are alike (no dedup or compression can fold them).
void fillMarker(std::span<std::uint8_t> block, std::uint64_t nonce, std::uint64_t index) {
    std::memcpy(block.data(), kMagic.data(), kMagic.size());
    std::memcpy(block.data() + 16, &nonce, 8);
    std::memcpy(block.data() + 24, &index, 8);
    std::mt19937_64 generator(nonce ^ (index * 0x9E3779B97F4A7C15ULL));
    for (std::size_t pos = 32; pos + 8 <= block.size(); pos += 8) {
        const std::uint64_t value = generator();
        std::memcpy(block.data() + pos, &value, 8);
    }
}

bool isMarker(std::span<const std::uint8_t> block, std::uint64_t nonce, std::uint64_t index) {
    std::uint64_t storedNonce = 0, storedIndex = 0;
    std::memcpy(&storedNonce, block.data() + 16, 8);
    std::memcpy(&storedIndex, block.data() + 24, 8);
    return std::memcmp(block.data(), kMagic.data(), kMagic.size()) == 0 && storedNonce == nonce &&
           storedIndex == index;
}

// Removes the marker file on every path.
class MarkerFile {
public:
    explicit MarkerFile(std::string path)
        : m_path(std::move(path)) {}
    ~MarkerFile() { remove(); }
    MarkerFile(const MarkerFile&) = delete;
    MarkerFile& operator=(const MarkerFile&) = delete;
    void remove() {
        if (!m_removed) {
            ::unlink(m_path.c_str());
            m_removed = true;
        }
    }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    bool m_removed = false;
};

struct MarkedBlock {
    std::uint64_t index;  // in the file
    std::uint64_t offset; // on the filesystem's device
};

Expected<BlockCounts> readBlocks(const DirectReader& reader, const std::vector<MarkedBlock>& blocks,
                                 std::uint64_t nonce) {
    BlockCounts counts;
    AlignedBuffer buffer(kBlock);
    for (const MarkedBlock& block : blocks) {
        if (auto read = reader.read(block.offset, buffer.span()); !read) {
            return std::unexpected(read.error());
        }
        if (isMarker(buffer.span(), nonce, block.index)) {
            ++counts.markers;
            continue;
        }
        switch (classifyBlock(buffer.span())) {
        case BlockContent::Zeros:
            ++counts.zeros;
            break;
        case BlockContent::Ones:
            ++counts.ones;
            break;
        default:
            ++counts.other;
            break;
        }
    }
    return counts;
}

Json countsJson(const BlockCounts& c) {
    return Json{{"markers", c.markers}, {"zeros", c.zeros}, {"ones", c.ones}, {"other", c.other}};
}

// For a filesystem on a lab drive (partitions over a loop device only): the image file and
// the byte offset of the filesystem's device inside it.
std::optional<std::pair<std::string, std::uint64_t>> labImage(const SysfsRoot& root,
                                                              const StackSnapshot& stack) {
    std::uint64_t offset = 0;
    for (const BlockLayer& layer : stack.layers) {
        if (layer.kind == BlockLayer::Kind::Partition) {
            const auto dir = blockSysfsDir(root, layer.name);
            offset += root.tryU64(dir / "start").value_or(0) * 512;
        } else if (layer.kind == BlockLayer::Kind::Loop) {
            const auto dir = blockSysfsDir(root, layer.name);
            offset += root.tryU64(dir / "loop" / "offset").value_or(0);
            return std::make_pair(layer.loopBackingFile, offset);
        } else {
            return std::nullopt;
        }
    }
    return std::nullopt;
}

} // namespace

std::string_view toString(VerifyOutcome outcome) {
    switch (outcome) {
    case VerifyOutcome::Reached:
        return "reached";
    case VerifyOutcome::NotReached:
        return "not-reached";
    case VerifyOutcome::Inconclusive:
        return "inconclusive";
    }
    return "inconclusive";
}

VerifyOutcome decide(const BlockCounts& after, bool deterministic, bool refused,
                     std::string& reason, std::string& returned) {
    const std::uint32_t total = after.total();
    const std::uint32_t gone = total - after.markers;
    if (after.zeros == gone) {
        returned = "zeros";
    } else if (after.ones == gone) {
        returned = "ones";
    } else {
        returned = "other data";
    }
    if (total == 0) {
        reason = "no marker block could be read";
        returned = "nothing";
        return VerifyOutcome::Inconclusive;
    }
    if (after.markers == 0) {
        reason = fmt::format("all {} marker blocks are gone from the device; they read back as "
                             "{}: the discard reached the device",
                             total, returned);
        return VerifyOutcome::Reached;
    }
    if (after.markers == total) {
        returned = "old data";
        if (refused) {
            reason = fmt::format("all {} marker blocks are still on the device, and a layer "
                                 "refused the discard",
                                 total);
            return VerifyOutcome::NotReached;
        }
        if (deterministic) {
            reason = fmt::format("all {} marker blocks are still on the device, which reads "
                                 "trimmed blocks deterministically: the discard did not reach it",
                                 total);
            return VerifyOutcome::NotReached;
        }
        reason = fmt::format("all {} marker blocks still read back, but this drive does not "
                             "promise deterministic reads after TRIM (no RZAT/DLFEAT/LBPRZ): it "
                             "may have trimmed them and still return the old data",
                             total);
        return VerifyOutcome::Inconclusive;
    }
    reason = fmt::format("{} of {} marker blocks are gone and {} are still there: only part of "
                         "the freed space was discarded (granularity or a minimum extent size)",
                         gone, total, after.markers);
    return VerifyOutcome::Inconclusive;
}

Expected<VerifyResult> verifyTrim(const std::string& mountPoint, const SysfsRoot& root,
                                  const VerifyOptions& options, const VerifyProgress& progress) {
    auto report = [&](double fraction, const std::string& step) {
        if (progress) {
            progress(fraction, step);
        }
    };
    auto stack = snapshotStack(mountPoint, root, options.stack);
    if (!stack) {
        return std::unexpected(stack.error());
    }
    if (!stack->filesystem) {
        return fail(ErrorCode::InvalidArgument,
                    "verify TRIM needs a mounted filesystem; " + mountPoint + " is not one");
    }
    if (stack->layers.empty()) {
        return fail(ErrorCode::Unsupported, mountPoint + " has no block device below it");
    }
    VerifyResult result;
    result.audit = auditTrim(*stack);
    result.device = "/dev/" + stack->layers.front().name;
    const std::string dir = stack->filesystem->mountPoint;

    std::random_device entropy;
    const std::uint64_t nonce = (std::uint64_t{entropy()} << 32) | entropy();
    MarkerFile file(fmt::format("{}/.ssdkeeper-trim-verify-{}-{:016x}", dir == "/" ? "" : dir,
                                ::getpid(), nonce));
    report(0.05, "writing marker blocks");
    {
        UniqueFd fd(::open(file.path().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
        if (!fd.valid()) {
            return failErrno(errno, "creating " + file.path());
        }
        AlignedBuffer block(kBlock);
        for (std::uint64_t i = 0; i < options.markerBlocks; ++i) {
            fillMarker(block.span(), nonce, i);
            if (::pwrite(fd.get(), block.span().data(), kBlock, static_cast<off_t>(i * kBlock)) !=
                static_cast<ssize_t>(kBlock)) {
                return failErrno(errno, "writing " + file.path());
            }
        }
        if (::fsync(fd.get()) != 0) {
            return failErrno(errno, "fsync " + file.path());
        }
        report(0.2, "finding the file's blocks (FIEMAP)");
        auto extents = fileExtents(fd.get());
        if (!extents) {
            return std::unexpected(Error(extents.error()).addContext("mapping " + file.path()));
        }
        std::vector<MarkedBlock> blocks;
        for (const Extent& extent : *extents) {
            if (!extent.mappable) {
                continue;
            }
            for (std::uint64_t pos = 0; pos + kBlock <= extent.length; pos += kBlock) {
                const std::uint64_t index = (extent.logical + pos) / kBlock;
                if (index < options.markerBlocks) {
                    blocks.push_back({index, extent.physical + pos});
                }
            }
        }
        auto reader = DirectReader::open(result.device);
        if (!reader) {
            return std::unexpected(reader.error());
        }
        report(0.3, "checking the markers on the device");
        auto before = readBlocks(*reader, blocks, nonce);
        if (!before) {
            return std::unexpected(before.error());
        }
        result.before = *before;
        if (blocks.empty() || before->markers != blocks.size()) {
            result.outcome = VerifyOutcome::Inconclusive;
            result.reason = fmt::format(
                "only {} of {} blocks of the file were found on {} before the test: the "
                "filesystem maps, compresses or encrypts data so its device offsets are not "
                "the file's (e.g. btrfs logical addresses)",
                before->markers, options.markerBlocks, result.device);
            return result;
        }
        fd.reset();
        report(0.4, "deleting the file");
        file.remove();
        UniqueFd dirFd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (dirFd.valid()) {
            ::fsync(dirFd.get());
            ::syncfs(dirFd.get());
        }
        bool refused = false;
        for (const AuditLayer& layer : result.audit.layers) {
            refused = refused || (layer.status == LayerStatus::Blocks && layer.layer != "schedule");
        }
        if (options.mode == TrimMode::Fstrim) {
            report(0.5, "trimming the filesystem (FITRIM)");
            auto trimmed = runFstrim(dir, root, 1);
            if (trimmed) {
                result.trimmed = trimmed->trimmed;
            } else {
                result.trimError = trimmed.error().describe();
                refused = refused || trimmed.error().code() == ErrorCode::Unsupported;
            }
        }
        report(0.7, "reading the blocks back");
        auto after = readBlocks(*reader, blocks, nonce);
        if (options.mode == TrimMode::OnlineDiscard) {
            const auto deadline = std::chrono::steady_clock::now() + options.onlineWait;
            while (after && after->markers > 0 && std::chrono::steady_clock::now() < deadline) {
                std::this_thread::sleep_for(std::chrono::milliseconds(250));
                if (dirFd.valid()) {
                    ::syncfs(dirFd.get());
                }
                after = readBlocks(*reader, blocks, nonce);
            }
        }
        if (!after) {
            return std::unexpected(after.error());
        }
        result.after = *after;
        const bool deterministic = result.audit.readAfterTrim == ReadAfterTrim::Zeros ||
                                   result.audit.readAfterTrim == ReadAfterTrim::Ones;
        result.outcome = decide(*after, deterministic, refused, result.reason, result.returned);
        if (!result.trimError.empty() && result.outcome != VerifyOutcome::Reached) {
            result.reason += " (fstrim: " + result.trimError + ")";
        }
        if (auto image = labImage(root, *stack)) {
            std::uint32_t holes = 0;
            for (const MarkedBlock& marked : blocks) {
                auto hole = isHoleInFile(image->first, image->second + marked.offset, kBlock);
                if (hole && *hole) {
                    ++holes;
                }
            }
            result.backingHoles = holes;
        }
    }
    report(1.0, "done");
    log::get("maintenance")
        ->info("verify TRIM on {}: {} ({})", mountPoint, toString(result.outcome), result.reason);
    return result;
}

Json toJson(const VerifyResult& result) {
    Json audit = toJson(result.audit);
    Json json{
        {"result", std::string(toString(result.outcome))},
        {"reason", result.reason},
        {"device", result.device},
        {"returned", result.returned},
        {"before", countsJson(result.before)},
        {"after", countsJson(result.after)},
        {"trimmed", result.trimmed ? Json(result.trimmed->value) : Json(nullptr)},
        {"trim_error", result.trimError.empty() ? Json(nullptr) : Json(result.trimError)},
        {"backing_file_holes", result.backingHoles ? Json(*result.backingHoles) : Json(nullptr)},
        {"read_after_trim", audit["read_after_trim"]},
        {"layers", audit["layers"]},
        {"audit", audit}};
    return json;
}

} // namespace ssdk::maintenance::trim
