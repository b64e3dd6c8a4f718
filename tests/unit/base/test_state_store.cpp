// StateStore: the helper's own state files. Whatever is planted in or around the directory
// (links, FIFOs, foreign owners, writable parents) is refused or replaced, never followed.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/mount_options.h"
#include "core/base/state_store.h"

using namespace ssdk;
namespace fs = std::filesystem;

namespace {

struct Scratch {
    fs::path dir = fs::temp_directory_path() / ("ssdk-state-store-" + std::to_string(::getpid()));
    Scratch() {
        fs::remove_all(dir);
        fs::create_directories(dir);
        fs::permissions(dir, fs::perms::owner_all);
    }
    ~Scratch() { fs::remove_all(dir); }
};

std::string readText(const fs::path& file) {
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace

TEST_CASE("a state store is created private and keeps files whole", "[state]") {
    const Scratch scratch;
    ::umask(0); // the caller's umask must not widen anything
    auto store = StateStore::open(scratch.dir / "a" / "b");
    ::umask(022);
    REQUIRE(store);
    CHECK(fs::status(scratch.dir / "a").permissions() == fs::perms::owner_all);
    CHECK(fs::status(scratch.dir / "a" / "b").permissions() == fs::perms::owner_all);
    REQUIRE(store->write("x.json", "one\n"));
    CHECK(fs::status(store->pathOf("x.json")).permissions() ==
          (fs::perms::owner_read | fs::perms::owner_write));
    REQUIRE(store->write("x.json", "two\n"));
    CHECK(store->read("x.json").value() == "two\n");
    CHECK(store->list().value() == std::vector<std::string>{"x.json"});
    CHECK_FALSE(store->read("missing.json").value());
    REQUIRE(store->remove("x.json"));
    CHECK_FALSE(store->exists("x.json").value());
}

TEST_CASE("a state store refuses names that leave it", "[state]") {
    const Scratch scratch;
    auto store = StateStore::open(scratch.dir / "s");
    REQUIRE(store);
    for (const std::string& name :
         std::vector<std::string>{"", "../x", "a/b", ".hidden", "..", std::string(129, 'a')}) {
        INFO(name);
        CHECK_FALSE(StateStore::validName(name));
        CHECK_FALSE(store->write(name, "x"));
        CHECK_FALSE(store->read(name));
        CHECK_FALSE(store->lock(name));
    }
    CHECK(fs::is_empty(scratch.dir / "s"));
    CHECK_FALSE(StateStore::open("relative/dir"));
    CHECK_FALSE(StateStore::open(scratch.dir / "s" / ".." / "t"));
}

TEST_CASE("a link planted in a state store is never followed", "[state]") {
    const Scratch scratch;
    auto store = StateStore::open(scratch.dir / "s");
    REQUIRE(store);
    const fs::path victim = scratch.dir / "victim";
    std::ofstream(victim) << "secret\n";
    fs::permissions(victim, fs::perms::owner_read | fs::perms::owner_write);
    fs::create_symlink(victim, store->pathOf("j.json"));

    SECTION("reading it is refused") {
        auto read = store->read("j.json");
        REQUIRE_FALSE(read);
        CHECK_THAT(read.error().message(), Catch::Contains("is a link"));
    }
    SECTION("writing replaces the link, not its target") {
        REQUIRE(store->write("j.json", "mine\n"));
        CHECK_FALSE(fs::is_symlink(store->pathOf("j.json")));
        CHECK(store->read("j.json").value() == "mine\n");
    }
    SECTION("a link where a lock would be is refused") {
        fs::create_symlink(scratch.dir / "created-elsewhere", store->pathOf("j.lock"));
        CHECK_FALSE(store->lock("j.lock"));
        CHECK_FALSE(fs::exists(scratch.dir / "created-elsewhere"));
    }
    SECTION("exists() counts the link, so a caller that tests first never writes through it") {
        CHECK(store->exists("j.json").value());
    }
    CHECK(readText(victim) == "secret\n");
    CHECK(fs::status(victim).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
    // No temporary file is left behind by any of it.
    const auto names = store->list().value();
    for (const auto& name : names) {
        CHECK(name.find("tmp") == std::string::npos);
    }
}

TEST_CASE("a FIFO, a device or a huge file in a state store is refused without blocking",
          "[state]") {
    const Scratch scratch;
    auto store = StateStore::open(scratch.dir / "s");
    REQUIRE(store);
    REQUIRE(::mkfifo(store->pathOf("fifo.json").c_str(), 0600) == 0);
    auto fifo = store->read("fifo.json");
    REQUIRE_FALSE(fifo);
    CHECK_THAT(fifo.error().message(), Catch::Contains("not a regular file"));
    fs::create_symlink("/dev/zero", store->pathOf("zero.json"));
    CHECK_FALSE(store->read("zero.json"));
    std::ofstream(store->pathOf("big.json")) << std::string(4096, 'x');
    auto big = store->read("big.json", 1024);
    REQUIRE_FALSE(big);
    CHECK_THAT(big.error().message(), Catch::Contains("larger than 1024 bytes"));
}

TEST_CASE("a state store below a directory others may write is refused", "[state]") {
    const Scratch scratch;
    const fs::path open = scratch.dir / "open";
    fs::create_directories(open);
    fs::permissions(open, fs::perms::all); // 0777, not sticky
    auto refused = StateStore::open(open / "s");
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().message(), Catch::Contains("writable by group or others"));
    CHECK_FALSE(fs::exists(open / "s"));

    fs::permissions(open, fs::perms::all | fs::perms::sticky_bit); // as /tmp
    CHECK(StateStore::open(open / "s"));

    SECTION("and so is a directory that is a link") {
        fs::create_directories(scratch.dir / "real");
        fs::create_directory_symlink(scratch.dir / "real", scratch.dir / "link");
        auto link = StateStore::open(scratch.dir / "link" / "s");
        REQUIRE_FALSE(link);
        CHECK_THAT(link.error().message(), Catch::Contains("symbolic link"));
        CHECK_FALSE(fs::exists(scratch.dir / "real" / "s"));
    }
    SECTION("an existing store directory others may read is made private again") {
        fs::permissions(open / "s", fs::perms::owner_all | fs::perms::group_read |
                                        fs::perms::group_exec | fs::perms::others_read |
                                        fs::perms::others_exec);
        REQUIRE(StateStore::open(open / "s"));
        CHECK(fs::status(open / "s").permissions() == fs::perms::owner_all);
    }
    SECTION("one others may write to is refused: they may have planted anything in it") {
        fs::permissions(open / "s", fs::perms::all);
        auto writable = StateStore::open(open / "s");
        REQUIRE_FALSE(writable);
        CHECK_THAT(writable.error().message(), Catch::Contains("writable by group or others"));
    }
}

TEST_CASE("a lock is exclusive and goes with its holder", "[state][linux]") {
    const Scratch scratch;
    auto store = StateStore::open(scratch.dir / "s");
    REQUIRE(store);
    CHECK_FALSE(store->isLocked("a.lock").value());
    {
        auto held = store->lock("a.lock");
        REQUIRE(held);
        CHECK(store->isLocked("a.lock").value());
        auto second = store->lock("a.lock");
        REQUIRE_FALSE(second);
        CHECK(second.error().code() == ErrorCode::Busy);
    }
    CHECK_FALSE(store->isLocked("a.lock").value());
}

TEST_CASE("the helper's mounts always carry nosuid and nodev", "[state]") {
    CHECK(helperMountOptions("rw,relatime,errors=remount-ro").value() ==
          "rw,relatime,errors=remount-ro,nosuid,nodev");
    CHECK(helperMountOptions("").value() == "nosuid,nodev");
    CHECK(helperMountOptions("rw,suid,dev,exec").value() == "rw,exec,nosuid,nodev");
    CHECK(helperMountOptions("subvolid=5,subvol=/").value() == "subvolid=5,subvol=/,nosuid,nodev");
    for (const std::string bad :
         {"rw,x-mount.mkdir", "helper=evil", "uhelper=udisks2", "rw;id", "rw,a b", "rw,$(id)"}) {
        INFO(bad);
        CHECK_FALSE(helperMountOptions(bad));
    }
}
