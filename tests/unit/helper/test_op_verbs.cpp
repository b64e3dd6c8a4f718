// op.* verbs refuse bad arguments before touching anything: no command runs and no journal is
// written. (Applying for real is tests/integration/overprovision.)
#include <catch2/catch.hpp>
#include <unistd.h>

#include "core/base/replay_process_runner.h"
#include "core/overprovision/verbs.h"
#include "helper/op_verbs.h"
#include "tests/support/allow_all.h"

using namespace ssdk;
using namespace ssdk::helper;
namespace fs = std::filesystem;

namespace {

struct OpCase {
    std::string verb;
    Json args;
    ErrorCode code;
    std::string mentions;
};

} // namespace

TEST_CASE("op verbs refuse bad arguments and change nothing", "[helper][op]") {
    const fs::path state =
        fs::temp_directory_path() / ("ssdk-opverbs-" + std::to_string(::getpid()));
    fs::remove_all(state);
    fs::create_directories(state);
    test::AllowAll authorizer;
    ReplayProcessRunner runner;
    HelperService service(authorizer);
    addOpVerbs(service, state / "op", runner);
    const Json good{{"device", "/dev/null"}, {"spare_percent", 20}, {"partition", "/dev/x1"}};
    const std::vector<OpCase> cases{
        {overprovision::kVerbOpApply, Json::object(), ErrorCode::InvalidArgument, "spare_percent"},
        {overprovision::kVerbOpApply,
         Json{{"device", "/dev/loop0"}, {"spare_percent", 20}, {"partition", "p"}, {"x", 1}},
         ErrorCode::InvalidArgument, "'x'"},
        {overprovision::kVerbOpApply,
         Json{{"device", "/dev/loop0"}, {"spare_percent", 51}, {"partition", "p"}},
         ErrorCode::InvalidArgument, "0–50"},
        {overprovision::kVerbOpApply,
         Json{{"device", "/dev/loop0"}, {"spare_percent", -5}, {"partition", "p"}},
         ErrorCode::InvalidArgument, "spare_percent"},
        {overprovision::kVerbOpApply,
         Json{{"device", "/dev/loop0"}, {"spare_percent", 20}, {"partition", ""}},
         ErrorCode::InvalidArgument, "confirmed"},
        {overprovision::kVerbOpApply,
         Json{{"device", "/etc/passwd"}, {"spare_percent", 20}, {"partition", "p"}},
         ErrorCode::InvalidArgument, "not a device path under /dev"},
        {overprovision::kVerbOpApply, good, ErrorCode::InvalidArgument, "not a block device"},
        {overprovision::kVerbOpUndo, Json{{"device", "/dev/null"}}, ErrorCode::InvalidArgument,
         "not a block device"},
        {overprovision::kVerbOpRecover, Json{{"device", "/dev/null"}, {"action", "explode"}},
         ErrorCode::InvalidArgument, "finish"},
        {overprovision::kVerbOpInspect, Json{{"device", "relative"}}, ErrorCode::InvalidArgument,
         "under /dev"},
    };
    std::uint64_t id = 1;
    for (const auto& [verb, args, code, mentions] : cases) {
        INFO(verb << " " << args.dump());
        auto response =
            parseJson(service.handleLine(rpc::encode(rpc::Request{id, verb, args})), "response");
        REQUIRE(response);
        CHECK((*response)["ok"] == false);
        CHECK((*response)["error"]["code"] == toString(code));
        CHECK_THAT(errorFromJson((*response)["error"]).describe(), Catch::Contains(mentions));
        ++id;
    }
    CHECK(runner.requests().empty());
    CHECK(fs::is_empty(state));
    fs::remove_all(state);
}
