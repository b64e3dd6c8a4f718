#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/json.h"

namespace ssdk {

// How far one Job of an Operation got, as the Operation's journal records it.
enum class JobState { Pending, Started, Done };
std::string_view toString(JobState state);
Expected<JobState> jobStateFromString(std::string_view text);

// How a journal records its jobs, in order: [{"name": "unmount", "state": "done"}, ...].
// `names` and `states` have one entry per job.
Json jobStatesToJson(std::span<const std::string_view> names, std::span<const JobState> states);
// Reads that record back: a Parse error unless it lists exactly `names`, in order, each with a
// known state.
Expected<std::vector<JobState>> jobStatesFromJson(const Json& json,
                                                  std::span<const std::string_view> names);

// One step of a long or destructive Operation (DESIGN.md: "an Operation of Jobs"): it says what
// it is about to do and does it. run() must be safe to repeat: after a crash, a job that was
// started and may have half-run is run again.
class Job {
public:
    virtual ~Job() = default;
    // The journal's word for the job ("shrink-filesystem"); stable, never shown translated.
    virtual std::string_view name() const = 0;
    // What it does, in words ("Shrinking the ext4 filesystem on /dev/loop3p1 to 400 MiB").
    virtual std::string describe() const = 0;
    virtual Expected<void> run() = 0;
    // Puts back what run() changed, where that can be done (an unmount is undone by mounting
    // again); the default says it cannot.
    virtual Expected<void> undo();
};

// A Job made of a name, a description and functions; undo may be empty (it cannot be undone).
std::unique_ptr<Job> functionJob(std::string name, std::string description,
                                 std::function<Expected<void>()> run,
                                 std::function<Expected<void>()> undo = {});

// Reported before and after each job runs.
struct JobEvent {
    std::size_t index = 0; // into the jobs
    std::size_t count = 0;
    std::string name;        // Job::name()
    std::string description; // Job::describe()
    bool finished = false;   // false: about to start; true: done and recorded
};
using JobObserver = std::function<void(const JobEvent&)>;

// Runs, in order, every job whose state is not Done: each is marked Started and recorded
// (record()) before it runs, and marked Done and recorded after. A failing job stops the run
// with its error (its description added as context) and stays Started, so a crash or a
// failure at any point leaves a record that says which job to run again. A failing record()
// stops the run too. `states` has one entry per job. `logger` names the spdlog logger each
// job's description is logged to.
Expected<void> runJobs(std::span<const std::unique_ptr<Job>> jobs, std::span<JobState> states,
                       const std::function<Expected<void>()>& record, const JobObserver& observer,
                       std::string_view logger);

// Runs the jobs in order, all or nothing where it can be: when one fails, the ones that
// finished are undone, newest first, and the failing job's error is returned. An undo that
// fails (or a job that cannot be undone) is logged and stops the undoing there: the jobs
// before it built what it changed, so undoing them would not give back the state before.
// For Operations that are rolled back at once rather than resumed after a crash.
Expected<void> runJobsOrUndo(std::span<const std::unique_ptr<Job>> jobs,
                             const JobObserver& observer, std::string_view logger);

} // namespace ssdk
