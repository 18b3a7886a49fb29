#!/usr/bin/python3
"""Writes bench/cloth_results.md from bench/cloth.sh's CSV: the table (the median over the runs of each
configuration of every run's mean seconds per step, Newton and Krylov iterations per step, peak memory)
and issue 10's three targets, met or not.

    /usr/bin/python3 bench/cloth_summary.py bench/cloth_results.csv > bench/cloth_results.md
"""
import csv
import datetime
import math
import os
import statistics
import subprocess
import sys


def machine():
    model = ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    kernel = subprocess.run(["uname", "-r"], capture_output=True, text=True).stdout.strip()
    return f"{model}, {os.cpu_count()} cores, {mem:.0f} GiB RAM, Linux {kernel}"


def fmt(x, digits=3):
    return "" if x is None else f"{x:.{digits}g}"


COLUMNS = ("nx", "impl", "path", "particles", "springs", "ranks", "steps", "read_s", "setup_s", "mean_step_s",
           "newton_per_step", "krylov_per_step", "peak_rss_mib", "load1", "status")
POSITIVE = ("nx", "particles", "ranks", "steps", "mean_step_s")  # > 0 in a successful row
NUMBERS = ("springs", "read_s", "setup_s", "newton_per_step", "krylov_per_step", "peak_rss_mib")  # finite


def fail(message):
    """One line on stderr, exit 2, as the labs refuse bad input (a traceback, or a table of nothing, before)."""
    print(f"cloth_summary: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    """bench/cloth.sh's rows, checked: every column, and numbers where a successful run has them."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        fail(f"cannot read '{path}' ({e}); accepted: the CSV bench/cloth.sh writes")
    if not rows:
        fail(f"'{path}' has no rows; accepted: the CSV bench/cloth.sh writes, with at least one run")
    missing = [c for c in COLUMNS if c not in rows[0]]
    if missing:
        fail(f"'{path}' lacks the column '{missing[0]}'; accepted: the CSV bench/cloth.sh writes")
    for number, r in enumerate(rows, start=2):
        if r["status"] != "ok":
            continue
        for column in POSITIVE + NUMBERS:
            try:
                value = float(r[column])
            except (TypeError, ValueError):
                value = float("nan")
            if not math.isfinite(value) or (column in POSITIVE and value <= 0):
                fail(f"'{path}' line {number}: {column} = '{r[column]}'; accepted: a finite number"
                     f"{' > 0' if column in POSITIVE else ''} in a row whose status is ok")
    return rows


def main():
    if len(sys.argv) != 2:
        fail("usage: cloth_summary.py RESULTS.csv (bench/cloth.sh's bench/cloth_results.csv)")
    rows = load(sys.argv[1])
    ok = [r for r in rows if r["status"] == "ok"]
    failed = [r for r in rows if r["status"] != "ok"]
    groups = {}
    for r in ok:
        key = (int(r["nx"]), r["impl"], r["path"], int(r["ranks"]))
        groups.setdefault(key, []).append(r)

    def med(key, column):
        runs = groups.get(key)
        return statistics.median_high(float(r[column]) for r in runs) if runs else None

    loads = []
    for r in rows:
        try:
            loads.append(float(r["load1"]))
        except (TypeError, ValueError):
            pass
    loads = [x for x in loads if math.isfinite(x)]
    steps = sorted({r["steps"] for r in ok})
    print("# Cloth benchmark results (issue 10, Scale and speed)\n")
    print(f"- Machine: {machine()}; shared with other engineers")
    print(f"- Written {datetime.datetime.now():%Y-%m-%d %H:%M} by bench/cloth_summary.py from bench/cloth.sh's "
          f"{sys.argv[1]}")
    if loads:
        print(f"- 1-minute load average before the runs: {min(loads):.2f} to {max(loads):.2f} "
              f"(median {statistics.median(loads):.2f}); the machine has {os.cpu_count()} cores")
    print(f"- Input: the built-in cloth (`-model cloth`, stiffness 1000 for the structural, shear and bend "
          f"springs, total mass 1, corners (0,1) and (1,1) fixed, gravity 9.81) written by `mass_spring "
          f"-write_network` and read with `-particles`/`-springs`; implicit Euler, dt = 0.01, the first "
          f"{'/'.join(steps)} steps from rest in every run")
    print("- petsc: `build/bench/bench_cloth` = the mass_spring lab's run with its defaults (no solver options): "
          "Newton (SNES, line search) with GMRES (relative tolerance 1e-3, restarted every 60 iterations) + GAMG; scipy: `bench/scipy_cloth.py` with "
          "CG (Jacobi, relative tolerance 1e-3, the same) or splu; the same Newton stopping rule")
    print("- s/step: the median over the runs of each run's mean step time; Newton and Krylov: per step; "
          "peak memory: summed over ranks, reading included\n")
    print("| cloth | particles | springs | impl | solver | ranks | runs | read s | setup s | s/step | "
          "µs/particle-step | Newton/step | Krylov/step | peak MiB |")
    print("|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for key in sorted(groups):
        n, impl, path, ranks = key
        r0 = groups[key][0]
        s = med(key, "mean_step_s")
        per = s / float(r0["particles"]) * 1e6
        print(f"| {n}x{n} | {r0['particles']} | {r0['springs']} | {impl} | {path} | {ranks} | {len(groups[key])} | "
              f"{fmt(med(key, 'read_s'))} | {fmt(med(key, 'setup_s'))} | {fmt(s)} | {fmt(per)} | "
              f"{fmt(med(key, 'newton_per_step'))} | {fmt(med(key, 'krylov_per_step'))} | "
              f"{fmt(med(key, 'peak_rss_mib'), 4)} |")
    if failed:
        print("\nFailed runs:\n")
        for r in failed:
            print(f"- {r['nx']}x{r['nx']} {r['impl']} ({r['ranks']} rank(s), load {r['load1']}): {r['status']}")

    print("\n## Targets\n")
    print("| target | measured | met |")
    print("|---|---|---|")
    petsc128 = med((128, "petsc", "default", 1), "mean_step_s")
    scipy128 = [(med((128, "scipy", s, 1), "mean_step_s"), s) for s in ("cg", "splu")]
    scipy128 = [x for x in scipy128 if x[0] is not None]
    target1 = "128x128: >= 20x fewer s/step than the SciPy script (its better solver)"
    if petsc128 is not None and scipy128:
        best, solver = min(scipy128)
        ratio = best / petsc128
        print(f"| {target1} | {best:.3g} s ({solver}) / {petsc128:.3g} s = {ratio:.1f}x | {'yes' if ratio >= 20 else 'NO'} |")
    else:  # the row disappeared when a run was missing
        print(f"| {target1} | no successful 128x128 {'SciPy' if petsc128 is not None else 'petsc'} run | NO |")
    petsc1024 = med((1024, "petsc", "default", 1), "mean_step_s")
    if petsc128 is not None and petsc1024 is not None:
        c128 = petsc128 / float(groups[(128, "petsc", "default", 1)][0]["particles"])
        c1024 = petsc1024 / float(groups[(1024, "petsc", "default", 1)][0]["particles"])
        ratio = c1024 / c128
        print(f"| cost per particle-step at 1024x1024 within 2x of 128x128 | {c1024 * 1e6:.3g} / {c128 * 1e6:.3g} µs "
              f"= {ratio:.2f}x | {'yes' if ratio <= 2 else 'NO'} |")
    else:
        print(f"| cost per particle-step at 1024x1024 within 2x of 128x128 | no successful "
              f"{'1024x1024' if petsc128 is not None else '128x128'} petsc run on 1 rank | NO |")
    two = med((1024, "petsc", "default", 2), "mean_step_s")
    if petsc1024 is not None and two is not None:
        speedup = petsc1024 / two
        print(f"| 1024x1024: 2 ranks >= 1.7x faster than 1 | {petsc1024:.3g} / {two:.3g} s = {speedup:.2f}x | "
              f"{'yes' if speedup >= 1.7 else 'NO'} |")
    else:
        print("| 1024x1024: 2 ranks >= 1.7x faster than 1 | a run missing | NO |")


if __name__ == "__main__":
    main()
