// warpboard-summarize: summarises a job's rank traces where they live, on one process or, when
// built with MPI, on every process a launcher starts (mpirun, srun).
#include "summary/summarize_command.h"

#include <cstdlib>
#include <exception>
#include <iostream>

#if WARPBOARD_HAVE_MPI
#include "summary/mpi_process_group.h"
#endif

int main(int argc, char** argv) {
    const std::vector<std::string> words(argv + 1, argv + argc);
    const auto env = [](const char* name) -> const char* { return std::getenv(name); };
#if WARPBOARD_HAVE_MPI
    wb::MpiProcessGroup group(&argc, &argv);
    try {
        return wb::runSummarizeCommand(words, group, {WARPBOARD_VERSION, true}, env, std::cout,
                                       std::cerr);
    } catch (const std::exception& e) {
        std::cerr << "warpboard-summarize (process " << group.index() << "): " << e.what() << "\n";
        group.abort(1);
    }
#else
    wb::SingleProcess group;
    try {
        return wb::runSummarizeCommand(words, group, {WARPBOARD_VERSION, false}, env, std::cout,
                                       std::cerr);
    } catch (const std::exception& e) {
        std::cerr << "warpboard-summarize: " << e.what() << "\n";
        return 1;
    }
#endif
}
