#pragma once
// The maintenance area's privileged verbs (TRIM, quick format, secure erase; docs/cli.md): their
// names, typed requests and results, and the JSON of each. The helper
// (helper/maintenance_verbs.cpp) parses every request with these fromJson functions and
// answers with these results; the CLI and the GUI send these requests through a
// MaintenanceClient (core/maintenance/maintenance_client.h). Nobody spells a verb name or a
// key of these objects anywhere else.
//
// A request's fromJson refuses what the helper refuses: unknown keys, wrong types, values out
// of range (InvalidArgument naming the argument, core/base/json_args.h). Paths are only taken
// here as strings: the helper resolves and validates them itself. A result's fromJson gives a
// Parse error when the answer lacks what the result needs, and reads back exactly what toJson
// wrote (the CLI prints a result's JSON with --json).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/json.h"
#include "core/maintenance/erase/eraser.h"
#include "core/maintenance/erase/journal.h"
#include "core/maintenance/erase/methods.h"
#include "core/maintenance/trim/audit.h"
#include "core/maintenance/trim/format_verify.h"
#include "core/maintenance/trim/fstrim.h"
#include "core/maintenance/trim/verify.h"

namespace ssdk::maintenance {

inline constexpr const char* kVerbTrimAudit = "trim.audit";
inline constexpr const char* kVerbTrimVerify = "trim.verify";
inline constexpr const char* kVerbTrimFstrim = "trim.fstrim";
inline constexpr const char* kVerbTrimTimer = "trim.timer";
inline constexpr const char* kVerbFormatRun = "format.run";
inline constexpr const char* kVerbEraseProbe = "erase.probe";
inline constexpr const char* kVerbEraseUnfreeze = "erase.unfreeze";
inline constexpr const char* kVerbEraseRun = "erase.run";
// Every maintenance verb, in the order above.
inline constexpr const char* kMaintenanceVerbs[] = {
    kVerbTrimAudit, kVerbTrimVerify, kVerbTrimFstrim,    kVerbTrimTimer,
    kVerbFormatRun, kVerbEraseProbe, kVerbEraseUnfreeze, kVerbEraseRun};

// The longest path a request may carry.
inline constexpr std::size_t kMaxPathBytes = 4096;
// Marker blocks of trim.verify: 4 KiB each.
inline constexpr std::uint32_t kDefaultMarkerBlocks = 256;
inline constexpr std::uint32_t kMinMarkerBlocks = 16;
inline constexpr std::uint32_t kMaxMarkerBlocks = 16384;
// erase.run's method that picks the strongest available one.
inline constexpr const char* kAutoMethod = "auto";

// trim.verify, trim.fstrim, format.run, erase.unfreeze and erase.run send rpc::Progress events
// (core/rpc/progress.h): {fraction (0–1, -1 when unknown), text}.

// trim.audit {target: mount point (exactly as mountinfo lists it) | /dev node} → TrimAudit:
// {target, reaches_drive, filesystem_discards, read_after_trim, verdict,
//  layers: [{layer, name, status, detail}]} (trim::toJson).
// The AuditLayer::layer of the filesystem at the top of an audited stack.
inline constexpr std::string_view kAuditFilesystemLayer = "filesystem";
struct AuditRequest {
    std::string target;
};
Json toJson(const AuditRequest& request);
Expected<AuditRequest> auditRequestFromJson(const Json& args);
Expected<trim::TrimAudit> trimAuditFromJson(const Json& json);

// trim.verify {mount_point, mode?: fstrim|online (default fstrim), blocks?: 16–16384 (default
// 256)} → VerifyResult: {result, reason, device, returned, before, after, trimmed, trim_error,
// backing_file_holes, read_after_trim, layers, audit} (trim::toJson).
struct VerifyRequest {
    std::string mountPoint; // "mount_point"
    trim::TrimMode mode = trim::TrimMode::Fstrim;
    std::uint32_t blocks = kDefaultMarkerBlocks; // marker blocks of 4 KiB
};
std::string_view toString(trim::TrimMode mode); // "fstrim", "online"
Json toJson(const VerifyRequest& request);
Expected<VerifyRequest> verifyRequestFromJson(const Json& args);
Expected<trim::VerifyResult> verifyResultFromJson(const Json& json);

// trim.fstrim {mount_point} → {mount_point, size, trimmed} (bytes).
struct FstrimRequest {
    std::string mountPoint; // "mount_point"
};
Json toJson(const FstrimRequest& request);
Expected<FstrimRequest> fstrimRequestFromJson(const Json& args);

struct FstrimReply {
    std::string mountPoint;
    Bytes size; // the filesystem's
    Bytes trimmed;
};
Json toJson(const FstrimReply& reply);
Expected<FstrimReply> fstrimReplyFromJson(const Json& json);

// trim.timer {enabled} → TimerFacts: {available, enabled, active, last_trigger, reason (when
// unavailable)} (trim::toJson).
struct TimerRequest {
    bool enabled = false;
};
Json toJson(const TimerRequest& request);
Expected<TimerRequest> timerRequestFromJson(const Json& args);
Expected<trim::TimerFacts> timerFactsFromJson(const Json& json);

// format.run {device, fs (a trim::formatters() name), verify? (default true), discard_first?
// (default false)} → FormatResult: {device, fs, formatter, formatter_discards, formatter_note,
// discarded_first, old_fs, sample_source, sampled, discarded, kept, rewritten, in_use_by_new_fs,
// judged, free_map, free_map_error, result, reason, offer_blkdiscard, backing_file_holes,
// ground_truth_agreements, ground_truth_disagrees, ground_truth_warning} (trim::toJson).
struct FormatRequest {
    std::string device; // the partition (or unpartitioned disk)
    std::string fs;     // "ext4"
    bool verify = true;
    bool discardFirst = false; // "discard_first"
};
Json toJson(const FormatRequest& request);
Expected<FormatRequest> formatRequestFromJson(const Json& args);
Expected<trim::FormatResult> formatResultFromJson(const Json& json);

// erase.probe {device} → EraseProbeReply; erase.unfreeze {device} → UnfreezeReply. device: the
// whole drive.
struct EraseDeviceRequest {
    std::string device;
};
using EraseProbeRequest = EraseDeviceRequest;
using UnfreezeRequest = EraseDeviceRequest;
Json toJson(const EraseDeviceRequest& request);
Expected<EraseDeviceRequest> eraseDeviceRequestFromJson(const Json& args);

// One erase method as offered: {method, description, available, reason, estimate_minutes}.
struct MethodReport {
    erase::Method method = erase::Method::BlkZeroOut;
    std::string description;
    bool available = false;
    std::string reason; // why not, or a note when available
    std::optional<std::int64_t> estimateMinutes;
};
std::vector<MethodReport> methodReportsOf(const std::vector<erase::MethodOption>& options);

// The drive's ATA security state: {supported, frozen, locked, enabled}.
struct AtaSecurityReport {
    bool supported = false;
    bool frozen = false;
    bool locked = false;
    bool enabled = false;
};

// {device, model, serial, size, identity, confirmation, methods, auto, refused, last_erase,
//  erase_running, interrupted, ata_security?}
struct EraseProbeReply {
    std::string device, model, serial;
    std::uint64_t size = 0;   // bytes
    std::string identity;     // a line naming the drive for people
    std::string confirmation; // the word erase.run's confirm must repeat
    std::vector<MethodReport> methods;
    std::optional<erase::Method> automatic;       // "auto": what kAutoMethod picks; none: null
    std::optional<std::string> refused;           // why the guards refuse any erase
    std::optional<erase::EraseJournal> lastErase; // "last_erase"
    bool eraseRunning = false;                    // "erase_running"
    std::optional<std::string> interrupted;       // an interrupted erase, said for people
    std::optional<AtaSecurityReport> ataSecurity; // ATA drives only
};
Json toJson(const EraseProbeReply& reply);
Expected<EraseProbeReply> eraseProbeReplyFromJson(const Json& json);

// {device, suspended, frozen}: suspended is false when the drive was not frozen.
struct UnfreezeReply {
    std::string device;
    bool suspended = false;
    bool frozen = false;
};
Json toJson(const UnfreezeReply& reply);
Expected<UnfreezeReply> unfreezeReplyFromJson(const Json& json);

// erase.run {device, method (kAutoMethod or an erase::Method name), confirm} → EraseReply.
struct EraseRequest {
    std::string device;
    std::string method = kAutoMethod;
    std::string confirm; // the probe's confirmation word, as typed
};
Json toJson(const EraseRequest& request);
Expected<EraseRequest> eraseRequestFromJson(const Json& args);

// The certificate (erase::toJson: {version, method, method_description, device: {path, model,
// serial, firmware, bus, size}, started, finished, seconds, verification: {samples, zeros,
// ones, other, unchanged_data, passed, summary}}) with {text, replaced_interrupted?}.
struct EraseReply {
    erase::EraseCertificate certificate;
    std::string text;                               // erase::toText(certificate)
    std::optional<std::string> replacedInterrupted; // the interrupted erase this one replaced
};
Json toJson(const EraseReply& reply);
Expected<EraseReply> eraseReplyFromJson(const Json& json);
// What a certificate file holds: the answer without its text.
Json certificateFileJson(const EraseReply& reply);

} // namespace ssdk::maintenance
