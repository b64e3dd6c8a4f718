// Secure erase on lab drives with the block-layer methods, the helper's guards, and the
// refusals the issue lists (system disk, mounted, wrong model).
#include <csignal>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>

#include "core/device/drive_key.h"
#include "core/maintenance/erase/eraser.h"
#include "core/maintenance/erase/guards.h"
#include "core/maintenance/transport/nvme_commands.h"
#include "core/maintenance/verbs.h"
#include "helper/authorizer.h"
#include "helper/helper_service.h"
#include "helper/maintenance_verbs.h"
#include "tests/integration/maintenance/maintenance_scratch.h"
#include "tests/support/allow_all.h"
#include "tests/unit/maintenance/fake_nvme_admin.h"
#include "tests/unit/maintenance/fake_scsi_transport.h"
#include "tests/unit/maintenance/identify_builder.h"

using namespace ssdk;
using namespace ssdk::maintenance::erase;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

device::Device discover(const std::string& path) {
    const SysfsRoot root;
    const device::Discovery discovery(root, device::makeSystemFsProber(root));
    auto device = discovery.find(path);
    REQUIRE(device);
    return *device;
}

std::uint64_t allocated(const fs::path& image) {
    struct stat info {};
    REQUIRE(::stat(image.c_str(), &info) == 0);
    return static_cast<std::uint64_t>(info.st_blocks) * 512;
}

} // namespace

TEST_CASE("zero-out and discard erase a lab drive and the verification proves it",
          "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-erase", Bytes::mib(128), "gpt-ext4");
    {
        MountGuard mount(drive.devicePath + "p1", scratch.dir() / "mnt");
        writeRandomFiles(scratch.dir() / "mnt", 4, 4 << 20);
    }
    const auto device = discover(drive.devicePath);
    REQUIRE(checkEraseGuards(device, confirmationWord(device)));
    const auto method = GENERATE(Method::BlkZeroOut, Method::BlkDiscard);
    std::vector<double> fractions;
    auto cert = eraseDevice(device, method, systemTransports(),
                            [&](double f, const std::string&) { fractions.push_back(f); });
    REQUIRE(cert);
    INFO(toText(*cert));
    CHECK(cert->verification.passed);
    CHECK(cert->verification.samples == 64);
    CHECK(cert->verification.zeros == 64);
    CHECK(cert->devicePath == drive.devicePath);
    CHECK(cert->sizeBytes == Bytes::mib(128).value);
    CHECK_FALSE(fractions.empty());
    CHECK(probeType(drive.devicePath).empty()); // the partition table is gone too
    if (method == Method::BlkDiscard) {
        // A discard on a loop device punches holes: the image is empty again. (A zero-out
        // becomes FALLOC_FL_ZERO_RANGE, which keeps the blocks allocated.)
        CHECK(allocated(drive.image) < Bytes::mib(1).value);
    }
    const Json json = toJson(*cert);
    CHECK(json["method"] == std::string(toString(method)));
}

TEST_CASE("erase refusals: mounted partition, wrong model, system disk", "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-refuse", Bytes::mib(128), "gpt-ext4");
    SystemProcessRunner runner;
    test::AllowAll authorizer;
    helper::HelperService service(authorizer);
    helper::addMaintenanceVerbs(service, runner, systemTransports());
    auto call = [&](const Json& args) {
        const std::string line =
            Json{{"id", 7}, {"verb", maintenance::kVerbEraseRun}, {"args", args}}.dump();
        return parseJson(service.handleLine(line), "helper response").value();
    };
    {
        MountGuard mount(drive.devicePath + "p1", scratch.dir() / "mnt");
        const Json refused = call({{"device", drive.devicePath},
                                   {"method", "zeroout"},
                                   {"confirm", confirmationWord(discover(drive.devicePath))}});
        CHECK(refused["ok"] == false);
        CHECK(refused["error"]["code"] == "busy");
        CHECK(probeType(drive.devicePath + "p1") == "ext4");
    }
    const Json wrongModel =
        call({{"device", drive.devicePath}, {"method", "zeroout"}, {"confirm", "not-it"}});
    CHECK(wrongModel["ok"] == false);
    CHECK(wrongModel["error"]["code"] == "invalid-argument");
    CHECK(probeType(drive.devicePath + "p1") == "ext4");
    const Json partition =
        call({{"device", drive.devicePath + "p1"}, {"method", "zeroout"}, {"confirm", "x"}});
    CHECK(partition["ok"] == false);

    // The system disk: only the pure guard is asked (nothing is ever sent to this machine's
    // own disk in tests).
    const SysfsRoot root;
    const device::Discovery discovery(root, device::makeSystemFsProber(root));
    auto devices = discovery.discover();
    REQUIRE(devices);
    bool sawSystemDisk = false;
    for (const auto& d : *devices) {
        if (d.holdsRootFilesystem()) {
            sawSystemDisk = true;
            auto refused = checkEraseGuards(d, confirmationWord(d));
            REQUIRE_FALSE(refused);
            CHECK(refused.error().code() == ErrorCode::PermissionDenied);
        }
    }
    CHECK(sawSystemDisk);
}

TEST_CASE("erase.probe lists the methods of a lab drive with its confirmation word",
          "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-probe", Bytes::mib(64), "empty");
    SystemProcessRunner runner;
    test::AllowAll authorizer;
    helper::HelperService service(authorizer);
    helper::addMaintenanceVerbs(service, runner, systemTransports());
    const std::string line = Json{{"id", 1},
                                  {"verb", maintenance::kVerbEraseProbe},
                                  {"args", {{"device", drive.devicePath}}}}
                                 .dump();
    const Json response = parseJson(service.handleLine(line), "helper response").value();
    REQUIRE(response["ok"] == true);
    const Json& result = response["result"];
    CHECK(result["auto"] == "discard");
    CHECK(result["confirmation"] == confirmationWord(discover(drive.devicePath)));
    CHECK(result["refused"].is_null());
    CHECK(result["methods"].size() == 11);
}

namespace {

// The ATA path of eraseDevice on a lab drive posing as a SATA disk: the scripted fake (owned
// by the test, so it can be inspected afterwards) plays the drive's ATA side; the lab drive
// provides the blocks verification reads.
class Forwarding : public maintenance::transport::ScsiTransport {
public:
    explicit Forwarding(ScsiTransport& target)
        : m_target(target) {}
    Expected<maintenance::transport::ScsiReply>
    execute(std::span<const std::uint8_t> cdb, maintenance::transport::DataDirection direction,
            std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) override {
        return m_target.execute(cdb, direction, buffer, timeout);
    }

private:
    ScsiTransport& m_target;
};

TransportFactory fakeAta(ssdk::test::FakeScsiTransport& fake, int& opened) {
    TransportFactory factory;
    factory.scsi = [&fake, &opened](const std::string&)
        -> Expected<std::unique_ptr<maintenance::transport::ScsiTransport>> {
        ++opened;
        return std::make_unique<Forwarding>(fake);
    };
    return factory;
}

ssdk::test::ScriptStep identifyStep(std::uint16_t word128) {
    ssdk::test::ScriptStep step;
    step.name = "identify";
    step.cdb = ssdk::test::cdb({0x85, 0x08, 0x0E, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xEC, 0});
    step.direction = maintenance::transport::DataDirection::FromDevice;
    const auto data = ssdk::test::AtaIdentifyBuilder().model("Lab SATA").word(128, word128).build();
    step.dataIn.assign(data.begin(), data.end());
    return step;
}

// A SECURITY command with its 512-byte password block (any content: a random password).
ssdk::test::ScriptStep passwordStep(const char* name, std::uint8_t opcode) {
    ssdk::test::ScriptStep step;
    step.name = name;
    step.cdb = ssdk::test::cdb({0x85, 0x0A, 0x26, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, opcode, 0});
    step.direction = maintenance::transport::DataDirection::ToDevice;
    step.anyData = true;
    return step;
}

ssdk::test::ScriptStep erasePrepareStep() {
    ssdk::test::ScriptStep step;
    step.name = "erase prepare";
    step.cdb = ssdk::test::cdb({0x85, 0x06, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xF3, 0});
    return step;
}

} // namespace

TEST_CASE("a frozen drive is refused before any security command is sent", "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-frozen", Bytes::mib(64), "empty");
    device::Device device = discover(drive.devicePath);
    device.bus = device::Bus::Sata;
    ssdk::test::FakeScsiTransport fake;
    int opened = 0;
    // The state changed after the method was chosen: the erase re-reads IDENTIFY and stops.
    fake.expect(identifyStep(0x0001 | 0x0008));
    auto factory = fakeAta(fake, opened);
    auto cert = eraseDevice(device, Method::AtaSecurityErase, factory);
    REQUIRE_FALSE(cert);
    CHECK(cert.error().code() == ErrorCode::PermissionDenied);
    CHECK_THAT(cert.error().describe(), Catch::Contains("frozen") && Catch::Contains("suspend"));
    CHECK(opened == 1);
    CHECK(fake.sent() == std::vector<std::string>{"identify"});
    CHECK(fake.finished());
}

TEST_CASE("verification catches a drive that reports an erase but kept its data", "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-liar", Bytes::mib(128), "gpt-ext4");
    {
        MountGuard mount(drive.devicePath + "p1", scratch.dir() / "mnt");
        writeRandomFiles(scratch.dir() / "mnt", 20, 4 << 20);
    }
    device::Device device = discover(drive.devicePath);
    device.bus = device::Bus::Sata;
    ssdk::test::FakeScsiTransport fake;
    int opened = 0;
    fake.expect(identifyStep(0x0001));
    fake.expect(passwordStep("set password", 0xF1));
    fake.expect(erasePrepareStep());
    fake.expect(passwordStep("erase unit", 0xF4));
    fake.expect(identifyStep(0x0001));
    auto factory = fakeAta(fake, opened);
    auto cert = eraseDevice(device, Method::AtaSecurityErase, factory);
    REQUIRE(cert);
    CHECK(opened == 1);
    CHECK(fake.finished());
    // The fake "drive" erased nothing: the blocks that held data still hold it.
    CHECK_FALSE(cert->verification.passed);
    CHECK(cert->verification.unchangedData > 0);
    CHECK_THAT(toText(*cert), Catch::Contains("FAILED"));
}

namespace {

namespace transport = maintenance::transport;

// The sanitize log's SPROG and SSTAT, the bytes readSanitizeLog reads.
std::vector<std::uint8_t> sanitizeStatus(std::uint16_t progress, std::uint8_t status) {
    return {static_cast<std::uint8_t>(progress & 0xFF), static_cast<std::uint8_t>(progress >> 8),
            status, 0};
}

void expectSanitize(FakeNvmeAdmin& nvme, transport::NvmeSanitizeAction action) {
    nvme.expect({.command = transport::sanitizeCommand(action)});
}

void expectSanitizeLog(FakeNvmeAdmin& nvme, std::uint16_t progress, std::uint8_t status,
                       bool repeats = false) {
    nvme.expect({.command = transport::getLogPageCommand(transport::kNvmeLogSanitizeStatus,
                                                         transport::kNvmeNsidAll,
                                                         transport::kNvmeSanitizeLogBytes),
                 .dataSize = transport::kNvmeSanitizeLogBytes,
                 .reply = sanitizeStatus(progress, status),
                 .repeats = repeats});
}

} // namespace

TEST_CASE("NVMe format and sanitize are chosen from identify data and sequenced", "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-nvme", Bytes::mib(64), "empty");
    device::Device device = discover(drive.devicePath);
    device.bus = device::Bus::Nvme;
    std::vector<std::uint8_t> controller(4096, 0);
    controller[256] = 0x02; // OACS: Format NVM
    controller[328] = 0x02; // SANICAP: block erase
    controller[524] = 0x04; // FNA: crypto erase
    std::vector<std::uint8_t> ns(4096, 0);
    ns[26] = 1;           // FLBAS: LBA format 1
    ns[128 + 4 + 2] = 12; // LBAF1: 4096-byte blocks
    FakeNvmeAdmin nvme;   // the namespace node: namespace id 1
    const auto expectIdentifyNamespace = [&] {
        nvme.expect({.command = transport::identifyNamespaceCommand(1),
                     .dataSize = transport::kNvmeIdentifyBytes,
                     .reply = ns});
    };
    nvme.expect({.command = transport::identifyControllerCommand(),
                 .dataSize = transport::kNvmeIdentifyBytes,
                 .reply = controller});
    expectIdentifyNamespace();
    TransportFactory factory;
    factory.nvme = nvme.factory();
    const auto caps = probeCapabilities(device, factory);
    REQUIRE(caps.nvme);
    CHECK(nvme.scriptDone());
    CHECK(chooseMethod(caps, "auto") == Method::NvmeSanitizeBlock);
    CHECK_FALSE(chooseMethod(caps, "nvme-sanitize-crypto"));

    // Format NVM of namespace 1 in its format (1), SES 2, with a day to finish.
    expectIdentifyNamespace();
    nvme.expect({.command = transport::formatNvmCommand(
                     1, 1, transport::NvmeSecureErase::Cryptographic, std::chrono::hours(24))});
    auto formatted = eraseDevice(device, Method::NvmeFormatCrypto, factory);
    REQUIRE(formatted);
    CHECK(nvme.scriptDone());

    expectSanitize(nvme, transport::NvmeSanitizeAction::BlockErase);
    expectSanitizeLog(nvme, 0x8000, 2);
    expectSanitizeLog(nvme, 0xFFFF, 1);
    auto sanitized = eraseDevice(device, Method::NvmeSanitizeBlock, factory);
    REQUIRE(sanitized);
    CHECK(nvme.scriptDone());

    expectSanitize(nvme, transport::NvmeSanitizeAction::BlockErase);
    expectSanitizeLog(nvme, 0, 3);
    auto failed = eraseDevice(device, Method::NvmeSanitizeBlock, factory);
    REQUIRE_FALSE(failed);
    CHECK_THAT(failed.error().describe(), Catch::Contains("sanitize failed"));
    CHECK(nvme.scriptDone());
    CHECK(nvme.unexpectedCommands() == 0);
}

namespace {

std::vector<std::uint8_t> passwordBlock(const std::string& password, std::uint16_t control) {
    std::vector<std::uint8_t> block(512, 0);
    block[0] = static_cast<std::uint8_t>(control & 0xFF);
    block[1] = static_cast<std::uint8_t>(control >> 8);
    std::copy(password.begin(), password.end(), block.begin() + 2);
    return block;
}

} // namespace

TEST_CASE("a helper killed mid-erase leaves a journal that probe and the CLI report, erasing "
          "again completes it",
          "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-killed", Bytes::mib(64), "gpt-ext4");
    const device::Device device = discover(drive.devicePath);
    const EraseJournalStore store(StateStore::open(scratch.privilegedDir() / "erase").value());
    const std::string id = device::driveKey(device);

    // The erasing process: an NVMe sanitize that the (fake) controller never finishes, run
    // with the journal the helper keeps; it is killed with SIGKILL while it polls.
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        device::Device nvmeDevice = device;
        nvmeDevice.bus = device::Bus::Nvme;
        FakeNvmeAdmin nvme;
        expectSanitize(nvme, transport::NvmeSanitizeAction::BlockErase);
        expectSanitizeLog(nvme, 0x4000, 2, true); // a quarter done, in progress, forever
        TransportFactory factory;
        factory.nvme = nvme.factory();
        auto active = store.begin(newJournal(nvmeDevice, "nvme-sanitize-block", "now"));
        if (!active) {
            ::_exit(3);
        }
        (void)eraseDevice(nvmeDevice, Method::NvmeSanitizeBlock, factory, {}, &*active);
        ::_exit(4);
    }
    bool underway = false;
    for (int i = 0; i < 300 && !underway; ++i) {
        auto status = store.status(id);
        underway = status && status->journal && status->journal->step == "sanitizing";
        if (!underway) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    ::kill(child, SIGKILL);
    int waitStatus = 0;
    REQUIRE(::waitpid(child, &waitStatus, 0) == child);
    REQUIRE(underway);
    CHECK(WIFSIGNALED(waitStatus));

    SystemProcessRunner runner;
    test::AllowAll authorizer;
    helper::HelperService service(authorizer);
    helper::addMaintenanceVerbs(service, runner, systemTransports(), store);
    auto call = [&](const std::string& verb, const Json& args) {
        const std::string line = Json{{"id", 3}, {"verb", verb}, {"args", args}}.dump();
        return parseJson(service.handleLine(line), "helper response").value();
    };
    const Json probe = call(maintenance::kVerbEraseProbe, {{"device", drive.devicePath}});
    REQUIRE(probe["ok"] == true);
    REQUIRE(probe["result"]["interrupted"].is_string());
    const std::string message = probe["result"]["interrupted"].get<std::string>();
    CHECK_THAT(message, Catch::Contains("with nvme-sanitize-block was interrupted at") &&
                            Catch::Contains("sanitizing") &&
                            Catch::Contains("the drive's contents are undefined; run the "
                                            "erase again"));
    CHECK(probe["result"]["last_erase"]["state"] == "running");
    CHECK(probe["result"]["erase_running"] == false);
    // The journal says which of the erase's jobs was under way: the erase itself, after the
    // spread of blocks was read.
    CHECK(probe["result"]["last_erase"]["steps"] ==
          Json::parse(R"([{"name": "sample-before", "state": "done"},
                          {"name": "erase", "state": "started"},
                          {"name": "verify", "state": "pending"}])"));

    // ssdkeeperctl's helper reads the same journals ($SSDK_PRIVILEGED_STATE_DIR of the scratch).
    auto listed = runner.run({.argv = {std::string(SSDK_BINARY_DIR) + "/bin/ssdkeeperctl", "erase",
                                       drive.devicePath, "--list"}});
    REQUIRE(listed);
    CHECK(listed->exitCode == 0);
    CHECK_THAT(listed->standardError,
               Catch::Contains("Warning: an erase of") && Catch::Contains("was interrupted at"));

    // Running the erase again completes it; the warning goes away.
    const Json erased = call(maintenance::kVerbEraseRun, {{"device", drive.devicePath},
                                                          {"method", "zeroout"},
                                                          {"confirm", confirmationWord(device)}});
    REQUIRE(erased["ok"] == true);
    CHECK(erased["result"]["verification"]["passed"] == true);
    CHECK(erased["result"]["replaced_interrupted"].is_string());
    const Json after = call(maintenance::kVerbEraseProbe, {{"device", drive.devicePath}});
    REQUIRE(after["ok"] == true);
    CHECK(after["result"]["interrupted"].is_null());
    CHECK(after["result"]["last_erase"]["state"] == "completed");
    CHECK(after["result"]["last_erase"]["method"] == "zeroout");
    CHECK(after["result"]["last_erase"]["verified"] == true);
    CHECK(after["result"]["last_erase"]["fraction"] == 1.0);
    for (const Json& step : after["result"]["last_erase"]["steps"]) {
        CHECK(step["state"] == "done");
    }
    CHECK(after["result"]["last_erase"]["steps"].size() == 3);
}

TEST_CASE("a refused erase writes no journal, an erase without a journal store is refused",
          "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-nojournal", Bytes::mib(64), "gpt-ext4");
    const device::Device device = discover(drive.devicePath);
    const EraseJournalStore store(StateStore::open(scratch.privilegedDir() / "erase").value());
    SystemProcessRunner runner;
    test::AllowAll authorizer;
    helper::HelperService service(authorizer);
    helper::addMaintenanceVerbs(service, runner, systemTransports(), store);
    const auto line = [&](const std::string& method) {
        return Json{{"id", 1},
                    {"verb", maintenance::kVerbEraseRun},
                    {"args",
                     {{"device", drive.devicePath},
                      {"method", method},
                      {"confirm", confirmationWord(device)}}}}
            .dump();
    };
    // Not an ATA drive: the method is unavailable, said clearly, and nothing is written.
    const Json refused = parseJson(service.handleLine(line("ata-security-erase")), "r").value();
    CHECK(refused["ok"] == false);
    CHECK(refused["error"]["code"] == "unsupported");
    CHECK_FALSE(fs::exists(store.pathFor(device::driveKey(device))));
    CHECK(probeType(drive.devicePath + "p1") == "ext4");

    helper::HelperService bare(authorizer);
    helper::addMaintenanceVerbs(bare, runner, systemTransports());
    const Json unjournaled = parseJson(bare.handleLine(line("zeroout")), "r").value();
    CHECK(unjournaled["ok"] == false);
    CHECK_THAT(unjournaled["error"]["message"].get<std::string>(), Catch::Contains("journal"));
    CHECK(probeType(drive.devicePath + "p1") == "ext4");
}

TEST_CASE("an ATA security erase journals its password and reuses one an interrupted run left",
          "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-ata-again", Bytes::mib(64), "empty");
    device::Device device = discover(drive.devicePath);
    device.bus = device::Bus::Sata;
    const EraseJournalStore store(StateStore::open(scratch.privilegedDir() / "erase").value());
    // The drive still has the password "SSDKleft0001" (security enabled, not locked).
    auto journal = newJournal(device, "ata-security-erase", "earlier");
    journal.ataPassword = "SSDKleft0001";
    auto active = store.begin(journal);
    REQUIRE(active);
    ssdk::test::FakeScsiTransport fake;
    int opened = 0;
    fake.expect(identifyStep(0x0001 | 0x0002));
    fake.expect(erasePrepareStep());
    ssdk::test::ScriptStep unit = passwordStep("erase unit", 0xF4);
    unit.anyData = false;
    unit.expectedOut = passwordBlock("SSDKleft0001", 0x0000);
    fake.expect(unit);
    fake.expect(identifyStep(0x0001)); // the erase cleared the password
    auto cert = eraseDevice(device, Method::AtaSecurityErase, fakeAta(fake, opened), {}, &*active);
    REQUIRE(cert);
    CHECK(fake.finished()); // no SET PASSWORD: the recorded one was used
    CHECK(active->journal().state == EraseState::Completed);
    CHECK(active->journal().ataPassword.empty());

    // A fresh erase whose ERASE UNIT is aborted and whose clean-up fails too: the journal keeps
    // the password it set, so the user (or the next run) can still clear it.
    ssdk::test::FakeScsiTransport failing;
    failing.expect(identifyStep(0x0001));
    failing.expect(passwordStep("set password", 0xF1));
    failing.expect(erasePrepareStep());
    for (const auto& [name, opcode] : {std::pair{"erase unit", 0xF4}, {"disable password", 0xF6}}) {
        ssdk::test::ScriptStep aborted = passwordStep(name, static_cast<std::uint8_t>(opcode));
        aborted.ataStatus = 0x51; // ERR
        aborted.ataError = 0x04;  // ABRT
        failing.expect(aborted);
    }
    active->journal() = newJournal(device, "ata-security-erase", "now");
    auto broken =
        eraseDevice(device, Method::AtaSecurityErase, fakeAta(failing, opened), {}, &*active);
    REQUIRE_FALSE(broken);
    CHECK(failing.finished());
    auto status = store.status(device::driveKey(device));
    REQUIRE(status);
    REQUIRE(status->journal);
    CHECK(status->journal->state == EraseState::Failed);
    const std::string password = status->journal->ataPassword;
    CHECK_THAT(password, Catch::StartsWith("SSDK"));
    CHECK_THAT(broken.error().describe(), Catch::Contains(password));

    // erase.probe is a read any user may run: it says a password is on record, never which.
    SystemProcessRunner runner;
    test::AllowAll authorizer;
    helper::HelperService service(authorizer);
    helper::addMaintenanceVerbs(service, runner, systemTransports(), store);
    const std::string line = Json{{"id", 1},
                                  {"verb", maintenance::kVerbEraseProbe},
                                  {"args", {{"device", drive.devicePath}}}}
                                 .dump();
    const std::string reply = service.handleLine(line);
    const Json probe = parseJson(reply, "probe").value();
    REQUIRE(probe["ok"] == true);
    CHECK(probe["result"]["last_erase"]["state"] == "failed");
    CHECK(probe["result"]["last_erase"]["ata_password"] == "");
    CHECK(probe["result"]["last_erase"]["ata_password_withheld"] == true);
    CHECK_THAT(probe["result"]["last_erase"]["error"].get<std::string>(),
               Catch::Contains("(withheld)"));
    CHECK(reply.find(password) == std::string::npos);
    // The journal itself keeps it for the next run.
    CHECK(store.status(device::driveKey(device))->journal->ataPassword == password);
}
