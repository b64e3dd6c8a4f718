#include "core/base/job.h"

#include <fmt/format.h>

#include "core/base/log.h"

namespace ssdk {

Expected<void> Job::undo() {
    return fail(ErrorCode::Unsupported, describe() + " cannot be undone");
}

namespace {

class FunctionJob final : public Job {
public:
    FunctionJob(std::string name, std::string description, std::function<Expected<void>()> run,
                std::function<Expected<void>()> undo)
        : m_name(std::move(name))
        , m_description(std::move(description))
        , m_run(std::move(run))
        , m_undo(std::move(undo)) {}

    std::string_view name() const override { return m_name; }
    std::string describe() const override { return m_description; }
    Expected<void> run() override { return m_run(); }
    Expected<void> undo() override { return m_undo ? m_undo() : Job::undo(); }

private:
    std::string m_name;
    std::string m_description;
    std::function<Expected<void>()> m_run;
    std::function<Expected<void>()> m_undo;
};

} // namespace

std::unique_ptr<Job> functionJob(std::string name, std::string description,
                                 std::function<Expected<void>()> run,
                                 std::function<Expected<void>()> undo) {
    return std::make_unique<FunctionJob>(std::move(name), std::move(description), std::move(run),
                                         std::move(undo));
}

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

Json jobStatesToJson(std::span<const std::string_view> names, std::span<const JobState> states) {
    Json json = Json::array();
    for (std::size_t i = 0; i < names.size() && i < states.size(); ++i) {
        json.push_back(Json{{"name", names[i]}, {"state", toString(states[i])}});
    }
    return json;
}

Expected<std::vector<JobState>> jobStatesFromJson(const Json& json,
                                                  std::span<const std::string_view> names) {
    if (!json.is_array() || json.size() != names.size()) {
        return fail(ErrorCode::Parse,
                    fmt::format("expected the states of its {} steps", names.size()));
    }
    std::vector<JobState> states;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const Json& entry = json[i];
        const auto name = entry.is_object() ? entry.find("name") : entry.end();
        const auto state = entry.is_object() ? entry.find("state") : entry.end();
        if (name == entry.end() || !name->is_string() || state == entry.end() ||
            !state->is_string()) {
            return fail(ErrorCode::Parse, fmt::format("step {} is not {{name, state}}", i + 1));
        }
        if (name->get<std::string>() != names[i]) {
            return fail(ErrorCode::Parse, fmt::format("unexpected step \"{}\" where \"{}\" belongs",
                                                      name->get<std::string>(), names[i]));
        }
        auto parsed = jobStateFromString(state->get<std::string>());
        if (!parsed) {
            return std::unexpected(parsed.error());
        }
        states.push_back(*parsed);
    }
    return states;
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

Expected<void> runJobsOrUndo(std::span<const std::unique_ptr<Job>> jobs,
                             const JobObserver& observer, std::string_view logger) {
    const auto log = log::get(std::string(logger));
    const std::size_t count = jobs.size();
    for (std::size_t i = 0; i < count; ++i) {
        Job& job = *jobs[i];
        JobEvent event{i, count, std::string(job.name()), job.describe(), false};
        if (observer) {
            observer(event);
        }
        log->info("{}", event.description);
        if (auto done = job.run(); !done) {
            for (std::size_t undone = i; undone-- > 0;) {
                log->info("Undoing: {}", jobs[undone]->describe());
                if (auto undid = jobs[undone]->undo(); !undid) {
                    log->error("undoing '{}': {}", jobs[undone]->describe(),
                               undid.error().describe());
                    break;
                }
            }
            return std::unexpected(Error(done.error()).addContext(event.description));
        }
        event.finished = true;
        if (observer) {
            observer(event);
        }
    }
    return {};
}

} // namespace ssdk
