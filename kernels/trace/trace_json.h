#pragma once
// Trace <-> JSON text and files. Writing is deterministic (fixed key order, shortest
// round-tripping numbers), so write -> read -> write reproduces the same bytes and recordings
// diff cleanly. Reading never throws: every failure is a TraceError that says where.
#include "trace/trace.h"

#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace wb {

// Pretty JSON with a trailing newline. Returns an empty string when validateTrace() rejects
// the trace (JSON has no NaN or infinity, and writing null instead would lose data silently);
// use traceToJsonChecked() or writeTraceFile() to learn why.
std::string traceToJson(const Trace& trace);
std::variant<std::string, TraceError> traceToJsonChecked(const Trace& trace);

// Syntax errors read "line L, column C (byte N): ..."; schema errors start with the JSON
// pointer of the offending value ("/series/0/x/3: expected a finite number, got a string")
// and end with its line and column.
std::variant<Trace, TraceError> traceFromJson(std::string_view text);

// File variants: messages are prefixed with the file path. Writing goes through a temporary
// file and a rename, so a failed write never leaves a half-written trace behind.
std::variant<Trace, TraceError> readTraceFile(const std::string& path);
std::optional<TraceError> writeTraceFile(const Trace& trace, const std::string& path);

} // namespace wb
