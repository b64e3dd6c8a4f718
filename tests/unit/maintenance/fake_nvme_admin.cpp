#include "tests/unit/maintenance/fake_nvme_admin.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>

#include "core/maintenance/transport/nvme_commands.h"

namespace ssdk::test {

using maintenance::transport::NvmeAdmin;
using maintenance::transport::NvmeAdminCommand;
using maintenance::transport::NvmeCompletion;
using maintenance::transport::NvmeDataDirection;

namespace {

// What factory() hands out: every call reaches the one scripted fake.
class FakeNvmeAdminView final : public NvmeAdmin {
public:
    explicit FakeNvmeAdminView(FakeNvmeAdmin& fake)
        : m_fake(fake) {}
    Expected<std::uint32_t> namespaceId() override { return m_fake.namespaceId(); }
    Expected<NvmeCompletion> submit(const NvmeAdminCommand& command,
                                    std::span<std::uint8_t> data) override {
        return m_fake.submit(command, data);
    }

private:
    FakeNvmeAdmin& m_fake;
};

} // namespace

Expected<std::uint32_t> FakeNvmeAdmin::namespaceId() {
    if (!m_nsid) {
        return failErrno(ENOTTY, "reading the namespace id");
    }
    return *m_nsid;
}

Expected<NvmeCompletion> FakeNvmeAdmin::submit(const NvmeAdminCommand& command,
                                               std::span<std::uint8_t> data) {
    m_opcodes.push_back(command.opcode);
    if (m_script.empty()) {
        ++m_unexpected;
        FAIL_CHECK("unexpected NVMe command, opcode " << int{command.opcode});
        return fail(ErrorCode::Internal, "unexpected command");
    }
    const NvmeScriptStep next = m_script.front();
    if (!next.repeats) {
        m_script.pop_front();
    }
    const NvmeAdminCommand& want = next.command;
    INFO("opcode " << int{command.opcode} << " nsid " << command.nsid << " cdw10 " << command.cdw10
                   << " cdw11 " << command.cdw11);
    CHECK(checkDataTransfer(command, data.size()).has_value());
    CHECK(int{command.opcode} == int{want.opcode});
    CHECK(command.nsid == want.nsid);
    CHECK(command.cdw10 == want.cdw10);
    CHECK(command.cdw11 == want.cdw11);
    CHECK(command.cdw12 == want.cdw12);
    CHECK(command.cdw13 == want.cdw13);
    CHECK(command.cdw14 == want.cdw14);
    CHECK(command.cdw15 == want.cdw15);
    CHECK(static_cast<int>(command.direction) == static_cast<int>(want.direction));
    CHECK(command.timeout.count() == want.timeout.count());
    CHECK(data.size() == next.dataSize);
    if (next.failure) {
        return std::unexpected(*next.failure);
    }
    if (command.direction == NvmeDataDirection::ToDevice) {
        m_sent.insert(m_sent.end(), data.begin(), data.end());
    } else if (command.direction == NvmeDataDirection::FromDevice) {
        std::copy_n(next.reply.begin(), std::min(data.size(), next.reply.size()), data.begin());
    }
    return NvmeCompletion{next.status, next.result};
}

bool FakeNvmeAdmin::scriptDone() const {
    return std::all_of(m_script.begin(), m_script.end(),
                       [](const NvmeScriptStep& step) { return step.repeats; });
}

maintenance::transport::NvmeAdminFactory FakeNvmeAdmin::factory() {
    return [this](const std::string&) -> Expected<std::unique_ptr<NvmeAdmin>> {
        return std::make_unique<FakeNvmeAdminView>(*this);
    };
}

} // namespace ssdk::test
