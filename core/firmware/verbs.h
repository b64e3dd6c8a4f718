#pragma once
// The firmware area's privileged verbs (docs/firmware.md): their names, typed requests and
// results, and the JSON of each. The helper (helper/firmware_verbs.cpp) parses every request
// with these fromJson functions and answers with the results' toJson; the CLI and the GUI
// build their requests here and read the answers with the results' readers (FirmwareClient,
// firmware_client.h). Nobody spells a verb name or a key outside this header, verbs.cpp and
// the files of the toJson functions named below (each reader sits next to its toJson where
// this area owns it).
//
// A request's fromJson refuses what the helper refuses: unknown keys, wrong types, values out
// of range (InvalidArgument naming the argument, core/base/json_args.h). Paths are only taken
// here as strings: the helper resolves and validates them itself.
//
// The results are toJson(FirmwareInfo) (info, read by firmwareInfoFromJson in info.h),
// toJson(UpdatePlan) (plan) and UpdateReply (update). Their readers refuse a result that lacks
// a key its toJson writes, has a value of another type, or a value toJson derives from others
// (a slot's "active", a plan's "allowed") that disagrees with them: what they accept gives
// the same JSON back through toJson.
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/firmware/info.h"
#include "core/firmware/nvme_update.h"

namespace ssdk::firmware {

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

// firmware.update sends rpc::Progress events (core/rpc/progress.h): {fraction (0–1), text}.

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

// Reads a result's JSON for the results' fromJson functions: each read names a key the
// result's toJson writes; the first key that is missing or of another type, or a derived
// value that disagrees, is kept as the problem, named by its path
// ("update_paths[1].releases[0].size_bytes"), and later reads give empty values. Copies (and
// the readers of members) share that problem. The JSON must outlive the reader.
class ResultReader {
public:
    // what: the result as its error names it, e.g. "the firmware.plan result".
    ResultReader(const Json& json, std::string what);

    bool boolean(std::string_view key) const;
    std::string string(std::string_view key) const;
    // A non-negative integer up to max.
    std::uint64_t number(std::string_view key,
                         std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) const;
    // null, or a non-negative integer up to max.
    std::optional<std::uint64_t> nullableNumber(std::string_view key, std::uint64_t max) const;
    std::vector<std::string> strings(std::string_view key) const;
    // A member object.
    ResultReader object(std::string_view key) const;
    // A member object; null: nothing.
    std::optional<ResultReader> nullableObject(std::string_view key) const;
    // A member array of objects.
    std::vector<ResultReader> objects(std::string_view key) const;
    // A value toJson derives from others: present and equal to expected, which `from` names.
    void derived(std::string_view key, const Json& expected, std::string_view from) const;
    // Refuses the value of key for a reason of the caller's ("is not a firmware slot number").
    void refuse(std::string_view key, const std::string& reason) const;

    // value, or the first problem as a Parse error naming the result.
    template <typename T> Expected<T> finish(T value) const {
        if (*m_problem) {
            return fail(ErrorCode::Parse, m_what + ": " + **m_problem);
        }
        return value;
    }

private:
    ResultReader(const Json& json, std::string what, std::string path,
                 std::shared_ptr<std::optional<std::string>> problem);
    // The member, or null after recording that it is missing.
    const Json* member(std::string_view key) const;
    void problem(std::string_view key, const std::string& text) const;
    std::string pathOf(std::string_view key) const;

    const Json& m_json;
    std::string m_what;
    std::string m_path; // of this object inside the result, "" or "slot_log."
    std::shared_ptr<std::optional<std::string>> m_problem;
};

// A row of a slot table as toJson(NvmeSlotLog, caps) (nvme_update.h) writes it: the slots the
// controller has (every slot of the log without caps), each with its state.
struct SlotState {
    unsigned slot = 0;    // 1-7
    std::string revision; // "" for an empty slot
    bool active = false;
    bool nextReset = false;
    bool readOnly = false; // slot 1 when the controller makes it read-only
};
std::vector<SlotState> slotStates(const NvmeSlotLog& log, const NvmeFirmwareCaps* caps);

// The readers of the parts several results share, each the inverse of its toJson.
// toJson(log, caps) (nvme_update.h): caps as the info result wrote it, or null.
NvmeSlotLog readSlotLog(const ResultReader& reader, const NvmeFirmwareCaps* caps);
Finding readFinding(const ResultReader& reader);      // toJson(Finding), known_issues.h
FwupdRelease readRelease(const ResultReader& reader); // toJson(FwupdRelease), fwupd.h

// firmware.plan's result, toJson(UpdatePlan) (nvme_update.h). The plan's request carries what
// the JSON has (slot, action, image size); systemDisk and confirmSystemDisk are false.
Expected<UpdatePlan> updatePlanFromJson(const Json& json);
// toJson(UpdateResult) (nvme_update.h).
Expected<UpdateResult> updateResultFromJson(const Json& json);

// firmware.update's result {plan, result}: the plan it ran and what the drive did.
struct UpdateReply {
    UpdatePlan plan;
    UpdateResult result;
};
Json toJson(const UpdateReply& reply);
Expected<UpdateReply> updateReplyFromJson(const Json& json);

} // namespace ssdk::firmware
