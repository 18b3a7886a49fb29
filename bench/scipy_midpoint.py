#!/usr/bin/python3
"""The lab's midpoint scheme in SciPy, on a system exported by the benchmark (bench_scheme -export_system
DIR writes M.mtx, K.mtx, F.mtx): the reference the benchmark's targets are measured against.

    (M + dt^2/4 K) y_{n+1} = M y_n + dt (f - K (x_n + dt/4 y_n)),   x_{n+1} = x_n + dt (y_n + y_{n+1})/2,

from rest, step order as in solvers/Midpoint.cpp; M + dt^2/4 K is factored once with scipy.sparse.linalg.splu
(SuperLU, default options) and the factors are reused every step. The energy E = 1/2 y'My + 1/2 x'Kx - W,
W the trapezoidal work of f, is measured every step as in the labs (two products), and the drift
(E - E0) / max(|E0|, 1/2 f'K^-1 f) reported; the static solve for that scale is part of the setup, as in
TimeLoop.

--scheme fully_implicit or semi_implicit runs those lab schemes instead, with the same reuse of one
factorization (solvers/FullyImplicit.cpp, SemiImplicit.cpp):
    fully_implicit: (M + dt^2 K) y_{n+1} = M y_n + dt (f - K x_n),  x_{n+1} = x_n + dt y_{n+1};
    semi_implicit:  M y_{n+1} = M y_n + dt (f - K x_n),             x_{n+1} = x_n + dt y_{n+1}.

Prints the benchmark's CSV columns (bench/bench_scheme.cpp); those this script does not measure are left
empty. peak_rss_mib is the process's peak resident memory (getrusage ru_maxrss), reading included.

    /usr/bin/python3 bench/scipy_midpoint.py DIR [--steps 30] [--dt 0.01] [--mass consistent|lumped]
        [--mx MX --my MY] [--scheme midpoint|fully_implicit|semi_implicit] [--header]
"""
import argparse
import resource
import sys
import time

import numpy as np
import scipy.io
import scipy.sparse.linalg

COLUMNS = ("path,scheme,operator,mass,solver,ranks,mx,my,dofs,assembly_s,setup_s,median_step_s,min_step_s,"
           "peak_rss_mib,matvecs_per_step,pc_applies_per_solve,mb_per_step,stream_gbs,model_step_s,"
           "bw_fraction,state_pass_s,step_per_state_pass,ns_per_dof_step,final_drift")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir", help="directory with M.mtx, K.mtx, F.mtx")
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--dt", type=float, default=0.01)
    p.add_argument("--mass", default="consistent", help="label for the CSV row only")
    p.add_argument("--mx", default="", help="label for the CSV row only")
    p.add_argument("--my", default="", help="label for the CSV row only")
    p.add_argument("--scheme", default="midpoint", choices=("midpoint", "fully_implicit", "semi_implicit"))
    p.add_argument("--header", action="store_true")
    a = p.parse_args()
    bad = ("--steps: accepted: an integer >= 3" if a.steps < 3 else
           f"--dt {a.dt}: accepted: a real number > 0" if not (np.isfinite(a.dt) and a.dt > 0) else "")
    if bad:  # bad options: one line, exit 2, as the labs
        print(f"scipy_midpoint: {bad}", file=sys.stderr)
        sys.exit(2)

    t0 = time.perf_counter()
    try:
        M = scipy.io.mmread(f"{a.dir}/M.mtx").tocsr()
        K = scipy.io.mmread(f"{a.dir}/K.mtx").tocsr()
        f = np.asarray(scipy.io.mmread(f"{a.dir}/F.mtx")).ravel()
    except (OSError, ValueError) as e:
        print(f"scipy_midpoint: {a.dir}: cannot read M.mtx, K.mtx, F.mtx ({e}); accepted: a directory the "
              "labs' -export_system wrote", file=sys.stderr)
        sys.exit(2)
    if M.shape != K.shape or M.shape[0] != M.shape[1] or f.size != M.shape[0]:
        print(f"scipy_midpoint: {a.dir}: M {M.shape}, K {K.shape} and F ({f.size}) do not match; accepted: square "
              "M and K of F's size", file=sys.stderr)
        sys.exit(2)
    load = time.perf_counter() - t0
    n = f.size
    dt = a.dt

    t0 = time.perf_counter()
    compliance = 0.0
    if np.abs(f).max() > 0:  # 1/2 f'K^-1 f, the drift scale; its factors are freed before the step's
        static = scipy.sparse.linalg.splu(K.tocsc())
        compliance = 0.5 * f @ static.solve(f)
        del static
    shift = {"midpoint": dt * dt / 4, "fully_implicit": dt * dt, "semi_implicit": 0.0}[a.scheme]
    lu = scipy.sparse.linalg.splu((M + shift * K).tocsc())
    setup = time.perf_counter() - t0

    x = np.zeros(n)
    y = np.zeros(n)
    work = 0.0
    fx_prev = f @ x
    e0 = 0.5 * y @ (M @ y) + 0.5 * x @ (K @ x) - work
    scale = max(abs(e0), compliance) or 1.0
    per_step = []
    drift = 0.0
    for _ in range(a.steps):
        t = time.perf_counter()
        if a.scheme == "midpoint":
            x += dt / 4 * y
            b = M @ y + dt * (f - K @ x)
            x += dt / 4 * y
            y = lu.solve(b)
            x += dt / 2 * y
        else:  # fully and semi-implicit: the same step, with their matrices
            y = lu.solve(M @ y + dt * (f - K @ x))
            x += dt * y
        # energy, every step as in the labs: constant f, so the trapezoidal work is f'(x_{n+1} - x_n)
        fx = f @ x
        work += fx - fx_prev
        fx_prev = fx
        energy = 0.5 * y @ (M @ y) + 0.5 * x @ (K @ x) - work
        drift = (energy - e0) / scale
        per_step.append(time.perf_counter() - t)
    per_step.sort()
    median = per_step[len(per_step) // 2]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # kB on Linux

    if a.header:
        print(COLUMNS)
    row = ["scipy", a.scheme, "scipy_splu", a.mass, "superlu", "1", str(a.mx), str(a.my), str(n), f"{load:.4f}",
           f"{setup:.4f}", f"{median:.6f}", f"{per_step[0]:.6f}", f"{peak:.1f}", "4.00", "", "", "", "", "", "",
           "", f"{median / n * 1e9:.2f}", f"{drift:.3e}"]
    print(",".join(row))


if __name__ == "__main__":
    main()
