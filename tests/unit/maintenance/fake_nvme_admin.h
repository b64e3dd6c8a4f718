#pragma once
// A scripted NvmeAdmin, the one fake behind every NVMe test (erase and firmware): each step
// names the exact command it expects (opcode, NSID, CDW10-15, direction, timeout) and the size
// of its data buffer, and answers with a status and result, data to read back, or an error.
// A command that differs from the next step fails the test at that command.

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "core/maintenance/transport/nvme_admin.h"

namespace ssdk::test {

struct NvmeScriptStep {
    maintenance::transport::NvmeAdminCommand command;
    std::size_t dataSize = 0;        // the buffer the caller passes
    std::uint16_t status = 0;        // unmasked, as the controller completes it
    std::uint32_t result = 0;        // completion dword 0
    std::vector<std::uint8_t> reply; // FromDevice: copied into the buffer (the rest stays)
    std::optional<Error> failure;    // answered instead of a completion: could not be sent
    // Stays the expected step for every later command: a controller stuck in one state (a
    // sanitize in progress that never ends).
    bool repeats = false;
};

class FakeNvmeAdmin final : public maintenance::transport::NvmeAdmin {
public:
    void expect(NvmeScriptStep step) { m_script.push_back(std::move(step)); }
    // std::nullopt: a controller node, whose namespaceId() fails as Linux's does (ENOTTY).
    void setNamespaceId(std::optional<std::uint32_t> nsid) { m_nsid = nsid; }

    Expected<std::uint32_t> namespaceId() override;
    Expected<maintenance::transport::NvmeCompletion>
    submit(const maintenance::transport::NvmeAdminCommand& command,
           std::span<std::uint8_t> data) override;

    // No step is left but a repeating one.
    bool scriptDone() const;
    std::size_t unexpectedCommands() const { return m_unexpected; }
    // The bytes of every ToDevice command, in order.
    const std::vector<std::uint8_t>& sent() const { return m_sent; }
    // The opcodes of every command submitted, in order.
    const std::vector<std::uint8_t>& opcodes() const { return m_opcodes; }

    // A factory whose every open answers a view of this fake; the fake outlives the views.
    maintenance::transport::NvmeAdminFactory factory();

private:
    std::deque<NvmeScriptStep> m_script;
    std::optional<std::uint32_t> m_nsid = 1;
    std::size_t m_unexpected = 0;
    std::vector<std::uint8_t> m_sent;
    std::vector<std::uint8_t> m_opcodes;
};

} // namespace ssdk::test
