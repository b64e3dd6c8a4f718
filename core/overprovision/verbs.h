#pragma once
// The spare area's privileged verbs (docs/spare-area.md): their names, typed requests and
// results, and the JSON of each. The helper (helper/op_verbs.cpp) parses every request with
// these fromJson functions and answers with these results; the CLI and the GUI send these
// requests through a SpareAreaClient (core/overprovision/spare_area_client.h). Nobody spells
// a verb name or a key of these objects anywhere else.
//
// A request's fromJson refuses what the helper refuses: unknown keys, wrong types, values out
// of range (InvalidArgument naming the argument, core/base/json_args.h). Device paths are only
// taken here as strings: the helper resolves and validates them itself. A result's fromJson
// gives a Parse error when the answer lacks what the result needs.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/overprovision/filesystem_usage.h"
#include "core/overprovision/journal.h"
#include "core/overprovision/spare_area.h"

namespace ssdk::overprovision {

inline constexpr const char* kVerbOpInspect = "op.inspect";
inline constexpr const char* kVerbOpApply = "op.apply";
inline constexpr const char* kVerbOpUndo = "op.undo";
inline constexpr const char* kVerbOpRecover = "op.recover";
// Every spare-area verb, in the order above.
inline constexpr const char* kOpVerbs[] = {kVerbOpInspect, kVerbOpApply, kVerbOpUndo,
                                           kVerbOpRecover};

// The longest device or partition path a request may carry (PATH_MAX).
inline constexpr std::size_t kMaxDevicePathBytes = 4096;

// op.apply, op.undo and op.recover send an rpc::Progress event (core/rpc/progress.h) at each
// step's start and end: {fraction of the steps done (0–1), step (its journal name), text (what
// it does), finished (whether this event ends it)}.

// op.inspect {device} → InspectReply. Reads the filesystem's used space (dumpe2fs etc.) and
// the drive's last journal; changes nothing.
struct InspectRequest {
    std::string device;
};
Json toJson(const InspectRequest& request);
Expected<InspectRequest> inspectRequestFromJson(const Json& args);

// {device, usage, usage_error, mount_users, journal}: usage and journal null when absent.
struct InspectReply {
    // The drive as the helper discovered it, in the stable device JSON (docs/cli.md "Device
    // object", device::toJson); callers plan with their own discovery, so it stays JSON.
    Json device;
    std::optional<FilesystemUsage> usage; // of the last partition's filesystem
    std::string usageError;               // "usage_error": why usage is missing
    std::vector<std::string> mountUsers;  // "mount_users": what holds a mounted ext fs open
    std::optional<Journal> journal;       // pending (recovery offered) or the last one done
};
InspectReply inspectReplyOf(const SpareAreaStatus& status);
Json toJson(const InspectReply& reply);
Expected<InspectReply> inspectReplyFromJson(const Json& json);

// op.apply {device, spare_percent: 0–kMaximumSparePercent, partition, unmount?} → JournalReply.
// partition: the partition the user confirmed, which the helper's own plan must change.
// unmount: a mounted ext filesystem is unmounted for the shrink and mounted again.
struct ApplyRequest {
    std::string device;
    unsigned sparePercent = 0; // "spare_percent", of the whole drive
    std::string partition;
    bool unmount = false;
};
Json toJson(const ApplyRequest& request);
Expected<ApplyRequest> applyRequestFromJson(const Json& args);

// op.undo {device} → JournalReply: grows back what the last apply shrank.
struct UndoRequest {
    std::string device;
};
Json toJson(const UndoRequest& request);
Expected<UndoRequest> undoRequestFromJson(const Json& args);

// op.recover {device, action: finish|rollback} → JournalReply: an interrupted change.
std::string_view toString(Recovery action);
struct RecoverRequest {
    std::string device;
    Recovery action = Recovery::Finish;
};
Json toJson(const RecoverRequest& request);
Expected<RecoverRequest> recoverRequestFromJson(const Json& args);

// The answer of op.apply, op.undo and op.recover: {journal}, the change as journaled.
struct JournalReply {
    Journal journal;
};
Json toJson(const JournalReply& reply);
Expected<JournalReply> journalReplyFromJson(const Json& json);

} // namespace ssdk::overprovision
