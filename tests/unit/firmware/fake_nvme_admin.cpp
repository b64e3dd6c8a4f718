#include "tests/unit/firmware/fake_nvme_admin.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>

namespace ssdk::firmware::test {

void FakeNvmeAdmin::expectSlotLog(const std::vector<std::uint8_t>& log, std::uint16_t status) {
    expect({slotLogCommand(), 512, false, status, log});
}

void FakeNvmeAdmin::expectIdentify(const std::vector<std::uint8_t>& data, std::uint16_t status) {
    expect({identifyControllerCommand(), 4096, false, status, data});
}

Expected<AdminReply> FakeNvmeAdmin::submit(const AdminCommand& command,
                                           std::span<std::uint8_t> data, bool toDevice) {
    if (m_script.empty()) {
        ++m_unexpected;
        FAIL_CHECK("unexpected NVMe command, opcode " << int{command.opcode});
        return fail(ErrorCode::Internal, "unexpected command");
    }
    ExpectedCommand next = m_script.front();
    m_script.pop_front();
    INFO("opcode " << int{command.opcode} << " cdw10 " << command.cdw10 << " cdw11 "
                   << command.cdw11);
    CHECK(command.opcode == next.command.opcode);
    CHECK(command.nsid == next.command.nsid);
    CHECK(command.cdw10 == next.command.cdw10);
    CHECK(command.cdw11 == next.command.cdw11);
    CHECK(command.cdw12 == next.command.cdw12);
    CHECK(data.size() == next.dataSize);
    CHECK(toDevice == next.toDevice);
    if (toDevice) {
        m_sent.insert(m_sent.end(), data.begin(), data.end());
    } else if (!next.reply.empty()) {
        std::memcpy(data.data(), next.reply.data(), std::min(data.size(), next.reply.size()));
    }
    return AdminReply{next.status, 0};
}

std::vector<std::uint8_t> identifyController(bool fwCommands, std::uint8_t frmw, std::uint8_t fwug,
                                             const std::string& revision) {
    std::vector<std::uint8_t> data(4096, 0);
    const std::string serial = "SN0001";
    const std::string model = "QEMU NVMe Ctrl";
    std::fill(data.begin() + 4, data.begin() + 72, ' ');
    std::memcpy(data.data() + 4, serial.data(), serial.size());
    std::memcpy(data.data() + 24, model.data(), model.size());
    std::memcpy(data.data() + 64, revision.data(), std::min<std::size_t>(8, revision.size()));
    data[256] = fwCommands ? 0x06 : 0x02; // OACS: format (bit 1) and firmware (bit 2)
    data[258] = 50;                       // MTFA: 5 s
    data[260] = frmw;
    data[319] = fwug;
    return data;
}

std::vector<std::uint8_t> slotLog(std::uint8_t afi, const std::vector<std::string>& revisions) {
    std::vector<std::uint8_t> log(512, 0);
    log[0] = afi;
    for (std::size_t i = 0; i < revisions.size() && i < 7; ++i) {
        std::memcpy(log.data() + 8 + i * 8, revisions[i].data(),
                    std::min<std::size_t>(8, revisions[i].size()));
    }
    return log;
}

} // namespace ssdk::firmware::test
