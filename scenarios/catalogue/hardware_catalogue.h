#pragma once
// The hardware catalogue: GPU specifications with a unit and a source per number, read
// once from resources/hardware/gpus.json (embedded in the binary) and looked up by id.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace wb {

struct SpecSource {
    std::string id;
    std::string label;
    std::string url;
    std::string confidence;
};

struct SpecValue {
    double value = 0.0;
    std::string unit;
    std::string sourceId;
};

struct GpuSpec {
    std::string id; // "h100-sxm"
    std::string name;
    std::string architecture;
    std::string computeCapability;
    std::string memoryType;
    std::string notes;
    std::map<std::string, SpecValue> fields;

    bool has(const std::string& field) const { return fields.count(field) != 0; }
    // Throws std::out_of_range naming the GPU and field when absent.
    const SpecValue& field(const std::string& key) const;
    double value(const std::string& key) const { return field(key).value; }
};

struct CatalogueError {
    std::string message; // says where (JSON pointer or byte offset) and what was expected
};

class HardwareCatalogue {
public:
    // Parses catalogue JSON; every GPU must carry the required fields and every field a
    // known source, otherwise the error names the GPU and field.
    static std::variant<HardwareCatalogue, CatalogueError> parse(std::string_view json);
    // The catalogue shipped in resources/, parsed on first use.
    static const HardwareCatalogue& builtin();

    const std::vector<GpuSpec>& gpus() const { return m_gpus; }
    const GpuSpec* find(std::string_view id) const;
    // The catalogue GPU a real device is, from what CUDA reports about it: the catalogue
    // name's model ("H200" in "NVIDIA H200 SXM 141 GB") in the device name, the same compute
    // capability and SM count, and memory within 10 % above the catalogue's (a device reports
    // decimal bytes of its whole HBM: 150.1 GB for the 141 GB H200). Nearest memory wins;
    // nullptr when none fits (an H100 PCIe has 114 SMs, not the SXM's 132; an A100 80GB PCIe
    // or an H200 NVL has the SXM's SMs and memory but not its clocks, and says so in its name).
    const GpuSpec* matchDevice(const std::string& deviceName, const std::string& computeCapability,
                               int smCount, double memoryGB) const;
    std::vector<std::string> ids() const;
    const SpecSource* source(const std::string& id) const;
    // The label of a field's source, as a slide cites it ("NVIDIA H100 datasheet").
    std::string sourceLabel(const GpuSpec& gpu, const std::string& field) const;
    // "label (url)" for a field of a GPU: what tooltips and answer cards cite.
    std::string citation(const GpuSpec& gpu, const std::string& field) const;

    static const std::vector<std::string>& requiredFields();

private:
    std::vector<GpuSpec> m_gpus;
    std::map<std::string, SpecSource> m_sources;
};

} // namespace wb
