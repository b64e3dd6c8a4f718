// nbd_crash_test: SIGKILLs ssdkeeper-cached at random points while a client writes over NBD,
// then restarts it and checks every block.
//
// Each 4 KiB block written carries its index, a global sequence number and a checksum, and
// its body is derived from (index, sequence), so a torn, stale or misplaced block is
// detectable. The model tracks, per block, the newest write made durable — acknowledged
// before a FLUSH that succeeded, or acknowledged with FUA — and every sequence number ever
// sent. After each kill the daemon is restarted and every block must be either
//   - intact (checksum, index and body all match) with a sequence number that was sent to
//     this block and is not older than its durable one, or
//   - all zeroes, if nothing durable was ever written there.
// Writes in flight at once go to distinct blocks (NBD leaves the order of overlapping
// in-flight writes undefined). The final pass reads the backing file directly as well. A run
// that flushed nothing, or whose file holds no flushed block at the end, fails: it proved
// nothing about durability.
//
//   nbd_crash_test [--iterations 40] [--seed S] [--daemon PATH] [--blocks 1024]
//                  [--cache-size BYTES --mode write-back|write-through --compression lz4|none]
// Exit 0 when every check passed, 1 on a violation (also when nothing was made durable).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <libnbd.h>
#include <mutex>
#include <optional>
#include <random>
#include <signal.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <vector>

#include "tests/support/child_process.h"

namespace {

constexpr std::size_t kBlock = 4096;
constexpr std::uint64_t kMagic = 0x5353444b43525348ULL; // "SSDKCRSH"

std::uint64_t checksum(const std::uint8_t* data, std::size_t size) {
    std::uint64_t hash = 0xcbf29ce484222325ULL; // FNV-1a 64
    for (std::size_t i = 0; i < size; ++i) {
        hash = (hash ^ data[i]) * 0x100000001b3ULL;
    }
    return hash;
}

void put64(std::uint8_t* out, std::uint64_t value) {
    std::memcpy(out, &value, 8);
}
std::uint64_t get64(const std::uint8_t* in) {
    std::uint64_t value = 0;
    std::memcpy(&value, in, 8);
    return value;
}

void fillBlock(std::uint8_t* out, std::uint64_t index, std::uint64_t sequence) {
    put64(out, kMagic);
    put64(out + 8, index);
    put64(out + 16, sequence);
    std::mt19937_64 body(index * 0x9e3779b97f4a7c15ULL ^ sequence);
    for (std::size_t i = 24; i < kBlock - 8; i += 8) {
        put64(out + i, body());
    }
    put64(out + kBlock - 8, checksum(out, kBlock - 8));
}

struct Model {
    std::mutex mutex;
    std::vector<std::uint64_t> durable;                    // per block; 0 = nothing durable
    std::unordered_map<std::uint64_t, std::uint64_t> sent; // sequence -> block
    std::uint64_t nextSequence = 1;
};

struct Counts {
    std::uint64_t writesAcked = 0;
    std::uint64_t flushes = 0;
    std::uint64_t blocksChecked = 0;
    std::uint64_t durableBlocksVerified = 0;
};

// Checks one block read back; returns an explanation on a violation.
std::string checkBlock(const std::uint8_t* data, std::uint64_t index, Model& model,
                       Counts& counts) {
    ++counts.blocksChecked;
    const std::uint64_t durable = model.durable[index];
    const bool zero = std::all_of(data, data + kBlock, [](std::uint8_t b) { return b == 0; });
    if (zero) {
        return durable == 0 ? std::string()
                            : "block " + std::to_string(index) + " reads as zeroes but sequence " +
                                  std::to_string(durable) + " was flushed";
    }
    if (get64(data) != kMagic || checksum(data, kBlock - 8) != get64(data + kBlock - 8)) {
        return "block " + std::to_string(index) + " is torn (bad magic or checksum)";
    }
    const std::uint64_t storedIndex = get64(data + 8);
    const std::uint64_t sequence = get64(data + 16);
    std::vector<std::uint8_t> expected(kBlock);
    fillBlock(expected.data(), index, sequence);
    if (storedIndex != index || std::memcmp(expected.data(), data, kBlock) != 0) {
        return "block " + std::to_string(index) + " holds block " + std::to_string(storedIndex) +
               "'s data";
    }
    const auto sentTo = model.sent.find(sequence);
    if (sentTo == model.sent.end() || sentTo->second != index) {
        return "block " + std::to_string(index) + " holds sequence " + std::to_string(sequence) +
               " that was never written there";
    }
    if (sequence < durable) {
        return "block " + std::to_string(index) + " holds sequence " + std::to_string(sequence) +
               " older than the flushed " + std::to_string(durable);
    }
    if (durable != 0) {
        ++counts.durableBlocksVerified;
    }
    return {};
}

// Writes batches of distinct blocks (up to 32 in flight, some FUA) and flushes after each,
// until the connection breaks or stop is set.
void writeUntilKilled(nbd_handle* nbd, std::uint64_t blocks, Model& model, Counts& counts,
                      std::mt19937_64& random, const std::atomic<bool>& stop) {
    std::vector<std::uint8_t> buffers(32 * kBlock);
    while (!stop.load()) {
        const std::size_t batch = 1 + random() % 32;
        std::vector<std::uint64_t> indexes;
        while (indexes.size() < batch) {
            const std::uint64_t index = random() % blocks;
            if (std::find(indexes.begin(), indexes.end(), index) == indexes.end()) {
                indexes.push_back(index);
            }
        }
        struct Pending {
            std::int64_t cookie;
            std::uint64_t index;
            std::uint64_t sequence;
            bool fua;
        };
        std::vector<Pending> pending;
        for (std::size_t i = 0; i < indexes.size(); ++i) {
            std::uint64_t sequence = 0;
            {
                std::lock_guard lock(model.mutex);
                sequence = model.nextSequence++;
                model.sent.emplace(sequence, indexes[i]);
            }
            std::uint8_t* buffer = buffers.data() + i * kBlock;
            fillBlock(buffer, indexes[i], sequence);
            const bool fua = random() % 8 == 0;
            const std::int64_t cookie =
                nbd_aio_pwrite(nbd, buffer, kBlock, indexes[i] * kBlock, nbd_completion_callback{},
                               fua ? LIBNBD_CMD_FLAG_FUA : 0);
            if (cookie < 0) {
                return;
            }
            pending.push_back(Pending{cookie, indexes[i], sequence, fua});
        }
        std::vector<Pending> acked;
        for (const auto& write : pending) {
            int done = 0;
            while ((done = nbd_aio_command_completed(
                        nbd, static_cast<std::uint64_t>(write.cookie))) == 0) {
                if (nbd_poll(nbd, -1) < 0) {
                    return;
                }
            }
            if (done < 0) {
                return;
            }
            acked.push_back(write);
            ++counts.writesAcked;
            if (write.fua) {
                std::lock_guard lock(model.mutex);
                model.durable[write.index] = std::max(model.durable[write.index], write.sequence);
            }
        }
        if (nbd_flush(nbd, 0) != 0) {
            return;
        }
        ++counts.flushes;
        std::lock_guard lock(model.mutex);
        for (const auto& write : acked) {
            model.durable[write.index] = std::max(model.durable[write.index], write.sequence);
        }
    }
}

struct Options {
    unsigned iterations = 40;
    std::uint64_t seed = 0;
    std::uint64_t blocks = 1024;
    std::string daemon;
    // Passed to the daemon when set: the RAM cache under test (write-back is the hard case).
    std::string cacheSize;
    std::string mode;
    std::string compression;
};

} // namespace

int main(int argc, char** argv) {
    Options options;
    options.seed =
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    options.daemon =
        (std::filesystem::canonical("/proc/self/exe").parent_path() / "ssdkeeper-cached").string();
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        const std::string value = argv[i + 1];
        if (key == "--iterations") {
            options.iterations = static_cast<unsigned>(std::stoul(value));
        } else if (key == "--seed") {
            options.seed = std::stoull(value);
        } else if (key == "--blocks") {
            options.blocks = std::stoull(value);
        } else if (key == "--daemon") {
            options.daemon = value;
        } else if (key == "--cache-size") {
            options.cacheSize = value;
        } else if (key == "--mode") {
            options.mode = value;
        } else if (key == "--compression") {
            options.compression = value;
        } else {
            std::fprintf(stderr, "unknown option %s\n", key.c_str());
            return 2;
        }
    }
    std::signal(SIGPIPE, SIG_IGN);
    char pattern[] = "/tmp/ssdk-nbd-crash-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) {
        std::perror("mkdtemp");
        return 1;
    }
    const std::filesystem::path dir(pattern);
    const auto backing = dir / "disk.img";
    std::ofstream(backing).close();
    std::filesystem::resize_file(backing, options.blocks * kBlock);
    const auto socket = dir / "nbd.sock";
    const auto log = dir / "daemon.log";
    std::printf("nbd_crash_test: %u iterations, seed %llu, %llu blocks, cache %s %s %s, in %s\n",
                options.iterations, static_cast<unsigned long long>(options.seed),
                static_cast<unsigned long long>(options.blocks),
                options.cacheSize.empty() ? "none" : options.cacheSize.c_str(),
                options.mode.c_str(), options.compression.c_str(), dir.c_str());

    Model model;
    model.durable.assign(options.blocks, 0);
    Counts counts;
    std::mt19937_64 random(options.seed);
    std::string violation;

    const auto startDaemon = [&]() -> std::optional<ssdk::testing::ChildProcess> {
        std::vector<std::string> args{options.daemon, "--export",      "crash=" + backing.string(),
                                      "--socket",     socket.string(), "--log-level",
                                      "warn"};
        for (const auto& [flag, value] :
             {std::pair{"--cache-size", options.cacheSize}, std::pair{"--mode", options.mode},
              std::pair{"--compression", options.compression}}) {
            if (!value.empty()) {
                args.insert(args.end(), {flag, value});
            }
        }
        auto child = ssdk::testing::ChildProcess::spawn(args, log.string());
        if (!child || !child->waitForLine("ready", std::chrono::seconds(10))) {
            return std::nullopt;
        }
        return child;
    };
    const auto connect = [&]() -> nbd_handle* {
        nbd_handle* nbd = nbd_create();
        if (nbd == nullptr || nbd_set_export_name(nbd, "crash") != 0 ||
            nbd_connect_unix(nbd, socket.c_str()) != 0) {
            std::fprintf(stderr, "libnbd: %s\n", nbd_get_error());
            if (nbd) {
                nbd_close(nbd);
            }
            return nullptr;
        }
        return nbd;
    };
    // Reads every block through NBD and checks it against the model.
    const auto verifyOverNbd = [&]() -> bool {
        nbd_handle* nbd = connect();
        if (nbd == nullptr) {
            violation = "could not connect to the restarted daemon";
            return false;
        }
        std::vector<std::uint8_t> chunk(256 * kBlock);
        for (std::uint64_t first = 0; first < options.blocks && violation.empty(); first += 256) {
            const std::uint64_t count = std::min<std::uint64_t>(256, options.blocks - first);
            if (nbd_pread(nbd, chunk.data(), count * kBlock, first * kBlock, 0) != 0) {
                violation = std::string("reading after restart: ") + nbd_get_error();
                break;
            }
            for (std::uint64_t i = 0; i < count && violation.empty(); ++i) {
                violation = checkBlock(chunk.data() + i * kBlock, first + i, model, counts);
            }
        }
        nbd_close(nbd);
        return violation.empty();
    };

    unsigned kills = 0;
    for (unsigned iteration = 0; iteration < options.iterations && violation.empty(); ++iteration) {
        auto daemon = startDaemon();
        if (!daemon) {
            violation = "the daemon did not start (see " + log.string() + ")";
            break;
        }
        if (!verifyOverNbd()) {
            break;
        }
        nbd_handle* nbd = connect();
        if (nbd == nullptr) {
            violation = "could not connect";
            break;
        }
        std::atomic<bool> stop{false};
        std::mt19937_64 writerRandom(random());
        std::thread writer(
            [&] { writeUntilKilled(nbd, options.blocks, model, counts, writerRandom, stop); });
        // Kill anywhere from right after the first requests to well into the run.
        std::this_thread::sleep_for(std::chrono::microseconds(random() % 120000));
        daemon->signal(SIGKILL);
        const int status = daemon->wait();
        stop.store(true);
        writer.join();
        nbd_close(nbd);
        if (status != 128 + SIGKILL) {
            violation = "the daemon exited with " + std::to_string(status) + " before the kill";
            break;
        }
        ++kills;
    }
    std::uint64_t durableInFile = 0;
    if (violation.empty()) {
        // Final restart: verify over NBD, stop cleanly, then verify the file itself.
        auto daemon = startDaemon();
        if (!daemon) {
            violation = "the daemon did not restart";
        } else if (verifyOverNbd()) {
            daemon->signal(SIGTERM);
            if (const int status = daemon->wait(); status != 0) {
                violation = "clean shutdown exited with " + std::to_string(status);
            }
            std::ifstream file(backing, std::ios::binary);
            std::vector<std::uint8_t> block(kBlock);
            const std::uint64_t durableBefore = counts.durableBlocksVerified;
            for (std::uint64_t i = 0; i < options.blocks && violation.empty(); ++i) {
                file.read(reinterpret_cast<char*>(block.data()), kBlock);
                violation = checkBlock(block.data(), i, model, counts);
            }
            durableInFile = counts.durableBlocksVerified - durableBefore;
        }
    }
    // A run in which no flush completed, or no block was read back holding flushed data,
    // checked nothing it claims to (every block "may be zeroes"): it fails instead of passing.
    if (violation.empty() && counts.flushes == 0) {
        violation = "no FLUSH completed across " + std::to_string(kills) +
                    " SIGKILLs: nothing was made durable, so nothing durable was checked";
    } else if (violation.empty() && durableInFile == 0) {
        violation = "the backing file holds no block with flushed data after " +
                    std::to_string(counts.flushes) + " flushes";
    }
    std::printf("nbd_crash_test: %u SIGKILLs, %llu writes acknowledged, %llu flushes, %llu block "
                "checks (%llu of blocks holding flushed data, %llu of them in the final file)\n",
                kills, static_cast<unsigned long long>(counts.writesAcked),
                static_cast<unsigned long long>(counts.flushes),
                static_cast<unsigned long long>(counts.blocksChecked),
                static_cast<unsigned long long>(counts.durableBlocksVerified),
                static_cast<unsigned long long>(durableInFile));
    if (!violation.empty()) {
        std::printf("nbd_crash_test: FAILED: %s (files kept in %s)\n", violation.c_str(),
                    dir.c_str());
        return 1;
    }
    std::filesystem::remove_all(dir);
    std::printf("nbd_crash_test: passed\n");
    return 0;
}
