#!/usr/bin/env python3
"""The main wasm's size by module: twiggy's per-function sizes (release build, before
wasm-bindgen and wasm-opt, which strip the names) grouped by the padlab module or the crate a
function is named after. LTO inlines across modules, so a function's size counts where the
linker left it (an inlined renderer counts in `codegen::answer`, say): a map of what the first
load carries, not an exact ledger. Usage: wasm-breakdown.py FILE.wasm [FINAL_GZIP_BYTES]
(with the shipped wasm's gzip size, each share is also shown as its part of that)."""
import collections
import csv
import io
import re
import subprocess
import sys

path = sys.argv[1]
final = int(sys.argv[2]) if len(sys.argv) > 2 else None
out = subprocess.run(["twiggy", "top", "-n", "10000000", "--format", "csv", path],
                     capture_output=True, text=True, check=True).stdout
groups = collections.Counter()
for row in csv.DictReader(io.StringIO(out)):
    name, size = row["Name"], int(row["ShallowSize"])
    if name.startswith("custom section") or "subsection" in name or name.startswith("Σ"):
        continue  # names and wasm-bindgen's metadata: stripped from the shipped file
    if name.startswith("data"):
        key = "data (string literals, tables)"
    elif (m := re.search(r"padlab::(\w+)(?:::(\w+))?", name)):
        top, sub = m.group(1), m.group(2)
        key = f"padlab::{top}" + (f"::{sub}" if sub and not sub.startswith("__") and sub[0].islower() and top in {"codegen", "picture", "view", "forms", "core", "app", "worker"} else "")
    elif (m := re.match(r"[<&*\s]*(?:dyn |impl )?([a-z_][a-z0-9_]*)", name)):
        key = m.group(1)
    else:
        key = "(unnamed)"
    groups[key] += size
total = sum(groups.values())


def area(key):
    if key.startswith("padlab::"):
        return key.split("::")[1].join(["padlab::", ""])
    if key in {"reactive_graph", "tachys", "leptos", "leptos_dom", "any_spawner", "or_poisoned",
               "send_wrapper", "throw_error", "oco_ref", "guardian", "slotmap", "futures_util",
               "futures_channel", "futures_executor", "pin_project_lite", "paste", "either_of",
               "reactive_stores", "next_tuple", "drain_filter_polyfill", "const_str_slice_concat"}:
        return "Leptos (reactive_graph, tachys, ...)"
    if key in {"core", "alloc", "std", "hashbrown", "dlmalloc", "char", "str", "indexmap",
               "rustc_demangle", "compiler_builtins", "u8", "usize", "i64", "i128", "f64"}:
        return "Rust std (core, alloc, hashbrown, dlmalloc)"
    if key in {"wasm_bindgen", "js_sys", "web_sys", "import", "export", "wasm_bindgen_futures",
               "console_error_panic_hook"}:
        return "wasm-bindgen glue (js_sys, web_sys, imports, exports)"
    if key.startswith("data"):
        return "data (string literals, tables)"
    return "other (" + key + ")" if key != "(unnamed)" else "(unnamed: drop glue, closures)"


areas = collections.Counter()
for key, size in groups.items():
    a = area(key)
    areas[a if not a.startswith("other") else "other crates"] += size
print(f"| area | bytes | share |" + (" ≈ gzip KB |" if final else ""))
print("|---|---|---|" + ("---|" if final else ""))
for key, size in areas.most_common():
    line = f"| {key} | {size:,} | {100 * size / total:.1f} % |"
    if final:
        line += f" {final * size / total / 1024:.1f} |"
    print(line)
print()
print(f"| part | bytes | share |" + (" ≈ gzip KB |" if final else ""))
print("|---|---|---|" + ("---|" if final else ""))
for key, size in groups.most_common(40):
    line = f"| {key} | {size:,} | {100 * size / total:.1f} % |"
    if final:
        line += f" {final * size / total / 1024:.1f} |"
    print(line)
rest = sum(s for _, s in groups.most_common()[40:])
print(f"| (the rest, {len(groups) - 40} parts) | {rest:,} | {100 * rest / total:.1f} % |" + (f" {final * rest / total / 1024:.1f} |" if final else ""))
print(f"| total (code and data) | {total:,} | 100 % |" + (f" {final / 1024:.1f} |" if final else ""))
