#pragma once
// The firmware area's privileged verbs (docs/firmware.md): their names and typed requests, and
// the JSON of each. The helper (helper/firmware_verbs.cpp) parses every request with these
// fromJson functions; the CLI and the GUI build their requests here. Nobody spells a verb name
// or a request key anywhere else.
//
// A request's fromJson refuses what the helper refuses: unknown keys, wrong types, values out
// of range (InvalidArgument naming the argument, core/base/json_args.h). Paths are only taken
// here as strings: the helper resolves and validates them itself.
//
// The results are firmware::toJson(FirmwareInfo) (info), toJson(UpdatePlan) (plan) and
// {plan, result} (update); they have no typed readers yet.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/error.h"
#include "core/base/json.h"

namespace ssdk::firmware {

// Declared with its enumerators in nvme_firmware.h, which a Qt translation unit cannot include
// (NvmeFirmwareCaps::slots meets Qt's `slots` macro): the firmware page uses these two.
enum class CommitAction : std::uint8_t;
bool replacesImage(CommitAction action);

inline constexpr const char* kVerbInfo = "firmware.info";
inline constexpr const char* kVerbPlan = "firmware.plan";
inline constexpr const char* kVerbUpdate = "firmware.update";
// Every firmware verb, in the order above.
inline constexpr const char* kFirmwareVerbs[] = {kVerbInfo, kVerbPlan, kVerbUpdate};

// The longest path a request may carry.
inline constexpr std::size_t kMaxPathBytes = 4096;
// NVMe firmware slots are numbered 1 to 7.
inline constexpr unsigned kMinSlot = 1;
inline constexpr unsigned kMaxSlot = 7;

// The "progress" event of firmware.update: {fraction (0–1), text}.
inline constexpr const char* kEventProgress = "progress";
Json progressEvent(double fraction, const std::string& text);

// firmware.info {device}.
struct InfoRequest {
    std::string device;
};
Json toJson(const InfoRequest& request);
Expected<InfoRequest> infoRequestFromJson(const Json& args);

// An action as a request names it (toString(CommitAction)); InvalidArgument naming the
// choices otherwise.
Expected<CommitAction> commitActionArg(std::string_view text);

// firmware.plan {device, slot (1–7), action, image_size?, confirm_system_disk?}: the image's
// size only (the client reads it with its own rights), present exactly when the action
// replaces the image.
struct PlanVerbRequest {
    std::string device;
    unsigned slot = kMinSlot;
    CommitAction action{};                  // an action name, toString(CommitAction)
    std::optional<std::uint64_t> imageSize; // "image_size"
    bool confirmSystemDisk = false;         // "confirm_system_disk"
};
Json toJson(const PlanVerbRequest& request);
Expected<PlanVerbRequest> planVerbRequestFromJson(const Json& args);

// firmware.update {device, slot (1–7), action, image?, confirm_system_disk?}: image, an
// absolute path, present exactly when the action replaces the image.
struct UpdateVerbRequest {
    std::string device;
    unsigned slot = kMinSlot;
    CommitAction action{};          // an action name, toString(CommitAction)
    std::string image;              // empty: none (activate)
    bool confirmSystemDisk = false; // "confirm_system_disk"
};
Json toJson(const UpdateVerbRequest& request);
Expected<UpdateVerbRequest> updateVerbRequestFromJson(const Json& args);
// The plan of that update, for an image of imageSize bytes (ignored for activate).
PlanVerbRequest planOf(const UpdateVerbRequest& request, std::uint64_t imageSize);

} // namespace ssdk::firmware
