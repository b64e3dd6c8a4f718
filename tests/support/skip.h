#pragma once
// Skipping a test case whose environment is missing (no root, no tracefs, / not on a block
// device, no /dev/fuse). Catch2 v2 has no SKIP: a `WARN(...); return;` counts as Passed, so a
// case that checked nothing looked the same as one that checked everything. Instead the process
// exits with 77, which CTest reports as "Skipped" (SKIP_RETURN_CODE 77 on every test), and
// scripts/test fails the run unless tests/skip-allowlist.txt allows that skip.
//
// A missing tool is not an environment: scripts/setup installs it, and the test REQUIREs it.
//
// skipTest() ends the whole process, not only the current test case. That is right under CTest,
// which runs one Catch test case per process (catch_discover_tests); run by hand without a test
// name, the test cases after the skipped one do not run.
//
// Call it before the test case makes anything that needs cleaning up (lab drives, loop devices,
// mounts, temporary directories): no destructor of the test case runs. It uses std::_Exit, not
// std::exit: std::exit would run the destructors of static objects and the atexit handlers
// (the GUI tests' handler waits for Qt's thread pool; spdlog's and Catch's registries) while the
// test case's own objects, the running Catch session and the QApplication that is never
// destroyed are still alive, which can crash or hang a skip into something else. Output is
// flushed by hand first, since std::_Exit does not flush.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string_view>

namespace ssdk::test {

inline constexpr int kSkipExitCode = 77;

[[noreturn]] inline void skipTest(std::string_view why) {
    std::cout.flush();
    std::clog.flush();
    std::fprintf(stderr, "SKIPPED: %.*s\n", static_cast<int>(why.size()), why.data());
    std::fflush(nullptr);
    std::_Exit(kSkipExitCode);
}

} // namespace ssdk::test
