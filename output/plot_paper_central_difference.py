#!/usr/bin/python3
"""Plot central differences against RK4 for each case of the paper_central_difference lab.

usage: plot_paper_central_difference.py DIR CASE [CASE ...]
Reads DIR/CASE/{central_difference,rk4}/trajectory.csv (columns time,q1,...,qn) and writes DIR/CASE.png:
every q_i(t), RK4 solid and central differences dashed, same colour per mass. When central differences
blow up the y axis becomes symmetric-logarithmic (linear within +-1 m), so the bounded RK4 curves stay
readable next to displacements of 1e10 m.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, data = rows[0], [[float(v) for v in r] for r in rows[1:]]
    t = [r[0] for r in data]
    qs = [[r[i] for r in data] for i in range(1, len(header))]
    return t, qs


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: plot_paper_central_difference.py DIR CASE [CASE ...]")
    out = sys.argv[1]
    for case in sys.argv[2:]:
        t_rk, q_rk = read(f"{out}/{case}/rk4/trajectory.csv")
        t_cd, q_cd = read(f"{out}/{case}/central_difference/trajectory.csv")
        fig, ax = plt.subplots(figsize=(9, 5))
        cmap = plt.cm.tab10 if len(q_rk) <= 10 else plt.cm.tab20
        colors = [cmap(i % cmap.N) for i in range(len(q_rk))]
        for i, (a, b) in enumerate(zip(q_rk, q_cd)):
            ax.plot(t_rk, a, color=colors[i], lw=1.2, label=f"q{i + 1} RK4" if len(q_rk) <= 4 else None)
            ax.plot(t_cd, b, color=colors[i], lw=1.0, ls="--",
                    label=f"q{i + 1} central diff." if len(q_rk) <= 4 else None)
        peak = max(abs(v) for q in q_cd for v in q)
        if peak > 10:
            ax.set_yscale("symlog", linthresh=1.0)
        ax.set_xlabel("t [s]")
        ax.set_ylabel("q [m]")
        ax.set_title(f"{case}: RK4 (solid) vs central differences B.16 (dashed)")
        ax.grid(True, alpha=0.3)
        if len(q_rk) <= 4:
            ax.legend()
        fig.tight_layout()
        fig.savefig(f"{out}/{case}.png", dpi=100)
        plt.close(fig)
        print(f"wrote {out}/{case}.png")


if __name__ == "__main__":
    main()
