#include "core/base/unique_fd.h"

#include <unistd.h>

namespace ssdk {

void UniqueFd::reset(int fd) {
    if (m_fd >= 0) {
        ::close(m_fd);
    }
    m_fd = fd;
}

} // namespace ssdk
