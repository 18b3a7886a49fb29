#!/usr/bin/python3
"""Plot the spectral radius of each scheme's amplification matrix against Omega = omega*h.

usage: plot_spectral_radius.py DIR [XI]
Reads DIR/spectral_radius.csv (header Omega,<scheme>,...) and writes DIR/spectral_radius.png: one curve
per scheme, the stability bound rho = 1 dashed, and a vertical line at Omega = 2 (the limit of the
semi-implicit scheme and of the central difference, reference 002). A scheme is stable for a beam when
rho <= 1 at Omega = omega_max * dt.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: plot_spectral_radius.py DIR [XI]")
    out = sys.argv[1]
    xi = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    with open(f"{out}/spectral_radius.csv", newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [[float(v) for v in row] for row in reader]
    omega = [r[0] for r in rows]
    fig, ax = plt.subplots(figsize=(8, 5))
    styles = ["-", "--", "-.", ":"]  # schemes with equal curves (rho = 1) stay distinguishable
    for k, scheme in enumerate(header[1:], start=1):
        ax.plot(omega, [r[k] for r in rows], label=scheme, ls=styles[(k - 1) % len(styles)], lw=2.2 - 0.12 * (k - 1))
    ax.axhline(1.0, color="black", lw=0.6, label="rho = 1")
    ax.axvline(2.0, color="black", ls="--", lw=1.0, label="Omega = 2")
    top = max(max(r[1:]) for r in rows)
    ax.set_ylim(0, min(max(1.5, 1.05 * top), 3.0))
    ax.set_xlim(omega[0], omega[-1])
    ax.set_xlabel("Omega = omega * dt")
    ax.set_ylabel("spectral radius of A(dt)")
    ax.set_title(f"Amplification-matrix spectral radius (xi = {xi:g})")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(f"{out}/spectral_radius.png", dpi=110)
    print(f"wrote {out}/spectral_radius.png")


if __name__ == "__main__":
    main()
