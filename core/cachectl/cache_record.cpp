#include "core/cachectl/cache_record.h"

namespace ssdk::cachectl {

namespace {

std::optional<CachePhase> phaseFromString(std::string_view text) {
    for (const CachePhase phase :
         {CachePhase::Enabling, CachePhase::Active, CachePhase::Disabling, CachePhase::Scheduled}) {
        if (toString(phase) == text) {
            return phase;
        }
    }
    return std::nullopt;
}

} // namespace

std::string_view toString(CachePhase phase) {
    switch (phase) {
    case CachePhase::Enabling:
        return "enabling";
    case CachePhase::Active:
        return "active";
    case CachePhase::Disabling:
        return "disabling";
    case CachePhase::Scheduled:
        return "scheduled";
    }
    return "active";
}

Json toJson(const CacheRecord& record) {
    Json json{{"phase", toString(record.phase)},
              {"cache", toJson(record.active)},
              {"mount", nullptr},
              {"power", toJson(record.power)},
              {"boot", nullptr}};
    if (record.mount) {
        json["mount"] = Json{{"mount_point", record.mount->mountPoint},
                             {"fs_type", record.mount->fsType},
                             {"options", record.mount->options}};
    }
    if (record.boot) {
        json["boot"] = Json{{"device", record.boot->device},
                            {"unit", record.boot->unit},
                            {"fstab", record.boot->fstab},
                            {"line_before", record.boot->lineBefore},
                            {"line_after", record.boot->lineAfter}};
    }
    return json;
}

Json toJson(const PowerOutcome& outcome) {
    return Json{{"name", outcome.name},
                {"origin", outcome.origin},
                {"action", outcome.action},
                {"error", outcome.error}};
}

Expected<CacheRecord> cacheRecordFromJson(const Json& json) {
    if (!json.is_object() || !json.contains("cache")) {
        return fail(ErrorCode::Parse, "a cache journal needs 'cache'");
    }
    auto active = activeCacheFromJson(json["cache"]);
    if (!active) {
        return std::unexpected(active.error());
    }
    const std::string phase = json.value("phase", "active");
    const auto known = phaseFromString(phase);
    if (!known) {
        return fail(ErrorCode::Parse, "a cache journal's phase '" + phase + "' is unknown");
    }
    CacheRecord record{*known, *active, std::nullopt};
    if (json.contains("mount") && json["mount"].is_object()) {
        const auto& mount = json["mount"];
        record.mount = MountRecord{mount.value("mount_point", ""), mount.value("fs_type", ""),
                                   mount.value("options", "")};
    }
    if (json.contains("power")) {
        record.power = powerPolicyFromJson(json["power"]);
    }
    if (json.contains("boot") && json["boot"].is_object()) {
        const auto& boot = json["boot"];
        record.boot =
            BootRecord{boot.value("device", ""), boot.value("unit", ""), boot.value("fstab", ""),
                       boot.value("line_before", ""), boot.value("line_after", "")};
    }
    return record;
}

Json toJson(const BackendReport& report) {
    return Json{{"name", report.name},
                {"title", report.title},
                {"probe", toJson(report.probe)},
                {"capabilities", toJson(report.capabilities)}};
}

Json toJson(const CacheStatus& status) {
    Json json = toJson(status.record);
    json["stats"] = status.stats ? toJson(*status.stats) : Json(nullptr);
    json["stats_error"] = status.statsError;
    return json;
}

} // namespace ssdk::cachectl
