#!/usr/bin/env bash
# Compares padlab's Python parser with CPython's `ast.parse` on every .py file under a folder
# (real code: a fetched repository, say). Prints the files where the two disagree and the
# counts. Needs python3 (3.11 or later).
#   scripts/check-parser.sh DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:?usage: scripts/check-parser.sh DIR}"
cargo build --release --quiet --example parse_check --manifest-path "$root/Cargo.toml"
find "$dir" -name '*.py' -type f | sort > /tmp/padlab-parse-files.$$
"$root/target/release/examples/parse_check" < /tmp/padlab-parse-files.$$ > /tmp/padlab-parse-ours.$$
python3 - /tmp/padlab-parse-ours.$$ <<'PY'
import ast, sys, warnings
warnings.filterwarnings("ignore")
both = ours_only = python_only = neither = 0
for line in open(sys.argv[1]):
    path, verdict = line.rstrip("\n").split("\t", 1)
    try:
        ast.parse(open(path, encoding="utf-8", errors="replace").read())
        cpython = True
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        cpython = False
        why = f"{type(e).__name__}: {e}"
    ours = verdict == "ok"
    if ours and cpython:
        both += 1
    elif not ours and not cpython:
        neither += 1
    elif cpython:
        python_only += 1
        print(f"padlab refuses, CPython reads: {path}: {verdict}")
    else:
        ours_only += 1
        print(f"padlab reads, CPython refuses: {path}: {why}")
print(f"files: {both + neither + ours_only + python_only}; both read {both}; both refuse {neither}; "
      f"only CPython reads {python_only}; only padlab reads {ours_only}")
PY
rm -f /tmp/padlab-parse-files.$$ /tmp/padlab-parse-ours.$$
