// Secure erase on lab drives with the block-layer methods, the helper's guards, and the
// refusals the issue lists (system disk, mounted, wrong model).
#include <sys/stat.h>

#include "core/maintenance/erase/eraser.h"
#include "core/maintenance/erase/guards.h"
#include "helper/authorizer.h"
#include "helper/helper_service.h"
#include "helper/maintenance_verbs.h"
#include "tests/integration/maintenance/maintenance_scratch.h"
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

class AllowAll : public helper::Authorizer {
public:
    Expected<void> authorize(const std::string&) override { return {}; }
};

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
    AllowAll authorizer;
    helper::HelperService service(authorizer);
    helper::addMaintenanceVerbs(service, runner, systemTransports());
    auto call = [&](const Json& args) {
        const std::string line = Json{{"id", 7}, {"verb", "erase.run"}, {"args", args}}.dump();
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
    AllowAll authorizer;
    helper::HelperService service(authorizer);
    helper::addMaintenanceVerbs(service, runner, systemTransports());
    const std::string line =
        Json{{"id", 1}, {"verb", "erase.probe"}, {"args", {{"device", drive.devicePath}}}}.dump();
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
    step.cdb = ssdk::test::cdb({0x85, 0x08, 0x2E, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xEC, 0});
    step.direction = maintenance::transport::DataDirection::FromDevice;
    const auto data = ssdk::test::AtaIdentifyBuilder().model("Lab SATA").word(128, word128).build();
    step.dataIn.assign(data.begin(), data.end());
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
    ssdk::test::ScriptStep set;
    set.name = "set password";
    set.cdb = ssdk::test::cdb({0x85, 0x0A, 0x26, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xF1, 0});
    set.direction = maintenance::transport::DataDirection::ToDevice;
    set.anyData = true;
    fake.expect(set);
    ssdk::test::ScriptStep prepare;
    prepare.name = "erase prepare";
    prepare.cdb = ssdk::test::cdb({0x85, 0x06, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xF3, 0});
    fake.expect(prepare);
    ssdk::test::ScriptStep unit = set;
    unit.name = "erase unit";
    unit.cdb[14] = 0xF4;
    fake.expect(unit);
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

// A scripted NVMe controller: identify data, and a record of the admin commands it got.
class FakeNvme : public maintenance::transport::NvmeTransport {
public:
    std::array<std::uint8_t, 4096> controller{};
    std::array<std::uint8_t, 4096> ns{};
    std::vector<std::string> calls;
    std::vector<maintenance::transport::NvmeSanitizeLog> logs;

    Expected<std::array<std::uint8_t, 4096>> identifyController() override {
        calls.push_back("identify-controller");
        return controller;
    }
    Expected<std::array<std::uint8_t, 4096>> identifyNamespace() override {
        calls.push_back("identify-namespace");
        return ns;
    }
    Expected<void> format(std::uint8_t lbaFormat, maintenance::transport::NvmeSecureErase ses,
                          std::chrono::milliseconds) override {
        calls.push_back("format lbaf=" + std::to_string(lbaFormat) +
                        " ses=" + std::to_string(static_cast<int>(ses)));
        return {};
    }
    Expected<void> sanitize(maintenance::transport::NvmeSanitizeAction action) override {
        calls.push_back("sanitize " + std::to_string(static_cast<int>(action)));
        return {};
    }
    Expected<maintenance::transport::NvmeSanitizeLog> sanitizeLog() override {
        calls.push_back("sanitize-log");
        auto log = logs.front();
        if (logs.size() > 1) {
            logs.erase(logs.begin());
        }
        return log;
    }
};

class ForwardingNvme : public maintenance::transport::NvmeTransport {
public:
    explicit ForwardingNvme(NvmeTransport& target)
        : m_target(target) {}
    Expected<std::array<std::uint8_t, 4096>> identifyController() override {
        return m_target.identifyController();
    }
    Expected<std::array<std::uint8_t, 4096>> identifyNamespace() override {
        return m_target.identifyNamespace();
    }
    Expected<void> format(std::uint8_t f, maintenance::transport::NvmeSecureErase s,
                          std::chrono::milliseconds t) override {
        return m_target.format(f, s, t);
    }
    Expected<void> sanitize(maintenance::transport::NvmeSanitizeAction a) override {
        return m_target.sanitize(a);
    }
    Expected<maintenance::transport::NvmeSanitizeLog> sanitizeLog() override {
        return m_target.sanitizeLog();
    }

private:
    NvmeTransport& m_target;
};

} // namespace

TEST_CASE("NVMe format and sanitize are chosen from identify data and sequenced", "[maintenance]") {
    const MaintenanceScratch scratch;
    const auto drive = makeLabDrive("maint-nvme", Bytes::mib(64), "empty");
    device::Device device = discover(drive.devicePath);
    device.bus = device::Bus::Nvme;
    FakeNvme nvme;
    nvme.controller[256] = 0x02; // OACS: Format NVM
    nvme.controller[328] = 0x02; // SANICAP: block erase
    nvme.controller[524] = 0x04; // FNA: crypto erase
    nvme.ns[26] = 1;             // FLBAS: LBA format 1
    nvme.ns[128 + 4 + 2] = 12;   // LBAF1: 4096-byte blocks
    TransportFactory factory;
    factory.nvme = [&nvme](const std::string&)
        -> Expected<std::unique_ptr<maintenance::transport::NvmeTransport>> {
        return std::make_unique<ForwardingNvme>(nvme);
    };
    const auto caps = probeCapabilities(device, factory);
    REQUIRE(caps.nvme);
    CHECK(chooseMethod(caps, "auto") == Method::NvmeSanitizeBlock);
    CHECK_FALSE(chooseMethod(caps, "nvme-sanitize-crypto"));

    nvme.calls.clear();
    auto formatted = eraseDevice(device, Method::NvmeFormatCrypto, factory);
    REQUIRE(formatted);
    CHECK(nvme.calls == std::vector<std::string>{"identify-namespace", "format lbaf=1 ses=2"});

    nvme.calls.clear();
    nvme.logs = {{0x8000, 2}, {0xFFFF, 1}};
    auto sanitized = eraseDevice(device, Method::NvmeSanitizeBlock, factory);
    REQUIRE(sanitized);
    CHECK(nvme.calls == std::vector<std::string>{"sanitize 2", "sanitize-log", "sanitize-log"});

    nvme.calls.clear();
    nvme.logs = {{0, 3}};
    auto failed = eraseDevice(device, Method::NvmeSanitizeBlock, factory);
    REQUIRE_FALSE(failed);
    CHECK_THAT(failed.error().describe(), Catch::Contains("sanitize failed"));
}
