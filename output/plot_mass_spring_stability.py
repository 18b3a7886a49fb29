#!/usr/bin/python3
"""Plot the mass-spring stability lab's two tables.

usage: plot_mass_spring_stability.py DIR
Reads DIR/critical_steps.csv (scheme,omega_crit,dt_theory,dt_measured,dt_unstable,runs,note) and
DIR/stiffness_sweep.csv (factor,omega_max,omega_max_dt,scheme,stable,steps_done,max_drift); writes
DIR/mass_spring_stability.png: left, each scheme's theoretical and measured largest stable dt; right,
the stiffness sweep at the lab's dt: each scheme's outcome at each stiffness factor (o stable, x failed).
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def number(text):
    return math.inf if text == "inf" else float(text) if text else None


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: plot_mass_spring_stability.py DIR")
    out = sys.argv[1]
    with open(f"{out}/critical_steps.csv", newline="") as f:
        steps = list(csv.DictReader(f))
    with open(f"{out}/stiffness_sweep.csv", newline="") as f:
        sweep = list(csv.DictReader(f))
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))

    finite = [r for r in steps if number(r["dt_theory"]) not in (0, math.inf)]
    names = [r["scheme"] for r in finite]
    xs = range(len(finite))
    left.bar([x - 0.2 for x in xs], [number(r["dt_theory"]) for r in finite], 0.4, label="Omega_crit / omega_max")
    left.bar([x + 0.2 for x in xs], [number(r["dt_measured"]) or 0 for r in finite], 0.4, label="measured (bisection)")
    left.set_xticks(list(xs), names, rotation=20)
    left.set_ylabel("largest stable dt")
    others = [f"{r['scheme']}: {'unstable at every dt' if number(r['dt_theory']) == 0 else 'no limit'}"
              for r in steps if number(r["dt_theory"]) in (0, math.inf)]
    left.set_title("\n".join(others) if others else "", fontsize=8)
    left.legend(fontsize=8)

    schemes = list(dict.fromkeys(r["scheme"] for r in sweep))
    factors = sorted({float(r["factor"]) for r in sweep})
    omega_dt = {float(r["factor"]): float(r["omega_max_dt"]) for r in sweep}
    for r in sweep:
        x, y, ok = factors.index(float(r["factor"])), schemes.index(r["scheme"]), r["stable"] == "1"
        right.scatter([x], [y], marker="o" if ok else "x", s=120, color="tab:green" if ok else "tab:red")
        right.annotate("stable" if ok else f"fails at {int(r['steps_done']) + 1}", (x, y), textcoords="offset points",
                       xytext=(0, 9), ha="center", fontsize=7)
    right.set_xticks(range(len(factors)), [f"x{f:g}\nomega_max dt = {omega_dt[f]:.3g}" for f in factors], fontsize=8)
    right.set_yticks(range(len(schemes)), schemes, fontsize=8)
    right.set_xlim(-0.5, len(factors) - 0.5)
    right.set_ylim(-0.7, len(schemes) - 0.3)
    right.set_xlabel("stiffness factor")
    dt = float(sweep[0]["omega_max_dt"]) / float(sweep[0]["omega_max"]) if sweep else 0
    right.set_title(f"stiffness sweep at dt = {dt:g}: o stable, x failed", fontsize=9)
    fig.tight_layout()
    fig.savefig(f"{out}/mass_spring_stability.png", dpi=110)
    print(f"wrote {out}/mass_spring_stability.png")


if __name__ == "__main__":
    main()
