#include "core/firmware/verbs.h"

#include <algorithm>
#include <fmt/format.h>

#include "core/base/json_args.h"

namespace ssdk::firmware {

namespace {

constexpr std::size_t kMaxActionBytes = 32;

// device, slot, action and confirm_system_disk, common to plan and update; imageKey is the
// one more key each allows.
struct CommonArgs {
    std::string device;
    unsigned slot = kMinSlot;
    CommitAction action = CommitAction::ReplaceActivate;
    bool confirmSystemDisk = false;
};

Expected<CommonArgs> commonArgs(const Json& args, std::string_view imageKey) {
    if (auto keys =
            requireOnlyKeys(args, {"device", imageKey, "slot", "action", "confirm_system_disk"});
        !keys) {
        return std::unexpected(keys.error());
    }
    auto device = stringArg(args, "device", kMaxPathBytes);
    if (!device) {
        return std::unexpected(device.error());
    }
    auto slot = unsignedArg(args, "slot");
    if (!slot) {
        return std::unexpected(slot.error());
    }
    if (*slot < kMinSlot || *slot > kMaxSlot) {
        return fail(ErrorCode::InvalidArgument,
                    fmt::format("argument 'slot' must be {}-{}", kMinSlot, kMaxSlot));
    }
    auto actionText = stringArg(args, "action", kMaxActionBytes);
    if (!actionText) {
        return std::unexpected(actionText.error());
    }
    auto action = commitActionArg(*actionText);
    if (!action) {
        return std::unexpected(action.error());
    }
    auto confirm = boolArg(args, "confirm_system_disk", false);
    if (!confirm) {
        return std::unexpected(confirm.error());
    }
    return CommonArgs{*device, static_cast<unsigned>(*slot), *action, *confirm};
}

// An image (or its size) exactly when the action replaces the image.
Expected<void> checkImageFor(CommitAction action, bool hasImage) {
    if (replacesImage(action) && !hasImage) {
        return fail(ErrorCode::InvalidArgument,
                    "action " + std::string(toString(action)) + " needs an image");
    }
    if (!replacesImage(action) && hasImage) {
        return fail(ErrorCode::InvalidArgument,
                    "action activate uses the image already in the slot; give no image");
    }
    return {};
}

Json commonJson(const std::string& device, unsigned slot, CommitAction action, bool confirm) {
    return Json{{"device", device},
                {"slot", slot},
                {"action", std::string(toString(action))},
                {"confirm_system_disk", confirm}};
}

// What a member that is not there, or not of its type, reads as.
const Json& emptyObject() {
    static const Json empty = Json::object();
    return empty;
}

// A non-negative integer up to max: JSON from the wire holds it unsigned, JSON built in a
// program may hold it signed.
std::optional<std::uint64_t> countOf(const Json& value, std::uint64_t max) {
    if (!value.is_number_integer() ||
        (!value.is_number_unsigned() && value.get<std::int64_t>() < 0)) {
        return std::nullopt;
    }
    const auto count = value.get<std::uint64_t>();
    return count <= max ? std::optional<std::uint64_t>(count) : std::nullopt;
}

constexpr std::uint64_t kMaxByte = std::numeric_limits<std::uint8_t>::max();
constexpr std::uint64_t kMaxWord = std::numeric_limits<std::uint32_t>::max();

UpdatePlan readPlan(const ResultReader& reader) {
    UpdatePlan plan;
    plan.request.slot = static_cast<std::uint8_t>(reader.number("slot", kMaxByte));
    const std::string action = reader.string("action");
    if (auto known = commitActionFromString(action)) {
        plan.request.action = *known;
    } else {
        reader.refuse("action", "is not a commit action");
    }
    plan.request.imageSize = reader.number("image_size");
    plan.chunkBytes = static_cast<std::uint32_t>(reader.number("chunk_bytes", kMaxWord));
    plan.downloads = static_cast<std::uint32_t>(reader.number("downloads", kMaxWord));
    for (const auto& check : reader.objects("checks")) {
        plan.checks.push_back(
            {check.string("name"), check.boolean("passed"), check.string("detail")});
    }
    reader.derived("allowed", plan.allowed(), "its checks");
    reader.derived("refusal", plan.refusal(), "its checks");
    plan.resetAccount = reader.string("reset_account");
    plan.reminders = reader.strings("reminders");
    return plan;
}

UpdateResult readResult(const ResultReader& reader) {
    UpdateResult result;
    // The outcome's names are toJson(UpdateResult)'s own: each outcome is tried against them.
    const std::string outcome = reader.string("outcome");
    bool known = false;
    for (auto candidate : {CommitOutcome::Done, CommitOutcome::NeedsConventionalReset,
                           CommitOutcome::NeedsSubsystemReset, CommitOutcome::NeedsControllerReset,
                           CommitOutcome::Failed}) {
        UpdateResult named;
        named.outcome = candidate;
        if (toJson(named)["outcome"] == outcome) {
            result.outcome = candidate;
            known = true;
        }
    }
    if (!known) {
        reader.refuse("outcome", "is not a commit outcome");
    }
    result.resetNeeded = reader.boolean("reset_needed");
    result.account = reader.string("account");
    result.downloads = static_cast<std::uint32_t>(reader.number("downloads", kMaxWord));
    if (auto slots = reader.nullableObject("slots_after")) {
        result.slotsAfter = readSlotLog(*slots, nullptr);
    }
    return result;
}

} // namespace

Json toJson(const InfoRequest& request) {
    return Json{{"device", request.device}};
}

Expected<InfoRequest> infoRequestFromJson(const Json& args) {
    if (auto keys = requireOnlyKeys(args, {"device"}); !keys) {
        return std::unexpected(keys.error());
    }
    auto device = stringArg(args, "device", kMaxPathBytes);
    if (!device) {
        return std::unexpected(device.error());
    }
    return InfoRequest{*device};
}

Expected<CommitAction> commitActionArg(std::string_view text) {
    auto action = commitActionFromString(text);
    if (!action) {
        return fail(ErrorCode::InvalidArgument, "argument 'action' must be replace, "
                                                "replace-activate, activate or activate-now");
    }
    return *action;
}

Json toJson(const PlanVerbRequest& request) {
    Json json = commonJson(request.device, request.slot, request.action, request.confirmSystemDisk);
    if (request.imageSize) {
        json["image_size"] = *request.imageSize;
    }
    return json;
}

Expected<PlanVerbRequest> planVerbRequestFromJson(const Json& args) {
    auto common = commonArgs(args, "image_size");
    if (!common) {
        return std::unexpected(common.error());
    }
    PlanVerbRequest request{common->device, common->slot, common->action, std::nullopt,
                            common->confirmSystemDisk};
    if (args.contains("image_size")) {
        auto size = unsignedArg(args, "image_size");
        if (!size) {
            return std::unexpected(size.error());
        }
        request.imageSize = *size;
    }
    if (auto checked = checkImageFor(request.action, request.imageSize.has_value()); !checked) {
        return std::unexpected(checked.error());
    }
    return request;
}

Json toJson(const UpdateVerbRequest& request) {
    Json json = commonJson(request.device, request.slot, request.action, request.confirmSystemDisk);
    if (!request.image.empty()) {
        json["image"] = request.image;
    }
    return json;
}

Expected<UpdateVerbRequest> updateVerbRequestFromJson(const Json& args) {
    auto common = commonArgs(args, "image");
    if (!common) {
        return std::unexpected(common.error());
    }
    auto image = stringArg(args, "image", kMaxPathBytes, "");
    if (!image) {
        return std::unexpected(image.error());
    }
    if (auto checked = checkImageFor(common->action, !image->empty()); !checked) {
        return std::unexpected(checked.error());
    }
    if (!image->empty() && !image->starts_with('/')) {
        return fail(ErrorCode::InvalidArgument, "argument 'image' must be an absolute path");
    }
    return UpdateVerbRequest{common->device, common->slot, common->action, *image,
                             common->confirmSystemDisk};
}

ResultReader::ResultReader(const Json& json, std::string what)
    : ResultReader(json.is_object() ? json : emptyObject(), std::move(what), "",
                   std::make_shared<std::optional<std::string>>()) {
    if (!json.is_object()) {
        *m_problem = "must be a JSON object";
    }
}

ResultReader::ResultReader(const Json& json, std::string what, std::string path,
                           std::shared_ptr<std::optional<std::string>> problem)
    : m_json(json)
    , m_what(std::move(what))
    , m_path(std::move(path))
    , m_problem(std::move(problem)) {}

std::string ResultReader::pathOf(std::string_view key) const {
    return m_path + std::string(key);
}

void ResultReader::problem(std::string_view key, const std::string& text) const {
    if (!*m_problem) {
        *m_problem = "'" + pathOf(key) + "' " + text;
    }
}

void ResultReader::refuse(std::string_view key, const std::string& reason) const {
    problem(key, reason);
}

const Json* ResultReader::member(std::string_view key) const {
    const auto found = m_json.find(key);
    if (found == m_json.end()) {
        problem(key, "is missing");
        return nullptr;
    }
    return &*found;
}

bool ResultReader::boolean(std::string_view key) const {
    const Json* value = member(key);
    if (value != nullptr && !value->is_boolean()) {
        problem(key, "must be true or false");
    }
    return value != nullptr && value->is_boolean() && value->get<bool>();
}

std::string ResultReader::string(std::string_view key) const {
    const Json* value = member(key);
    if (value == nullptr || !value->is_string()) {
        if (value != nullptr) {
            problem(key, "must be a string");
        }
        return {};
    }
    return value->get<std::string>();
}

std::uint64_t ResultReader::number(std::string_view key, std::uint64_t max) const {
    const Json* value = member(key);
    if (value == nullptr) {
        return 0;
    }
    const auto count = countOf(*value, max);
    if (!count) {
        problem(key, fmt::format("must be an integer from 0 to {}", max));
    }
    return count.value_or(0);
}

std::optional<std::uint64_t> ResultReader::nullableNumber(std::string_view key,
                                                          std::uint64_t max) const {
    const Json* value = member(key);
    if (value == nullptr || value->is_null()) {
        return std::nullopt;
    }
    const auto count = countOf(*value, max);
    if (!count) {
        problem(key, fmt::format("must be null or an integer from 0 to {}", max));
    }
    return count;
}

std::vector<std::string> ResultReader::strings(std::string_view key) const {
    std::vector<std::string> out;
    const Json* value = member(key);
    if (value == nullptr) {
        return out;
    }
    const bool allStrings =
        value->is_array() && std::all_of(value->begin(), value->end(),
                                         [](const Json& item) { return item.is_string(); });
    if (!allStrings) {
        problem(key, "must be an array of strings");
        return out;
    }
    for (const auto& item : *value) {
        out.push_back(item.get<std::string>());
    }
    return out;
}

ResultReader ResultReader::object(std::string_view key) const {
    const Json* value = member(key);
    if (value != nullptr && !value->is_object()) {
        problem(key, "must be an object");
    }
    const bool usable = value != nullptr && value->is_object();
    return ResultReader(usable ? *value : emptyObject(), m_what, pathOf(key) + ".", m_problem);
}

std::optional<ResultReader> ResultReader::nullableObject(std::string_view key) const {
    const Json* value = member(key);
    if (value == nullptr || value->is_null()) {
        return std::nullopt;
    }
    if (!value->is_object()) {
        problem(key, "must be null or an object");
        return std::nullopt;
    }
    return ResultReader(*value, m_what, pathOf(key) + ".", m_problem);
}

std::vector<ResultReader> ResultReader::objects(std::string_view key) const {
    std::vector<ResultReader> out;
    const Json* value = member(key);
    if (value == nullptr) {
        return out;
    }
    const bool allObjects =
        value->is_array() && std::all_of(value->begin(), value->end(),
                                         [](const Json& item) { return item.is_object(); });
    if (!allObjects) {
        problem(key, "must be an array of objects");
        return out;
    }
    for (std::size_t i = 0; i < value->size(); ++i) {
        out.push_back(
            ResultReader((*value)[i], m_what, fmt::format("{}[{}].", pathOf(key), i), m_problem));
    }
    return out;
}

void ResultReader::derived(std::string_view key, const Json& expected,
                           std::string_view from) const {
    const Json* value = member(key);
    if (value != nullptr && *value != expected) {
        problem(key, fmt::format("is {} but should be {} (from {})", dumpJsonLine(*value),
                                 dumpJsonLine(expected), from));
    }
}

std::vector<SlotState> slotStates(const NvmeSlotLog& log, const NvmeFirmwareCaps* caps) {
    const std::size_t count = caps != nullptr && caps->slotCount > 0
                                  ? std::min<std::size_t>(caps->slotCount, log.revisions.size())
                                  : log.revisions.size();
    std::vector<SlotState> states;
    for (std::size_t i = 0; i < count; ++i) {
        const auto number = static_cast<unsigned>(i + 1);
        states.push_back({number, log.revisions[i], number == log.activeSlot,
                          log.nextResetSlot && *log.nextResetSlot == number,
                          number == 1 && caps != nullptr && caps->slot1ReadOnly});
    }
    return states;
}

NvmeSlotLog readSlotLog(const ResultReader& reader, const NvmeFirmwareCaps* caps) {
    NvmeSlotLog log;
    log.activeSlot = static_cast<std::uint8_t>(reader.number("active_slot", kMaxByte));
    if (auto next = reader.nullableNumber("next_reset_slot", kMaxByte)) {
        log.nextResetSlot = static_cast<std::uint8_t>(*next);
    }
    const auto slots = reader.objects("slots");
    for (const auto& slot : slots) {
        log.revisions.push_back(slot.string("revision"));
    }
    const auto states = slotStates(log, caps);
    if (states.size() < slots.size()) {
        reader.refuse("slots", fmt::format("lists {} slots, but the controller has {}",
                                           slots.size(), states.size()));
    }
    for (std::size_t i = 0; i < states.size(); ++i) {
        const ResultReader& slot = slots[i];
        slot.derived("slot", states[i].slot, "their places in the list");
        slot.derived("active", states[i].active, "'active_slot'");
        slot.derived("next_reset", states[i].nextReset, "'next_reset_slot'");
        slot.derived("read_only", states[i].readOnly, "the controller's 'slot1_read_only'");
    }
    return log;
}

Finding readFinding(const ResultReader& reader) {
    return Finding{reader.string("origin"), reader.string("problem"),
                   reader.string("fixed_revision"), reader.string("source")};
}

FwupdRelease readRelease(const ResultReader& reader) {
    FwupdRelease release;
    release.version = reader.string("version");
    release.summary = reader.string("summary");
    release.remoteId = reader.string("remote");
    release.uri = reader.string("uri");
    release.sizeBytes = reader.number("size_bytes");
    release.isUpgrade = reader.boolean("is_upgrade");
    return release;
}

Expected<UpdatePlan> updatePlanFromJson(const Json& json) {
    const ResultReader reader(json, "the firmware.plan result");
    return reader.finish(readPlan(reader));
}

Expected<UpdateResult> updateResultFromJson(const Json& json) {
    const ResultReader reader(json, "the firmware update's outcome");
    return reader.finish(readResult(reader));
}

Json toJson(const UpdateReply& reply) {
    return Json{{"plan", toJson(reply.plan)}, {"result", toJson(reply.result)}};
}

Expected<UpdateReply> updateReplyFromJson(const Json& json) {
    const ResultReader reader(json, "the firmware.update result");
    UpdateReply reply{readPlan(reader.object("plan")), readResult(reader.object("result"))};
    return reader.finish(std::move(reply));
}

PlanVerbRequest planOf(const UpdateVerbRequest& request, std::uint64_t imageSize) {
    return PlanVerbRequest{request.device, request.slot, request.action,
                           replacesImage(request.action) ? std::optional<std::uint64_t>(imageSize)
                                                         : std::nullopt,
                           request.confirmSystemDisk};
}

} // namespace ssdk::firmware
