#pragma once
// A scripted ScsiTransport: each step names the exact 16 CDB bytes it expects, the data block
// it expects to receive (for data-out) or returns (data-in), and the ATA registers to answer
// with. Any deviation from the script fails the test at the step it happens.

#include <array>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "core/maintenance/transport/scsi_transport.h"

namespace ssdk::test {

struct ScriptStep {
    std::string name;
    std::array<std::uint8_t, 16> cdb{};
    maintenance::transport::DataDirection direction = maintenance::transport::DataDirection::None;
    std::vector<std::uint8_t> expectedOut; // data-out: the exact block
    bool anyData = false; // data-out of 512 bytes whose content is not known (a random password)
    std::vector<std::uint8_t> dataIn; // data-in: what the device returns
    std::uint8_t ataStatus = 0x50;    // DRDY | DSC
    std::uint8_t ataError = 0;
    std::uint16_t count = 0;
    std::uint64_t lba = 0;
    // Instead of ATA registers: fixed sense with this key/ASC (a bridge refusing the CDB).
    std::optional<std::pair<std::uint8_t, std::uint8_t>> scsiSense;
    std::uint8_t hostStatus = 0;
};

class FakeScsiTransport : public maintenance::transport::ScsiTransport {
public:
    void expect(ScriptStep step) { m_script.push_back(std::move(step)); }
    bool finished() const { return m_script.empty(); }
    const std::vector<std::string>& sent() const { return m_sent; }

    Expected<maintenance::transport::ScsiReply>
    execute(std::span<const std::uint8_t> cdb, maintenance::transport::DataDirection direction,
            std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) override;

private:
    std::deque<ScriptStep> m_script;
    std::vector<std::string> m_sent;
};

// The CDB a step expects, written out byte by byte in the test.
std::array<std::uint8_t, 16> cdb(std::initializer_list<int> bytes);

} // namespace ssdk::test
