#pragma once
// Where the cache engine keeps uncompressed block data: frames (4 KiB blocks) numbered like the
// clock's data nodes.
//
// FrameSpace is one anonymous mapping for the first frames of every shard of an engine,
// interleaved: frame n of shard s is frame n * shards + s of the mapping. A shard numbers its
// nodes from 0 up, so the frames in use form one dense range from the mapping's start, which
// transparent huge pages can back (adviseHugePages) without committing RAM that no block uses: a
// shard of its own mapping would commit a whole 2 MiB page (512 frames) for its first block, and
// most shards hold fewer (a 64 MiB cache has 64 shards of 256 blocks). With 4 KiB pages, a hit
// on a cache larger than the CPU's TLB reach missed the TLB on nearly every frame it copied
// (docs/daemon.md, "Frames on huge pages"). The mapping never moves or grows, so lock-free
// readers need no protection from it.
//
// FrameArena is one shard's view: its frames in the FrameSpace, then frames of its own mapping
// for node numbers beyond (dirty blocks kept after eviction, a cache resized larger). That
// mapping grows by remapping (its frames keep their contents, their addresses may change).
// Pages are committed when a frame is first written. Not thread-safe: one per shard, under the
// shard's lock, but for copyOutRacy.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <sys/mman.h>

namespace ssdk::cachectl::engine {

class FrameSpace {
public:
    // Address space for framesPerShard frames of each of `shards` shards (reserved, not
    // committed). std::bad_alloc when the address space is exhausted.
    FrameSpace(std::size_t shards, std::size_t framesPerShard, std::size_t frameBytes)
        : m_shards(shards)
        , m_framesPerShard(framesPerShard)
        , m_frameBytes(frameBytes)
        , m_bytes(shards * framesPerShard * frameBytes) {
        if (m_bytes == 0) {
            return;
        }
        // Over-map by one huge page and trim, so that the mapping starts on a huge page.
        void* mapped = ::mmap(nullptr, m_bytes + kHugePage, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (mapped == MAP_FAILED) {
            throw std::bad_alloc();
        }
        const auto start = reinterpret_cast<std::uintptr_t>(mapped);
        const std::uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
        if (aligned > start) {
            ::munmap(mapped, aligned - start);
        }
        if (const std::size_t tail = kHugePage - (aligned - start); tail > 0) {
            ::munmap(reinterpret_cast<void*>(aligned + m_bytes), tail);
        }
        m_base = reinterpret_cast<std::byte*>(aligned);
    }
    ~FrameSpace() {
        if (m_base != nullptr) {
            ::munmap(m_base, m_bytes);
        }
    }
    FrameSpace(const FrameSpace&) = delete;
    FrameSpace& operator=(const FrameSpace&) = delete;

    static constexpr std::size_t kHugePage = std::size_t{2} << 20;

    // Lets huge pages back frames [0, framesPerShard) of every shard, as far as whole huge pages
    // reach (frames above stay in small pages, so a shard's extra frames do not commit a huge
    // page); 0 lets none. Frames already on huge pages stay there. Returns the bytes advised.
    std::size_t adviseHugePages(std::size_t framesPerShard) {
        if (m_base == nullptr) {
            return 0;
        }
        const std::size_t frames = std::min(framesPerShard, m_framesPerShard) * m_shards;
        const std::size_t huge = frames * m_frameBytes / kHugePage * kHugePage;
        ::madvise(m_base, m_bytes, MADV_NOHUGEPAGE);
        if (huge > 0) {
            ::madvise(m_base, huge, MADV_HUGEPAGE);
        }
        return huge;
    }

    // Gives back the pages of every shard's frames from `frame` on (their contents become
    // zeroes).
    void discardFrom(std::size_t frame) {
        if (m_base != nullptr && frame < m_framesPerShard) {
            const std::size_t kept = frame * m_shards * m_frameBytes;
            ::madvise(m_base + kept, m_bytes - kept, MADV_DONTNEED);
        }
    }

    // Frame 0 of shard `shard`; its frame n is n * stride() further.
    std::byte* shardBase(std::size_t shard) const {
        return m_base == nullptr ? nullptr : m_base + shard * m_frameBytes;
    }
    std::size_t stride() const { return m_shards * m_frameBytes; }
    std::size_t framesPerShard() const { return m_base == nullptr ? 0 : m_framesPerShard; }

private:
    std::size_t m_shards;
    std::size_t m_framesPerShard;
    std::size_t m_frameBytes;
    std::size_t m_bytes;
    std::byte* m_base = nullptr;
};

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

    // Takes the shard's frames in space (which must outlive the arena) as its first frames.
    // Call before any frame is addressed.
    void attach(const FrameSpace& space, std::size_t shard) {
        m_shared = space.shardBase(shard);
        m_stride = space.stride();
        m_sharedFrames = space.framesPerShard();
    }

    // Makes frames [0, count) addressable (the frames of its own at least doubling, so growth
    // is amortized). std::bad_alloc when the address space is exhausted.
    void reserve(std::size_t count) {
        if (count <= frames()) {
            return;
        }
        const std::size_t own = std::max({count - m_sharedFrames, m_frames * 2, std::size_t{16}});
        void* base = m_base == nullptr ? ::mmap(nullptr, own * m_frameBytes, PROT_READ | PROT_WRITE,
                                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
                                       : ::mremap(m_base, m_frames * m_frameBytes,
                                                  own * m_frameBytes, MREMAP_MAYMOVE);
        if (base == MAP_FAILED) {
            throw std::bad_alloc();
        }
        m_base = static_cast<std::byte*>(base);
        m_frames = own;
    }

    std::byte* frame(std::uint32_t index) const {
        if (index < m_sharedFrames) {
            return m_shared + std::size_t{index} * m_stride;
        }
        return m_base + (std::size_t{index} - m_sharedFrames) * m_frameBytes;
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
        const std::byte* from = frame(index);
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
        return m_sharedFrames + m_frames;
    }

    // Gives the frame's pages back to the kernel (its contents become zeroes).
    void discard(std::uint32_t index) {
        ::madvise(frame(index), m_frameBytes, MADV_DONTNEED);
    }
    // The same for the frames of its own from `index` on (the FrameSpace gives back the others).
    void discardOwnFrom(std::size_t index) {
        const std::size_t first = std::max(index, m_sharedFrames) - m_sharedFrames;
        if (first < m_frames) {
            ::madvise(m_base + first * m_frameBytes, (m_frames - first) * m_frameBytes,
                      MADV_DONTNEED);
        }
    }

private:
    std::size_t m_frameBytes;
    // The shard's frames in the engine's FrameSpace.
    std::byte* m_shared = nullptr;
    std::size_t m_stride = 0;
    std::size_t m_sharedFrames = 0;
    // Frames of its own, after those.
    std::byte* m_base = nullptr;
    std::size_t m_frames = 0;
};

} // namespace ssdk::cachectl::engine
