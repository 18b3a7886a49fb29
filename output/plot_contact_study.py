#!/usr/bin/python3
"""Plot the measured restitution of the penalty contact against the spring-dashpot formula.

usage: plot_contact_study.py DIR
Reads DIR/contact_study.csv (shape,zeta,damping,e_theory,e_measured,relative_difference,status) and writes
DIR/contact_study.png: e = exp(-pi z / sqrt(1 - z^2)) as a curve, the measured values of each dropped
body (particle, disk) as points (a body that did not rebound, status no_rebound, at e = 0); the rows of failed
runs are left out.
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: plot_contact_study.py DIR")
    out = sys.argv[1]
    measured = {}
    with open(f"{out}/contact_study.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row.get("status", "ok") not in ("ok", "no_rebound"):  # a failed run: no measured value
                continue
            z, e = measured.setdefault(row["shape"], ([], []))
            z.append(float(row["zeta"]))
            e.append(float(row["e_measured"]))
    grid = [0.99 * i / 200 for i in range(201)]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(grid, [math.exp(-math.pi * g / math.sqrt(1 - g * g)) for g in grid], label="exp(-pi z / sqrt(1 - z^2))")
    for (shape, (z, e)), marker in zip(measured.items(), "os^"):
        ax.plot(z, e, marker, label=f"measured: {shape} (penalty contact)")
    ax.set_xlabel("damping ratio zeta = b_c / (2 sqrt(k_c m))")
    ax.set_ylabel("restitution e = v_out / v_in")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(f"{out}/contact_study.png", dpi=110)
    print(f"wrote {out}/contact_study.png")


if __name__ == "__main__":
    main()
