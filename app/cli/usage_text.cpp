#include "calc/calc_models.h"
#include "cli/commands.h"
#include "engine/registry.h"

namespace wb::cli {

std::string usageText() {
    std::string out = R"(Warpboard — GPU and ML-infrastructure mechanics, step by step.

Usage:
  warpboard [--scenario ID] [--step N] [--present] [--theme light|dark] [FILE|FOLDER...]
      Open the app (on the default scenario, or ID at step N; steps count from 1).
      --present starts in presentation mode (F5 toggles it in the app). Files and folders
      are opened in the lessons that draw them, as `import` reads them (no display: a PNG).
  warpboard --list [--json]
      List scenarios: id, group, title (--json: an array of {id, group, title}).
  warpboard export ID --step N --out FILE.png|FILE.svg [--size WxH] [--t T]
                   [--theme light|dark] [--present] [--param name=value ...]
      Render step N of scenario ID offscreen (no display needed). --size defaults to
      1920x1080; --t is the moment within the step, 0…1 (default 1, the step's end).
      SVG output keeps text as text. --present lays the slide out as presentation mode.
  warpboard lint [--size WxH ...] [--scenario ID | --shard K/N | --panels] [--json]
      Render every step of every scenario (defaults, each parameter at its minimum and
      maximum, presentation mode) at 1280x720 and 1920x1080 (or each --size) and report
      text that cannot be read: elided, below the size floor, outside the slide,
      overlapping, or crossing a shape's edge. --json prints {"findings": [...]}.
      --shard K/N lints every Nth scenario from the Kth. A whole run (and its shard 0)
      also lints the Traces workspace's panels as exported; --panels lints only them.
      Exit 1 when there is a finding.
  warpboard record all|ID --out DIR [--quick] [--device N]
      Run the GPU scenarios' kernels on this machine's GPU and write DIR/<id>.json
      (Trace JSON with the device's provenance). Exit 3 when there is no GPU: nothing is
      written, and no modeled data ever stands in for a measurement.
  warpboard import FILE|FOLDER... [--summary] [--json] [--jobs N]
      Read profiler files (PyTorch/Chrome traces, .json or .json.gz) and print a summary
      per file: format, events, kernels, comm_kernels, ranks, span_us (--json: one object
      {"files": [...], "ranks": N}). Several traces are the ranks of one job. A folder
      stands for the profiler files directly inside it (by extension, as File → Open
      lists them; not subfolders), in name order. The files that read are summarised;
      then each that cannot be read is named on stderr with why (cannot open 'FILE': no
      such file; 'FILE' is empty; FILE: byte N: what was expected), exit 2.
      Traces also get the slowdown triage: "verdict" (none, straggler, fabric, overlap),
      "straggler_rank" (null unless straggler), "evidence", and per rank ("per_rank" and
      each trace's object) compute_us, comm_us, wait_us, overlap_pct, idle_us.
      Files are read N at a time (--jobs, default: one per core); the output is the same.
  warpboard analyze FILE|FOLDER... [--json] [--csv DIR] [--range START_US END_US]
                    [--png DIR] [--svg DIR] [--theme light|dark]
      Analyse the traces as the ranks of one job (files and folders as import reads
      them): per rank and per ProfilerStep compute, comm, exposed comm, overlap, idle,
      wait and step time; idle / compute / non-compute per rank; idle time per stream
      (host wait, kernel wait, other); GPU time by kernel type and the top kernels
      (count, mean, p50, p99); kernel launches (CPU launch, GPU time, launch delay) and
      their outliers; straggler candidates; the triage verdict. --json prints one object
      {"ranks", "per_rank", "temporal_breakdown", "idle_breakdown", "kernel_breakdown",
      "launch_stats", "stragglers", "triage", "files"}; --csv DIR writes one CSV per
      table; --range keeps [START, END) µs of each trace's own clock, clipping intervals.
      --png DIR / --svg DIR draw the Traces workspace without a display, at 1920x1080:
      timeline (the ranks' GPU streams, straggler candidates first) and one picture per
      panel (per_rank, step_heatmap, temporal, idle, kernels, launch_stats, stragglers,
      verdict); --theme dark for the dark theme.
      A file that cannot be read is named on stderr, exit 2; the rest are analysed.
  warpboard import --generate healthy|straggler|fabric|overlap --out DIR [--ranks N]
                   [--seed S] [--straggler-rank R]
      Write the slowdown lesson's generated (modeled) Kineto traces, DIR/rank-K.json.
  warpboard analyze --compare BEFORE AFTER [--json] [--csv DIR] [--top N]
                    [--png DIR] [--svg DIR] [--theme light|dark]
      What changed between two runs (each a trace file or a folder of rank files): per
      kernel and per CPU operator (matched by exact name), added, removed and changed in
      count and total time, by |Δ total|, with totals; sums over the ranks, per-rank
      averages when the two rank counts differ. Text shows the top N rows (default 20;
      0: all); --json prints {"before", "after", "kernels", "operators", "totals"}; --csv
      writes DIR/kernels.csv and DIR/operators.csv. Every file must read (else exit 2).
      --png / --svg DIR draw the comparison panel as DIR/compare.png / .svg.
  warpboard calc MODEL [--key value ...] [--json]
      Compute a model and print one JSON object (with --json) or key: value lines.
  warpboard --help | --version
      --version also prints the Qt version, whether CUDA is compiled in, and what the GPU
      query found (with CUDA's own error text and code when there is no GPU).

Errors in arguments print what was wrong and the allowed values, and exit with code 2.

Calc models:
)";
    for (const auto& m : calcModels())
        out += "  " + calcUsage(m.id);
    out += "\nScenarios and their --param names:\n";
    for (const auto& s : allScenarios()) {
        out += "  " + s->id() + " — " + s->title() + "\n";
        for (const auto& p : s->parameters())
            out += "      " + Params::describe(p) + "\n";
    }
    out += R"(
In the app: ←/→ or Space step, Home/End first/last step, 1–9 jump to a step, A reveal/hide
the answer, Ctrl+E export, F5 presentation mode; while presenting: P pen, L laser, Z undo,
C clear, B blank, Esc leave.
)";
    return out;
}

} // namespace wb::cli
