#pragma once
// The MPI world as warpboard-summarize's ProcessGroup (built only when CMake finds MPI: the
// executable alone links it, so the libraries and the app never depend on MPI). Errors come
// back as ProcessGroupError (MPI_ERRORS_RETURN) so the root can say what failed before the
// job is aborted, instead of MPI's default of killing every process without a word.
#include "summary/process_group.h"

namespace wb {

class MpiProcessGroup final : public ProcessGroup {
public:
    MpiProcessGroup(int* argc, char*** argv); // MPI_Init
    ~MpiProcessGroup() override;              // MPI_Finalize
    MpiProcessGroup(const MpiProcessGroup&) = delete;
    MpiProcessGroup& operator=(const MpiProcessGroup&) = delete;

    int index() const override { return index_; }
    int size() const override { return size_; }
    std::vector<std::string> gather(const std::string& mine) override;
    std::string broadcast(const std::string& fromRoot) override;
    std::string hostName() const override;
    // Ends every process of the job (a process that cannot go on would leave the others
    // waiting in a collective forever).
    [[noreturn]] void abort(int code);

private:
    int index_ = 0;
    int size_ = 1;
};

} // namespace wb
