// ssdkeeperctl monitor and bench --pick against real I/O on lab drives (root): monitor's JSON
// lines account for the bytes dd wrote while it sampled; its table, usage errors and a
// missing device; a real CDM run saves and prints the average of its loops when asked.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <thread>

#include "core/base/system_process_runner.h"
#include "core/lab/lab.h"
#include "tests/integration/lab/lab_scratch.h"
#include "tests/support/run_tool.h"

using namespace ssdk;
using namespace ssdk::test;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty()) {
            lines.push_back(line);
        }
    }
    return lines;
}

const std::string kCtl = std::string(SSDK_BINARY_DIR) + "/bin/ssdkeeperctl";

// A command's output lines as they come (a thread reads them), so a test can act once the
// first one is out instead of after a guessed delay.
class MonitorLines {
public:
    explicit MonitorLines(const std::string& command)
        : m_reader([this, command] { read(command); }) {}
    ~MonitorLines() {
        if (m_reader.joinable()) {
            m_reader.join();
        }
    }

    bool waitForFirst(std::chrono::seconds timeout) {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, timeout, [this] { return !m_lines.empty() || m_ended; }) &&
               !m_lines.empty();
    }
    // Waits for the command to end: its wait status and every line it wrote.
    std::pair<int, std::vector<std::string>> finish() {
        m_reader.join();
        return {m_status, m_lines};
    }

private:
    void read(const std::string& command) {
        FILE* out = ::popen(command.c_str(), "r");
        char buffer[4096];
        while (out != nullptr && std::fgets(buffer, sizeof buffer, out) != nullptr) {
            std::string line(buffer);
            while (!line.empty() && line.back() == '\n') {
                line.pop_back();
            }
            const std::lock_guard lock(m_mutex);
            m_lines.push_back(line);
            m_changed.notify_all();
        }
        const int status = out != nullptr ? ::pclose(out) : -1;
        const std::lock_guard lock(m_mutex);
        m_status = status;
        m_ended = true;
        m_changed.notify_all();
    }

    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<std::string> m_lines;
    int m_status = -1;
    bool m_ended = false;
    std::thread m_reader; // last: starts once the members it uses exist
};

} // namespace

TEST_CASE_METHOD(LabBench, "monitor --json: one object per sample whose bytes account for dd's",
                 "[perf][cli]") {
    const auto drive = createLabDrive(manager, "perf-monitor", Bytes::mib(256));
    const std::string name = fs::path(drive.devicePath).filename().string();

    // 25 samples of 200 ms (5 s); dd writes 64 MiB once the first sample is out (so that one
    // saw no writes), well inside the window.
    constexpr int kSamples = 25;
    constexpr double kDdBytes = 64.0 * 1024 * 1024;
    MonitorLines monitored(kCtl + " monitor " + drive.devicePath +
                           " --json --interval 200 --count " + std::to_string(kSamples));
    REQUIRE(monitored.waitForFirst(std::chrono::seconds(30)));
    const auto dd = processes.run({.argv = {"dd", "if=/dev/zero", "of=" + drive.devicePath, "bs=1M",
                                            "count=64", "oflag=direct"}});
    const auto [status, lines] = monitored.finish();
    REQUIRE(dd);
    INFO(dd->standardError);
    REQUIRE(dd->exitCode == 0);
    INFO(fmt::format("{}", fmt::join(lines, "\n")));
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    REQUIRE(lines.size() == kSamples);
    const std::set<std::string> fields{
        "time",      "device",     "interval_s",     "read_bytes_per_s", "write_bytes_per_s",
        "read_iops", "write_iops", "avg_latency_ms", "queue_depth"};
    double written = 0;
    double previousTime = 0;
    int busy = 0;
    for (const auto& line : lines) {
        const auto sample = parseJson(line, "a monitor line");
        REQUIRE(sample);
        REQUIRE(sample->is_object());
        std::set<std::string> keys;
        for (const auto& [key, value] : sample->items()) {
            keys.insert(key);
            if (key != "device") {
                CHECK(value.is_number());
            }
        }
        CHECK(keys == fields);
        CHECK((*sample)["device"] == name);
        const double interval = (*sample)["interval_s"].get<double>();
        CHECK(interval > 0.15);
        CHECK(interval < 0.6);
        const double time = (*sample)["time"].get<double>();
        CHECK(time > previousTime);
        previousTime = time;
        const double rate = (*sample)["write_bytes_per_s"].get<double>();
        written += rate * interval;
        busy += rate > 0 ? 1 : 0;
    }
    // The first sample (0.2 s) is before dd started; dd's writes land in the samples after.
    CHECK(parseJson(lines.front(), "first")->at("write_bytes_per_s").get<double>() == 0);
    CHECK(busy >= 1);
    CHECK(written == Approx(kDdBytes).epsilon(0.01));
    CHECK(previousTime == Approx(kSamples * 0.2).epsilon(0.2));

    // Human output: a header and one aligned row of seven numbers per sample.
    const auto table = runCtl({"monitor", name, "--interval", "200", "--count", "3"});
    INFO(table.standardOutput << table.standardError);
    REQUIRE(table.exitCode == 0);
    const auto rows = linesOf(table.standardOutput);
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].find("TIME_S") != std::string::npos);
    CHECK(rows[0].find("WRITE_MB/s") != std::string::npos);
    CHECK(rows[0].find("QD") != std::string::npos);
    for (std::size_t i = 1; i < rows.size(); ++i) {
        std::istringstream cells(rows[i]);
        std::vector<double> numbers;
        for (double value = 0; cells >> value;) {
            numbers.push_back(value);
        }
        CHECK(numbers.size() == 7);
        CHECK(cells.eof());
    }

    // Usage errors: exit 2, before anything is sampled.
    CHECK(runCtl({"monitor"}).exitCode == 2);
    CHECK(runCtl({"monitor", name, "--interval", "50"}).exitCode == 2);
    CHECK(runCtl({"monitor", name, "--count", "many"}).exitCode == 2);

    // A device that does not exist: exit 1 with a clear message, also as JSON.
    const auto missing = runCtl({"monitor", "/dev/ssdk-no-such-disk", "--count", "1"});
    CHECK(missing.exitCode == 1);
    CHECK(missing.standardError.find("no block device or partition named 'ssdk-no-such-disk'") !=
          std::string::npos);
    CHECK(missing.standardOutput.empty());
    const auto missingJson = runCtl({"--json", "monitor", "ssdk-no-such-disk", "--count", "1"});
    CHECK(missingJson.exitCode == 1);
    CHECK(stdoutJson(missingJson)["error"]["code"] == "not-found");

    REQUIRE(manager.destroy("perf-monitor"));
}

TEST_CASE("bench --pick average: a real CDM run saves and prints the mean of its loops",
          "[perf][cli]") {
    if (findExecutable("fio").empty()) {
        FAIL("fio is not installed (scripts/setup installs it)");
    }
    const ScratchState scratch;
    const fs::path dir = scratch.dir() / "bench";
    fs::create_directories(dir);
    const std::string output = (scratch.dir() / "average.json").string();

    const auto wrong = runCtl({"bench", dir.string(), "--preset", "cdm", "--pick", "median"});
    CHECK(wrong.exitCode == 2);
    CHECK(wrong.standardError.find("--pick") != std::string::npos);
    CHECK(fs::is_empty(dir));

    const auto run =
        runCtl({"bench", dir.string(), "--preset", "cdm", "--size", "16M", "--duration", "1",
                "--loops", "2", "--pick", "average", "--output", output, "--csv", output + ".csv"});
    INFO(run.standardOutput << run.standardError);
    REQUIRE(run.exitCode == 0);
    CHECK(run.standardOutput.find("average of 2 loops per test") != std::string::npos);
    CHECK(fs::is_empty(dir)); // the test file is gone

    std::ifstream in(output);
    std::stringstream content;
    content << in.rdbuf();
    const auto json = parseJson(content.str(), output);
    REQUIRE(json);
    CHECK((*json)["parameters"]["pick"] == "average");
    CHECK((*json)["parameters"]["loops"] == 2);
    CHECK((*json)["analysis"]["cdm_pick"] == "average");
    // The saved table is the mean of the two SEQ1M Q8T1 read loops fio measured.
    double sum = 0;
    int loops = 0;
    for (const auto& job : (*json)["fio"]["jobs"]) {
        if (job["name"].get<std::string>().starts_with("SEQ1MQ8T1-read#")) {
            sum += job["read"]["bw_bytes"].get<double>();
            ++loops;
        }
    }
    REQUIRE(loops == 2);
    const Json& first = (*json)["analysis"]["cdm"][0];
    CHECK(first["test"] == "SEQ1M Q8T1");
    CHECK(first["read_bytes_per_s"].get<double>() == Approx(sum / 2));
    const std::string printed = fmt::format("{:.2f} MB/s", sum / 2 / 1e6);
    CHECK(run.standardOutput.find(printed) != std::string::npos);
}
