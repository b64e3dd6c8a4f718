// The helper's maintenance verbs check their arguments before touching anything.
#include <catch2/catch.hpp>

#include "core/base/replay_process_runner.h"
#include "core/maintenance/maintenance_client.h"
#include "core/maintenance/verbs.h"
#include "helper/helper_service.h"
#include "helper/in_process_transport.h"
#include "helper/maintenance_verbs.h"

using namespace ssdk;
using namespace ssdk::helper;

namespace {

class AllowAll : public Authorizer {
public:
    Expected<void> authorize(const std::string&) override { return {}; }
};

Json call(HelperService& service, const std::string& verb, const Json& args) {
    auto response = parseJson(
        service.handleLine(Json{{"id", 1}, {"verb", verb}, {"args", args}}.dump()), "response");
    REQUIRE(response);
    return *response;
}

std::string errorCode(const Json& response) {
    REQUIRE(response["ok"] == false);
    return response["error"]["code"].get<std::string>();
}

} // namespace

TEST_CASE("maintenance verbs refuse malformed arguments") {
    AllowAll authorizer;
    ReplayProcessRunner runner;
    HelperService service(authorizer);
    addMaintenanceVerbs(service, runner, {});
    CHECK(service.find(maintenance::kVerbTrimVerify)->grade == Grade::Change);
    CHECK(service.find(maintenance::kVerbFormatRun)->grade == Grade::Destroy);
    CHECK(service.find(maintenance::kVerbEraseRun)->grade == Grade::Destroy);
    CHECK(service.find(maintenance::kVerbTrimAudit)->grade == Grade::Read);

    CHECK(errorCode(call(service, maintenance::kVerbTrimAudit, {{"target", "relative/path"}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, maintenance::kVerbTrimAudit, {{"target", "/"}, {"extra", 1}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, maintenance::kVerbTrimVerify, {{"mount_point", "mnt"}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, maintenance::kVerbTrimVerify,
                         {{"mount_point", "/mnt"}, {"mode", "later"}})) == "invalid-argument");
    CHECK(errorCode(call(service, maintenance::kVerbTrimVerify,
                         {{"mount_point", "/mnt"}, {"blocks", 1}})) == "invalid-argument");
    CHECK(errorCode(call(service, maintenance::kVerbTrimFstrim, Json::object())) ==
          "invalid-argument");
    CHECK(errorCode(call(service, maintenance::kVerbTrimTimer, {{"enabled", "yes"}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, maintenance::kVerbFormatRun,
                         {{"device", "/dev/null"}, {"fs", "zfs"}})) == "invalid-argument");
    CHECK(errorCode(call(service, maintenance::kVerbFormatRun,
                         {{"device", "/tmp/x.img"}, {"fs", "ext4"}})) == "invalid-argument");
    CHECK(errorCode(call(service, maintenance::kVerbEraseRun,
                         {{"device", "/etc/passwd"}, {"method", "zeroout"}, {"confirm", "x"}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, maintenance::kVerbEraseRun,
                         {{"device", "/dev/null"}, {"method", "zeroout"}})) == "invalid-argument");
    CHECK(errorCode(call(service, maintenance::kVerbEraseProbe, {{"device", "/dev/null"}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, maintenance::kVerbEraseUnfreeze, {{"device", "/dev/null"}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, maintenance::kVerbEraseUnfreeze,
                         {{"device", "/dev/sda"}, {"sleep", 60}})) == "invalid-argument");
}

TEST_CASE("trim.audit refuses a path that is not a mount point without telling whether it exists") {
    AllowAll authorizer;
    ReplayProcessRunner runner;
    HelperService service(authorizer);
    addMaintenanceVerbs(service, runner, {});
    // /etc exists and /etc/ssdk-no-such-dir does not; as root, resolving either would tell.
    const auto existing = call(service, maintenance::kVerbTrimAudit, {{"target", "/etc"}});
    const auto missing =
        call(service, maintenance::kVerbTrimAudit, {{"target", "/etc/ssdk-no-such-dir"}});
    REQUIRE(errorCode(existing) == "invalid-argument");
    REQUIRE(errorCode(missing) == "invalid-argument");
    std::string existingText = existing["error"]["message"];
    std::string missingText = missing["error"]["message"];
    CHECK_THAT(existingText, Catch::Contains("is not a mount point"));
    // The same answer, but for the path itself.
    existingText.replace(existingText.find("/etc"), 4, "PATH");
    missingText.replace(missingText.find("/etc/ssdk-no-such-dir"), 21, "PATH");
    CHECK(existingText == missingText);
    // The root filesystem is a mount point: it is audited (the answer depends on the machine).
    const auto root = call(service, maintenance::kVerbTrimAudit, {{"target", "/"}});
    if (root["ok"] == false) {
        CHECK_THAT(root["error"]["message"].get<std::string>(),
                   !Catch::Contains("is not a mount point"));
    }
}

namespace {

namespace trim = maintenance::trim;

trim::TrimAudit sampleAudit() {
    trim::TrimAudit audit;
    audit.target = "/mnt/data";
    audit.layers = {{std::string(maintenance::kAuditFilesystemLayer), "ext4 at /mnt/data",
                     trim::LayerStatus::Info, "mounted with discard"},
                    {"partition", "sdb1", trim::LayerStatus::Passes, ""},
                    {"drive", "sdb", trim::LayerStatus::Warning, "queued TRIM is blacklisted"}};
    audit.reachesDrive = true;
    audit.filesystemDiscards = true;
    audit.readAfterTrim = trim::ReadAfterTrim::Zeros;
    audit.verdict = "Discards reach the drive.";
    return audit;
}

// What the helper writes, read back typed and written again, is the same JSON.
template <typename Value, typename Parse> void roundTrips(const Value& value, Parse parse) {
    const Json json = toJson(value);
    auto read = parse(json);
    REQUIRE(read);
    CHECK(toJson(*read) == json);
}

} // namespace

TEST_CASE("maintenance results read back exactly what the helper wrote") {
    roundTrips(sampleAudit(), maintenance::trimAuditFromJson);

    trim::VerifyResult verify;
    verify.outcome = trim::VerifyOutcome::NotReached;
    verify.reason = "the markers are still there";
    verify.audit = sampleAudit();
    verify.device = "/dev/sdb1";
    verify.returned = "old data";
    verify.before = {256, 0, 0, 0};
    verify.after = {200, 40, 0, 16};
    verify.trimmed = Bytes::mib(12);
    verify.backingHoles = 7;
    roundTrips(verify, maintenance::verifyResultFromJson);
    verify.trimmed.reset();
    verify.trimError = "FITRIM: Operation not supported";
    verify.backingHoles.reset();
    roundTrips(verify, maintenance::verifyResultFromJson);

    roundTrips(maintenance::FstrimReply{"/mnt/data", Bytes::gib(8), Bytes::gib(3)},
               maintenance::fstrimReplyFromJson);

    trim::TimerFacts timer;
    timer.available = true;
    timer.enabled = true;
    timer.lastTriggerEpochSeconds = 1764000000;
    roundTrips(timer, maintenance::timerFactsFromJson);
    roundTrips(trim::TimerFacts{false, "systemd is not running", false, false, std::nullopt},
               maintenance::timerFactsFromJson);

    trim::FormatResult format;
    format.device = "/dev/loop7p1";
    format.fsType = "xfs";
    format.formatterCommand = "mkfs.xfs -f -K";
    format.formatterNote = "-K: no discard";
    format.sampleSource = "old-filesystem-extents";
    format.oldFsType = "ext4";
    format.sampled = 64;
    format.counts = {0, 50, 4, 10};
    format.freeMapSource = "xfs_db freesp";
    format.outcome = trim::VerifyOutcome::NotReached;
    format.offerBlkdiscard = true;
    format.groundTruthHoles = 1;
    format.groundTruthAgreements = 53;
    format.groundTruthDisagrees = true;
    format.groundTruthWarning = "BUG: the lab drive's image contradicts this verdict";
    roundTrips(format, maintenance::formatResultFromJson);
    format.freeMapError = "xfs_db failed";
    roundTrips(format, maintenance::formatResultFromJson);
    roundTrips(trim::FormatResult{}, maintenance::formatResultFromJson);

    maintenance::EraseProbeReply probe;
    probe.device = "/dev/sdb";
    probe.model = "Test SSD";
    probe.size = 256'000'000'000;
    probe.identity = "Test SSD (serial S1, 256 GB)";
    probe.confirmation = "Test SSD";
    probe.methods = {
        {maintenance::erase::Method::AtaSecurityEraseEnhanced, "enhanced", false, "frozen", 4},
        {maintenance::erase::Method::BlkDiscard, "discard", true, "", std::nullopt}};
    probe.automatic = maintenance::erase::Method::BlkDiscard;
    probe.interrupted = "an erase of S1 was interrupted";
    probe.ataSecurity = maintenance::AtaSecurityReport{true, true, false, false};
    roundTrips(probe, maintenance::eraseProbeReplyFromJson);
    probe.automatic.reset();
    probe.refused = "/dev/sdb holds the running system";
    probe.ataSecurity.reset();
    roundTrips(probe, maintenance::eraseProbeReplyFromJson);

    roundTrips(maintenance::UnfreezeReply{"/dev/sdb", true, false},
               maintenance::unfreezeReplyFromJson);

    maintenance::EraseReply erased;
    erased.certificate.method = "discard";
    erased.certificate.devicePath = "/dev/sdb";
    erased.certificate.sizeBytes = 1 << 20;
    erased.certificate.seconds = 1.5;
    erased.certificate.verification = {64, 64, 0, 0, 0, true, "64 of 64 blocks read as zeros"};
    erased.text = "SSD Keeper erase certificate\n";
    erased.replacedInterrupted = "an erase of S1 was interrupted";
    roundTrips(erased, maintenance::eraseReplyFromJson);
    // The certificate file is the answer without its text.
    Json file = toJson(erased);
    file.erase("text");
    CHECK(maintenance::certificateFileJson(erased) == file);
}

TEST_CASE("a maintenance result that lacks what it needs is a parse error") {
    CHECK(maintenance::trimAuditFromJson(Json::array()).error().code() == ErrorCode::Parse);
    CHECK(maintenance::trimAuditFromJson(Json{{"read_after_trim", "sometimes"}}).error().code() ==
          ErrorCode::Parse);
    CHECK(maintenance::verifyResultFromJson(Json{{"result", "maybe"}}).error().code() ==
          ErrorCode::Parse);
    CHECK(maintenance::fstrimReplyFromJson(Json{{"trimmed", 1}}).error().code() ==
          ErrorCode::Parse);
    CHECK(maintenance::eraseProbeReplyFromJson(
              Json{{"device", "/dev/sdb"}, {"methods", Json::array({Json{{"method", "burn"}}})}})
              .error()
              .code() == ErrorCode::Parse);
    CHECK(maintenance::eraseReplyFromJson(Json{{"method", 3}}).error().code() == ErrorCode::Parse);
    CHECK(maintenance::unfreezeReplyFromJson(Json{{"device", "/dev/sdb"}, {"frozen", "no"}})
              .error()
              .code() == ErrorCode::Parse);
}

TEST_CASE("maintenance requests survive their JSON and refuse what the helper refuses") {
    const maintenance::VerifyRequest verify{"/mnt", trim::TrimMode::OnlineDiscard, 64};
    auto readVerify = maintenance::verifyRequestFromJson(toJson(verify));
    REQUIRE(readVerify);
    CHECK(readVerify->mountPoint == "/mnt");
    CHECK(readVerify->mode == trim::TrimMode::OnlineDiscard);
    CHECK(readVerify->blocks == 64);
    // Without mode and blocks: FITRIM with 256 marker blocks.
    auto defaults = maintenance::verifyRequestFromJson(Json{{"mount_point", "/mnt"}});
    REQUIRE(defaults);
    CHECK(defaults->mode == trim::TrimMode::Fstrim);
    CHECK(defaults->blocks == maintenance::kDefaultMarkerBlocks);
    CHECK_FALSE(
        maintenance::verifyRequestFromJson(Json{{"mount_point", "/mnt"}, {"blocks", 16385}}));
    CHECK_FALSE(maintenance::verifyRequestFromJson(Json{{"mount_point", "/mnt"}, {"blocks", -1}}));

    const maintenance::FormatRequest format{"/dev/sdb1", "exfat", false, true};
    auto readFormat = maintenance::formatRequestFromJson(toJson(format));
    REQUIRE(readFormat);
    CHECK(toJson(*readFormat) == toJson(format));
    auto formatDefaults =
        maintenance::formatRequestFromJson(Json{{"device", "/dev/sdb1"}, {"fs", "ext4"}});
    REQUIRE(formatDefaults);
    CHECK(formatDefaults->verify);
    CHECK_FALSE(formatDefaults->discardFirst);
    CHECK_FALSE(maintenance::formatRequestFromJson(
        Json{{"device", "/dev/sdb1"}, {"fs", "ext4"}, {"verify", 1}}));

    const maintenance::EraseRequest erase{"/dev/sdb", "zeroout", "Test SSD"};
    auto readErase = maintenance::eraseRequestFromJson(toJson(erase));
    REQUIRE(readErase);
    CHECK(toJson(*readErase) == toJson(erase));
    auto unknown = maintenance::eraseRequestFromJson(
        Json{{"device", "/dev/sdb"}, {"method", "shred"}, {"confirm", "x"}});
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().code() == ErrorCode::InvalidArgument);
    CHECK_FALSE(maintenance::eraseRequestFromJson(
        Json{{"device", "/dev/sdb"}, {"method", "auto"}, {"confirm", std::string(257, 'x')}}));

    CHECK(maintenance::timerRequestFromJson(toJson(maintenance::TimerRequest{true}))->enabled);
    CHECK_FALSE(maintenance::timerRequestFromJson(Json::object()));
    CHECK(maintenance::auditRequestFromJson(toJson(maintenance::AuditRequest{"/"}))->target == "/");
    CHECK_FALSE(maintenance::auditRequestFromJson(Json{{"target", std::string(4097, 'a')}}));
    CHECK(maintenance::fstrimRequestFromJson(toJson(maintenance::FstrimRequest{"/mnt"}))
              ->mountPoint == "/mnt");
    CHECK(
        maintenance::eraseDeviceRequestFromJson(toJson(maintenance::EraseDeviceRequest{"/dev/sdb"}))
            ->device == "/dev/sdb");
}

TEST_CASE("the maintenance client reaches the helper's verbs and reads their answers") {
    AllowAll authorizer;
    ReplayProcessRunner runner;
    HelperService service(authorizer);
    addMaintenanceVerbs(service, runner, {});
    for (const char* verb : maintenance::kMaintenanceVerbs) {
        CHECK(service.find(verb) != nullptr);
    }
    InProcessTransport transport(service);
    maintenance::MaintenanceClient client(transport);
    // A refusal comes back with its code: the request made the round trip.
    auto verify = client.verify({"relative", trim::TrimMode::Fstrim, 256});
    REQUIRE_FALSE(verify);
    CHECK(verify.error().code() == ErrorCode::InvalidArgument);
    auto erase = client.erase({"/etc/passwd", "zeroout", "x"});
    REQUIRE_FALSE(erase);
    CHECK(erase.error().code() == ErrorCode::InvalidArgument);
    // The root filesystem is a mount point: its audit is read back typed (what it says
    // depends on the machine).
    if (auto audit = client.audit({"/"})) {
        CHECK_FALSE(audit->layers.empty());
    }
}
