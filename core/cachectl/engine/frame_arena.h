#pragma once
// FrameArena: the cache engine's uncompressed block data, frames (4 KiB blocks) numbered like
// the clock's data nodes, in one anonymous mapping. Pages are committed when a frame is first
// written; growing remaps (the frames keep their contents, the addresses may change). Not
// thread-safe: one per shard, under the shard's lock, but for copyOutRacy.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <sys/mman.h>

namespace ssdk::cachectl::engine {

class FrameArena {
public:
    // frameBytes: a multiple of the page size.
    explicit FrameArena(std::size_t frameBytes)
        : m_frameBytes(frameBytes) {}
    ~FrameArena() {
        if (m_base != nullptr) {
            ::munmap(m_base, m_frames * m_frameBytes);
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
                ? ::mmap(nullptr, frames * m_frameBytes, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
                : ::mremap(m_base, m_frames * m_frameBytes, frames * m_frameBytes, MREMAP_MAYMOVE);
        if (base == MAP_FAILED) {
            throw std::bad_alloc();
        }
        m_base = static_cast<std::byte*>(base);
        m_frames = frames;
    }

    std::byte* frame(std::uint32_t index) const {
        return m_base + std::size_t{index} * m_frameBytes;
    }
    // Copies a frame in or out. The size is not a compile-time constant, so this is the C
    // library's memcpy, which picks its copy for the CPU at run time: with a constant size the
    // compiler inlines a `rep movsq`, which made hits 10-15 % slower here.
    void copyIn(std::uint32_t index, const std::byte* data) {
        std::memcpy(frame(index), data, m_frameBytes);
    }
    void copyOut(std::uint32_t index, std::byte* out) const {
        std::memcpy(out, frame(index), m_frameBytes);
    }
    // copyOut for a reader without the shard's lock (the engine's lock-free hits): the frame
    // may change meanwhile, so the reader validates what it copied (a sequence lock,
    // shard_lock.h). The arena must not grow meanwhile. ThreadSanitizer builds copy word by
    // word: its memcpy would report the race the reader validates away.
    __attribute__((no_sanitize("thread"))) void copyOutRacy(std::uint32_t index,
                                                            std::byte* out) const {
        const std::byte* from = m_base + std::size_t{index} * m_frameBytes;
#if defined(__SANITIZE_THREAD__)
        const auto* words = reinterpret_cast<const std::uint64_t*>(from);
        for (std::size_t i = 0; i < m_frameBytes / sizeof(std::uint64_t); ++i) {
            const std::uint64_t word = __atomic_load_n(&words[i], __ATOMIC_RELAXED);
            __builtin_memcpy(out + i * sizeof(word), &word, sizeof(word));
        }
#else
        std::memcpy(out, from, m_frameBytes);
#endif
    }
    // Frames addressable now.
    std::size_t frames() const {
        return m_frames;
    }
    // Gives the frame's pages back to the kernel (its contents become zeroes).
    void discard(std::uint32_t index) {
        ::madvise(frame(index), m_frameBytes, MADV_DONTNEED);
    }

private:
    std::size_t m_frameBytes;
    std::byte* m_base = nullptr;
    std::size_t m_frames = 0;
};

} // namespace ssdk::cachectl::engine
