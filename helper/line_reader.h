#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/base/error.h"

namespace ssdk::helper {

// Reads '\n'-terminated lines from a file descriptor it does not own, holding at most
// maxBytes of one line in memory: a longer line is skipped up to its newline and reported
// as a Protocol error, after which reading goes on with the next line.
class LineReader {
public:
    LineReader(int fd, std::size_t maxBytes);

    // The next line without its '\n'; nothing at end of input (a final unterminated line is
    // still returned). Io errors from read() end the input.
    Expected<std::optional<std::string>> next();

private:
    int m_fd;
    std::size_t m_maxBytes;
    std::string m_buffer;
    bool m_skipping = false; // discarding the rest of an over-long line
    bool m_eof = false;
};

} // namespace ssdk::helper
