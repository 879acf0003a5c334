#include "parallel/pipeline_schedule.h"

#include <stdexcept>

namespace wb {

PipelineBubble pipelineBubble(int stages, int microbatches, int interleave) {
    if (stages < 1 || microbatches < 1 || interleave < 1)
        throw std::invalid_argument(
            "pipeline stages, micro-batches and interleaving must each be at least 1");
    const double x = static_cast<double>(stages - 1) /
                     (static_cast<double>(interleave) * static_cast<double>(microbatches));
    return {x, x / (1.0 + x)};
}

} // namespace wb
