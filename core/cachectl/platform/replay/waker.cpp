#include "core/cachectl/waker.h"

#include "core/base/platform/replay/unavailable.h"

namespace ssdk::cachectl {

// Standard C++ has no pollable descriptor to make: the Waker is never valid() here.
Waker::Waker()
    : m_creationErrno(replay::kUnavailableErrno) {}

void Waker::wake() const {}

bool Waker::drain() const {
    return false;
}

} // namespace ssdk::cachectl
