#pragma once
// The processes warpboard-summarize runs as: one (SingleProcess) or an MPI world
// (mpi_process_group.h, built only when CMake finds MPI). The summariser speaks only through
// this, so the one-process and the MPI runs execute the same code, byte for byte the same
// messages, and a build without MPI needs no #ifdef in it.
#include <stdexcept>
#include <string>
#include <vector>

namespace wb {

class ProcessGroup {
public:
    virtual ~ProcessGroup() = default;
    virtual int index() const = 0; // 0 is the root, which writes the summary
    virtual int size() const = 0;
    // Every process's bytes, in process order, at the root; an empty list elsewhere.
    virtual std::vector<std::string> gather(const std::string& mine) = 0;
    // The root's bytes on every process.
    virtual std::string broadcast(const std::string& fromRoot) = 0;
    virtual std::string hostName() const = 0;
    bool isRoot() const { return index() == 0; }
};

// A collective that failed (a process gone, a message too large): the job cannot finish.
struct ProcessGroupError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class SingleProcess final : public ProcessGroup {
public:
    int index() const override { return 0; }
    int size() const override { return 1; }
    std::vector<std::string> gather(const std::string& mine) override { return {mine}; }
    std::string broadcast(const std::string& fromRoot) override { return fromRoot; }
    std::string hostName() const override;
};

} // namespace wb
