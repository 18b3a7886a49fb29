#!/usr/bin/env bash
# The multibody chain benchmark (about a minute on 2 cores): build/bench/chain_bench at 10, 30, 100, 300,
# 1000 and 3000 links (LINKS to change the list), RK4, dt = 1e-3, 40000 / links steps (20 to 1000 steps,
# a second or two each), REPEATS rounds (default 3) over the whole list so that a burst of other work
# on the machine hits one round, not one size. Writes <out>/chain.csv (chain_bench's columns, the round
# and load1: the 1-minute load average before the run) and prints, per size, the median over the rounds
# of the median and of the fastest step time, each also per body-step, with the load range. On a shared
# machine the fastest step is the better estimate of the cost itself. Cost linear in the number of bodies
# shows as a constant time per body-step.
#
#   bench/chain_bench.sh [build dir (default build)] [output dir (default bench)]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
out=${2:-$here}
repeats=${REPEATS:-3}
links_list=${LINKS:-"10 30 100 300 1000 3000"}
bench="$build/bench/chain_bench"
[ -x "$bench" ] || { echo "chain_bench.sh: $bench not found; build first (cmake --build $build)" >&2; exit 2; }
mkdir -p "$out"
csv="$out/chain.csv"
load1() { cut -d' ' -f1 /proc/loadavg; }

echo "round,load1,$("$bench" -links 1 -steps 3 -header | head -1)" > "$csv"
echo "start: $(uptime)"
for round in $(seq 1 "$repeats"); do
  for links in $links_list; do
    steps=$((40000 / links))
    [ "$steps" -lt 20 ] && steps=20
    [ "$steps" -gt 1000 ] && steps=1000
    load=$(load1)
    echo "$round,$load,$("$bench" -links "$links" -steps "$steps")" >> "$csv"
  done
done
echo "end:   $(uptime)"

/usr/bin/python3 - "$csv" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("%6s %8s %7s %12s %14s %12s %14s %10s" % ("links", "unknowns", "solve", "median s/step", "us/body-step",
                                                "min s/step", "us/body-step", "load1"))
for links in dict.fromkeys(r["links"] for r in rows):
    rs = [r for r in rows if r["links"] == links]
    median = statistics.median(float(r["median_step_s"]) for r in rs)
    fastest = statistics.median(float(r["min_step_s"]) for r in rs)
    n = int(links)
    loads = [float(r["load1"]) for r in rs]
    print("%6s %8s %7s %12.3e %14.1f %12.3e %14.1f %4.2f-%4.2f" % (links, rs[0]["unknowns"], rs[0]["solve"], median,
          median / n * 1e6, fastest, fastest / n * 1e6, min(loads), max(loads)))
EOF
