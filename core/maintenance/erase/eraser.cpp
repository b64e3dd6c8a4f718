#include "core/maintenance/erase/eraser.h"

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <fmt/format.h>
#include <random>
#include <thread>
#include <unistd.h>

#include "core/base/log.h"
#include "core/base/timestamp.h"
#include "core/base/unique_fd.h"
#include "core/maintenance/block_io.h"
#include "core/maintenance/block_ioctl.h"
#include "core/maintenance/transport/ata_device.h"
#include "core/maintenance/transport/nvme_commands.h"
#include "core/maintenance/transport/platform/linux/sg_io_transport.h"

namespace ssdk::maintenance::erase {

namespace {

using namespace std::chrono_literals;
constexpr std::size_t kBlock = 4096;
constexpr std::uint32_t kSpreadSamples = 64;

std::uint64_t checksum(std::span<const std::uint8_t> block) {
    std::uint64_t hash = 1469598103934665603ULL;
    for (const std::uint8_t byte : block) {
        hash = (hash ^ byte) * 1099511628211ULL;
    }
    return hash;
}

// discardRange, secureDiscardRange or zeroOutRange (block_ioctl.h).
using RangeCommand = std::expected<void, int> (*)(int fd, std::uint64_t offset,
                                                  std::uint64_t length);

Expected<void> commandOverRanges(const std::string& path, RangeCommand command, const char* name,
                                 std::uint64_t chunk, const EraseProgress& progress) {
    UniqueFd fd(::open(path.c_str(), O_WRONLY | O_EXCL | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + path + " exclusively");
    }
    const auto deviceSize = blockDeviceSize(fd.get());
    if (!deviceSize) {
        return failErrno(deviceSize.error(), "BLKGETSIZE64 " + path);
    }
    const std::uint64_t size = *deviceSize;
    for (std::uint64_t start = 0; start < size; start += chunk) {
        const std::uint64_t length = std::min(chunk, size - start);
        if (auto done = command(fd.get(), start, length); !done) {
            const int err = done.error();
            if (err == EOPNOTSUPP) {
                return fail(ErrorCode::Unsupported,
                            fmt::format("{}: {} does not support it", name, path));
            }
            return failErrno(err, fmt::format("{} at byte {}", name, start));
        }
        if (progress) {
            progress(0.1 + 0.8 * static_cast<double>(start + length) / static_cast<double>(size),
                     fmt::format("{}: {} of {}", name, formatIec(Bytes(start + length)),
                                 formatIec(Bytes(size))));
        }
    }
    if (::fsync(fd.get()) != 0) {
        return failErrno(errno, "fsync " + path);
    }
    return {};
}

// Records the journal; a journal that cannot be written stops the erase before the drive is
// touched (and is only logged once the drive is being erased: stopping then helps nobody).
Expected<void> record(EraseJournalStore::Active* journal,
                      const std::function<void(EraseJournal&)>& change) {
    if (journal == nullptr) {
        return {};
    }
    change(journal->journal());
    journal->journal().updated = utcTimestampNow();
    return journal->save();
}

Expected<void> runAta(const device::Device& device, Method method, const TransportFactory& factory,
                      const EraseProgress& progress, EraseJournalStore::Active* journal) {
    if (!factory.scsi) {
        return fail(ErrorCode::Unsupported, "no ATA transport");
    }
    auto scsi = factory.scsi(device.path);
    if (!scsi) {
        return std::unexpected(scsi.error());
    }
    transport::AtaDevice ata(**scsi);
    auto id = ata.identify();
    if (!id) {
        return std::unexpected(id.error());
    }
    const std::string leftover = journal ? journal->journal().ataPassword : std::string();
    const bool reuse = !leftover.empty() && (id->security.enabled || id->security.locked);
    if (id->security.locked && !reuse) {
        return fail(ErrorCode::PermissionDenied, "the drive is locked by a password");
    }
    if (method == Method::AtaSanitizeCrypto || method == Method::AtaSanitizeBlock) {
        const auto action = method == Method::AtaSanitizeCrypto
                                ? transport::SanitizeAction::CryptoScramble
                                : transport::SanitizeAction::BlockErase;
        if (auto started = ata.sanitizeStart(action); !started) {
            return started;
        }
        for (int polls = 0; polls < 24 * 3600; ++polls) {
            auto status = ata.sanitizeStatus();
            if (!status) {
                return std::unexpected(status.error());
            }
            if (!status->inProgress) {
                if (!status->completedOk) {
                    return fail(ErrorCode::Io, "the drive reports the sanitize did not complete "
                                               "successfully");
                }
                return {};
            }
            if (progress) {
                progress(0.1 + 0.8 * status->fraction, "sanitizing");
            }
            std::this_thread::sleep_for(1s);
        }
        return fail(ErrorCode::Timeout, "sanitize did not finish within a day");
    }
    if (id->security.frozen) {
        return fail(ErrorCode::PermissionDenied,
                    "the drive's security is frozen: suspend and resume the machine or "
                    "hot-plug the drive to unfreeze it; nothing was changed");
    }
    if (id->security.enabled && !reuse) {
        return fail(ErrorCode::PermissionDenied, "the drive already has a user password");
    }
    const bool enhanced = method == Method::AtaSecurityEraseEnhanced;
    const auto minutes =
        enhanced ? id->security.enhancedEraseMinutes : id->security.normalEraseMinutes;
    // Twice the drive's estimate plus 30 minutes; a day when it gives none.
    const std::chrono::milliseconds timeout =
        minutes ? std::chrono::minutes(*minutes * 2 + 30) : std::chrono::milliseconds(24h);
    std::random_device entropy;
    const std::string password = reuse ? leftover : fmt::format("SSDK{:08x}", entropy());
    // The password is on record before the drive can hold it.
    if (auto saved = record(journal, [&](EraseJournal& j) { j.ataPassword = password; }); !saved) {
        return saved;
    }
    if (progress) {
        progress(0.1, minutes ? fmt::format("SECURITY ERASE UNIT running; the drive estimates "
                                            "{} minutes",
                                            *minutes)
                              : std::string("SECURITY ERASE UNIT running"));
    }
    if (auto erased = ata.securityErase(password, enhanced, timeout, reuse); !erased) {
        return erased;
    }
    auto after = ata.identify();
    if (after && after->security.enabled) {
        return fail(ErrorCode::Io, "the drive still has the temporary password '" + password +
                                       "' after SECURITY ERASE UNIT");
    }
    if (auto saved = record(journal, [](EraseJournal& j) { j.ataPassword.clear(); }); !saved) {
        log::get("maintenance")->error("erase journal: {}", saved.error().describe());
    }
    return {};
}

Expected<void> runNvme(const device::Device& device, Method method, const TransportFactory& factory,
                       const EraseProgress& progress) {
    if (!factory.nvme) {
        return fail(ErrorCode::Unsupported, "no NVMe transport");
    }
    auto opened = factory.nvme(device.path);
    if (!opened) {
        return std::unexpected(opened.error());
    }
    transport::NvmeAdmin& nvme = **opened;
    if (method == Method::NvmeFormatCrypto || method == Method::NvmeFormatUserData) {
        auto nsBytes = transport::identifyNamespace(nvme);
        if (!nsBytes) {
            return std::unexpected(nsBytes.error());
        }
        auto ns = parseNvmeIdentifyNamespace(*nsBytes);
        if (!ns) {
            return std::unexpected(ns.error());
        }
        if (progress) {
            progress(0.1, "Format NVM running");
        }
        return transport::formatNvm(nvme, ns->formatIndex,
                                    method == Method::NvmeFormatCrypto
                                        ? transport::NvmeSecureErase::Cryptographic
                                        : transport::NvmeSecureErase::UserData,
                                    std::chrono::milliseconds(24h));
    }
    const auto action = method == Method::NvmeSanitizeCrypto
                            ? transport::NvmeSanitizeAction::CryptoErase
                            : transport::NvmeSanitizeAction::BlockErase;
    if (auto started = transport::sanitize(nvme, action); !started) {
        return started;
    }
    for (int polls = 0; polls < 24 * 3600; ++polls) {
        auto log = transport::readSanitizeLog(nvme);
        if (!log) {
            return std::unexpected(log.error());
        }
        if (log->lastStatus == 1) {
            return {};
        }
        if (log->lastStatus == 3) {
            return fail(ErrorCode::Io, "the controller reports the sanitize failed");
        }
        if (progress) {
            progress(0.1 + 0.8 * log->progress / 65536.0, "sanitizing");
        }
        std::this_thread::sleep_for(1s);
    }
    return fail(ErrorCode::Timeout, "sanitize did not finish within a day");
}

} // namespace

TransportFactory systemTransports() {
    TransportFactory factory;
    factory.scsi =
        [](const std::string& path) -> Expected<std::unique_ptr<transport::ScsiTransport>> {
        auto opened = transport::SgIoTransport::open(path);
        if (!opened) {
            return std::unexpected(opened.error());
        }
        return std::make_unique<transport::SgIoTransport>(std::move(*opened));
    };
    factory.nvme = transport::openNvmeAdmin;
    return factory;
}

EraseCapabilities probeCapabilities(const device::Device& device, const TransportFactory& factory) {
    EraseCapabilities caps;
    caps.bus = std::string(device::toString(device.bus));
    caps.discard = device.supportsDiscard();
    caps.size = device.size;
    if (device.bus == device::Bus::Nvme && factory.nvme) {
        if (auto nvme = factory.nvme(device.path)) {
            if (auto bytes = transport::identifyController(**nvme)) {
                if (auto ctrl = parseNvmeIdentifyController(*bytes)) {
                    caps.nvme = *ctrl;
                }
            }
            if (auto bytes = transport::identifyNamespace(**nvme)) {
                if (auto ns = parseNvmeIdentifyNamespace(*bytes)) {
                    caps.nvmeNamespace = *ns;
                }
            }
        }
    }
    if ((device.bus == device::Bus::Sata || device.bus == device::Bus::Usb ||
         device.bus == device::Bus::Scsi) &&
        factory.scsi) {
        auto scsi = factory.scsi(device.path);
        if (!scsi) {
            caps.ataUnavailableReason = scsi.error().describe();
        } else {
            transport::AtaDevice ata(**scsi);
            if (auto id = ata.identify()) {
                caps.ata = *id;
            } else {
                caps.ataUnavailableReason = id.error().describe();
            }
        }
    }
    return caps;
}

Expected<std::vector<SpreadSample>> sampleSpread(const std::string& path, std::uint32_t count,
                                                 std::uint64_t seed) {
    auto reader = DirectReader::open(path);
    if (!reader) {
        return std::unexpected(reader.error());
    }
    const std::uint64_t blocks = reader->size().value / kBlock;
    if (blocks == 0) {
        return fail(ErrorCode::InvalidArgument, path + " is smaller than one block");
    }
    std::mt19937_64 generator(seed);
    std::vector<std::uint64_t> offsets{0, (blocks - 1) * kBlock};
    while (offsets.size() < count) {
        offsets.push_back((generator() % blocks) * kBlock);
    }
    std::vector<SpreadSample> samples;
    AlignedBuffer buffer(kBlock);
    for (const std::uint64_t offset : offsets) {
        if (auto read = reader->read(offset, buffer.span()); !read) {
            return std::unexpected(read.error());
        }
        samples.push_back(
            {offset, checksum(buffer.span()), classifyBlock(buffer.span()) != BlockContent::Other});
    }
    return samples;
}

Verification judge(const std::vector<SpreadSample>& before, const std::vector<SpreadSample>& after,
                   Method method) {
    static const std::uint64_t zeroSum = [] {
        std::vector<std::uint8_t> zeros(kBlock, 0);
        return checksum(zeros);
    }();
    static const std::uint64_t onesSum = [] {
        std::vector<std::uint8_t> ones(kBlock, 0xFF);
        return checksum(ones);
    }();
    Verification v;
    v.samples = static_cast<std::uint32_t>(after.size());
    for (std::size_t i = 0; i < after.size(); ++i) {
        if (after[i].checksum == zeroSum) {
            ++v.zeros;
        } else if (after[i].checksum == onesSum) {
            ++v.ones;
        } else {
            ++v.other;
        }
        if (i < before.size() && !before[i].empty && before[i].checksum == after[i].checksum) {
            ++v.unchangedData;
        }
    }
    if (v.unchangedData > 0) {
        v.passed = false;
        v.summary = fmt::format("{} of {} sampled blocks still hold the data they held before "
                                "the erase",
                                v.unchangedData, v.samples);
    } else if (expectsZeros(method) && v.zeros != v.samples) {
        v.passed = false;
        v.summary = fmt::format("{} of {} sampled blocks are not zero after a zero-out",
                                v.samples - v.zeros, v.samples);
    } else {
        v.passed = true;
        v.summary =
            fmt::format("none of {} sampled blocks (first, last, {} random) holds its "
                        "old data; {} read as zeros, {} as ones, {} as other data",
                        v.samples, v.samples > 2 ? v.samples - 2 : 0, v.zeros, v.ones, v.other);
    }
    return v;
}

namespace {

// The method's commands, start to finish.
Expected<void> runMethod(const device::Device& device, Method method,
                         const TransportFactory& factory, const EraseProgress& progress,
                         EraseJournalStore::Active* journal) {
    switch (method) {
    case Method::BlkSecDiscard:
        return commandOverRanges(device.path, secureDiscardRange, "BLKSECDISCARD", 1ULL << 30,
                                 progress);
    case Method::BlkDiscard:
        return commandOverRanges(device.path, discardRange, "BLKDISCARD", 1ULL << 30, progress);
    case Method::BlkZeroOut:
        return commandOverRanges(device.path, zeroOutRange, "BLKZEROOUT", 256ULL << 20, progress);
    case Method::AtaSanitizeCrypto:
    case Method::AtaSanitizeBlock:
    case Method::AtaSecurityEraseEnhanced:
    case Method::AtaSecurityErase:
        return runAta(device, method, factory, progress, journal);
    case Method::NvmeSanitizeCrypto:
    case Method::NvmeSanitizeBlock:
    case Method::NvmeFormatCrypto:
    case Method::NvmeFormatUserData:
        return runNvme(device, method, factory, progress);
    }
    return fail(ErrorCode::InvalidArgument, "unknown erase method");
}

} // namespace

Expected<EraseCertificate> eraseDevice(const device::Device& device, Method method,
                                       const TransportFactory& factory,
                                       const EraseProgress& outerProgress,
                                       EraseJournalStore::Active* journal) {
    EraseCertificate cert;
    cert.method = std::string(toString(method));
    cert.methodDescription = std::string(describe(method));
    cert.devicePath = device.path;
    cert.model = device.model;
    cert.serial = device.serial;
    cert.firmware = device.firmware;
    cert.bus = std::string(device::toString(device.bus));
    cert.sizeBytes = device.size.value;
    std::random_device entropy;
    const std::uint64_t seed = (std::uint64_t{entropy()} << 32) | entropy();
    // Once the first command may have reached the drive, a journal that cannot be written is
    // only logged: stopping then helps nobody.
    bool touched = false;
    const auto logOrFail = [&](Expected<void> saved) -> Expected<void> {
        if (!saved && touched) {
            log::get("maintenance")->error("erase journal: {}", saved.error().describe());
            return {};
        }
        return saved;
    };
    const EraseProgress progress = [&](double fraction, const std::string& step) {
        (void)logOrFail(record(journal, [&](EraseJournal& j) {
            j.fraction = fraction;
            j.step = step;
        }));
        if (outerProgress) {
            outerProgress(fraction, step);
        }
    };

    std::vector<SpreadSample> before;
    std::chrono::steady_clock::time_point start;
    std::vector<std::unique_ptr<Job>> jobs;
    jobs.push_back(
        functionJob(std::string(kJobSampleBefore), "Reading a spread of blocks before the erase",
                    [&]() -> Expected<void> {
                        if (outerProgress) {
                            outerProgress(0.02, "reading a spread of blocks before the erase");
                        }
                        auto sampled = sampleSpread(device.path, kSpreadSamples, seed);
                        if (!sampled) {
                            return std::unexpected(sampled.error());
                        }
                        before = std::move(*sampled);
                        return {};
                    }));
    jobs.push_back(functionJob(
        std::string(kJobErase), "erasing " + device.path + " with " + cert.method,
        [&]() -> Expected<void> {
            cert.started = utcTimestampNow();
            // From here on the drive's contents are undefined until the erase completes: the
            // journal says so first, then follows every step.
            if (auto saved = record(journal,
                                    [&](EraseJournal& j) {
                                        j.method = cert.method;
                                        j.state = EraseState::Running;
                                        j.started = cert.started;
                                        j.fraction = 0.05;
                                        j.step = "erasing with " + cert.method;
                                    });
                !saved) {
                return std::unexpected(
                    Error(saved.error()).addContext("writing the erase journal"));
            }
            touched = true;
            start = std::chrono::steady_clock::now();
            log::get("maintenance")->warn("erasing {} with {}", device.path, cert.method);
            return runMethod(device, method, factory, progress, journal);
        }));
    jobs.push_back(functionJob(
        std::string(kJobVerify), "Verifying: reading the same spread of blocks",
        [&]() -> Expected<void> {
            cert.finished = utcTimestampNow();
            cert.seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            progress(0.95, "verifying: reading the same spread of blocks");
            auto after = sampleSpread(device.path, kSpreadSamples, seed);
            if (!after) {
                return std::unexpected(
                    Error(after.error())
                        .addContext("the erase ran but reading the drive back failed"));
            }
            cert.verification = judge(before, *after, method);
            return {};
        }));

    std::array<JobState, kEraseJobCount> states{};
    const auto recordStates = [&]() {
        return logOrFail(record(journal, [&](EraseJournal& j) { j.jobs = states; }));
    };
    if (auto ran = runJobs(jobs, states, recordStates, {}, "maintenance"); !ran) {
        (void)record(journal, [&](EraseJournal& j) {
            j.state = EraseState::Failed;
            j.error = ran.error().describe();
        });
        return std::unexpected(ran.error());
    }
    (void)logOrFail(record(journal, [&](EraseJournal& j) {
        j.state = EraseState::Completed;
        j.finished = cert.finished;
        j.fraction = 1.0;
        j.step = cert.verification.summary;
        j.verified = cert.verification.passed;
    }));
    if (outerProgress) {
        outerProgress(1.0, "done");
    }
    return cert;
}

Json toJson(const EraseCertificate& c) {
    const Verification& v = c.verification;
    return Json{{"version", 1},
                {"method", c.method},
                {"method_description", c.methodDescription},
                {"device", Json{{"path", c.devicePath},
                                {"model", c.model},
                                {"serial", c.serial},
                                {"firmware", c.firmware},
                                {"bus", c.bus},
                                {"size", c.sizeBytes}}},
                {"started", c.started},
                {"finished", c.finished},
                {"seconds", c.seconds},
                {"verification", Json{{"samples", v.samples},
                                      {"zeros", v.zeros},
                                      {"ones", v.ones},
                                      {"other", v.other},
                                      {"unchanged_data", v.unchangedData},
                                      {"passed", v.passed},
                                      {"summary", v.summary}}}};
}

std::string toText(const EraseCertificate& c) {
    return fmt::format("SSD Keeper erase certificate\n"
                       "Device:   {} — model {}, serial {}, firmware {}, bus {}, {} bytes\n"
                       "Method:   {} ({})\n"
                       "Started:  {}\nFinished: {} ({:.1f} s)\n"
                       "Verified: {} — {}\n",
                       c.devicePath, c.model.empty() ? "-" : c.model,
                       c.serial.empty() ? "-" : c.serial, c.firmware.empty() ? "-" : c.firmware,
                       c.bus, c.sizeBytes, c.method, c.methodDescription, c.started, c.finished,
                       c.seconds, c.verification.passed ? "PASSED" : "FAILED",
                       c.verification.summary);
}

} // namespace ssdk::maintenance::erase
