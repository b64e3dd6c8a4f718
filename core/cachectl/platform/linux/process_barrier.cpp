#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/cachectl/engine/reader_slots.h"

namespace ssdk::cachectl::engine {

namespace {

long membarrier(int command) {
    return ::syscall(SYS_membarrier, command, 0, 0);
}

} // namespace

bool registerProcessBarrier() {
    const long commands = membarrier(MEMBARRIER_CMD_QUERY);
    return commands > 0 && (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0 &&
           membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

bool runProcessBarrier() {
    return membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0;
}

} // namespace ssdk::cachectl::engine
