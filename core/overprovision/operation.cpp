#include "core/overprovision/operation.h"

#include <vector>

#include "core/overprovision/jobs.h"

namespace ssdk::overprovision {

Operation::Operation(Journal journal, DiskEditor& editor, FilesystemTool& filesystems,
                     const JournalStore& store)
    : m_journal(std::move(journal))
    , m_editor(editor)
    , m_filesystems(filesystems)
    , m_store(store) {}

Expected<void> Operation::save() {
    return withContext(m_store.save(m_journal), "recording the spare-area journal");
}

Expected<Journal> Operation::run(const StepObserver& observer) {
    if (auto saved = save(); !saved) {
        return std::unexpected(saved.error());
    }
    const JobContext context{m_journal, m_editor, m_filesystems, m_store};
    std::vector<std::unique_ptr<Job>> jobs;
    std::vector<JobState> states;
    for (const auto& step : m_journal.steps) {
        jobs.push_back(makeJob(step.step, context));
        states.push_back(step.state);
    }
    const auto record = [this, &states]() -> Expected<void> {
        for (std::size_t i = 0; i < states.size(); ++i) {
            m_journal.steps[i].state = states[i];
        }
        return save();
    };
    if (auto ran = runJobs(jobs, states, record, observer, "overprovision"); !ran) {
        m_journal.lastError = ran.error().describe();
        (void)save();
        return std::unexpected(ran.error());
    }
    m_journal.phase = m_journal.phase == Phase::RollingBack ? Phase::RolledBack : Phase::Completed;
    m_journal.lastError.clear();
    if (auto saved = save(); !saved) {
        return std::unexpected(saved.error());
    }
    return m_journal;
}

} // namespace ssdk::overprovision
