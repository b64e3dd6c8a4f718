#pragma once
// BlockStore: a byte-addressed block device as the cache engine, its backing device and the
// NBD server see it. The engine is a BlockStore over a backing BlockStore; the NBD server
// serves any BlockStore.

#include <cstddef>
#include <cstdint>
#include <expected>
#include <filesystem>
#include <mutex>
#include <span>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "core/base/unique_fd.h"

namespace ssdk::cachectl {

// Contract: every method may be called from several threads at once. Ranges are in bytes and
// must lie inside [0, size()); a range outside gives InvalidArgument and changes nothing.
// A write returns once the data is visible to later reads; it is durable (survives a crash
// or power loss) only after a flush() that started after the write returned, or at once when
// fua is set.
class BlockStore {
public:
    virtual ~BlockStore() = default;

    virtual std::uint64_t size() const = 0;
    // The smallest unit the store works in (4096 for the engine); I/O need not be aligned.
    virtual std::uint32_t blockSize() const = 0;

    virtual Expected<void> read(std::uint64_t offset, std::span<std::byte> out) = 0;
    virtual Expected<void> write(std::uint64_t offset, std::span<const std::byte> data,
                                 bool fua) = 0;
    // Makes every write that returned before this call durable.
    virtual Expected<void> flush() = 0;
    // The range's content becomes unspecified (a hint; the store may do nothing).
    virtual Expected<void> discard(std::uint64_t offset, std::uint64_t length) = 0;
    // The range reads back as zeroes.
    virtual Expected<void> writeZeroes(std::uint64_t offset, std::uint64_t length, bool fua) = 0;
};

// InvalidArgument unless [offset, offset + length) lies inside a store of size bytes.
Expected<void> checkRange(std::uint64_t offset, std::uint64_t length, std::uint64_t size);

// A store in process memory: the reference model in tests and a RAM disk. Discarded ranges
// read as zeroes.
class MemoryBlockStore final : public BlockStore {
public:
    explicit MemoryBlockStore(std::uint64_t size, std::uint32_t blockSize = 4096);

    std::uint64_t size() const override { return m_data.size(); }
    std::uint32_t blockSize() const override { return m_blockSize; }
    Expected<void> read(std::uint64_t offset, std::span<std::byte> out) override;
    Expected<void> write(std::uint64_t offset, std::span<const std::byte> data, bool fua) override;
    Expected<void> flush() override { return {}; }
    Expected<void> discard(std::uint64_t offset, std::uint64_t length) override;
    Expected<void> writeZeroes(std::uint64_t offset, std::uint64_t length, bool fua) override;

private:
    mutable std::mutex m_mutex;
    std::vector<std::byte> m_data;
    std::uint32_t m_blockSize;
};

// A block device or a regular file through pread/pwrite. flush() is fdatasync; discard is
// BLKDISCARD on a block device and a punched hole in a file; writeZeroes is BLKZEROOUT or
// FALLOC_FL_ZERO_RANGE, falling back to writing zeroes.
class FileBlockStore final : public BlockStore {
public:
    // Opens path read-write (O_DIRECT is not used: callers align nothing) and never through a
    // symbolic link at its last component (O_NOFOLLOW). Accepted: a block device, or a regular
    // file owned by the process's effective uid with exactly one link. So ssdkeeper-cached,
    // running as root, serves no file an unprivileged user created, swapped in by a symlink or
    // hard-linked to a file of root's; for a daemon of another user it is that user's own
    // file. Anything else is PermissionDenied or InvalidArgument, naming why.
    static Expected<FileBlockStore> open(const std::filesystem::path& path);

    bool isBlockDevice() const { return m_isBlockDevice; }
    // The opened file's st_dev and st_ino: whether a later open reached the same file.
    std::pair<std::uint64_t, std::uint64_t> identity() const { return m_identity; }
    // A regular file only: truncates or extends the file through the open descriptor (not by
    // its path) and serves the new size. Call before the store is shared.
    Expected<void> setFileSize(std::uint64_t size);

    std::uint64_t size() const override { return m_size; }
    std::uint32_t blockSize() const override { return m_blockSize; }
    Expected<void> read(std::uint64_t offset, std::span<std::byte> out) override;
    Expected<void> write(std::uint64_t offset, std::span<const std::byte> data, bool fua) override;
    Expected<void> flush() override;
    Expected<void> discard(std::uint64_t offset, std::uint64_t length) override;
    Expected<void> writeZeroes(std::uint64_t offset, std::uint64_t length, bool fua) override;

private:
    FileBlockStore(UniqueFd fd, std::filesystem::path path, std::uint64_t size,
                   std::uint32_t blockSize, bool isBlockDevice,
                   std::pair<std::uint64_t, std::uint64_t> identity);
    Expected<void> writeZeroesByWriting(std::uint64_t offset, std::uint64_t length);

    UniqueFd m_fd;
    std::filesystem::path m_path;
    std::uint64_t m_size;
    std::uint32_t m_blockSize;
    bool m_isBlockDevice;
    std::pair<std::uint64_t, std::uint64_t> m_identity;
};

// FileBlockStore's calls that each OS makes its own way, implemented under platform/<os>/.
// Each fails with the errno value of the failed call (never 0), for the store to judge and name.

struct BlockDeviceGeometry {
    std::uint64_t size = 0; // bytes
    std::uint32_t logicalSectorSize = 0;
};
// Linux: BLKGETSIZE64 and BLKSSZGET on the block device fd is open on.
std::expected<BlockDeviceGeometry, int> blockDeviceGeometry(int fd);
// The range's content becomes unspecified: a discard on a block device (Linux: BLKDISCARD), a
// punched hole in a regular file, whose size stays.
std::expected<void, int> discardRange(int fd, bool isBlockDevice, std::uint64_t offset,
                                      std::uint64_t length);
// The range reads back as zeroes without writing them (Linux: BLKZEROOUT on a block device,
// FALLOC_FL_ZERO_RANGE in a regular file, whose size stays).
std::expected<void, int> zeroRange(int fd, bool isBlockDevice, std::uint64_t offset,
                                   std::uint64_t length);

} // namespace ssdk::cachectl
