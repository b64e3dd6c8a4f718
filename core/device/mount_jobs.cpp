#include "core/device/mount_jobs.h"

namespace ssdk::device {

namespace {

class MountJob : public Job {
public:
    MountJob(TargetOf target, Mounter mounter)
        : m_target(std::move(target))
        , m_mounter(std::move(mounter)) {}

protected:
    MountTarget target() const { return m_target(); }
    Expected<void> mount() const { return m_mounter.mount(target()); }
    Expected<void> unmount() const { return m_mounter.unmount(target()); }

private:
    TargetOf m_target;
    Mounter m_mounter;
};

class UnmountJob final : public MountJob {
public:
    using MountJob::MountJob;
    std::string_view name() const override { return "unmount"; }
    std::string describe() const override {
        const MountTarget where = target();
        return "Unmounting " + where.device + " from " + where.mountPoint;
    }
    Expected<void> run() override { return unmount(); }
    Expected<void> undo() override { return mount(); }
};

class RemountJob final : public MountJob {
public:
    using MountJob::MountJob;
    std::string_view name() const override { return "remount"; }
    std::string describe() const override {
        const MountTarget where = target();
        return "Mounting " + where.device + " at " + where.mountPoint + " again (" + where.options +
               ")";
    }
    Expected<void> run() override { return mount(); }
    Expected<void> undo() override { return unmount(); }
};

} // namespace

std::unique_ptr<Job> makeUnmountJob(TargetOf target, Mounter mounter) {
    return std::make_unique<UnmountJob>(std::move(target), std::move(mounter));
}

std::unique_ptr<Job> makeRemountJob(TargetOf target, Mounter mounter) {
    return std::make_unique<RemountJob>(std::move(target), std::move(mounter));
}

} // namespace ssdk::device
