#pragma once
// AllowAll: an Authorizer that allows every verb, for tests that call the helper's verbs
// in-process (the polkit path has tests of its own).

#include <string>

#include "helper/authorizer.h"

namespace ssdk::test {

class AllowAll final : public helper::Authorizer {
public:
    Expected<void> authorize(const std::string&) override { return {}; }
};

} // namespace ssdk::test
