#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "core/base/job.h"

using namespace ssdk;

namespace {

// Appends its name to a shared log when it runs; fails when told to.
class LoggingJob final : public Job {
public:
    LoggingJob(std::string name, std::vector<std::string>& ran, bool fails = false)
        : m_name(std::move(name))
        , m_ran(ran)
        , m_fails(fails) {}
    std::string_view name() const override { return m_name; }
    std::string describe() const override { return "Doing " + m_name; }
    Expected<void> run() override {
        m_ran.push_back(m_name);
        if (m_fails) {
            return fail(ErrorCode::Io, "the disk said no");
        }
        return {};
    }

private:
    std::string m_name;
    std::vector<std::string>& m_ran;
    bool m_fails;
};

} // namespace

TEST_CASE("runJobs records each job started before it runs and done after", "[job]") {
    std::vector<std::string> ran;
    std::vector<std::unique_ptr<Job>> jobs;
    jobs.push_back(std::make_unique<LoggingJob>("first", ran));
    jobs.push_back(std::make_unique<LoggingJob>("second", ran));
    std::vector<JobState> states(2, JobState::Pending);
    std::vector<std::vector<JobState>> recorded;
    std::vector<std::string> events;
    auto done = runJobs(
        jobs, states,
        [&]() -> Expected<void> {
            recorded.push_back(states);
            return {};
        },
        [&](const JobEvent& event) {
            events.push_back(event.name + (event.finished ? " done" : " start") + " " +
                             std::to_string(event.index) + "/" + std::to_string(event.count));
        },
        "test");
    REQUIRE(done);
    CHECK(ran == std::vector<std::string>{"first", "second"});
    using S = JobState;
    CHECK(recorded == std::vector<std::vector<JobState>>{{S::Started, S::Pending},
                                                         {S::Done, S::Pending},
                                                         {S::Done, S::Started},
                                                         {S::Done, S::Done}});
    CHECK(events == std::vector<std::string>{"first start 0/2", "first done 0/2",
                                             "second start 1/2", "second done 1/2"});
}

TEST_CASE("runJobs skips done jobs, and stops at a failing one, which stays started", "[job]") {
    std::vector<std::string> ran;
    std::vector<std::unique_ptr<Job>> jobs;
    jobs.push_back(std::make_unique<LoggingJob>("backup", ran));
    jobs.push_back(std::make_unique<LoggingJob>("shrink", ran, true));
    jobs.push_back(std::make_unique<LoggingJob>("verify", ran));
    std::vector<JobState> states{JobState::Done, JobState::Pending, JobState::Pending};
    auto done = runJobs(
        jobs, states, [] { return Expected<void>(); }, {}, "test");
    REQUIRE_FALSE(done);
    CHECK(done.error().describe().find("Doing shrink") != std::string::npos);
    CHECK(done.error().describe().find("the disk said no") != std::string::npos);
    CHECK(ran == std::vector<std::string>{"shrink"});
    CHECK(states == std::vector<JobState>{JobState::Done, JobState::Started, JobState::Pending});
}

TEST_CASE("runJobs runs nothing when the record cannot be written", "[job]") {
    std::vector<std::string> ran;
    std::vector<std::unique_ptr<Job>> jobs;
    jobs.push_back(std::make_unique<LoggingJob>("first", ran));
    std::vector<JobState> states{JobState::Pending};
    auto done = runJobs(
        jobs, states, [] { return Expected<void>(fail(ErrorCode::Io, "disk full")); }, {}, "test");
    REQUIRE_FALSE(done);
    CHECK(ran.empty());
}

TEST_CASE("job states read back from their names, and nothing else", "[job]") {
    for (JobState state : {JobState::Pending, JobState::Started, JobState::Done}) {
        CHECK(jobStateFromString(toString(state)) == state);
    }
    CHECK_FALSE(jobStateFromString("finished"));
}
