#include "helper/line_reader.h"

#include <array>
#include <cerrno>
#include <unistd.h>
#include <utility>

namespace ssdk::helper {

LineReader::LineReader(int fd, std::size_t maxBytes)
    : m_fd(fd)
    , m_maxBytes(maxBytes) {}

Expected<std::optional<std::string>> LineReader::next() {
    std::array<char, 65536> chunk{};
    while (true) {
        if (const auto newline = m_buffer.find('\n'); newline != std::string::npos) {
            std::string line = m_buffer.substr(0, newline);
            m_buffer.erase(0, newline + 1);
            if (m_skipping || line.size() > m_maxBytes) {
                m_skipping = false;
                return fail(ErrorCode::Protocol, "a request line was longer than the limit of " +
                                                     std::to_string(m_maxBytes) + " bytes");
            }
            return line;
        }
        if (m_buffer.size() > m_maxBytes) {
            m_skipping = true;
            m_buffer.clear();
        }
        if (m_eof) {
            if (m_skipping) {
                m_skipping = false;
                return fail(ErrorCode::Protocol, "a request line was longer than the limit of " +
                                                     std::to_string(m_maxBytes) + " bytes");
            }
            if (m_buffer.empty()) {
                return std::optional<std::string>();
            }
            return std::optional<std::string>(std::exchange(m_buffer, {}));
        }
        const auto got = ::read(m_fd, chunk.data(), chunk.size());
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            m_eof = true;
            return failErrno(errno, "reading requests");
        }
        if (got == 0) {
            m_eof = true;
            continue;
        }
        m_buffer.append(chunk.data(), static_cast<std::size_t>(got));
    }
}

} // namespace ssdk::helper
