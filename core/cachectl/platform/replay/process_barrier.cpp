#include "core/cachectl/engine/reader_slots.h"

namespace ssdk::cachectl::engine {

// Standard C++ has no asymmetric fence: readers fall back to the symmetric one.
bool registerProcessBarrier() {
    return false;
}

bool runProcessBarrier() {
    return false;
}

} // namespace ssdk::cachectl::engine
