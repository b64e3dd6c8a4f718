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

namespace {

// A job that logs "run X" / "undo X" and fails where told.
std::unique_ptr<Job> recordingJob(const std::string& name, std::vector<std::string>& log,
                                  bool runFails = false, bool undoFails = false,
                                  bool undoable = true) {
    auto step = [&log, name](const char* what, bool fails) -> Expected<void> {
        log.push_back(std::string(what) + " " + name);
        if (fails) {
            return fail(ErrorCode::Io, what + std::string(" failed"));
        }
        return {};
    };
    std::function<Expected<void>()> undo;
    if (undoable) {
        undo = [step, undoFails] { return step("undo", undoFails); };
    }
    return functionJob(
        name, "Doing " + name, [step, runFails] { return step("run", runFails); }, undo);
}

} // namespace

TEST_CASE("runJobsOrUndo runs every job in order and reports each", "[job]") {
    std::vector<std::string> log;
    std::vector<std::unique_ptr<Job>> jobs;
    jobs.push_back(recordingJob("unmount", log));
    jobs.push_back(recordingJob("stack", log));
    std::vector<std::string> events;
    auto done = runJobsOrUndo(
        jobs,
        [&](const JobEvent& event) {
            events.push_back(event.description + (event.finished ? " done " : " start ") +
                             std::to_string(event.index) + "/" + std::to_string(event.count));
        },
        "test");
    REQUIRE(done);
    CHECK(log == std::vector<std::string>{"run unmount", "run stack"});
    CHECK(events == std::vector<std::string>{"Doing unmount start 0/2", "Doing unmount done 0/2",
                                             "Doing stack start 1/2", "Doing stack done 1/2"});
}

TEST_CASE("runJobsOrUndo undoes the finished jobs, newest first, when one fails", "[job]") {
    std::vector<std::string> log;
    std::vector<std::unique_ptr<Job>> jobs;
    jobs.push_back(recordingJob("unmount", log));
    jobs.push_back(recordingJob("stack", log));
    jobs.push_back(recordingJob("remount", log, /*runFails=*/true));
    jobs.push_back(recordingJob("never", log));
    auto done = runJobsOrUndo(jobs, {}, "test");
    REQUIRE_FALSE(done);
    CHECK(done.error().describe().find("Doing remount") != std::string::npos);
    CHECK(done.error().describe().find("run failed") != std::string::npos);
    CHECK(log == std::vector<std::string>{"run unmount", "run stack", "run remount", "undo stack",
                                          "undo unmount"});
}

TEST_CASE("runJobsOrUndo stops undoing at a job that cannot be undone", "[job]") {
    std::vector<std::string> log;
    std::vector<std::unique_ptr<Job>> jobs;
    jobs.push_back(recordingJob("unmount", log));
    jobs.push_back(recordingJob("teardown", log, false, false, /*undoable=*/false));
    jobs.push_back(recordingJob("fstab", log));
    jobs.push_back(recordingJob("mount", log, /*runFails=*/true));
    auto done = runJobsOrUndo(jobs, {}, "test");
    REQUIRE_FALSE(done);
    // The teardown cannot be undone, so the unmount before it stays: mounting the cached
    // device again would mount a device that is gone.
    CHECK(log == std::vector<std::string>{"run unmount", "run teardown", "run fstab", "run mount",
                                          "undo fstab"});

    log.clear();
    jobs.clear();
    jobs.push_back(recordingJob("first", log));
    jobs.push_back(recordingJob("second", log, false, /*undoFails=*/true));
    jobs.push_back(recordingJob("third", log, /*runFails=*/true));
    REQUIRE_FALSE(runJobsOrUndo(jobs, {}, "test"));
    CHECK(log == std::vector<std::string>{"run first", "run second", "run third", "undo second"});
}

TEST_CASE("a job says when it cannot be undone", "[job]") {
    std::vector<std::string> log;
    auto job = recordingJob("erase", log, false, false, /*undoable=*/false);
    auto undone = job->undo();
    REQUIRE_FALSE(undone);
    CHECK(undone.error().code() == ErrorCode::Unsupported);
    CHECK(undone.error().describe().find("Doing erase cannot be undone") != std::string::npos);
}
