// BlockStore implementations: range checks, reads of what was written, zeroes and discards.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/cachectl/block_store.h"

using namespace ssdk;
using namespace ssdk::cachectl;

namespace {

std::vector<std::byte> pattern(std::size_t size, unsigned seed) {
    std::vector<std::byte> data(size);
    for (std::size_t i = 0; i < size; ++i) {
        data[i] = static_cast<std::byte>((i * 31 + seed) & 0xff);
    }
    return data;
}

// Both stores must behave the same on the same requests.
void exercise(BlockStore& store) {
    const auto data = pattern(10000, 7);
    REQUIRE(store.write(4000, data, false));
    std::vector<std::byte> back(data.size());
    REQUIRE(store.read(4000, back));
    CHECK(back == data);

    REQUIRE(store.writeZeroes(8192, 4096, false));
    REQUIRE(store.read(4000, back));
    for (std::size_t i = 0; i < back.size(); ++i) {
        const std::uint64_t offset = 4000 + i;
        const bool zeroed = offset >= 8192 && offset < 8192 + 4096;
        if (back[i] != (zeroed ? std::byte{0} : data[i])) {
            FAIL("byte at " << offset << " is wrong");
        }
    }
    REQUIRE(store.flush());

    std::vector<std::byte> one(1);
    const auto outside = store.read(store.size(), one);
    REQUIRE_FALSE(outside);
    CHECK(outside.error().code() == ErrorCode::InvalidArgument);
    CHECK_FALSE(store.write(store.size() - 10, data, false));
    CHECK_FALSE(store.discard(1, store.size()));
    CHECK_FALSE(store.writeZeroes(~0ULL - 5, 10, false));
    REQUIRE(store.read(4000, back)); // refused requests changed nothing
    CHECK(back[0] == data[0]);
}

} // namespace

TEST_CASE("MemoryBlockStore reads back writes and zeroes, refuses ranges outside") {
    MemoryBlockStore store(1 << 20);
    CHECK(store.size() == 1 << 20);
    CHECK(store.blockSize() == 4096);
    exercise(store);
    REQUIRE(store.discard(0, 1 << 20));
    std::vector<std::byte> back(16, std::byte{1});
    REQUIRE(store.read(4000, back));
    CHECK(back == std::vector<std::byte>(16));
}

TEST_CASE("FileBlockStore over a sparse file: I/O, zeroes, punched holes") {
    const auto path =
        std::filesystem::temp_directory_path() / ("ssdk-blockstore-" + std::to_string(::getpid()));
    { std::ofstream file(path, std::ios::binary); }
    std::filesystem::resize_file(path, 1 << 20);
    {
        auto store = FileBlockStore::open(path);
        REQUIRE(store);
        CHECK(store->size() == 1 << 20);
        exercise(*store);
        REQUIRE(store->discard(0, 1 << 20));
    }
    std::filesystem::remove(path);

    const auto missing = FileBlockStore::open(path);
    REQUIRE_FALSE(missing);
    CHECK(missing.error().code() == ErrorCode::NotFound);
    CHECK_FALSE(FileBlockStore::open("/proc/self"));
}
