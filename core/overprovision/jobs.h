#pragma once

#include <memory>

#include "core/base/job.h"
#include "core/overprovision/disk_editor.h"
#include "core/overprovision/filesystem_tool.h"
#include "core/overprovision/journal.h"

namespace ssdk::overprovision {

// What the jobs of one spare-area Operation work with. The journal is the Operation's own: a
// job reads the sizes and paths it records, never anything it would have to trust from
// elsewhere.
struct JobContext {
    const Journal& journal;
    DiskEditor& editor;
    FilesystemTool& filesystems;
    const JournalStore& store;
};

// The Job that carries out `step` of the journal in `context` (what it refers to must outlive
// the job). Each is
// idempotent, as an Operation needs: the table backup is taken once, a resize to the size it
// already has does nothing, the partition is only touched where the journal says it starts.
std::unique_ptr<Job> makeJob(Step step, const JobContext& context);

} // namespace ssdk::overprovision
