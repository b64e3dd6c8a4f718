#include "core/base/job.h"

#include "core/base/log.h"

namespace ssdk {

std::string_view toString(JobState state) {
    switch (state) {
    case JobState::Pending:
        return "pending";
    case JobState::Started:
        return "started";
    case JobState::Done:
        return "done";
    }
    return "pending";
}

Expected<JobState> jobStateFromString(std::string_view text) {
    for (JobState state : {JobState::Pending, JobState::Started, JobState::Done}) {
        if (toString(state) == text) {
            return state;
        }
    }
    return fail(ErrorCode::Parse, "unknown job state \"" + std::string(text) + "\"");
}

Expected<void> runJobs(std::span<const std::unique_ptr<Job>> jobs, std::span<JobState> states,
                       const std::function<Expected<void>()>& record, const JobObserver& observer,
                       std::string_view logger) {
    if (jobs.size() != states.size()) {
        return fail(ErrorCode::Internal, "runJobs: one state per job");
    }
    const std::size_t count = jobs.size();
    for (std::size_t i = 0; i < count; ++i) {
        if (states[i] == JobState::Done) {
            continue;
        }
        Job& job = *jobs[i];
        JobEvent event{i, count, std::string(job.name()), job.describe(), false};
        states[i] = JobState::Started;
        if (auto recorded = record(); !recorded) {
            return recorded;
        }
        if (observer) {
            observer(event);
        }
        log::get(std::string(logger))->info("{}", event.description);
        if (auto done = job.run(); !done) {
            return std::unexpected(Error(done.error()).addContext(event.description));
        }
        states[i] = JobState::Done;
        if (auto recorded = record(); !recorded) {
            return recorded;
        }
        event.finished = true;
        if (observer) {
            observer(event);
        }
    }
    return {};
}

} // namespace ssdk
