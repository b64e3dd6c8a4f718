// FrameSpace and FrameArena (core/cachectl/engine/frame_arena.h): the shards' frames interleaved
// in one mapping and then in mappings of their own, each frame its own 4 KiB, contents kept
// through growth, and huge pages advised for exactly the whole huge pages of the frames in use.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/cachectl/engine/frame_arena.h"

using namespace ssdk::cachectl::engine;

namespace {

constexpr std::size_t kFrameBytes = 4096;

// Fills frame `index` of arena with a pattern of (shard, index).
void stamp(FrameArena& arena, std::size_t shard, std::uint32_t index) {
    std::vector<std::uint32_t> words(kFrameBytes / sizeof(std::uint32_t));
    for (std::size_t i = 0; i < words.size(); ++i) {
        words[i] = static_cast<std::uint32_t>(shard << 24) ^ (index * 2654435761U) ^
                   static_cast<std::uint32_t>(i);
    }
    arena.copyIn(index, reinterpret_cast<const std::byte*>(words.data()));
}

bool hasStamp(const FrameArena& arena, std::size_t shard, std::uint32_t index) {
    std::vector<std::uint32_t> words(kFrameBytes / sizeof(std::uint32_t));
    arena.copyOut(index, reinterpret_cast<std::byte*>(words.data()));
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (words[i] != (static_cast<std::uint32_t>(shard << 24) ^ (index * 2654435761U) ^
                         static_cast<std::uint32_t>(i))) {
            return false;
        }
    }
    return true;
}

// The VmFlags and size (KiB) of the mapping of this process that starts at `start`.
struct Mapping {
    std::string flags;
    std::uint64_t kib = 0;
};
Mapping mappingAt(const void* start) {
    std::ifstream smaps("/proc/self/smaps");
    const auto wanted = reinterpret_cast<std::uintptr_t>(start);
    std::string line;
    bool inside = false;
    Mapping found;
    while (std::getline(smaps, line)) {
        if (const auto dash = line.find('-');
            dash != std::string::npos && dash < 17 && line.find(' ') > dash) {
            inside = std::stoull(line.substr(0, dash), nullptr, 16) == wanted;
        } else if (inside && line.rfind("Size:", 0) == 0) {
            std::istringstream(line.substr(5)) >> found.kib;
        } else if (inside && line.rfind("VmFlags:", 0) == 0) {
            found.flags = line.substr(8) + " ";
            return found;
        }
    }
    return found;
}

} // namespace

TEST_CASE("each shard's frames are its own, in the shared space and beyond it",
          "[cachectl][engine]") {
    constexpr std::size_t shards = 4;
    constexpr std::size_t shared = 100;
    FrameSpace space(shards, shared, kFrameBytes);
    std::vector<std::unique_ptr<FrameArena>> arenas;
    for (std::size_t s = 0; s < shards; ++s) {
        arenas.push_back(std::make_unique<FrameArena>(kFrameBytes));
        arenas.back()->attach(space, s);
        arenas.back()->reserve(shared + 20); // 20 frames of its own
        REQUIRE(arenas.back()->frames() >= shared + 20);
    }
    for (std::size_t s = 0; s < shards; ++s) {
        for (std::uint32_t i = 0; i < shared + 20; ++i) {
            stamp(*arenas[s], s, i);
        }
    }
    // Interleaved: frame n of shard s is frame n * shards + s of the space.
    CHECK(arenas[1]->frame(0) == arenas[0]->frame(0) + kFrameBytes);
    CHECK(arenas[0]->frame(1) == arenas[0]->frame(0) + shards * kFrameBytes);
    CHECK(reinterpret_cast<std::uintptr_t>(space.shardBase(0)) % FrameSpace::kHugePage == 0);

    // Growing a shard's own frames (a remap that may move them) keeps every frame's contents.
    arenas[2]->reserve(shared + 5000);
    for (std::uint32_t i = shared + 20; i < shared + 5000; i += 97) {
        stamp(*arenas[2], 2, i);
    }
    for (std::size_t s = 0; s < shards; ++s) {
        for (std::uint32_t i = 0; i < shared + 20; ++i) {
            INFO("shard " << s << " frame " << i);
            REQUIRE(hasStamp(*arenas[s], s, i));
        }
    }
    for (std::uint32_t i = shared + 20; i < shared + 5000; i += 97) {
        REQUIRE(hasStamp(*arenas[2], 2, i));
    }

    // A discarded frame reads as zeroes, its neighbours keep theirs.
    arenas[1]->discard(7);
    std::vector<std::byte> out(kFrameBytes, std::byte{0xff});
    arenas[1]->copyOut(7, out.data());
    CHECK(std::all_of(out.begin(), out.end(), [](std::byte b) { return b == std::byte{0}; }));
    CHECK(hasStamp(*arenas[0], 0, 7));
    CHECK(hasStamp(*arenas[2], 2, 7));
    CHECK(hasStamp(*arenas[1], 1, 6));
    CHECK(hasStamp(*arenas[1], 1, 8));
}

TEST_CASE("huge pages are advised for the whole huge pages of the frames in use",
          "[cachectl][engine]") {
    // 16 shards of 300 frames in use (twice that reserved): 16 * 300 * 4 KiB = 18.75 MiB, so
    // 9 whole huge pages (18 MiB).
    FrameSpace space(16, 600, kFrameBytes);
    CHECK(space.adviseHugePages(300) == 9 * FrameSpace::kHugePage);
    const Mapping advised = mappingAt(space.shardBase(0));
    CHECK(advised.kib == 18 * 1024);
    CHECK(advised.flags.find(" hg ") != std::string::npos);
    const Mapping rest = mappingAt(space.shardBase(0) + 9 * FrameSpace::kHugePage);
    CHECK(rest.kib == 16 * 600 * 4 - 18 * 1024);
    CHECK(rest.flags.find(" nh ") != std::string::npos);

    // A cache resized smaller advises less (6.25 MiB: 3 huge pages); 0 (a compressing cache)
    // none.
    CHECK(space.adviseHugePages(100) == 3 * FrameSpace::kHugePage);
    CHECK(mappingAt(space.shardBase(0)).kib == 6 * 1024);
    CHECK(space.adviseHugePages(0) == 0);
    const Mapping none = mappingAt(space.shardBase(0));
    CHECK(none.flags.find(" hg ") == std::string::npos);
}
