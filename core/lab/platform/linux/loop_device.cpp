#include "core/lab/platform/linux/loop_device.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "core/base/log.h"
#include "core/base/unique_fd.h"

namespace ssdk::lab {

namespace {

// LOOP_CONFIGURE (Linux 5.8) sets file, block size and flags in one step; older kernels
// need LOOP_SET_FD, LOOP_SET_STATUS64 and LOOP_SET_BLOCK_SIZE.
int configure(int loopFd, int imageFd, std::uint32_t sectorSize, bool readOnly,
              const std::string& image) {
    std::uint32_t flags = LO_FLAGS_PARTSCAN;
    if (readOnly) {
        flags |= LO_FLAGS_READ_ONLY;
    }
    loop_config config{};
    config.fd = static_cast<std::uint32_t>(imageFd);
    config.block_size = sectorSize;
    config.info.lo_flags = flags;
    std::strncpy(reinterpret_cast<char*>(config.info.lo_file_name), image.c_str(),
                 LO_NAME_SIZE - 1);
    if (::ioctl(loopFd, LOOP_CONFIGURE, &config) == 0) {
        return 0;
    }
    if (errno != EINVAL && errno != ENOTTY) {
        return errno;
    }
    if (::ioctl(loopFd, LOOP_SET_FD, imageFd) != 0) {
        return errno;
    }
    // LOOP_SET_FD takes read-only from how imageFd was opened; SET_STATUS cannot change it.
    loop_info64 info{};
    info.lo_flags = LO_FLAGS_PARTSCAN;
    std::strncpy(reinterpret_cast<char*>(info.lo_file_name), image.c_str(), LO_NAME_SIZE - 1);
    if (::ioctl(loopFd, LOOP_SET_STATUS64, &info) != 0 ||
        ::ioctl(loopFd, LOOP_SET_BLOCK_SIZE, static_cast<unsigned long>(sectorSize)) != 0) {
        const int error = errno;
        ::ioctl(loopFd, LOOP_CLR_FD, 0);
        return error;
    }
    return 0;
}

} // namespace

Expected<std::string> attachLoop(const std::filesystem::path& image, std::uint32_t sectorSize,
                                 bool readOnly) {
    const UniqueFd imageFd(::open(image.c_str(), (readOnly ? O_RDONLY : O_RDWR) | O_CLOEXEC));
    if (!imageFd.valid()) {
        return failErrno(errno, "opening " + image.string());
    }
    return attachLoop(imageFd.get(), image, sectorSize, readOnly);
}

Expected<std::string> attachLoop(int imageFd, const std::filesystem::path& image,
                                 std::uint32_t sectorSize, bool readOnly) {
    const UniqueFd control(::open("/dev/loop-control", O_RDWR | O_CLOEXEC));
    if (!control.valid()) {
        return failErrno(errno, "opening /dev/loop-control (needs root and the loop module)");
    }
    // Another process may take the free device between GET_FREE and CONFIGURE: try again.
    for (int attempt = 0; attempt < 16; ++attempt) {
        const int number = ::ioctl(control.get(), LOOP_CTL_GET_FREE);
        if (number < 0) {
            return failErrno(errno, "finding a free loop device");
        }
        const std::string device = "/dev/loop" + std::to_string(number);
        // devtmpfs creates the node; give it a moment after the kernel made a new device.
        int loopFd = -1;
        for (int wait = 0; wait < 50 && loopFd < 0; ++wait) {
            loopFd = ::open(device.c_str(), O_RDWR | O_CLOEXEC);
            if (loopFd < 0 && errno == ENOENT) {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            } else if (loopFd < 0) {
                break;
            }
        }
        if (loopFd < 0) {
            return failErrno(errno, "opening " + device);
        }
        const UniqueFd loop(loopFd);
        const int error = configure(loop.get(), imageFd, sectorSize, readOnly, image.string());
        if (error == 0) {
            log::get("lab")->info("attached {} to {} ({}-byte sectors)", image.string(), device,
                                  sectorSize);
            return device;
        }
        if (error != EBUSY) {
            return failErrno(error, "attaching " + image.string() + " to " + device);
        }
    }
    return fail(ErrorCode::Busy, "every free loop device was taken while attaching " +
                                     image.string() + "; try again");
}

Expected<void> markNonRotational(const std::string& devicePath) {
    const std::string name = std::filesystem::path(devicePath).filename().string();
    const std::string attribute = "/sys/block/" + name + "/queue/rotational";
    const UniqueFd fd(::open(attribute.c_str(), O_WRONLY | O_CLOEXEC));
    if (!fd.valid()) {
        return failErrno(errno, "opening " + attribute);
    }
    if (::write(fd.get(), "0", 1) != 1) {
        return failErrno(errno, "writing 0 to " + attribute);
    }
    return {};
}

Expected<void> detachLoop(const std::string& devicePath) {
    const UniqueFd loop(::open(devicePath.c_str(), O_RDWR | O_CLOEXEC));
    if (!loop.valid()) {
        return failErrno(errno, "opening " + devicePath);
    }
    if (::ioctl(loop.get(), LOOP_CLR_FD, 0) != 0) {
        return failErrno(errno, "detaching " + devicePath);
    }
    return {};
}

} // namespace ssdk::lab
