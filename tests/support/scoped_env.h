#pragma once
// ScopedEnv: sets an environment variable for one scope (child processes inherit it) and puts
// back what was there before, or unsets it.

#include <cstdlib>
#include <optional>
#include <string>

namespace ssdk::test {

class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value)
        : m_name(name) {
        if (const char* old = std::getenv(name)) {
            m_old = old;
        }
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() {
        if (m_old) {
            ::setenv(m_name, m_old->c_str(), 1);
        } else {
            ::unsetenv(m_name);
        }
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* m_name;
    std::optional<std::string> m_old;
};

} // namespace ssdk::test
