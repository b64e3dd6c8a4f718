#pragma once
// FrameArena: the cache engine's uncompressed block data, 4 KiB frames numbered like the
// clock's data nodes, in one anonymous mapping. Pages are committed when a frame is first
// written; growing remaps (the frames keep their contents, the addresses may change). Not
// thread-safe: one per shard, under the shard's lock.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <sys/mman.h>

namespace ssdk::cachectl::engine {

class FrameArena {
public:
    static constexpr std::size_t kFrameBytes = 4096;

    FrameArena() = default;
    ~FrameArena() {
        if (m_base != nullptr) {
            ::munmap(m_base, m_frames * kFrameBytes);
        }
    }
    FrameArena(const FrameArena&) = delete;
    FrameArena& operator=(const FrameArena&) = delete;

    // Makes frames [0, count) addressable (at least doubling, so growth is amortized).
    // std::bad_alloc when the address space is exhausted.
    void reserve(std::size_t count) {
        if (count <= m_frames) {
            return;
        }
        const std::size_t frames = std::max({count, m_frames * 2, std::size_t{16}});
        void* base =
            m_base == nullptr
                ? ::mmap(nullptr, frames * kFrameBytes, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
                : ::mremap(m_base, m_frames * kFrameBytes, frames * kFrameBytes, MREMAP_MAYMOVE);
        if (base == MAP_FAILED) {
            throw std::bad_alloc();
        }
        m_base = static_cast<std::byte*>(base);
        m_frames = frames;
    }

    std::byte* frame(std::uint32_t index) const {
        return m_base + std::size_t{index} * kFrameBytes;
    }
    // Gives the frame's pages back to the kernel (its contents become zeroes).
    void discard(std::uint32_t index) { ::madvise(frame(index), kFrameBytes, MADV_DONTNEED); }

private:
    std::byte* m_base = nullptr;
    std::size_t m_frames = 0;
};

} // namespace ssdk::cachectl::engine
