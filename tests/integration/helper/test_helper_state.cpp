// The real ssdkeeper-helper, run as root on lab drives, against what a user can plant in their
// own state directory: links where journals, temporaries and locks used to be, and forged
// journals naming a backup path or mount options. The helper keeps its journals in its own
// root-only store ($SSDK_PRIVILEGED_STATE_DIR here, /var/lib/ssdkeeper on a real system), so
// none of it is followed, read or executed, and nothing outside the test directory changes.
#include <fstream>
#include <sys/stat.h>

#include "core/base/bytes.h"
#include "core/base/state_store.h"
#include "core/device/discovery.h"
#include "core/device/drive_key.h"
#include "core/rpc/client.h"
#include "helper/firmware_verbs.h"
#include "tests/integration/helper/helper_next_to_tests.h"
#include "tests/integration/lab/lab_scratch.h"
#include "tests/support/allow_all.h"

using namespace ssdk;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

// A root-owned 0600 file outside every state directory: what an attacker wants overwritten,
// made readable or created.
struct Victim {
    fs::path path;
    explicit Victim(const fs::path& dir)
        : path(dir / "victim-root-only") {
        std::ofstream(path) << "root's secret\n";
        fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
    }
    void checkUntouched() const {
        std::ifstream in(path);
        CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "root's secret\n");
        CHECK(fs::status(path).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
    }
};

std::string keyOf(const std::string& devicePath) {
    const SysfsRoot root;
    auto device = device::Discovery(root, device::makeSystemFsProber(root)).find(devicePath);
    REQUIRE(device);
    return device::driveKey(*device);
}

// A scratch state directory (the "user's home"), a victim file beside it and a lab drive.
struct PlantedLab {
    ScratchState scratch;
    Victim victim{scratch.dir()};
    SystemProcessRunner runner;
    lab::LabManager manager{scratch.dir(), SysfsRoot(), runner};
    lab::LabDrive drive;
    std::string key;

    PlantedLab(const std::string& name, Bytes size, const std::string& layout)
        : drive(createLabDrive(manager, name, size, layout))
        , key(keyOf(drive.devicePath)) {}
    // ~/.local/state/ssdkeeper/<area> of the scratch "user", where links get planted.
    fs::path userDir(const std::string& area) const {
        const fs::path dir = scratch.dir() / "ssdkeeper" / area;
        fs::create_directories(dir);
        return dir;
    }
};

// A forged spare-area journal in the user's directory: interrupted, its table backup aimed at
// the victim and its remount with suid,dev at a path of the attacker's choosing.
std::string forgedJournal(const std::string& key, const std::string& device, const fs::path& backup,
                          const fs::path& remountAt) {
    return Json{{"version", 1},
                {"device_id", key},
                {"device", device},
                {"purpose", "apply"},
                {"direction", "shrink"},
                {"phase", "running"},
                {"partition_number", 1},
                {"partition", device + "p1"},
                {"filesystem", "ext4"},
                {"mount_point", ""},
                {"remount_point", remountAt.string()},
                {"remount_options", "rw,suid,dev,exec"},
                {"partition_start", 1048576},
                {"from_partition_size", 66060288},
                {"to_partition_size", 52428800},
                {"from_filesystem_size", 66060288},
                {"to_filesystem_size", 52428800},
                {"table_backup", backup.string()},
                {"steps", Json::array({Json{{"name", "backup-table"}, {"state", "pending"}},
                                       Json{{"name", "unmount"}, {"state", "done"}},
                                       Json{{"name", "check-filesystem"}, {"state", "pending"}},
                                       Json{{"name", "shrink-filesystem"}, {"state", "pending"}},
                                       Json{{"name", "shrink-partition"}, {"state", "pending"}},
                                       Json{{"name", "inform-kernel"}, {"state", "pending"}},
                                       Json{{"name", "discard"}, {"state", "pending"}},
                                       Json{{"name", "verify"}, {"state", "pending"}},
                                       Json{{"name", "remount"}, {"state", "pending"}}})},
                {"last_error", ""}}
        .dump();
}

bool mountedAt(const fs::path& point) {
    std::ifstream in("/proc/self/mountinfo");
    const std::string text(std::istreambuf_iterator<char>(in), {});
    return text.find(" " + point.string() + " ") != std::string::npos;
}

} // namespace

TEST_CASE("links planted in the user's state directory are never followed by op.apply",
          "[helper][security]") {
    const PlantedLab lab("sec-apply", Bytes::mib(64), "gpt-ext4");
    const auto& [scratch, victim, runner, manager, drive, key] = lab;

    // The temporary name the helper used to write through in ~/.local/state/ssdkeeper/op.
    const fs::path userOp = lab.userDir("op");
    fs::create_symlink(victim.path, userOp / (key + ".json.ssdkeeper.tmp"));
    ::umask(0); // pkexec keeps the caller's umask: the helper must not depend on it
    auto client = rpc::HelperClient(helperNextToTests());
    ::umask(022);
    std::vector<std::string> steps;
    const auto applied = client.call(
        "op.apply",
        Json{{"device", drive.devicePath},
             {"spare_percent", 20},
             {"partition", drive.devicePath + "p1"}},
        [&](const rpc::Event& event) { steps.push_back(event.data.value("step", "")); });
    INFO((applied ? applied->dump() : applied.error().describe()));
    REQUIRE(applied);
    CHECK((*applied)["journal"]["phase"] == "completed");

    victim.checkUntouched();
    for (const auto& entry : fs::directory_iterator(userOp)) {
        CHECK(fs::is_symlink(entry.path())); // nothing replaced, nothing added
    }
    // The journal and the table backup are in the helper's own store, private.
    const fs::path store = scratch.privilegedDir() / "op";
    CHECK(fs::status(scratch.privilegedDir()).permissions() == fs::perms::owner_all);
    CHECK(fs::status(store).permissions() == fs::perms::owner_all);
    const fs::path journal = store / (key + ".json");
    REQUIRE(fs::is_regular_file(journal));
    CHECK(fs::status(journal).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
    const std::string backup = (*applied)["journal"]["table_backup"];
    CHECK(StateStore::validName(backup));
    CHECK(fs::is_regular_file(store / backup));
    CHECK(fs::status(store / backup).permissions() ==
          (fs::perms::owner_read | fs::perms::owner_write));
    struct stat info {};
    REQUIRE(::stat(journal.c_str(), &info) == 0);
    CHECK(info.st_uid == 0);

    // The user sees the journal read-only, through op.inspect.
    const auto inspected = client.call("op.inspect", Json{{"device", drive.devicePath}});
    REQUIRE(inspected);
    CHECK((*inspected)["journal"]["phase"] == "completed");
    CHECK((*inspected)["journal"]["table_backup"] == backup);
}

TEST_CASE("a journal forged in the user's state directory is neither read nor carried out",
          "[helper][security]") {
    const PlantedLab lab("sec-forged", Bytes::mib(64), "gpt-ext4");
    const auto& [scratch, victim, runner, manager, drive, key] = lab;
    const fs::path userOp = lab.userDir("op");
    const fs::path mountAt = scratch.dir() / "attacker-mount";
    fs::create_directories(mountAt);
    std::ofstream(userOp / (key + ".json"))
        << forgedJournal(key, drive.devicePath, victim.path, mountAt);

    auto client = rpc::HelperClient(helperNextToTests());
    const auto inspected = client.call("op.inspect", Json{{"device", drive.devicePath}});
    REQUIRE(inspected);
    CHECK((*inspected)["journal"].is_null());
    for (const auto* action : {"finish", "rollback"}) {
        const auto recovered =
            client.call("op.recover", Json{{"device", drive.devicePath}, {"action", action}});
        REQUIRE_FALSE(recovered);
        CHECK(recovered.error().code() == ErrorCode::NotFound);
    }
    victim.checkUntouched();
    CHECK_FALSE(mountedAt(mountAt));
    CHECK(probeType(drive.devicePath + "p1") == "ext4");

    SECTION("a link to a root-only file as the journal leaks nothing") {
        fs::remove(userOp / (key + ".json"));
        fs::create_symlink(victim.path, userOp / (key + ".json"));
        const auto again = client.call("op.inspect", Json{{"device", drive.devicePath}});
        REQUIRE(again);
        CHECK(again->dump().find("root's") == std::string::npos);
        CHECK(again->dump().find(victim.path.string()) == std::string::npos);
    }
}

TEST_CASE("erase.run takes its lock in the helper's store, not through a planted link",
          "[helper][security]") {
    const PlantedLab lab("sec-erase", Bytes::mib(32), "empty");
    const auto& [scratch, victim, runner, manager, drive, key] = lab;
    const fs::path userErase = lab.userDir("erase");
    const fs::path elsewhere = scratch.dir() / "created-by-root";
    // Under the drive key and under the kernel name (older versions named journals so).
    for (const auto& name : {key, fs::path(drive.devicePath).filename().string()}) {
        fs::create_symlink(elsewhere, userErase / (name + ".lock"));
        fs::create_symlink(victim.path, userErase / (name + ".json"));
    }

    auto client = rpc::HelperClient(helperNextToTests());
    const auto probe = client.call("erase.probe", Json{{"device", drive.devicePath}});
    REQUIRE(probe); // reads no journal through the planted link
    CHECK(probe->dump().find("root's") == std::string::npos);
    const std::string confirm = (*probe)["confirmation"].get<std::string>();
    const auto erased = client.call(
        "erase.run",
        Json{{"device", drive.devicePath}, {"method", "zeroout"}, {"confirm", confirm}});
    INFO((erased ? erased->dump() : erased.error().describe()));
    REQUIRE(erased);
    CHECK_FALSE(fs::exists(elsewhere));
    victim.checkUntouched();
    const fs::path store = scratch.privilegedDir() / "erase";
    CHECK(fs::is_regular_file(store / (key + ".json")));
    CHECK(fs::is_regular_file(store / (key + ".lock")));
    CHECK(fs::status(store / (key + ".json")).permissions() ==
          (fs::perms::owner_read | fs::perms::owner_write));
}

TEST_CASE("the helper refuses a state directory someone else could change", "[helper][security]") {
    const ScratchState scratch;
    SystemProcessRunner runner;
    lab::LabManager manager(scratch.dir(), SysfsRoot(), runner);
    const auto drive = createLabDrive(manager, "sec-owner", Bytes::mib(64), "gpt-ext4");
    // The privileged directory handed to another user (as if /var/lib/ssdkeeper had been).
    fs::create_directories(scratch.privilegedDir());
    REQUIRE(::chown(scratch.privilegedDir().c_str(), 65534, 65534) == 0);
    auto client = rpc::HelperClient(helperNextToTests());
    const auto refused = client.call("op.apply", Json{{"device", drive.devicePath},
                                                      {"spare_percent", 20},
                                                      {"partition", drive.devicePath + "p1"}});
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code() == ErrorCode::PermissionDenied);
    CHECK_THAT(refused.error().message(), Catch::Contains("owned by uid 65534"));
    CHECK(fs::is_empty(scratch.privilegedDir()));
    const auto partition = fs::path(drive.devicePath).filename().string() + "p1";
    CHECK(std::stoull(loopAttribute(drive.devicePath, partition + "/size")) * 512 >
          Bytes::mib(60).value);
}

TEST_CASE("firmware.update reads the image once, with the caller's rights", "[helper][security]") {
    const PlantedLab lab("sec-firmware", Bytes::mib(16), "empty");
    const auto& [scratch, victim, runner, manager, drive, key] = lab;
    test::AllowAll authorizer;
    helper::HelperService service(authorizer);
    bool opened = false;
    // The caller is "nobody": root reads the image with nobody's rights.
    helper::addFirmwareVerbs(
        service,
        [&opened](
            const std::string&) -> Expected<std::unique_ptr<maintenance::transport::NvmeAdmin>> {
            opened = true;
            return fail(ErrorCode::Internal, "not reached: the lab drive is no NVMe drive");
        },
        nullptr, lab::LabOwner{65534, 65534});
    const auto update = [&](const fs::path& image) {
        const Json request{{"id", 1},
                           {"verb", "firmware.update"},
                           {"args",
                            {{"device", drive.devicePath},
                             {"image", image.string()},
                             {"slot", 1},
                             {"action", "replace"}}}};
        return parseJson(service.handleLine(request.dump()), "response").value();
    };
    const Json secret = update(victim.path); // root's 0600 file: nobody may not read it
    REQUIRE(secret["ok"] == false);
    CHECK_THAT(secret["error"]["message"].get<std::string>(),
               Catch::Contains("opening the image") && Catch::Contains("ermission denied"));

    const fs::path fifo = scratch.dir() / "fw.fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0666) == 0);
    fs::permissions(scratch.dir(), fs::perms::owner_all | fs::perms::others_exec);
    const Json blocked = update(fifo); // answered at once, not hung on the FIFO
    REQUIRE(blocked["ok"] == false);
    CHECK_THAT(blocked["error"]["message"].get<std::string>(),
               Catch::Contains("not a regular file"));

    const fs::path image = scratch.dir() / "fw.bin";
    std::ofstream(image) << std::string(4096, 'F');
    fs::permissions(image, fs::perms::owner_read | fs::perms::owner_write | fs::perms::others_read);
    const Json readable = update(image); // read, then refused for the drive
    REQUIRE(readable["ok"] == false);
    CHECK_THAT(readable["error"]["message"].get<std::string>(),
               Catch::Contains("not an NVMe drive"));
    CHECK_FALSE(opened);
    victim.checkUntouched();
}
