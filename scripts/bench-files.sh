#!/usr/bin/env bash
# Model-file reader benchmark (issue 18): a ResNet-50 exported to ONNX by torch (about 100 MB,
# made here from the corpus model, not downloaded), read and traced at 1x3x224x224 by the
# release build; prints each run's time and peak allocation above the file, then the medians.
# Needs the frameworks' virtualenv (tests/fixtures/.venv: scripts/verify-models.sh makes it).
# Timings on a shared machine are noisy: runs are repeated and medians reported, never asserted.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
py=tests/fixtures/.venv/bin/python
runs=${RUNS:-7}
out=target/bench
mkdir -p "$out"
if [ ! -s "$out/resnet50.onnx" ]; then
  "$py" - "$out/resnet50.onnx" <<'PY'
import runpy, sys, torch
ns = runpy.run_path("tests/models/torch_resnet50.py")
model = ns["resnet50"]().eval()
torch.onnx.export(model, torch.randn(1, 3, 224, 224), sys.argv[1], dynamo=False, opset_version=17)
PY
fi
ls -l "$out/resnet50.onnx" | awk '{print "file bytes:", $5}'
cargo build --release --tests --quiet
for i in $(seq "$runs"); do
  PADLAB_BIG_ONNX="$out/resnet50.onnx" cargo test --release --quiet --test file_memory -- \
    --ignored --nocapture a_named_file_is_read_in_little_memory 2>/dev/null | grep "bytes,"
done | tee "$out/files.txt"
"$py" - "$out/files.txt" <<'PY'
import re, statistics, sys
def secs(t):
    v, unit = re.match(r"([\d.]+)(\D+)", t).groups()
    return float(v) * {"s": 1, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}[unit]
rows = [l for l in open(sys.argv[1]) if "read in" in l]
read = [secs(re.search(r"read in (\S+),", l).group(1)) for l in rows]
graph = [secs(re.search(r"graph in (\S+),", l).group(1)) for l in rows]
peak = [int(re.search(r"peak (\d+) bytes", l).group(1)) for l in rows]
size = int(re.search(r": (\d+) bytes", rows[0]).group(1))
print(f"runs {len(rows)}: read+graph median {statistics.median(r + g for r, g in zip(read, graph)) * 1e3:.1f} ms, "
      f"peak median {statistics.median(peak) / 1e6:.2f} MB above the {size / 1e6:.1f} MB file "
      f"({(size + statistics.median(peak)) / size:.3f} x the file in all)")
PY
# The same file in the page: chosen in the Whole model view of the release site, read by the
# worker (e2e/bench-file.mjs: time to the table's first row, main-thread long tasks).
scripts/setup.sh
source scripts/env.sh
trunk build --release --quiet
(cd e2e && exec python3 serve.py 4175 ../dist /) &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
sleep 1
(cd e2e && PADLAB_FILE="../$out/resnet50.onnx" PADLAB_RUNS="${RUNS:-5}" node bench-file.mjs)
