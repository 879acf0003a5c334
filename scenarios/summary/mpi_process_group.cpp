#include "summary/mpi_process_group.h"

#include <climits>
#include <cstdlib>
#include <mpi.h>

namespace wb {

namespace {

void mpiCheck(int code, const char* what) {
    if (code == MPI_SUCCESS)
        return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw ProcessGroupError(std::string("MPI failed ") + what + ": " +
                            std::string(text, static_cast<std::size_t>(length)) +
                            " (a process may have died; its files are not summarised, and "
                            "no summary is written)");
}

int mpiCount(long long bytes, const char* what) {
    if (bytes > INT_MAX)
        throw ProcessGroupError(std::string(what) + ": " + std::to_string(bytes) +
                                " bytes, over MPI's 2 GiB per message");
    return static_cast<int>(bytes);
}

} // namespace

MpiProcessGroup::MpiProcessGroup(int* argc, char*** argv) {
    if (MPI_Init(argc, argv) != MPI_SUCCESS)
        throw ProcessGroupError("MPI_Init failed");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &index_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiProcessGroup::~MpiProcessGroup() {
    MPI_Finalize();
}

std::vector<std::string> MpiProcessGroup::gather(const std::string& mine) {
    long long mySize = static_cast<long long>(mine.size());
    std::vector<long long> sizes(isRoot() ? static_cast<std::size_t>(size_) : 0);
    mpiCheck(
        MPI_Gather(&mySize, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD),
        "gathering message sizes");
    std::vector<int> counts, displacements;
    long long total = 0;
    for (const long long s : sizes) {
        counts.push_back(mpiCount(s, "one process's results"));
        displacements.push_back(mpiCount(total, "the results gathered at the root"));
        total += s;
    }
    std::string all(static_cast<std::size_t>(total), '\0');
    mpiCheck(MPI_Gatherv(mine.data(), mpiCount(mySize, "this process's results"), MPI_CHAR,
                         all.data(), counts.data(), displacements.data(), MPI_CHAR, 0,
                         MPI_COMM_WORLD),
             "gathering results at the root");
    std::vector<std::string> out;
    for (std::size_t p = 0; p < sizes.size(); ++p)
        out.push_back(all.substr(static_cast<std::size_t>(displacements[p]),
                                 static_cast<std::size_t>(counts[p])));
    return out;
}

std::string MpiProcessGroup::broadcast(const std::string& fromRoot) {
    long long size = static_cast<long long>(fromRoot.size());
    mpiCheck(MPI_Bcast(&size, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD), "sharing a message size");
    std::string out = isRoot() ? fromRoot : std::string(static_cast<std::size_t>(size), '\0');
    mpiCheck(
        MPI_Bcast(out.data(), mpiCount(size, "the root's message"), MPI_CHAR, 0, MPI_COMM_WORLD),
        "sharing the root's message");
    return out;
}

std::string MpiProcessGroup::hostName() const {
    char name[MPI_MAX_PROCESSOR_NAME];
    int length = 0;
    if (MPI_Get_processor_name(name, &length) != MPI_SUCCESS)
        return "unknown";
    return std::string(name, static_cast<std::size_t>(length));
}

void MpiProcessGroup::abort(int code) {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::exit(code); // MPI_Abort does not return; this is for the compiler
}

} // namespace wb
