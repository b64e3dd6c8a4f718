// Erasure's NVMe admin commands: the opcode and dwords of each builder, the data-transfer
// contract of the admin seam, and the functions that send them, against the scripted
// controller.
#include <catch2/catch.hpp>

#include "core/maintenance/transport/nvme_commands.h"
#include "tests/unit/maintenance/fake_nvme_admin.h"

using namespace ssdk;
using namespace ssdk::maintenance::transport;
using namespace std::chrono_literals;
using ssdk::test::FakeNvmeAdmin;

TEST_CASE("Identify and Get Log Page dwords") {
    const auto controller = identifyControllerCommand();
    CHECK(controller.opcode == 0x06);
    CHECK(controller.nsid == 0);
    CHECK(controller.cdw10 == 0x01); // CNS 01h
    CHECK(controller.cdw11 == 0);
    CHECK(controller.direction == NvmeDataDirection::FromDevice);
    CHECK(controller.timeout == 0ms);

    const auto ns = identifyNamespaceCommand(7);
    CHECK(ns.opcode == 0x06);
    CHECK(ns.nsid == 7);
    CHECK(ns.cdw10 == 0x00); // CNS 00h
    CHECK(ns.direction == NvmeDataDirection::FromDevice);

    const auto log = getLogPageCommand(0x81, kNvmeNsidAll, 512);
    CHECK(log.opcode == 0x02);
    CHECK(log.nsid == 0xFFFFFFFF);
    CHECK(log.cdw10 == (0x81U | (127U << 16))); // LID, NUMDL zero-based, RAE 0
    CHECK(log.cdw11 == 0);
    CHECK(log.cdw12 == 0);
    CHECK(log.cdw13 == 0);
    CHECK(log.cdw14 == 0);
    CHECK(log.direction == NvmeDataDirection::FromDevice);
}

TEST_CASE("Format NVM CDW10: LBAF, MSET, PI, PIL, SES, LBAFU") {
    const auto crypto = formatNvmCommand(1, 1, NvmeSecureErase::Cryptographic, 24h);
    CHECK(crypto.opcode == 0x80);
    CHECK(crypto.nsid == 1);
    CHECK(crypto.cdw10 == (1U | (2U << 9)));
    CHECK(crypto.direction == NvmeDataDirection::None);
    CHECK(crypto.timeout == 24h);
    // Format index 21 = 01 0101b: LBAF 5 in bits 3:0, LBAFU 1 in bits 13:12.
    const auto high = formatNvmCommand(3, 21, NvmeSecureErase::UserData, 1min);
    CHECK(high.nsid == 3);
    CHECK(high.cdw10 == (5U | (1U << 9) | (1U << 12)));
    CHECK(formatNvmCommand(1, 0, NvmeSecureErase::None, 1s).cdw10 == 0);
}

TEST_CASE("Sanitize CDW10 and the sanitize status log") {
    const auto block = sanitizeCommand(NvmeSanitizeAction::BlockErase);
    CHECK(block.opcode == 0x84);
    CHECK(block.nsid == 0);
    CHECK(block.cdw10 == 2);
    CHECK(block.cdw11 == 0);
    CHECK(block.direction == NvmeDataDirection::None);
    CHECK(block.timeout == 0ms);
    CHECK(sanitizeCommand(NvmeSanitizeAction::CryptoErase).cdw10 == 4);

    const std::uint8_t bytes[] = {0x00, 0x80, 0xFA, 0x01};
    auto parsed = parseSanitizeLog(bytes);
    REQUIRE(parsed);
    CHECK(parsed->progress == 0x8000);
    CHECK(parsed->lastStatus == 2); // SSTAT bits 2:0 only
    CHECK_FALSE(parseSanitizeLog(std::span(bytes, 3)));
}

TEST_CASE("the data buffer must agree with the direction and the opcode's transfer bits") {
    CHECK(checkDataTransfer(identifyControllerCommand(), 4096));
    CHECK(checkDataTransfer(sanitizeCommand(NvmeSanitizeAction::BlockErase), 0));
    NvmeAdminCommand download;
    download.opcode = 0x11;
    download.direction = NvmeDataDirection::ToDevice;
    CHECK(checkDataTransfer(download, 4096));

    auto extra = checkDataTransfer(sanitizeCommand(NvmeSanitizeAction::BlockErase), 512);
    REQUIRE_FALSE(extra);
    CHECK(extra.error().code() == ErrorCode::InvalidArgument);
    CHECK_THAT(extra.error().message(), Catch::Contains("0x84"));
    CHECK_FALSE(checkDataTransfer(identifyControllerCommand(), 0));
    NvmeAdminCommand backwards = identifyControllerCommand();
    backwards.direction = NvmeDataDirection::ToDevice;
    CHECK_FALSE(checkDataTransfer(backwards, 4096));
    NvmeAdminCommand noDataOpcode = sanitizeCommand(NvmeSanitizeAction::BlockErase);
    noDataOpcode.direction = NvmeDataDirection::FromDevice;
    CHECK_FALSE(checkDataTransfer(noDataOpcode, 512));
}

TEST_CASE("identify through the admin seam: a controller node needs no namespace id") {
    std::vector<std::uint8_t> data(4096, 0);
    data[0] = 0x1B;
    data[4095] = 0x36;
    FakeNvmeAdmin admin;
    admin.setNamespaceId(std::nullopt); // /dev/nvme0
    admin.expect({.command = identifyControllerCommand(), .dataSize = 4096, .reply = data});
    auto controller = identifyController(admin);
    REQUIRE(controller);
    CHECK((*controller)[0] == 0x1B);
    CHECK((*controller)[4095] == 0x36);

    auto ns = identifyNamespace(admin);
    REQUIRE_FALSE(ns);
    CHECK(ns.error().code() == ErrorCode::Unsupported);
    CHECK_THAT(ns.error().describe(), Catch::StartsWith("reading the namespace id"));
    CHECK(admin.scriptDone());
    CHECK(admin.opcodes().size() == 1); // nothing was sent for the namespace

    FakeNvmeAdmin namespaceNode;
    namespaceNode.setNamespaceId(5);
    namespaceNode.expect({.command = identifyNamespaceCommand(5), .dataSize = 4096});
    CHECK(identifyNamespace(namespaceNode));
    CHECK(namespaceNode.scriptDone());
}

TEST_CASE("erasure's commands: the namespace, the caller's timeout, and unmasked statuses") {
    FakeNvmeAdmin admin;
    admin.setNamespaceId(2);
    admin.expect({.command = formatNvmCommand(2, 1, NvmeSecureErase::UserData, 24h)});
    CHECK(formatNvm(admin, 1, NvmeSecureErase::UserData, 24h));

    // DNR | Invalid Field in Command: the whole status field is named.
    admin.expect(
        {.command = formatNvmCommand(2, 0, NvmeSecureErase::Cryptographic, 24h), .status = 0x4002});
    auto refused = formatNvm(admin, 0, NvmeSecureErase::Cryptographic, 24h);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code() == ErrorCode::Unsupported);
    CHECK(refused.error().describe() == "Format NVM: the controller returned NVMe status 0x4002");

    admin.expect({.command = sanitizeCommand(NvmeSanitizeAction::CryptoErase), .status = 0x1});
    auto sanitized = sanitize(admin, NvmeSanitizeAction::CryptoErase);
    REQUIRE_FALSE(sanitized);
    CHECK(sanitized.error().describe() == "Sanitize: the controller returned NVMe status 0x1");

    admin.expect({.command = sanitizeCommand(NvmeSanitizeAction::BlockErase),
                  .failure = Error(ErrorCode::Io, "NVMe admin command 132: Input/output error")});
    auto unsent = sanitize(admin, NvmeSanitizeAction::BlockErase);
    REQUIRE_FALSE(unsent);
    CHECK(unsent.error().code() == ErrorCode::Io);
    CHECK(unsent.error().describe() == "Sanitize: NVMe admin command 132: Input/output error");

    admin.expect({.command = getLogPageCommand(0x81, kNvmeNsidAll, 512),
                  .dataSize = 512,
                  .reply = {0x00, 0x40, 0x02, 0x00}});
    auto log = readSanitizeLog(admin);
    REQUIRE(log);
    CHECK(log->progress == 0x4000);
    CHECK(log->lastStatus == 2);

    admin.expect(
        {.command = getLogPageCommand(0x81, kNvmeNsidAll, 512), .dataSize = 512, .status = 0x109});
    auto noLog = readSanitizeLog(admin);
    REQUIRE_FALSE(noLog);
    CHECK(noLog.error().describe() ==
          "Sanitize Status log: the controller returned NVMe status 0x109");
    CHECK(admin.scriptDone());
    CHECK(admin.unexpectedCommands() == 0);
}
