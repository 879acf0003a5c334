#pragma once
// One function per importer; import_registry.cpp lists them.
#include "import/importer.h"

namespace wb {

Importer chromeTraceImporter();     // PyTorch profiler (Kineto) and generic Chrome trace JSON
Importer ncuCsvImporter();          // Nsight Compute --csv
Importer ncclLogImporter();         // NCCL_DEBUG=INFO logs
Importer ncclTestsImporter();       // nccl-tests tables (and NCCL INFO lines in the same file)
Importer pytorchWatchdogImporter(); // PyTorch ProcessGroupNCCL watchdog timeouts

} // namespace wb
