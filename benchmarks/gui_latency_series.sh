#!/usr/bin/env bash
# N runs of the GUI latency benchmark on the generated plan, one compact line each (the VM's
# speed moves from minute to minute: a series says more than one run):
#   benchmarks/gui_latency_series.sh N [gui_latency.py options, e.g. --baseline]
# Each line: time (UTC), edit -> curves median / p95 / max, the worker's engine median / p95,
# the longest GUI-thread stall, the engine reference before / after (ms), the targets' verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5}
shift || true
for _ in $(seq 1 "$n"); do
    t=$(date -u +%H:%M:%S)
    out=$(xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python benchmarks/gui_latency.py --edits 40 --only large "$@" 2>&1)
    p=$(grep -m1 "edit -> curves" <<<"$out" | sed 's/.*median \([0-9.]*\) ms, p95 \([0-9.]*\) ms, max \([0-9.]*\).*/median \1 p95 \2 max \3/')
    e=$(grep -m1 "of which engine" <<<"$out" | sed 's/.*median \([0-9.]*\) ms, p95 \([0-9.]*\).*/eng \1\/\2/')
    s=$(grep -m1 "longest GUI-thread stall" <<<"$out" | sed 's/.*stall (5 ms heartbeat): \([0-9.]*\) ms.*/stall \1/')
    m=$(grep -m1 "machine speed" <<<"$out" | sed 's/.*process, \([0-9.]*\) ms CPU before the edits, \([0-9.]*\) ms after.*/ref \1\/\2/')
    g=$(grep -m1 "targets" <<<"$out" | sed 's/.*: //')
    echo "$t  $p  $e  $s  $m  $g"
done
