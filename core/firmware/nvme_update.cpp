#include "core/firmware/nvme_update.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <vector>

namespace ssdk::firmware {

using maintenance::transport::NvmeAdmin;

namespace {

std::string sizeText(std::uint64_t bytes) {
    if (bytes % 1024 == 0 && bytes >= 1024) {
        return fmt::format("{} KiB", bytes / 1024);
    }
    return fmt::format("{} bytes", bytes);
}

void addImageChecks(const NvmeFirmwareCaps& caps, const UpdateRequest& request,
                    std::vector<PreflightCheck>& checks) {
    const std::uint64_t size = request.imageSize;
    if (!replacesImage(request.action)) {
        checks.push_back({"image", size == 0,
                          size == 0 ? "none needed: activate uses the image already in the slot"
                                    : "activate uses the image already in the slot; do not "
                                      "give an image"});
        return;
    }
    if (size == 0) {
        checks.push_back({"image size", false, "the image is empty"});
        return;
    }
    if (size > kMaxImageBytes) {
        checks.push_back({"image size", false,
                          fmt::format("{} is larger than any drive firmware SSD Keeper accepts "
                                      "({})",
                                      sizeText(size), sizeText(kMaxImageBytes))});
        return;
    }
    checks.push_back({"image size", true, sizeText(size)});
    if (size % 4 != 0) {
        checks.push_back({"image alignment", false,
                          fmt::format("{} bytes is not a whole number of dwords (4 bytes): "
                                      "not an NVMe firmware image",
                                      size)});
        return;
    }
    if (caps.granularityStated() && size % caps.chunkBytes() != 0) {
        checks.push_back({"image alignment", false,
                          fmt::format("the drive's update granularity (FWUG) is {}; {} is not a "
                                      "multiple of it",
                                      sizeText(caps.chunkBytes()), sizeText(size))});
        return;
    }
    checks.push_back({"image alignment", true,
                      caps.granularityStated()
                          ? fmt::format("a multiple of the drive's granularity ({})",
                                        sizeText(caps.chunkBytes()))
                          : std::string("dword-aligned; the drive states no granularity, "
                                        "chunks of 4 KiB")});
}

std::string resetAccountFor(const NvmeFirmwareCaps& caps, const UpdateRequest& request) {
    switch (request.action) {
    case CommitAction::Replace:
        return fmt::format("The image is stored in slot {}; the running firmware does not "
                           "change until that slot is activated.",
                           request.slot);
    case CommitAction::ReplaceActivate:
    case CommitAction::Activate:
        return fmt::format("Slot {} becomes active at the next controller reset: reboot or "
                           "power-cycle the machine to run the new firmware.",
                           request.slot);
    case CommitAction::ReplaceActivateImmediate:
        return caps.maxActivationTime100ms != 0
                   ? fmt::format("The controller activates slot {} now without a reset; I/O "
                                 "may pause for up to {:.1f} s. If the drive answers that a "
                                 "reset is needed, the new firmware runs after it.",
                                 request.slot, caps.maxActivationTime100ms / 10.0)
                   : fmt::format("The controller activates slot {} now without a reset. If "
                                 "the drive answers that a reset is needed, the new firmware "
                                 "runs after it.",
                                 request.slot);
    }
    return {};
}

// Reads command's data into data. Errors: submit's, with sending as context; Unsupported,
// refusedPrefix + the status's name, when the controller answers with an error status.
Expected<void> readFromDrive(NvmeAdmin& admin,
                             const maintenance::transport::NvmeAdminCommand& command,
                             std::span<std::uint8_t> data, const char* sending,
                             const char* refusedPrefix) {
    auto reply = admin.submit(command, data);
    if (!reply) {
        return std::unexpected(reply.error().addContext(sending));
    }
    if (statusCode(reply->status) != 0) {
        return fail(ErrorCode::Unsupported, refusedPrefix + describeStatus(reply->status));
    }
    return {};
}

} // namespace

Expected<NvmeFirmwareCaps> readFirmwareCaps(NvmeAdmin& admin) {
    std::array<std::uint8_t, 4096> data{};
    if (auto read = readFromDrive(admin, identifyControllerCommand(), data, "Identify Controller",
                                  "Identify Controller failed: ");
        !read) {
        return std::unexpected(read.error());
    }
    return parseFirmwareCaps(data);
}

Expected<NvmeSlotLog> readSlotLog(NvmeAdmin& admin) {
    std::array<std::uint8_t, kSlotLogBytes> data{};
    if (auto read = readFromDrive(admin, slotLogCommand(), data, "reading the firmware slot log",
                                  "the firmware slot log could not be read: ");
        !read) {
        return std::unexpected(read.error());
    }
    return parseFirmwareSlotLog(data);
}

bool UpdatePlan::allowed() const {
    return std::all_of(checks.begin(), checks.end(), [](const auto& c) { return c.passed; });
}

std::string UpdatePlan::refusal() const {
    for (const auto& check : checks) {
        if (!check.passed) {
            return check.name + ": " + check.detail;
        }
    }
    return {};
}

UpdatePlan planNvmeUpdate(const NvmeFirmwareCaps& caps, const NvmeSlotLog& slots,
                          const UpdateRequest& request, const PowerState& power) {
    UpdatePlan plan;
    plan.request = request;
    auto& checks = plan.checks;
    checks.push_back({"firmware commands", caps.downloadCommitSupported,
                      caps.downloadCommitSupported
                          ? "the controller supports Firmware Download and Commit"
                          : "the controller does not support Firmware Download and Commit "
                            "(OACS bit 2 is clear)"});
    const bool slotInRange = request.slot >= 1 && request.slot <= caps.slotCount;
    checks.push_back({"slot", slotInRange,
                      slotInRange ? fmt::format("slot {} of {}", request.slot, caps.slotCount)
                                  : fmt::format("slot {} does not exist; the drive has slots 1-{}",
                                                request.slot, caps.slotCount)});
    if (slotInRange && replacesImage(request.action)) {
        const bool readOnly = request.slot == 1 && caps.slot1ReadOnly;
        checks.push_back({"slot writable", !readOnly,
                          readOnly ? "slot 1 is read-only on this drive (FRMW bit 0): choose "
                                     "another slot"
                                   : fmt::format("slot {} can be written", request.slot)});
    }
    if (slotInRange && request.action == CommitAction::Activate) {
        const std::string& rev = slots.revisions.at(request.slot - 1U);
        checks.push_back({"slot image", !rev.empty(),
                          rev.empty()
                              ? fmt::format("slot {} holds no firmware to activate", request.slot)
                              : fmt::format("slot {} holds {}", request.slot, rev)});
    }
    if (request.action == CommitAction::ReplaceActivateImmediate) {
        checks.push_back({"activation without reset", caps.activationWithoutReset,
                          caps.activationWithoutReset
                              ? "the controller can activate firmware without a reset"
                              : "the controller cannot activate firmware without a reset "
                                "(FRMW bit 4 is clear): use replace-activate and reboot"});
    }
    addImageChecks(caps, request, checks);
    checks.push_back({"power", power.onMains, power.detail});
    if (request.systemDisk) {
        checks.push_back({"system disk", request.confirmSystemDisk,
                          request.confirmSystemDisk
                              ? "this drive holds the running system; the user confirmed"
                              : "this drive holds the running system: confirm explicitly to "
                                "update it"});
    }
    plan.chunkBytes = caps.chunkBytes();
    if (replacesImage(request.action) && request.imageSize > 0) {
        plan.downloads =
            static_cast<std::uint32_t>((request.imageSize + plan.chunkBytes - 1) / plan.chunkBytes);
    }
    plan.resetAccount = resetAccountFor(caps, request);
    plan.reminders = {
        "Back up the data on this drive first: an interrupted or wrong update can leave it "
        "unreadable.",
        "Use only an image the drive's vendor published for exactly this model.",
        "Keep the machine powered until the update reports completion."};
    return plan;
}

Expected<UpdateResult> runNvmeUpdate(NvmeAdmin& admin, const UpdatePlan& plan,
                                     std::span<const std::uint8_t> image,
                                     const UpdateProgress& progress) {
    if (!plan.allowed()) {
        return fail(ErrorCode::InvalidArgument, "the update is refused: " + plan.refusal());
    }
    const UpdateRequest& request = plan.request;
    if (image.size() != request.imageSize) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("the image has {} bytes, the plan was made for {}", image.size(),
                                request.imageSize));
    }
    const auto report = [&](double fraction, const std::string& text) {
        if (progress) {
            progress(fraction, text);
        }
    };
    UpdateResult result;
    if (replacesImage(request.action)) {
        std::vector<std::uint8_t> chunk;
        for (std::uint64_t offset = 0; offset < image.size(); offset += plan.chunkBytes) {
            const auto length = static_cast<std::uint32_t>(
                std::min<std::uint64_t>(plan.chunkBytes, image.size() - offset));
            auto command = downloadCommand(offset, length);
            if (!command) {
                return std::unexpected(command.error());
            }
            chunk.assign(image.begin() + static_cast<std::ptrdiff_t>(offset),
                         image.begin() + static_cast<std::ptrdiff_t>(offset + length));
            auto reply = admin.submit(*command, chunk);
            if (!reply) {
                return std::unexpected(reply.error().addContext(
                    fmt::format("downloading the image at offset {}", offset)));
            }
            if (statusCode(reply->status) != 0) {
                return fail(ErrorCode::Unsupported,
                            fmt::format("the drive rejected the download at offset {}: {}; "
                                        "nothing was committed, the running firmware is "
                                        "unchanged",
                                        offset, describeStatus(reply->status)));
            }
            ++result.downloads;
            report(0.9 * static_cast<double>(offset + length) / static_cast<double>(image.size()),
                   fmt::format("downloaded {} of {} bytes", offset + length, image.size()));
        }
    }
    report(0.92, fmt::format("committing to slot {} ({})", request.slot, toString(request.action)));
    auto reply = admin.submit(commitCommand(request.slot, request.action), {});
    if (!reply) {
        return std::unexpected(reply.error().addContext("committing the firmware"));
    }
    const StatusMeaning meaning = describeCommitStatus(reply->status);
    if (meaning.outcome == CommitOutcome::Failed) {
        return fail(
            ErrorCode::Unsupported,
            fmt::format("the drive refused the commit to slot {}: {}", request.slot, meaning.text));
    }
    result.outcome = meaning.outcome;
    if (meaning.outcome == CommitOutcome::Done) {
        result.resetNeeded = request.action == CommitAction::ReplaceActivate ||
                             request.action == CommitAction::Activate;
        result.account = plan.resetAccount;
        if (request.action == CommitAction::ReplaceActivateImmediate) {
            result.account =
                fmt::format("Slot {} is active now; no reset is needed.", request.slot);
        }
    } else {
        result.resetNeeded = true;
        result.account = meaning.text;
    }
    if (auto after = readSlotLog(admin)) {
        result.slotsAfter = *after;
    }
    report(1.0, "firmware committed");
    return result;
}

Json toJson(const UpdatePlan& plan) {
    Json checks = Json::array();
    for (const auto& check : plan.checks) {
        checks.push_back(
            {{"name", check.name}, {"passed", check.passed}, {"detail", check.detail}});
    }
    return Json{{"slot", plan.request.slot},
                {"action", std::string(toString(plan.request.action))},
                {"image_size", plan.request.imageSize},
                {"chunk_bytes", plan.chunkBytes},
                {"downloads", plan.downloads},
                {"allowed", plan.allowed()},
                {"refusal", plan.refusal()},
                {"checks", checks},
                {"reset_account", plan.resetAccount},
                {"reminders", plan.reminders}};
}

Json toJson(const UpdateResult& result) {
    static constexpr const char* kOutcomes[] = {"done", "needs-conventional-reset",
                                                "needs-subsystem-reset", "needs-controller-reset",
                                                "failed"};
    Json json{{"outcome", kOutcomes[static_cast<int>(result.outcome)]},
              {"reset_needed", result.resetNeeded},
              {"account", result.account},
              {"downloads", result.downloads}};
    json["slots_after"] = result.slotsAfter ? toJson(*result.slotsAfter, nullptr) : Json();
    return json;
}

Json toJson(const NvmeSlotLog& log, const NvmeFirmwareCaps* caps) {
    Json slots = Json::array();
    const std::size_t count = caps != nullptr && caps->slotCount > 0
                                  ? std::min<std::size_t>(caps->slotCount, log.revisions.size())
                                  : log.revisions.size();
    for (std::size_t i = 0; i < count; ++i) {
        const auto number = static_cast<int>(i + 1);
        slots.push_back({{"slot", number},
                         {"revision", log.revisions[i]},
                         {"active", number == log.activeSlot},
                         {"next_reset", log.nextResetSlot && *log.nextResetSlot == number},
                         {"read_only", number == 1 && caps != nullptr && caps->slot1ReadOnly}});
    }
    Json json{{"active_slot", log.activeSlot}, {"slots", slots}};
    json["next_reset_slot"] = log.nextResetSlot ? Json(*log.nextResetSlot) : Json();
    return json;
}

} // namespace ssdk::firmware
