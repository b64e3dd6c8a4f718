#pragma once

#include <functional>
#include <string>

#include "core/base/error.h"
#include "core/overprovision/disk_editor.h"
#include "core/overprovision/filesystem_tool.h"
#include "core/overprovision/journal.h"

namespace ssdk::overprovision {

// Reported before and after each step an Operation runs.
struct StepEvent {
    std::size_t index = 0; // into Journal::steps
    std::size_t count = 0;
    std::string name;        // "shrink-filesystem"
    std::string description; // "Shrinking the ext4 filesystem of /dev/loop3p1 to 400 MiB"
    bool finished = false;   // false: about to start; true: done and recorded
};
using StepObserver = std::function<void(const StepEvent&)>;

// One spare-area change as Jobs run in order from a Journal: each step is recorded as started
// in the journal before it runs and as done after, so a crash at any point leaves a journal
// that journalToFinish / journalToRollBack can complete. A failing step stops the run; the
// journal keeps the step as started with the error, and stays pending.
class Operation {
public:
    Operation(Journal journal, DiskEditor& editor, FilesystemTool& filesystems,
              const JournalStore& store);

    // Runs every step not yet done; on success the journal's phase becomes Completed (or
    // RolledBack for a rollback). Returns the final journal.
    Expected<Journal> run(const StepObserver& observer = {});

    const Journal& journal() const { return m_journal; }

    // What a step does, in words.
    static std::string describe(const Journal& journal, const JournalStep& step);

private:
    Expected<void> runStep(const std::string& name);
    Expected<void> save();
    FilesystemLocation location() const;

    Journal m_journal;
    DiskEditor& m_editor;
    FilesystemTool& m_filesystems;
    const JournalStore& m_store;
};

} // namespace ssdk::overprovision
