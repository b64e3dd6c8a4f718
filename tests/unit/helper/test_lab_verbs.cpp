// lab.create / lab.destroy refuse bad arguments before touching anything: no command runs
// and the state directory stays empty. (Creating real drives is an integration test.)
#include <catch2/catch.hpp>
#include <unistd.h>

#include "core/base/replay_process_runner.h"
#include "helper/lab_verbs.h"
#include "tests/support/allow_all.h"

using namespace ssdk;
using namespace ssdk::helper;
namespace fs = std::filesystem;

namespace {

class EmptyStateDir {
public:
    EmptyStateDir() {
        m_dir = fs::temp_directory_path() / ("ssdk-labverbs-" + std::to_string(::getpid()));
        fs::create_directories(m_dir);
    }
    ~EmptyStateDir() {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    const fs::path& path() const { return m_dir; }
    bool empty() const { return fs::is_empty(m_dir); }

private:
    fs::path m_dir;
};

struct Case {
    Json args;
    ErrorCode code;
    std::string mentions;
};

void checkRefused(const std::string& verb, const std::vector<Case>& cases) {
    const EmptyStateDir state;
    test::AllowAll authorizer;
    ReplayProcessRunner runner;
    HelperService service(authorizer);
    addLabVerbs(service, LabContext{state.path(), std::nullopt}, runner);
    std::uint64_t id = 1;
    for (const auto& [args, code, mentions] : cases) {
        INFO(verb << " " << args.dump());
        const std::string line = rpc::encode(rpc::Request{id, verb, args});
        auto response = parseJson(service.handleLine(line), "response");
        REQUIRE(response);
        CHECK((*response)["id"] == id);
        CHECK((*response)["ok"] == false);
        CHECK((*response)["error"]["code"] == toString(code));
        CHECK_THAT(errorFromJson((*response)["error"]).describe(), Catch::Contains(mentions));
        CHECK(state.empty());
        ++id;
    }
    CHECK(runner.requests().empty());
}

} // namespace

TEST_CASE("lab.create refuses bad arguments and creates nothing", "[helper][lab]") {
    const Json good{{"name", "lab"}, {"size", 64 << 20}};
    const auto with = [&](const std::string& key, const Json& value) {
        Json args = good;
        args[key] = value;
        return args;
    };
    Json noName = good;
    noName.erase("name");
    Json noSize = good;
    noSize.erase("size");
    const auto invalid = ErrorCode::InvalidArgument;
    checkRefused("lab.create",
                 {
                     {with("command", "rm -rf /"), invalid, "unknown argument 'command'"},
                     {noName, invalid, "'name' is missing"},
                     {noSize, invalid, "'size' is missing"},
                     {with("name", "../../etc/x"), invalid, "not a lab drive name"},
                     {with("name", "-lab"), invalid, "not a lab drive name"},
                     {with("name", std::string(33, 'a')), invalid, "longer than 32"},
                     {with("name", 7), invalid, "'name' must be a string"},
                     {with("size", "64M"), invalid, "'size' must be a non-negative integer"},
                     {with("size", -1), invalid, "'size' must be a non-negative integer"},
                     {with("size", 1.5), invalid, "'size' must be a non-negative integer"},
                     {with("size", std::uint64_t{1} << 60), invalid, "between 16.0 MiB"},
                     {with("size", UINT64_MAX), invalid, "between 16.0 MiB"},
                     {with("size", 1 << 20), invalid, "between 16.0 MiB"},
                     {with("size", (64 << 20) + 1), invalid, "whole number of 512-byte sectors"},
                     {with("sector_size", 1000), invalid, "512 or 4096"},
                     {with("sector_size", "4096"), invalid, "non-negative integer"},
                     {with("layout", "ntfs"), invalid, "\"empty\" or \"gpt-ext4\""},
                     {Json{{"name", "lab"}, {"size", 64 << 20}, {"layout", Json::array()}}, invalid,
                      "'layout' must be a string"},
                 });
}

TEST_CASE("lab.destroy refuses what is not one of the caller's lab drives", "[helper][lab]") {
    const auto invalid = ErrorCode::InvalidArgument;
    std::vector<Case> cases{
        {Json::object(), invalid, "'name_or_device' is missing"},
        {Json{{"name_or_device", "lab"}, {"force", true}}, invalid, "unknown argument 'force'"},
        {Json{{"name_or_device", 3}}, invalid, "must be a string"},
        {Json{{"name_or_device", "../lab"}}, invalid, "not a lab drive name"},
        {Json{{"name_or_device", "/etc/passwd"}}, invalid, "not a device path under /dev"},
        {Json{{"name_or_device", "/dev/../etc/passwd"}}, invalid, "/etc/passwd"},
        {Json{{"name_or_device", "/dev/zero"}}, invalid, "not a block device"},
        {Json{{"name_or_device", "/dev/sdzz9"}}, ErrorCode::NotFound, "/dev/sdzz9"},
        {Json{{"name_or_device", "ghost"}}, ErrorCode::NotFound, "not one of the lab drives"},
    };
    for (const char* disk : {"/dev/vda", "/dev/sda", "/dev/nvme0n1"}) {
        if (fs::exists(disk)) {
            // The system disk, or at least not a lab drive: refused either way.
            cases.push_back({Json{{"name_or_device", disk}}, ErrorCode::PermissionDenied, disk});
            break;
        }
    }
    checkRefused("lab.destroy", cases);
}
