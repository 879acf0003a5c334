#include "catalogue/hardware_catalogue.h"

#include "engine/sentence.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace wb::embedded {
extern const std::string_view gpus_json;
}

namespace wb {

using nlohmann::json;

const SpecValue& GpuSpec::field(const std::string& key) const {
    auto it = fields.find(key);
    if (it == fields.end())
        throw std::out_of_range(fill("%1 has no field '%2'", {id, key}));
    return it->second;
}

const std::vector<std::string>& HardwareCatalogue::requiredFields() {
    static const std::vector<std::string> required{"bf16_dense_tflops",
                                                   "fp16_dense_tflops",
                                                   "tf32_dense_tflops",
                                                   "fp32_tflops",
                                                   "memory_gb",
                                                   "memory_bandwidth_gbs",
                                                   "sm_count",
                                                   "l2_cache_mb",
                                                   "l1_shared_per_sm_kb",
                                                   "max_shared_per_block_kb",
                                                   "registers_per_sm",
                                                   "max_registers_per_thread",
                                                   "max_threads_per_sm",
                                                   "max_warps_per_sm",
                                                   "max_blocks_per_sm",
                                                   "max_threads_per_block",
                                                   "nvlink_bidirectional_gbs",
                                                   "pcie_per_direction_gbs",
                                                   "tdp_w"};
    return required;
}

namespace {

std::string textAt(const json& obj, const char* key, const std::string& where) {
    auto it = obj.find(key);
    if (it == obj.end() || !it->is_string())
        throw CatalogueError{fill("%1/%2: expected a string", {where, key})};
    return it->get<std::string>();
}

} // namespace

std::variant<HardwareCatalogue, CatalogueError> HardwareCatalogue::parse(std::string_view text) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        return CatalogueError{
            fill("catalogue is not valid JSON at byte %1: %2", {std::to_string(e.byte), e.what()})};
    }
    try {
        HardwareCatalogue cat;
        if (!doc.is_object())
            throw CatalogueError{"/: expected an object with 'sources' and 'gpus'"};
        const auto srcs = doc.find("sources");
        if (srcs == doc.end() || !srcs->is_object())
            throw CatalogueError{"/sources: expected an object of source id → {label, url}"};
        for (const auto& [sid, s] : srcs->items()) {
            const std::string where = fill("/sources/%1", {sid});
            if (!s.is_object())
                throw CatalogueError{fill("%1: expected an object", {where})};
            cat.m_sources[sid] = SpecSource{sid, textAt(s, "label", where), textAt(s, "url", where),
                                            s.value("confidence", std::string{})};
        }
        const auto gpus = doc.find("gpus");
        if (gpus == doc.end() || !gpus->is_array() || gpus->empty())
            throw CatalogueError{"/gpus: expected a non-empty array"};
        for (size_t i = 0; i < gpus->size(); ++i) {
            const json& g = (*gpus)[i];
            std::string where = fill("/gpus/%1", {std::to_string(i)});
            if (!g.is_object())
                throw CatalogueError{fill("%1: expected an object", {where})};
            GpuSpec spec;
            spec.id = textAt(g, "id", where);
            where = fill("%1 (%2)", {where, spec.id});
            if (cat.find(spec.id))
                throw CatalogueError{fill("%1: duplicate id", {where})};
            spec.name = textAt(g, "name", where);
            spec.architecture = textAt(g, "architecture", where);
            spec.computeCapability = textAt(g, "compute_capability", where);
            spec.memoryType = g.value("memory_type", std::string{});
            spec.notes = g.value("notes", std::string{});
            const auto fields = g.find("fields");
            if (fields == g.end() || !fields->is_object())
                throw CatalogueError{fill("%1/fields: expected an object", {where})};
            for (const auto& [name, f] : fields->items()) {
                const std::string fw = fill("%1/fields/%2", {where, name});
                if (!f.is_object() || !f.contains("value") || !f["value"].is_number())
                    throw CatalogueError{fill("%1: expected {value: number, unit, source}", {fw})};
                SpecValue v{f["value"].get<double>(), textAt(f, "unit", fw),
                            textAt(f, "source", fw)};
                if (!(v.value >= 0.0))
                    throw CatalogueError{fill("%1: value must be a non-negative number", {fw})};
                if (!cat.m_sources.count(v.sourceId))
                    throw CatalogueError{fill("%1: unknown source '%2'", {fw, v.sourceId})};
                spec.fields.emplace(name, std::move(v));
            }
            for (const auto& req : requiredFields())
                if (!spec.has(req))
                    throw CatalogueError{fill("%1: missing required field '%2'", {where, req})};
            cat.m_gpus.push_back(std::move(spec));
        }
        return cat;
    } catch (const CatalogueError& e) {
        return e;
    } catch (const json::exception& e) {
        return CatalogueError{fill("catalogue has the wrong shape: %1", {e.what()})};
    }
}

const HardwareCatalogue& HardwareCatalogue::builtin() {
    static const HardwareCatalogue cat = [] {
        auto parsed = parse(embedded::gpus_json);
        if (auto* err = std::get_if<CatalogueError>(&parsed))
            throw std::runtime_error(
                fill("built-in hardware catalogue is broken: %1", {err->message}));
        return std::get<HardwareCatalogue>(std::move(parsed));
    }();
    return cat;
}

const GpuSpec* HardwareCatalogue::find(std::string_view id) const {
    for (const auto& g : m_gpus)
        if (g.id == id)
            return &g;
    return nullptr;
}

const GpuSpec* HardwareCatalogue::matchDevice(const std::string& deviceName,
                                              const std::string& computeCapability, int smCount,
                                              double memoryGB) const {
    const GpuSpec* best = nullptr;
    double bestGap = 0.0;
    for (const auto& g : m_gpus) {
        // The model is the catalogue name's second word: "NVIDIA H200 SXM 141 GB" -> "H200".
        const auto first = g.name.find(' ');
        const auto second = g.name.find(' ', first + 1);
        if (first == std::string::npos)
            continue;
        const std::string model = g.name.substr(first + 1, second - first - 1);
        if (deviceName.find(model) == std::string::npos || g.computeCapability != computeCapability)
            continue;
        // PCIe and NVL cards share SM count and memory with some SXM parts, not their clocks.
        const bool sxm = g.name.find("SXM") != std::string::npos;
        if (sxm && (deviceName.find("PCIe") != std::string::npos ||
                    deviceName.find("NVL") != std::string::npos))
            continue;
        if (!g.has("sm_count") || static_cast<int>(g.value("sm_count")) != smCount)
            continue;
        if (!g.has("memory_gb"))
            continue;
        const double catalogueGB = g.value("memory_gb");
        if (memoryGB < catalogueGB || memoryGB > catalogueGB * 1.10)
            continue;
        const double gap = memoryGB - catalogueGB;
        if (!best || gap < bestGap) {
            best = &g;
            bestGap = gap;
        }
    }
    return best;
}

std::vector<std::string> HardwareCatalogue::ids() const {
    std::vector<std::string> out;
    for (const auto& g : m_gpus)
        out.push_back(g.id);
    return out;
}

const SpecSource* HardwareCatalogue::source(const std::string& id) const {
    auto it = m_sources.find(id);
    return it == m_sources.end() ? nullptr : &it->second;
}

std::string HardwareCatalogue::sourceLabel(const GpuSpec& gpu, const std::string& field) const {
    const SpecSource* s = source(gpu.field(field).sourceId);
    return s ? s->label : std::string{};
}

std::string HardwareCatalogue::citation(const GpuSpec& gpu, const std::string& field) const {
    const SpecSource* s = source(gpu.field(field).sourceId);
    return s ? fill("%1 (%2)", {s->label, s->url}) : std::string{};
}

} // namespace wb
