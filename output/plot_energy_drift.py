#!/usr/bin/python3
"""Plot the relative energy drift of several schemes on one figure.

usage: plot_energy_drift.py DIR SCHEME [SCHEME ...]
Reads DIR/<scheme>/energy.csv (columns step,time,...,drift) and writes DIR/energy_drift.png.
The y axis is |drift| on a log scale, floored at 1e-16 (round-off) and capped at 1e100 (plot_log.py): drifts of 1e-14 (midpoint), 1e-2
(fully implicit) and 1e6 (a diverging scheme) stay readable on one chart, and a diverging scheme does not
flatten the others.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from plot_log import log_magnitudes  # noqa: E402


def read(path):
    t, d = [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            t.append(float(row["time"]))
            d.append(float(row["drift"]))
    return t, d


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: plot_energy_drift.py DIR SCHEME [SCHEME ...]")
    out, schemes = sys.argv[1], sys.argv[2:]
    fig, ax = plt.subplots(figsize=(11, 5))
    styles = ["-", "--", ":", "-."]
    for i, s in enumerate(schemes):
        t, d = read(f"{out}/{s}/energy.csv")
        # ten colours, then the line style changes, so every scheme stays distinguishable
        ax.plot(t, log_magnitudes(d), label=s, lw=1.0, ls=styles[(i // 10) % 4])
    ax.set_yscale("log")
    ax.set_xlabel("time")
    ax.set_ylabel("|E - E0| / scale")
    ax.set_title("Relative energy drift per scheme")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    fig.tight_layout()
    fig.savefig(f"{out}/energy_drift.png", dpi=110)
    print(f"wrote {out}/energy_drift.png")


if __name__ == "__main__":
    main()
