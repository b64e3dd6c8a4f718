#pragma once
// A scripted NvmeAdmin: each expected command (opcode and dwords, data size and direction)
// with the status to answer and the data to return. Every submitted command is checked
// against the next expectation; data sent to the device is kept for inspection.

#include <cstdint>
#include <deque>
#include <vector>

#include "core/firmware/nvme_admin.h"

namespace ssdk::firmware::test {

struct ExpectedCommand {
    AdminCommand command;
    std::size_t dataSize = 0;
    bool toDevice = false;
    std::uint16_t status = 0;
    std::vector<std::uint8_t> reply; // copied into the buffer for reads
};

class FakeNvmeAdmin final : public NvmeAdmin {
public:
    void expect(ExpectedCommand command) { m_script.push_back(std::move(command)); }
    void expectSlotLog(const std::vector<std::uint8_t>& log, std::uint16_t status = 0);
    void expectIdentify(const std::vector<std::uint8_t>& data, std::uint16_t status = 0);

    Expected<AdminReply> submit(const AdminCommand& command, std::span<std::uint8_t> data,
                                bool toDevice) override;

    bool scriptDone() const { return m_script.empty(); }
    std::size_t unexpectedCommands() const { return m_unexpected; }
    const std::vector<std::uint8_t>& sent() const { return m_sent; }

private:
    std::deque<ExpectedCommand> m_script;
    std::size_t m_unexpected = 0;
    std::vector<std::uint8_t> m_sent;
};

// Identify Controller bytes with the firmware fields set.
std::vector<std::uint8_t> identifyController(bool fwCommands, std::uint8_t frmw, std::uint8_t fwug,
                                             const std::string& revision = "1.0");
// A slot log with AFI and the revisions of slots 1…n.
std::vector<std::uint8_t> slotLog(std::uint8_t afi, const std::vector<std::string>& revisions);

} // namespace ssdk::firmware::test
