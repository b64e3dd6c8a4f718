// Standalone driver for libFuzzer-style targets when the compiler has no libFuzzer (GCC):
//   fuzz_nbd FILE|DIR...            runs each file as one input
//   fuzz_nbd --random N [--seed S]  runs N generated inputs: structured NBD requests with
//                                   random fields and lengths, plus random byte noise
// Exit 0 when every input ran; a crash or abort is the failure.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void put(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) {
        out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
    }
}

// One input: a mode byte, then a few requests that are valid, slightly wrong or wild.
std::vector<std::uint8_t> generate(std::mt19937_64& random) {
    std::vector<std::uint8_t> out;
    out.push_back(static_cast<std::uint8_t>(random() % 4 == 0 ? 0 : 1));
    const int requests = static_cast<int>(random() % 6) + 1;
    for (int i = 0; i < requests; ++i) {
        const auto kind = random() % 10;
        const std::uint32_t magic = kind == 0 ? static_cast<std::uint32_t>(random()) : 0x25609513U;
        const std::uint16_t flags = kind == 1 ? static_cast<std::uint16_t>(random())
                                              : static_cast<std::uint16_t>(random() % 2);
        const std::uint16_t type = kind == 2 ? static_cast<std::uint16_t>(random())
                                             : static_cast<std::uint16_t>(random() % 9);
        const std::uint64_t offset = kind == 3 ? random() : (random() % (2 << 20));
        std::uint32_t length = kind == 4 ? static_cast<std::uint32_t>(random())
                                         : static_cast<std::uint32_t>(random() % 70000);
        put(out, magic, 4);
        put(out, flags, 2);
        put(out, type, 2);
        put(out, random(), 8);
        put(out, offset, 8);
        put(out, length, 4);
        if (type == 1) {
            // A WRITE payload: complete, short (the client dies mid-payload) or none.
            const std::uint32_t sent =
                kind == 5 ? length / 2 : std::min<std::uint32_t>(length, 70000);
            for (std::uint32_t b = 0; b < sent; ++b) {
                out.push_back(static_cast<std::uint8_t>(b));
            }
        }
        if (kind == 6) {
            const auto noise = random() % 64;
            for (std::uint64_t b = 0; b < noise; ++b) {
                out.push_back(static_cast<std::uint8_t>(random()));
            }
        }
    }
    return out;
}

int runFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    const std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
    return LLVMFuzzerTestOneInput(data.data(), data.size());
}

} // namespace

int main(int argc, char** argv) {
    std::uint64_t randomRuns = 0;
    std::uint64_t seed = 1;
    std::vector<std::filesystem::path> paths;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--random" && i + 1 < argc) {
            randomRuns = std::strtoull(argv[++i], nullptr, 10);
        } else if (arg == "--seed" && i + 1 < argc) {
            seed = std::strtoull(argv[++i], nullptr, 10);
        } else {
            paths.emplace_back(arg);
        }
    }
    std::uint64_t inputs = 0;
    for (const auto& path : paths) {
        if (std::filesystem::is_directory(path)) {
            for (const auto& entry : std::filesystem::directory_iterator(path)) {
                runFile(entry.path());
                ++inputs;
            }
        } else {
            runFile(path);
            ++inputs;
        }
    }
    std::mt19937_64 random(seed);
    for (std::uint64_t i = 0; i < randomRuns; ++i) {
        const auto data = generate(random);
        LLVMFuzzerTestOneInput(data.data(), data.size());
        ++inputs;
        // Pure noise as well, every few inputs.
        if (i % 8 == 0) {
            std::vector<std::uint8_t> noise(random() % 512);
            for (auto& byte : noise) {
                byte = static_cast<std::uint8_t>(random());
            }
            LLVMFuzzerTestOneInput(noise.data(), noise.size());
            ++inputs;
        }
    }
    std::printf("fuzz_nbd: %llu inputs ran\n", static_cast<unsigned long long>(inputs));
    return 0;
}
