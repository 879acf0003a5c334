// libFuzzer target for one importer (chosen at compile time with WB_FUZZ_FACTORY): every
// input must end in a result or an ImportError — never a crash, hang or sanitizer report.
#include "import/byte_source.h"
#include "import/import_registry.h"
#include "import/importers.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const wb::Importer importer = wb::WB_FUZZ_FACTORY();
    auto source =
        wb::ByteSource::fromMemory(std::string(reinterpret_cast<const char*>(data), size));
    (void)importer.probe(source->head(64 * 1024), "fuzz");
    auto result = importer.parse(*source, {});
    if (auto* ok = std::get_if<std::unique_ptr<wb::ImportResult>>(&result))
        (void)wb::dumpSummary((*ok)->summary()); // printed as `warpboard import` prints it
    return 0;
}
