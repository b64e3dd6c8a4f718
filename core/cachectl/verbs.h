#pragma once
// The RAM cache's privileged verbs (docs/ram-cache.md): their names, typed requests and
// results, and the JSON of each. The helper (helper/cache_verbs.cpp) parses every request
// with these fromJson functions and answers with these results; the CLI and the GUI send
// these requests through a CacheClient (core/cachectl/cache_client.h). Nobody spells a verb
// name or a key of these objects anywhere else.
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
#include "core/cachectl/backend.h"
#include "core/cachectl/cache_manager.h"
#include "core/cachectl/power.h"

namespace ssdk::cachectl {

inline constexpr const char* kVerbProbe = "cache.probe";
inline constexpr const char* kVerbStatus = "cache.status";
inline constexpr const char* kVerbEnable = "cache.enable";
inline constexpr const char* kVerbDisable = "cache.disable";
inline constexpr const char* kVerbFlush = "cache.flush";
inline constexpr const char* kVerbMode = "cache.mode";
inline constexpr const char* kVerbResize = "cache.resize";
inline constexpr const char* kVerbPolicy = "cache.policy";
inline constexpr const char* kVerbBoot = "cache.boot";
inline constexpr const char* kVerbPower = "cache.power";
// Every cache verb, in the order above.
inline constexpr const char* kCacheVerbs[] = {kVerbProbe, kVerbStatus, kVerbEnable, kVerbDisable,
                                              kVerbFlush, kVerbMode,   kVerbResize, kVerbPolicy,
                                              kVerbBoot,  kVerbPower};

// The longest device path, backend name and fstab line a request may carry.
inline constexpr std::size_t kMaxDevicePathBytes = 4096;
inline constexpr std::size_t kMaxBackendNameBytes = 64;

// cache.enable sends an rpc::Progress event (core/rpc/progress.h) as each of its jobs starts.

// cache.probe {} → ProbeReply.
struct ProbeRequest {};
Json toJson(const ProbeRequest& request);
Expected<ProbeRequest> probeRequestFromJson(const Json& args);

// The machine's RAM (/proc/meminfo) and the suggested cache size (suggestedCacheBytes).
struct RamReport {
    std::uint64_t totalBytes = 0;     // "total_bytes"
    std::uint64_t availableBytes = 0; // "available_bytes"
    std::uint64_t suggestedBytes = 0; // "suggested_bytes"
};
// {backends: [{name, title, probe: {available, reasons, reason}, capabilities}],
//  ram: {total_bytes, available_bytes, suggested_bytes}}
struct ProbeReply {
    std::vector<BackendReport> backends;
    RamReport ram;
};
Json toJson(const ProbeReply& reply);
Expected<ProbeReply> probeReplyFromJson(const Json& json);

// cache.status {} → StatusReply.
struct StatusRequest {};
Json toJson(const StatusRequest& request);
Expected<StatusRequest> statusRequestFromJson(const Json& args);

// {caches: [{phase, cache, mount, power, boot, stats, stats_error}]} (toJson(CacheStatus)).
struct StatusReply {
    std::vector<CacheStatus> caches;
};
Json toJson(const StatusReply& reply);
Expected<StatusReply> statusReplyFromJson(const Json& json);

// cache.enable {device, backend, size, compression?, mode?, cache_device?, apply_now?,
//               power_safe?, at_next_boot?, preview?, fstab_line?, sequential_cutoff?,
//               writeback_percent?} → EnableReply.
// A mounted device needs apply_now (unmount, stack, remount) or at_next_boot (fstab and the
// boot unit); the two exclude each other. With preview (only with at_next_boot) nothing
// changes and only the fstab change is returned. fstab_line: the new line as shown to the
// user, refused when it differs now. A tuning value the backend has no knob for is refused
// with its reason.
struct EnableRequest {
    std::string device;                            // the partition (or disk) to cache
    std::string backend;                           // a BackendReport name
    std::uint64_t size = 0;                        // "size": the cache's bytes
    Compression compression = Compression::None;   // default none
    CacheMode mode = CacheMode::WriteThrough;      // default write-through
    std::optional<std::string> cacheDevice;        // "cache_device": SSD-for-HDD
    bool applyNow = false;                         // "apply_now"
    bool powerSafe = false;                        // "power_safe": PowerPolicy
    bool atNextBoot = false;                       // "at_next_boot"
    bool preview = false;                          // "preview"
    std::string fstabLine;                         // "fstab_line"
    std::optional<std::uint64_t> sequentialCutoff; // bytes, 0–kMaxSequentialCutoff
    std::optional<unsigned> writebackPercent;      // 0–100
};
Json toJson(const EnableRequest& request);
Expected<EnableRequest> enableRequestFromJson(const Json& args);

// The fstab change an at-next-boot cache makes (FstabChange; line counted from 1).
struct FstabPreview {
    std::string path;
    std::size_t line = 0;
    std::string before;
    std::string after;
    std::string diff;
};
FstabPreview fstabPreviewOf(const FstabChange& change);

// {record} when the cache was enabled (or scheduled), {fstab: {path, line, before, after,
// diff}} for a preview: exactly one of the two is set.
struct EnableReply {
    std::optional<CacheRecord> record;
    std::optional<FstabPreview> fstab;
};
Json toJson(const EnableReply& reply);
Expected<EnableReply> enableReplyFromJson(const Json& json);

// device: the cached partition, the device mounted instead, or the cache's name; only caches
// the helper journaled can be named.
// cache.disable {device} → {disabled: device}: flush, tear down, mount the origin back.
// cache.flush {device} → {flushed: device}.
struct DeviceRequest {
    std::string device;
};
using DisableRequest = DeviceRequest;
using FlushRequest = DeviceRequest;
Json toJson(const DeviceRequest& request);
Expected<DeviceRequest> deviceRequestFromJson(const Json& args);

struct DisableReply {
    std::string disabled;
};
Json toJson(const DisableReply& reply);
Expected<DisableReply> disableReplyFromJson(const Json& json);
struct FlushReply {
    std::string flushed;
};
Json toJson(const FlushReply& reply);
Expected<FlushReply> flushReplyFromJson(const Json& json);

// The answer of cache.mode, cache.resize, cache.policy and cache.boot: {record}, the cache's
// journal after the change.
struct RecordReply {
    CacheRecord record;
};
Json toJson(const RecordReply& reply);
Expected<RecordReply> recordReplyFromJson(const Json& json);

// cache.mode {device, mode} → RecordReply.
struct ModeRequest {
    std::string device;
    CacheMode mode = CacheMode::WriteThrough;
};
Json toJson(const ModeRequest& request);
Expected<ModeRequest> modeRequestFromJson(const Json& args);

// cache.resize {device, size} → RecordReply.
struct ResizeRequest {
    std::string device;
    std::uint64_t size = 0;
};
Json toJson(const ResizeRequest& request);
Expected<ResizeRequest> resizeRequestFromJson(const Json& args);

// cache.policy {device, power_safe} → RecordReply: "on battery or before suspend: flush and
// switch to write-through".
struct PolicyRequest {
    std::string device;
    bool powerSafe = false;
};
Json toJson(const PolicyRequest& request);
Expected<PolicyRequest> policyRequestFromJson(const Json& args);

// cache.boot {device, action: start|stop} → RecordReply: the boot unit
// (ssdkeeper-cache@.service) stacks an at-next-boot cache / flushes and tears it down after
// the unmount.
enum class BootAction { Start, Stop };
std::string_view toString(BootAction action);
struct BootRequest {
    std::string device;
    BootAction action = BootAction::Start;
};
Json toJson(const BootRequest& request);
Expected<BootRequest> bootRequestFromJson(const Json& args);

// cache.power {event: auto|battery|ac|suspend|resume|shutdown} → PowerReply; auto (no event
// here): battery or ac from /sys/class/power_supply.
struct PowerRequest {
    std::optional<PowerEvent> event; // nullopt: "auto"
};
Json toJson(const PowerRequest& request);
Expected<PowerRequest> powerRequestFromJson(const Json& args);

// {event, on_battery, power, caches: [{name, origin, action, error}]}
struct PowerReply {
    PowerEvent event = PowerEvent::Ac;
    bool onBattery = false;
    std::string power; // how the power source was seen
    std::vector<PowerOutcome> caches;
};
Json toJson(const PowerReply& reply);
Expected<PowerReply> powerReplyFromJson(const Json& json);

} // namespace ssdk::cachectl
