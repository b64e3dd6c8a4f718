// Lab drive logic that needs no root: names, paths, listing against a made-up sysfs tree,
// and create() refusing before it touches anything.
#include <catch2/catch.hpp>
#include <fstream>
#include <unistd.h>

#include "core/base/replay_process_runner.h"
#include "core/device/device.h"
#include "core/lab/lab.h"

using namespace ssdk;
using namespace ssdk::lab;
namespace fs = std::filesystem;

namespace {

class TempDir {
public:
    explicit TempDir(const std::string& tag) {
        m_dir =
            fs::temp_directory_path() / ("ssdk-lab-unit-" + tag + "-" + std::to_string(::getpid()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    const fs::path& path() const { return m_dir; }

private:
    fs::path m_dir;
};

void writeFile(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

} // namespace

TEST_CASE("lab names are short, plain and start with a letter or digit", "[lab]") {
    for (const std::string& good :
         std::vector<std::string>{"lab", "a", "Lab-2_x", "0", std::string(32, 'z')}) {
        INFO(good);
        CHECK(validateLabName(good));
    }
    for (const std::string& bad :
         std::vector<std::string>{"", "-lab", "_lab", "a b", "a/b", "..", "lab.img", "é",
                                  std::string(33, 'z'), std::string("a\0b", 3)}) {
        INFO(bad);
        const auto result = validateLabName(bad);
        REQUIRE_FALSE(result);
        CHECK(result.error().code() == ErrorCode::InvalidArgument);
    }
}

TEST_CASE("the state directory follows XDG_STATE_HOME, then HOME", "[lab]") {
    const std::string oldHome = std::getenv("HOME") ? std::getenv("HOME") : "";
    ::setenv("XDG_STATE_HOME", "/srv/state", 1);
    CHECK(userStateDirectory() == "/srv/state");
    ::setenv("XDG_STATE_HOME", "relative/ignored", 1);
    ::setenv("HOME", "/home/ada", 1);
    CHECK(userStateDirectory() == "/home/ada/.local/state");
    ::unsetenv("XDG_STATE_HOME");
    CHECK(userStateDirectory() == "/home/ada/.local/state");
    ::setenv("HOME", oldHome.c_str(), 1);
    CHECK(labDirectory("/home/ada/.local/state") == "/home/ada/.local/state/ssdkeeper/lab");
}

TEST_CASE("list() finds images and the loop devices backing them", "[lab]") {
    const TempDir state("list");
    const TempDir sysfs("sysfs");
    const fs::path labDir = labDirectory(state.path());
    fs::create_directories(labDir);
    for (const char* name : {"beta", "alpha", "gamma"}) {
        std::ofstream image(labDir / (std::string(name) + ".img"));
        image << "data";
    }
    writeFile(labDir / "notes.txt", "not an image");
    writeFile(labDir / "-bad.img", "bad name");
    fs::create_symlink("/etc/passwd", labDir / "link.img");
    // loop3 backs alpha; loop5 backs beta, whose image the kernel reports as deleted (it was
    // replaced under the same name); loop1 backs something else.
    writeFile(sysfs.path() / "sys/block/loop3/loop/backing_file",
              (labDir / "alpha.img").string() + "\n");
    writeFile(sysfs.path() / "sys/block/loop5/loop/backing_file",
              (labDir / "beta.img").string() + " (deleted)\n");
    writeFile(sysfs.path() / "sys/block/loop1/loop/backing_file", "/var/lib/other.img\n");
    fs::create_directories(sysfs.path() / "sys/block/loop7");

    ReplayProcessRunner runner;
    const LabManager manager(state.path(), SysfsRoot(sysfs.path()), runner);
    const auto drives = manager.list();
    REQUIRE(drives);
    REQUIRE(drives->size() == 3);
    CHECK((*drives)[0].name == "alpha");
    CHECK((*drives)[0].devicePath == "/dev/loop3");
    CHECK((*drives)[0].size == Bytes(4));
    CHECK((*drives)[0].image == labDir / "alpha.img");
    CHECK((*drives)[1].name == "beta");
    CHECK((*drives)[1].devicePath == "/dev/loop5");
    CHECK((*drives)[2].name == "gamma");
    CHECK((*drives)[2].devicePath.empty());
    CHECK(runner.requests().empty());
    // The device library recognises the same backing files as lab drives.
    CHECK(device::labNameFromBackingFile((labDir / "beta.img").string() + " (deleted)") == "beta");
}

TEST_CASE("list() of a state directory without lab drives is empty", "[lab]") {
    const TempDir state("empty");
    ReplayProcessRunner runner;
    const LabManager manager(state.path() / "never-created", SysfsRoot(), runner);
    const auto drives = manager.list();
    REQUIRE(drives);
    CHECK(drives->empty());
    CHECK_FALSE(fs::exists(state.path() / "never-created"));
}

TEST_CASE("maximumSize is the free space, capped at 4 TiB, without creating anything", "[lab]") {
    const TempDir state("max");
    ReplayProcessRunner runner;
    const LabManager manager(state.path() / "a" / "b", SysfsRoot(), runner);
    const auto maximum = manager.maximumSize();
    REQUIRE(maximum);
    CHECK(*maximum > Bytes(0));
    CHECK(*maximum <= Bytes::tib(4));
    CHECK_FALSE(fs::exists(state.path() / "a"));
}

TEST_CASE("create() refuses bad requests before touching anything", "[lab]") {
    const TempDir state("create");
    const fs::path labDir = labDirectory(state.path());
    fs::create_directories(labDir);
    writeFile(labDir / "taken.img", "existing");
    ReplayProcessRunner runner;
    LabManager manager(state.path(), SysfsRoot(), runner);

    const auto request = [](std::string name, Bytes size, std::uint32_t sector = 512,
                            std::string layout = "empty") {
        LabCreateRequest r;
        r.name = std::move(name);
        r.size = size;
        r.logicalSectorSize = sector;
        r.layout = std::move(layout);
        return r;
    };
    const std::vector<std::pair<LabCreateRequest, std::string>> cases{
        {request("bad name", Bytes::mib(64)), "not a lab drive name"},
        {request("ok", Bytes::mib(8)), "between 16.0 MiB"},
        {request("ok", Bytes(std::uint64_t{1} << 60)), "between 16.0 MiB"},
        {request("ok", Bytes::mib(64) + Bytes(512), 4096), "4096-byte sectors"},
        {request("ok", Bytes::mib(64), 520), "not 512 or 4096"},
        {request("ok", Bytes::mib(64), 512, "zfs"), "not 'empty' or 'gpt-ext4'"},
        {request("taken", Bytes::mib(64)), "exists already"},
    };
    for (const auto& [req, mentions] : cases) {
        INFO(req.name << " " << req.size.value << " " << req.logicalSectorSize << " "
                      << req.layout);
        const auto created = manager.create(req);
        REQUIRE_FALSE(created);
        CHECK(created.error().code() == ErrorCode::InvalidArgument);
        CHECK_THAT(created.error().describe(), Catch::Contains(mentions));
    }
    CHECK(runner.requests().empty());
    std::vector<std::string> left;
    for (const auto& entry : fs::directory_iterator(labDir)) {
        left.push_back(entry.path().filename().string());
    }
    CHECK(left == std::vector<std::string>{"taken.img"});
    CHECK(fs::file_size(labDir / "taken.img") == 8);
}

TEST_CASE("destroy() of an unknown name is NotFound and removes nothing", "[lab]") {
    const TempDir state("destroy");
    writeFile(labDirectory(state.path()) / "keep.img", "x");
    ReplayProcessRunner runner;
    LabManager manager(state.path(), SysfsRoot(state.path()), runner);
    const auto destroyed = manager.destroy("other");
    REQUIRE_FALSE(destroyed);
    CHECK(destroyed.error().code() == ErrorCode::NotFound);
    CHECK(fs::exists(labDirectory(state.path()) / "keep.img"));
}
