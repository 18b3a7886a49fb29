#!/usr/bin/env bash
# The benchmark programs and scripts refuse bad input as the labs do (one line, exit 2) and the scripts
# do not destroy results. Usage: bench_tools_test.sh <build> <source>/bench
# Until 2026-11-28: bench_cloth -T 0 was a segmentation fault; its output options were read and ignored;
# cloth.sh with a wrong build directory emptied bench/cloth_results.csv; the Python scripts answered
# bad input with tracebacks, a NaN-state "converged" step or a table of nothing, exit 0.
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
passed=0
python=/usr/bin/python3

expect() { # expect <rc> <fragment> <cmd...>: the exit code, and one stderr line holding the fragment
  local rc=$1 fragment=$2
  shift 2
  timeout 120 "$@" > out.txt 2> err.txt
  local got=$? lines
  lines=$(grep -vc '^warning:' err.txt)
  if [ "$got" != "$rc" ] || { [ -n "$fragment" ] && ! grep -qF -- "$fragment" err.txt; } ||
    { [ "$rc" != 0 ] && [ "$lines" != 1 ]; }; then
    echo "FAIL: $* -> exit $got (want $rc, '$fragment'), stderr ($lines lines): $(head -c 300 err.txt)"
    failures=$((failures + 1))
  else
    passed=$((passed + 1))
  fi
}

cloth=("$build/bench/bench_cloth" -model cloth -cloth_nx 8 -cloth_ny 8 -scheme implicit_euler -dt 0.01)
expect 0 "" "${cloth[@]}" -T 0.02 -path small
[ "$(tail -1 out.txt | cut -d, -f1-6)" = "petsc,small,64,306,1,2" ] && passed=$((passed + 1)) ||
  { echo "FAIL: bench_cloth row: $(cat out.txt)"; failures=$((failures + 1)); }
expect 2 "-T: 0 makes no step of dt = 0.01; accepted: T >= dt" "${cloth[@]}" -T 0
# An explicit scheme makes no Newton or Krylov iteration: 0 per step (it was -1 until 2026-11-28).
expect 0 "" "$build/bench/bench_cloth" -model cloth -cloth_nx 8 -cloth_ny 8 -scheme verlet -dt 0.0001 -T 0.001
[ "$(tail -1 out.txt | cut -d, -f13,14)" = "0.00,0.0" ] && passed=$((passed + 1)) ||
  { echo "FAIL: bench_cloth explicit row: $(cat out.txt)"; failures=$((failures + 1)); }
for option in "-save_final x.csv" "-snapshot_every 1" "-checkpoint_every 1" "-track 0" "-output_dir o" "-restart o"; do
  expect 2 "${option%% *}: the benchmark writes no file" "${cloth[@]}" -T 0.02 $option
done
expect 2 "-path: 'a,b' would break the CSV row" "${cloth[@]}" -T 0.02 -path a,b
expect 2 "-path: 'a,b' would break the CSV row" "$build/bench/bench_scheme" -mx 4 -my 2 -T 0.01 -path a,b
expect 2 "-links: 50000000 is out of range; accepted: an integer in [1, 1000000]" "$build/bench/chain_bench" -links 50000000

# cloth.sh with a build directory that has no programs: refused before its results file is started anew.
mkdir -p copy && cp "$src/cloth.sh" copy/ && echo "kept" > copy/cloth_results.csv
expect 2 "cloth.sh: /nonexistent/labs/mass_spring not found" bash copy/cloth.sh /nonexistent
[ "$(cat copy/cloth_results.csv)" = kept ] && passed=$((passed + 1)) || { echo "FAIL: cloth.sh emptied its CSV"; failures=$((failures + 1)); }

# scipy_cloth.py on a small cloth, then hostile networks and options.
"$build/labs/mass_spring" -model cloth -cloth_nx 6 -cloth_ny 5 -write_network c > /dev/null
expect 0 "" "$python" "$src/scipy_cloth.py" c --steps 2 --solver splu
[ "$(cut -d, -f1-6 out.txt)" = "scipy,splu,30,127,1,2" ] && passed=$((passed + 1)) ||
  { echo "FAIL: scipy_cloth row: $(cat out.txt)"; failures=$((failures + 1)); }
net() { rm -rf "$1" && mkdir "$1" && cp c/particles.csv c/springs.csv "$1"/; }
net self && sed -i '2s/^[0-9]*,[0-9]*,/3,3,/' self/springs.csv
net range && sed -i '2s/^[0-9]*,/999,/' range/springs.csv
net text && sed -i '2s/^[0-9]*,/abc,/' text/springs.csv
net nan && sed -i '3s/^[^,]*,/nan,/' nan/particles.csv
net header && head -1 c/springs.csv > header/springs.csv
expect 2 "a spring from particle 3 to itself; accepted: i != j" "$python" "$src/scipy_cloth.py" self
expect 2 "i = 999 is not a particle; accepted: integers in [0, 29]" "$python" "$src/scipy_cloth.py" range
expect 2 "accepted: numbers in every cell" "$python" "$src/scipy_cloth.py" text
expect 2 "a value that is not a finite number" "$python" "$src/scipy_cloth.py" nan
expect 2 "no rows under its header" "$python" "$src/scipy_cloth.py" header
expect 2 "cannot read it" "$python" "$src/scipy_cloth.py" missing
expect 2 "cannot read it" "$python" "$src/scipy_cloth.py" /dev/null
for dt in -0.01 0 nan; do expect 2 "accepted: a real number > 0" "$python" "$src/scipy_cloth.py" c --dt $dt; done
expect 2 "--save_final: cannot write" "$python" "$src/scipy_cloth.py" c --save_final /nonexistent/f.csv
expect 2 "accepted: a real number > 0" "$python" "$src/scipy_midpoint.py" . --dt -1
expect 2 "cannot read M.mtx, K.mtx, F.mtx" "$python" "$src/scipy_midpoint.py" missing

# The summaries: the committed results give the committed targets; bad input one line, exit 2.
expect 0 "" "$python" "$src/cloth_summary.py" "$src/cloth_results.csv"
diff <(sed -n '/## Targets/,$p' out.txt) <(sed -n '/## Targets/,$p' "$src/cloth_results.md") > /dev/null &&
  passed=$((passed + 1)) || { echo "FAIL: cloth_summary.py targets differ from cloth_results.md"; failures=$((failures + 1)); }
head -1 "$src/cloth_results.csv" > header.csv
grep -v '^128,petsc' "$src/cloth_results.csv" > no128.csv
sed 's/,ok$/,ok/; 2s/^\(\([^,]*,\)\{10\}\)[^,]*/\1nan/' "$src/cloth_results.csv" > nan.csv
expect 2 "usage: cloth_summary.py RESULTS.csv" "$python" "$src/cloth_summary.py"
expect 2 "has no rows" "$python" "$src/cloth_summary.py" header.csv
expect 2 "cannot read" "$python" "$src/cloth_summary.py" missing.csv
expect 2 "mean_step_s = 'nan'; accepted: a finite number > 0" "$python" "$src/cloth_summary.py" nan.csv
expect 0 "" "$python" "$src/cloth_summary.py" no128.csv
grep -q "no successful 128x128 petsc run | NO" out.txt && ! grep -q "no successful 1024x1024" out.txt &&
  passed=$((passed + 1)) || { echo "FAIL: cloth_summary.py without the 128x128 run: $(tail -4 out.txt)"; failures=$((failures + 1)); }
expect 2 "usage: summarize.py" "$python" "$src/summarize.py"
expect 2 "has no rows" "$python" "$src/summarize.py" header.csv
expect 2 "the input is not bench/run.sh's" "$python" "$src/summarize.py" no128.csv

echo "$passed passed, $failures failed"
[ "$failures" = 0 ]
