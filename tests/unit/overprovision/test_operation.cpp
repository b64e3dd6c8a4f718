// Operation logic against a simulated disk and ext4 (fake DiskEditor, scripted tools): the
// order of steps, the journal written before each one, stopping on failure, finishing and
// rolling back. The real thing runs in tests/integration/overprovision.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include "core/overprovision/operation.h"

using namespace ssdk;
using namespace ssdk::overprovision;
namespace fs = std::filesystem;

namespace {

// ext4 as its tools would report it: a size that resize2fs changes.
class SimulatedExt4 final : public ProcessRunner {
public:
    Bytes size = Bytes::mib(510);
    std::vector<std::string> commands;
    std::string failOn; // a command name that fails once

    Expected<ProcessResult> run(const ProcessRequest& request) override {
        const std::string& tool = request.argv.front();
        commands.push_back(tool);
        if (tool == failOn) {
            failOn.clear();
            return ProcessResult{8, "", tool + ": simulated failure"};
        }
        if (tool == "dumpe2fs") {
            return ProcessResult{
                0,
                fmt::format("Block count: {}\nFree blocks: 100\nBlock size: 4096\n",
                            size.value / 4096),
                ""};
        }
        if (tool == "resize2fs") {
            size = Bytes(std::stoull(request.argv.at(2)) * 1024);
            return ProcessResult{0, "", ""};
        }
        return ProcessResult{0, "", ""};
    }
};

class FakeEditor final : public DiskEditor {
public:
    Bytes start = Bytes::mib(1);
    Bytes size = Bytes::mib(510);
    Bytes kernelSize = Bytes::mib(510);
    std::vector<std::pair<Bytes, Bytes>> discards;
    int backups = 0;

    Expected<std::string> dumpTable(const std::string&) override {
        ++backups;
        return std::string("label: gpt\n");
    }
    Expected<Extent> partitionOnDisk(const std::string&, std::uint32_t) override {
        return Extent{start, size};
    }
    Expected<void> resizePartition(const std::string&, std::uint32_t, Bytes newSize) override {
        size = newSize;
        return {};
    }
    Expected<void> informKernel(const std::string&, std::uint32_t, Bytes, Bytes newSize) override {
        kernelSize = newSize;
        return {};
    }
    Expected<void> discard(const std::string&, Bytes from, Bytes length) override {
        discards.emplace_back(from, length);
        return {};
    }
};

struct Bench {
    fs::path dir = fs::temp_directory_path() / ("ssdk-op-unit-op-" + std::to_string(::getpid()));
    SimulatedExt4 runner;
    FakeEditor editor;
    FilesystemTool tool{runner};
    JournalStore store{openStore(dir)};

    static StateStore openStore(const fs::path& dir) {
        fs::remove_all(dir);
        auto files = StateStore::open(dir);
        REQUIRE(files);
        return *files;
    }
    ~Bench() { fs::remove_all(dir); }

    Journal shrink() { return test::loop7ShrinkJournal(store.newBackupName("lab-op", "apply")); }
};

} // namespace

TEST_CASE("a shrink runs its steps in order and records each", "[overprovision]") {
    Bench bench;
    std::vector<std::string> seen;
    Operation operation(bench.shrink(), bench.editor, bench.tool, bench.store);
    auto done = operation.run([&](const StepEvent& event) {
        if (!event.finished) {
            // The journal on disk already says this step started.
            auto journal = bench.store.load("lab-op");
            REQUIRE(journal);
            REQUIRE(journal->has_value());
            CHECK((*journal)->steps[event.index].state == StepState::Started);
            seen.push_back(event.name);
        }
    });
    REQUIRE(done);
    CHECK(done->phase == Phase::Completed);
    CHECK(seen == std::vector<std::string>{"backup-table", "check-filesystem", "shrink-filesystem",
                                           "shrink-partition", "inform-kernel", "discard",
                                           "verify"});
    CHECK(bench.runner.size == Bytes::mib(408));
    CHECK(bench.editor.size == Bytes::mib(408));
    CHECK(bench.editor.kernelSize == Bytes::mib(408));
    REQUIRE(bench.editor.discards.size() == 1);
    CHECK(bench.editor.discards[0].first == Bytes::mib(409));
    CHECK(bench.editor.discards[0].second == Bytes::mib(102));
    CHECK(bench.store.files().read(done->tableBackup).value() == "label: gpt\n");
    CHECK(done->undoable());
}

TEST_CASE("a failing step stops the run and leaves a pending journal", "[overprovision]") {
    Bench bench;
    bench.runner.failOn = "resize2fs";
    Operation operation(bench.shrink(), bench.editor, bench.tool, bench.store);
    auto failed = operation.run();
    REQUIRE_FALSE(failed);
    CHECK(failed.error().describe().find("simulated failure") != std::string::npos);
    CHECK(bench.editor.size == Bytes::mib(510)); // the partition was not touched
    auto journal = bench.store.load("lab-op");
    REQUIRE(journal);
    REQUIRE(journal->has_value());
    CHECK((*journal)->pending());
    CHECK((*journal)->steps[2].state == StepState::Started);
    CHECK_FALSE((*journal)->lastError.empty());

    SECTION("finishing completes it, without a second table backup") {
        Operation finish(journalToFinish(**journal), bench.editor, bench.tool, bench.store);
        auto done = finish.run();
        REQUIRE(done);
        CHECK(bench.editor.size == Bytes::mib(408));
        CHECK(bench.editor.backups == 1);
    }
    SECTION("rolling back restores the original sizes") {
        bench.runner.size = Bytes::mib(450); // say resize2fs got halfway
        Operation back(journalToRollBack(**journal, bench.store.newBackupName("lab-op", "rb")),
                       bench.editor, bench.tool, bench.store);
        auto done = back.run();
        REQUIRE(done);
        CHECK(done->phase == Phase::RolledBack);
        CHECK(bench.runner.size == Bytes::mib(510));
        CHECK(bench.editor.size == Bytes::mib(510));
        CHECK_FALSE(done->undoable());
    }
}

TEST_CASE("the partition never shrinks below its filesystem", "[overprovision]") {
    Bench bench;
    Journal journal = bench.shrink();
    journal.steps[2].state = StepState::Done; // claims the filesystem shrank; it did not
    journal.steps[1].state = StepState::Done;
    journal.steps[0].state = StepState::Done;
    Operation operation(journal, bench.editor, bench.tool, bench.store);
    auto result = operation.run();
    REQUIRE_FALSE(result);
    CHECK(result.error().describe().find("larger than the new partition") != std::string::npos);
    CHECK(bench.editor.size == Bytes::mib(510));
}

TEST_CASE("a partition that moved is not touched", "[overprovision]") {
    Bench bench;
    bench.editor.start = Bytes::mib(2);
    Operation operation(bench.shrink(), bench.editor, bench.tool, bench.store);
    auto result = operation.run();
    REQUIRE_FALSE(result);
    CHECK(result.error().describe().find("changed outside SSD Keeper") != std::string::npos);
    CHECK(bench.editor.size == Bytes::mib(510));
}
