#pragma once
// A minimal blocking NBD client over the protocol codec, for driving the server in unit
// tests (one request at a time; the integration tests use libnbd instead).

#include <cstring>
#include <optional>
#include <string>
#include <sys/socket.h>
#include <vector>

#include "core/cachectl/nbd/protocol.h"
#include "core/cachectl/nbd/socket_io.h"

namespace ssdk::testing {

namespace nbd = cachectl::nbd;

struct OptionAnswer {
    std::uint32_t option = 0;
    std::uint32_t type = 0;
    std::vector<std::byte> payload;
};

class NbdTestClient {
public:
    explicit NbdTestClient(int fd)
        : m_fd(fd) {}

    // Reads the greeting and sends the client flags.
    bool greet(std::uint32_t clientFlags = nbd::kClientFlagFixedNewstyle |
                                           nbd::kClientFlagNoZeroes) {
        std::array<std::byte, 18> greeting{};
        if (!nbd::readExact(m_fd, greeting) || greeting != nbd::encodeServerGreeting()) {
            return false;
        }
        std::array<std::byte, 4> flags{};
        nbd::putBe32(flags.data(), clientFlags);
        return nbd::writeAll(m_fd, flags).has_value();
    }

    bool sendOption(std::uint32_t option, std::span<const std::byte> data) {
        std::vector<std::byte> message(16 + data.size());
        nbd::putBe64(message.data(), nbd::kOptionMagic);
        nbd::putBe32(message.data() + 8, option);
        nbd::putBe32(message.data() + 12, static_cast<std::uint32_t>(data.size()));
        std::copy(data.begin(), data.end(), message.begin() + 16);
        return nbd::writeAll(m_fd, message).has_value();
    }

    std::optional<OptionAnswer> readOptionReply() {
        std::array<std::byte, 20> header{};
        if (!nbd::readExact(m_fd, header) ||
            nbd::getBe64(header.data()) != nbd::kOptionReplyMagic) {
            return std::nullopt;
        }
        OptionAnswer answer{.option = nbd::getBe32(header.data() + 8),
                            .type = nbd::getBe32(header.data() + 12),
                            .payload = std::vector<std::byte>(nbd::getBe32(header.data() + 16))};
        if (!nbd::readExact(m_fd, answer.payload)) {
            return std::nullopt;
        }
        return answer;
    }

    static std::vector<std::byte> infoData(std::string_view name,
                                           std::vector<std::uint16_t> requests = {}) {
        std::vector<std::byte> data(4 + name.size() + 2 + 2 * requests.size());
        nbd::putBe32(data.data(), static_cast<std::uint32_t>(name.size()));
        std::memcpy(data.data() + 4, name.data(), name.size());
        nbd::putBe16(data.data() + 4 + name.size(), static_cast<std::uint16_t>(requests.size()));
        for (std::size_t i = 0; i < requests.size(); ++i) {
            nbd::putBe16(data.data() + 6 + name.size() + 2 * i, requests[i]);
        }
        return data;
    }

    // NBD_OPT_GO; on success returns the export size and transmission flags.
    std::optional<std::pair<std::uint64_t, std::uint16_t>> go(std::string_view name) {
        if (!greet() || !sendOption(static_cast<std::uint32_t>(nbd::Option::Go), infoData(name))) {
            return std::nullopt;
        }
        std::optional<std::pair<std::uint64_t, std::uint16_t>> result;
        while (auto answer = readOptionReply()) {
            if (answer->type == static_cast<std::uint32_t>(nbd::OptionReply::Ack)) {
                return result;
            }
            if (answer->type != static_cast<std::uint32_t>(nbd::OptionReply::Info)) {
                return std::nullopt;
            }
            if (nbd::getBe16(answer->payload.data()) == 0) {
                result = std::pair{nbd::getBe64(answer->payload.data() + 2),
                                   nbd::getBe16(answer->payload.data() + 10)};
            }
        }
        return std::nullopt;
    }

    bool send(nbd::Command command, std::uint64_t offset, std::uint32_t length,
              std::uint16_t flags = 0, std::span<const std::byte> payload = {},
              std::uint64_t cookie = 1) {
        const auto header =
            nbd::encodeRequestHeader(nbd::Request{.flags = flags,
                                                  .type = static_cast<std::uint16_t>(command),
                                                  .cookie = cookie,
                                                  .offset = offset,
                                                  .length = length});
        return nbd::writeAll(m_fd, header) && nbd::writeAll(m_fd, payload);
    }

    // The reply's error (0 = success), reading dataLength bytes of data on success.
    std::optional<std::uint32_t> receive(std::vector<std::byte>* data = nullptr,
                                         std::size_t dataLength = 0,
                                         std::uint64_t* cookie = nullptr) {
        std::array<std::byte, nbd::kSimpleReplySize> header{};
        if (!nbd::readExact(m_fd, header)) {
            return std::nullopt;
        }
        auto reply = nbd::parseSimpleReply(header);
        if (!reply) {
            return std::nullopt;
        }
        if (cookie) {
            *cookie = reply->cookie;
        }
        if (reply->error == 0 && data) {
            data->resize(dataLength);
            if (!nbd::readExact(m_fd, *data)) {
                return std::nullopt;
            }
        }
        return reply->error;
    }

    std::optional<std::uint32_t> call(nbd::Command command, std::uint64_t offset,
                                      std::uint32_t length, std::uint16_t flags = 0,
                                      std::span<const std::byte> payload = {},
                                      std::vector<std::byte>* data = nullptr) {
        if (!send(command, offset, length, flags, payload)) {
            return std::nullopt;
        }
        return receive(data, command == nbd::Command::Read ? length : 0);
    }

    int fd() const { return m_fd; }

private:
    int m_fd;
};

} // namespace ssdk::testing
