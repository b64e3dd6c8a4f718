#pragma once
// PageBuffer: a page-aligned byte buffer, for O_DIRECT I/O and for data copied in whole blocks. The
// C library copies 4 KiB with `rep movsb`, which runs 10-20 % slower when source and destination
// are not aligned alike; the RAM cache engine's frames are page-aligned, so the buffers it copies
// to and from should be too (malloc aligns to 16 bytes). Growing does not keep the contents.

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>

namespace ssdk {

class PageBuffer {
public:
    static constexpr std::size_t kAlignment = 4096;

    PageBuffer() = default;
    explicit PageBuffer(std::size_t size) { resize(size); }

    // Holds at least size bytes, page-aligned; the contents are unspecified after it grew.
    // std::bad_alloc when the memory is not there.
    void resize(std::size_t size) {
        if (size > m_capacity) {
            const std::size_t capacity = (size + kAlignment - 1) / kAlignment * kAlignment;
            void* memory = std::aligned_alloc(kAlignment, capacity);
            if (memory == nullptr) {
                throw std::bad_alloc();
            }
            m_data.reset(static_cast<std::byte*>(memory));
            m_capacity = capacity;
        }
        m_size = size;
    }

    std::byte* data() { return m_data.get(); }
    const std::byte* data() const { return m_data.get(); }
    std::size_t size() const { return m_size; }
    std::span<std::byte> span() { return {m_data.get(), m_size}; }
    std::span<const std::byte> span() const { return {m_data.get(), m_size}; }
    operator std::span<std::byte>() { return span(); }
    operator std::span<const std::byte>() const { return span(); }

private:
    struct Free {
        void operator()(std::byte* memory) const { std::free(memory); }
    };
    std::unique_ptr<std::byte, Free> m_data;
    std::size_t m_size = 0;
    std::size_t m_capacity = 0;
};

} // namespace ssdk
