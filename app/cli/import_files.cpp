// Reading people's files for the command line: the paths expanded by the one folder rule
// (import/input_files.h), every file through importFile, a cut file treated as an error (the
// GUI keeps it with a warning instead). A file that fails does not stop the others: each
// command decides what a partial batch means. The files are read on several threads, with
// the same outcome as one.
#include "cli/cli_error.h"
#include "cli/commands.h"
#include "import/import_registry.h"
#include "import/input_files.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <iostream>
#include <system_error>
#include <thread>

namespace wb::cli {

namespace {

// What one file gave: its result, or the line that says why it did not read.
struct ImportedFile {
    std::unique_ptr<ImportResult> result;
    std::string error;
    std::exception_ptr failure; // a bug or bad_alloc, rethrown on the calling thread
};

ImportedFile importOneFile(const std::string& path) {
    ImportedFile out;
    try {
        auto imported = importCompleteFile(path);
        if (auto* err = std::get_if<ImportError>(&imported)) {
            out.error = err->describe();
            return out;
        }
        out.result = std::move(std::get<std::unique_ptr<ImportResult>>(imported));
    } catch (...) {
        out.failure = std::current_exception();
    }
    return out;
}

} // namespace

unsigned defaultImportWorkers() {
    return std::max(1u, std::thread::hardware_concurrency());
}

ImportOutcome importAll(const std::vector<std::string>& paths, unsigned workers) {
    ImportOutcome out;
    InputFiles inputs = expandInputs(paths);
    for (const auto& problem : inputs.problems)
        out.errors.push_back(problem.describe());

    // Files are independent (each importer streams its file through a ByteSource of 1 MiB
    // chunks into its own result), so up to `workers` read at once. Each worker takes the
    // next file in order; every result lands in its file's place, so the outcome is the
    // serial one whatever the timing. Memory: the finished results plus, per worker, one
    // file's read buffer and the result it is building, never a whole file's bytes.
    const std::size_t n = inputs.files.size();
    std::vector<ImportedFile> done(n);
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t i = next++; i < n; i = next++)
            done[i] = importOneFile(inputs.files[i]);
    };
    const std::size_t threads =
        std::min<std::size_t>(n, workers == 0 ? defaultImportWorkers() : workers);
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t) {
        try {
            pool.emplace_back(work);
        } catch (const std::system_error&) {
            break; // no more threads to be had: fewer workers give the same outcome
        }
    }
    work(); // the calling thread is one of the workers
    for (auto& thread : pool)
        thread.join();

    for (auto& file : done) {
        if (file.failure)
            std::rethrow_exception(file.failure);
        if (file.result)
            out.results.push_back(std::move(file.result));
        else
            out.errors.push_back(std::move(file.error));
    }
    return out;
}

int reportImportErrors(const ImportOutcome& outcome) {
    // Each line starts with the file ("FILE: byte N: ..." or "cannot open 'FILE': ..."), as
    // scripts expect: no "warpboard:" prefix.
    for (const auto& e : outcome.errors)
        std::cerr << e << "\n";
    return outcome.errors.empty() ? 0 : kUsageExitCode;
}

} // namespace wb::cli
