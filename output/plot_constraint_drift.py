#!/usr/bin/python3
"""Plot the constraint violation and the energy drift of several stabilizations of one mechanism.

usage: plot_constraint_drift.py DIR VARIANT [VARIANT ...]
Reads DIR/<variant>/energy.csv (columns step,time,...,position_violation,...,drift) and writes
DIR/constraint_drift.png: max |g| over the joints (top) and |E - E0| / scale (bottom) against time, on
log scales floored at 1e-16 (round-off) and capped at 1e100 (plot_log.py), so a drifting run and a projected one stay readable together.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from plot_log import log_magnitudes  # noqa: E402


def read(path):
    t, g, d = [], [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            t.append(float(row["time"]))
            g.append(float(row["position_violation"]))
            d.append(float(row["drift"]))
    return t, g, d


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: plot_constraint_drift.py DIR VARIANT [VARIANT ...]")
    out, variants = sys.argv[1], sys.argv[2:]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 7), sharex=True)
    for v in variants:
        t, g, d = read(f"{out}/{v}/energy.csv")
        top.plot(t, log_magnitudes(g), label=v, lw=1.0)
        bottom.plot(t, log_magnitudes(d), label=v, lw=1.0)
    for ax, label in ((top, "max |g| (position violation)"), (bottom, "|E - E0| / scale")):
        ax.set_yscale("log")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
    bottom.set_xlabel("time")
    top.set_title("Constraint drift: no stabilization, Baumgarte, projection")
    top.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    fig.tight_layout()
    fig.savefig(f"{out}/constraint_drift.png", dpi=110)
    print(f"wrote {out}/constraint_drift.png")


if __name__ == "__main__":
    main()
