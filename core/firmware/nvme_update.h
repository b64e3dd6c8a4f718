#pragma once
// Updating an NVMe drive from an image the user supplies: the capabilities and slots read
// through an NvmeAdmin, a pure plan with every pre-flight check (commands supported, slot,
// read-only slot 1, activation without reset, image size and alignment, mains power, system
// disk) and an account of whether a reset is needed; then the download in FWUG-sized chunks
// and the commit, through the same NvmeAdmin.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/base/json.h"
#include "core/firmware/nvme_firmware.h"
#include "core/firmware/power.h"
#include "core/maintenance/transport/nvme_admin.h"

namespace ssdk::firmware {

inline constexpr std::uint64_t kMaxImageBytes = 64ULL << 20;

// Identify Controller and the slot log, for info and update. Errors: Unsupported when the
// controller answers with an error status (named by describeStatus); submit's errors.
Expected<NvmeFirmwareCaps> readFirmwareCaps(maintenance::transport::NvmeAdmin& admin);
Expected<NvmeSlotLog> readSlotLog(maintenance::transport::NvmeAdmin& admin);

struct UpdateRequest {
    std::uint8_t slot = 0;
    CommitAction action = CommitAction::ReplaceActivate;
    std::uint64_t imageSize = 0; // 0 for Activate (no image)
    bool systemDisk = false;     // the drive holds "/"
    bool confirmSystemDisk = false;
};

struct PreflightCheck {
    std::string name;
    bool passed = false;
    std::string detail;
};

struct UpdatePlan {
    UpdateRequest request;
    std::vector<PreflightCheck> checks;
    std::uint32_t chunkBytes = kDefaultChunkBytes;
    std::uint32_t downloads = 0; // Firmware Image Download commands it will send
    std::string resetAccount;    // what happens after the commit
    std::vector<std::string> reminders;

    bool allowed() const;
    // The first failing check as "name: detail"; empty when allowed.
    std::string refusal() const;
};

UpdatePlan planNvmeUpdate(const NvmeFirmwareCaps& caps, const NvmeSlotLog& slots,
                          const UpdateRequest& request, const PowerState& power);

struct UpdateResult {
    CommitOutcome outcome = CommitOutcome::Done;
    bool resetNeeded = false;
    std::string account;                   // what the drive does now / after which reset
    std::optional<NvmeSlotLog> slotsAfter; // re-read after the commit
    std::uint32_t downloads = 0;
};

// fraction 0…1 and a line of text, after each download and at the commit.
using UpdateProgress = std::function<void(double fraction, const std::string& text)>;

// Runs a plan. Errors: InvalidArgument when the plan is not allowed or the image does not have
// the planned size; Unsupported when the controller rejects a download or the commit (the
// message names the NVMe status); Io when a command could not be sent.
Expected<UpdateResult> runNvmeUpdate(maintenance::transport::NvmeAdmin& admin,
                                     const UpdatePlan& plan, std::span<const std::uint8_t> image,
                                     const UpdateProgress& progress = {});

Json toJson(const UpdatePlan& plan);
Json toJson(const UpdateResult& result);
Json toJson(const NvmeSlotLog& log, const NvmeFirmwareCaps* caps);

} // namespace ssdk::firmware
