#pragma once

#include <string>

#include "core/base/error.h"
#include "core/base/job.h"
#include "core/overprovision/disk_editor.h"
#include "core/overprovision/filesystem_tool.h"
#include "core/overprovision/journal.h"

namespace ssdk::overprovision {

// Reported before and after each step an Operation runs (name: toString(Step)).
using StepEvent = JobEvent;
using StepObserver = JobObserver;

// One spare-area change: the Jobs of its journal's steps (core/overprovision/jobs.h), run in
// order by runJobs: each step is recorded as started in the journal before it runs and as done
// after, so a crash at any point leaves a journal that journalToFinish / journalToRollBack can
// complete. A failing step stops the run; the journal keeps the step as started with the
// error, and stays pending.
class Operation {
public:
    Operation(Journal journal, DiskEditor& editor, FilesystemTool& filesystems,
              const JournalStore& store);

    // Runs every step not yet done; on success the journal's phase becomes Completed (or
    // RolledBack for a rollback). Returns the final journal.
    Expected<Journal> run(const StepObserver& observer = {});

    const Journal& journal() const { return m_journal; }

private:
    Expected<void> save();

    Journal m_journal;
    DiskEditor& m_editor;
    FilesystemTool& m_filesystems;
    const JournalStore& m_store;
};

} // namespace ssdk::overprovision
