// The helper's maintenance verbs check their arguments before touching anything.
#include <catch2/catch.hpp>

#include "core/base/replay_process_runner.h"
#include "helper/helper_service.h"
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
    CHECK(service.find("trim.verify")->grade == Grade::Change);
    CHECK(service.find("format.run")->grade == Grade::Destroy);
    CHECK(service.find("erase.run")->grade == Grade::Destroy);
    CHECK(service.find("trim.audit")->grade == Grade::Read);

    CHECK(errorCode(call(service, "trim.audit", {{"target", "relative/path"}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, "trim.audit", {{"target", "/"}, {"extra", 1}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, "trim.verify", {{"mount_point", "mnt"}})) == "invalid-argument");
    CHECK(errorCode(call(service, "trim.verify", {{"mount_point", "/mnt"}, {"mode", "later"}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, "trim.verify", {{"mount_point", "/mnt"}, {"blocks", 1}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, "trim.fstrim", Json::object())) == "invalid-argument");
    CHECK(errorCode(call(service, "trim.timer", {{"enabled", "yes"}})) == "invalid-argument");
    CHECK(errorCode(call(service, "format.run", {{"device", "/dev/null"}, {"fs", "zfs"}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, "format.run", {{"device", "/tmp/x.img"}, {"fs", "ext4"}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, "erase.run",
                         {{"device", "/etc/passwd"}, {"method", "zeroout"}, {"confirm", "x"}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, "erase.run", {{"device", "/dev/null"}, {"method", "zeroout"}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, "erase.probe", {{"device", "/dev/null"}})) == "invalid-argument");
    CHECK(errorCode(call(service, "erase.unfreeze", {{"device", "/dev/null"}})) ==
          "invalid-argument");
    CHECK(errorCode(call(service, "erase.unfreeze", {{"device", "/dev/sda"}, {"sleep", 60}})) ==
          "invalid-argument");
}

TEST_CASE("trim.audit refuses a path that is not a mount point without telling whether it exists") {
    AllowAll authorizer;
    ReplayProcessRunner runner;
    HelperService service(authorizer);
    addMaintenanceVerbs(service, runner, {});
    // /etc exists and /etc/ssdk-no-such-dir does not; as root, resolving either would tell.
    const auto existing = call(service, "trim.audit", {{"target", "/etc"}});
    const auto missing = call(service, "trim.audit", {{"target", "/etc/ssdk-no-such-dir"}});
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
    const auto root = call(service, "trim.audit", {{"target", "/"}});
    if (root["ok"] == false) {
        CHECK_THAT(root["error"]["message"].get<std::string>(),
                   !Catch::Contains("is not a mount point"));
    }
}
