#!/usr/bin/python3
"""The cloth benchmark's reference (issue 10): implicit Euler on a mass-spring network read from the CSV
files the mass_spring lab reads (-particles/-springs; `mass_spring -model cloth -write_network DIR` writes
them), Newton with a vectorized sparse Jacobian, in NumPy/SciPy.

The step is the lab's (solvers/ImplicitTheta.hpp with theta = 1, forces as MassSpring/Physics.hpp):
    R(dv) = M dv - dt F(x_n + dt (v_n + dv)),   J = M - dt^2 dF/dx,
    x_{n+1} = x_n + dt (v_n + dv),  v_{n+1} = v_n + dv,
    spring A-B: f_A = k (l - l0) u = -f_B;  df_A/dx_B = k [(1 - l0/l)(I - u u^T) + u u^T] = -df_A/dx_A,
    gravity m g on free particles; a fixed particle has no force and the rows and columns m I in J.
Newton as the lab's: from the previous step's dv, a backtracking line search on the step's energy
Phi(dv) = 1/2 dv' M dv + U(x_n + dt (v_n + dv)), whose gradient is R (solvers/EnergyLineSearch.hpp: a
full step when Phi falls by 1e-4 lambda times its slope, or |R| by the factor 1 - 1e-4 lambda with Phi
not rising beyond 1e-10 |Phi|, else lambda from the quadratic fit of Phi within [0.1, 0.5] lambda; on
1/2 |R|^2 with slope -|R|^2 and the same fit where the direction does not descend on Phi; unlike the
lab, which fails below lambda = 1e-12 and retries the step from dv = 0 with PETSc's l2 search, it takes
the step at lambda < 1e-4: the benchmark's steps are all full), stopping when
|R| <= 1e-10 |R(0)| (R(0) the residual at dv = 0), or |R| <= 10 times its round-off floor (dt |F(x +
delta) - F(x)| with delta_i = +-u |x_i|, the lab's signs: ImplicitTheta::roundOffFloor), or a full step
shorter than 1e-8 |dv|, or any step shorter than 1e-12 |dv|; at most 50 iterations. The lab's rule
has more (ImplicitTheta.cpp, convergenceTest): a stall test (three iterations without halving |R| once
|R| <= 1e4 rtol |R(0)|), PETSc's divergence test, at most 500 iterations and the retry from dv = 0; on the
benchmark's first steps none of them acts, and both codes take the same Newton iterations with a direct
solve (16x12 and 64x64 cloths, 3 steps, 2026-11-28: 2.67 and 5.00 per step for the lab's LU and for splu). CG's relative
tolerance is raised, as the lab's GMRES's, to min(0.1, floor / |R|) where that is above --cg_rtol.
Per Newton iteration the linear solve J delta = -R is
    --solver splu   SuperLU (scipy.sparse.linalg.splu, default options), factored at every iteration;
    --solver cg     scipy.sparse.linalg.cg with a Jacobi preconditioner, relative tolerance --cg_rtol
                    (default 1e-3, the lab's GMRES tolerance, so both codes solve to the same accuracy;
                    it was 1e-8, against the lab's 1e-5, until 2026-11-24) (J is symmetric; CG stops
                    with an error when it does not converge).
bench/cloth.sh runs both and takes the better one. Springs with dashpots are refused (the benchmark's
cloth has none; the lab handles them).

Prints one CSV row with bench_cloth's columns (bench/bench_cloth.cpp): impl "scipy", path the solver;
median_step_s is the upper median as there; peak_rss_mib is this process's peak resident memory
(getrusage), reading included.

    /usr/bin/python3 bench/scipy_cloth.py DIR [--steps 3] [--dt 0.01] [--solver splu|cg] [--cg_rtol 1e-3] [--header]
        [--save_final FILE]
"""
import argparse
import os
import resource
import sys
import time
import warnings

import numpy as np
import scipy.sparse
import scipy.sparse.linalg

COLUMNS = ("impl,path,particles,springs,ranks,steps,read_s,setup_s,median_step_s,mean_step_s,min_step_s,"
           "max_step_s,newton_per_step,krylov_per_step,peak_rss_mib")
GRAVITY = np.array([0.0, 0.0, -9.81])


def fail(message, code=2):
    """One line on stderr and the labs' exit codes: 2 for bad input, 3 for a failed run."""
    print(f"scipy_cloth: {message}", file=sys.stderr)
    sys.exit(code)


def read_csv(path, required):
    try:
        with open(path) as f:
            header = f.readline().strip().lstrip("\ufeff").split(",")
        missing = [c for c in required if c not in header]
        if missing:
            fail(f"{path}: missing column '{missing[0]}'; accepted: a CSV file with columns {','.join(required)}")
        with warnings.catch_warnings():  # "input contained no data": refused below, in one line
            warnings.simplefilter("ignore")
            data = np.loadtxt(path, delimiter=",", skiprows=1, comments="#", ndmin=2)
    except (OSError, UnicodeDecodeError) as e:
        fail(f"{path}: cannot read it ({e.strerror if isinstance(e, OSError) and e.strerror else e}); "
             "accepted: the CSV files mass_spring -write_network writes")
    except ValueError as e:
        fail(f"{path}: {str(e).splitlines()[0]}; accepted: numbers in every cell")
    if data.size == 0:
        fail(f"{path}: no rows under its header; accepted: at least one row")
    if data.shape[1] != len(header):
        fail(f"{path}: rows of {data.shape[1]} values under {len(header)} columns; accepted: one value per column")
    if not np.all(np.isfinite(data)):
        fail(f"{path}: a value that is not a finite number; accepted: finite numbers")
    return {name: data[:, k] for k, name in enumerate(header)}


def integer_indices(values, n, path, column):
    """0-based particle indices as integers in [0, n)."""
    if np.any(values != np.round(values)) or np.any(values < 0) or np.any(values >= n):
        bad = values[(values != np.round(values)) | (values < 0) | (values >= n)][0]
        fail(f"{path}: {column} = {bad:g} is not a particle; accepted: integers in [0, {n - 1}]")
    return values.astype(np.int64)


class Cloth:
    """The network: positions, masses, fixed flags, springs (i, j, k, l0)."""

    def __init__(self, folder):
        p = read_csv(f"{folder}/particles.csv", ("x", "y", "z", "mass", "fixed"))
        s = read_csv(f"{folder}/springs.csv", ("i", "j", "stiffness"))
        self.n = p["x"].size
        if np.any(p["mass"] <= 0):
            fail(f"{folder}/particles.csv: a mass <= 0; accepted: masses > 0")
        self.x0 = np.column_stack([p["x"], p["y"], p["z"]])
        self.v0 = np.column_stack([p.get(c, np.zeros(self.n)) for c in ("vx", "vy", "vz")])
        self.mass = p["mass"]
        self.fixed = p["fixed"] == 1
        self.v0[self.fixed] = 0.0
        self.i = integer_indices(s["i"], self.n, f"{folder}/springs.csv", "i")
        self.j = integer_indices(s["j"], self.n, f"{folder}/springs.csv", "j")
        if np.any(self.i == self.j):
            fail(f"{folder}/springs.csv: a spring from particle {self.i[self.i == self.j][0]} to itself; accepted: i != j")
        self.k = s["stiffness"]
        if np.any(self.k < 0):
            fail(f"{folder}/springs.csv: a stiffness < 0; accepted: stiffness >= 0")
        if np.any(s.get("damping", np.zeros(1)) != 0):
            fail("springs with dashpots; accepted: damping 0 (the benchmark's cloth)")
        d = self.x0[self.j] - self.x0[self.i]
        self.l0 = s["rest_length"] if "rest_length" in s else np.sqrt((d * d).sum(axis=1))
        if np.any(self.l0 <= 0):
            fail(f"{folder}/springs.csv: a spring of rest length 0; accepted: rest lengths > 0")
        self.free = ~self.fixed
        # J's sparsity, built once: the diagonal blocks and, for springs between free particles, the
        # four blocks (i,i), (j,j), (i,j), (j,i); entry order matches values() below.
        r3 = np.arange(3)
        rows_block = lambda a: (3 * a[:, None, None] + r3[None, :, None]).repeat(3, axis=2)
        cols_block = lambda b: (3 * b[:, None, None] + r3[None, None, :]).repeat(3, axis=1)
        both = self.free[self.i] & self.free[self.j]
        self.coupled = both
        ii, jj = self.i[both], self.j[both]
        diag = np.arange(self.n)
        rows = [rows_block(diag), rows_block(ii), rows_block(jj), rows_block(ii), rows_block(jj)]
        cols = [cols_block(diag), cols_block(ii), cols_block(jj), cols_block(jj), cols_block(ii)]
        # springs to a fixed particle still stiffen their free end's diagonal block
        self.half_i = self.free[self.i] & ~both
        self.half_j = self.free[self.j] & ~both
        rows += [rows_block(self.i[self.half_i]), rows_block(self.j[self.half_j])]
        cols += [cols_block(self.i[self.half_i]), cols_block(self.j[self.half_j])]
        self.rows = np.concatenate([r.ravel() for r in rows])
        self.cols = np.concatenate([c.ravel() for c in cols])

    def force(self, x):
        d = x[self.j] - x[self.i]
        length = np.sqrt((d * d).sum(axis=1))
        f = (self.k * (length - self.l0) / length)[:, None] * d  # on i
        F = self.mass[:, None] * GRAVITY[None, :]
        for c in range(3):
            F[:, c] += np.bincount(self.i, weights=f[:, c], minlength=self.n)
            F[:, c] -= np.bincount(self.j, weights=f[:, c], minlength=self.n)
        F[self.fixed] = 0.0
        return F

    def potential(self, x):
        """U(x): the springs' 1/2 k (l - l0)^2 and gravity's -m g.x on free particles (F = -grad U)."""
        d = x[self.j] - x[self.i]
        length = np.sqrt((d * d).sum(axis=1))
        return 0.5 * np.dot(self.k, (length - self.l0) ** 2) - np.dot(self.mass[self.free], x[self.free] @ GRAVITY)

    def jacobian(self, x, c):
        """M - c dF/dx as CSR (c = dt^2)."""
        d = x[self.j] - x[self.i]
        length = np.sqrt((d * d).sum(axis=1))
        u = d / length[:, None]
        uu = u[:, :, None] * u[:, None, :]
        P = np.eye(3)[None] - uu
        H = (c * self.k)[:, None, None] * ((1 - self.l0 / length)[:, None, None] * P + uu)
        D = self.mass[:, None, None] * np.eye(3)[None]
        Hc = H[self.coupled]
        values = np.concatenate([D.ravel(), Hc.ravel(), Hc.ravel(), -Hc.ravel(), -Hc.ravel(),
                                 H[self.half_i].ravel(), H[self.half_j].ravel()])
        N = 3 * self.n
        return scipy.sparse.csr_matrix((values, (self.rows, self.cols)), shape=(N, N))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir", help="directory with particles.csv and springs.csv")
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--dt", type=float, default=0.01)
    p.add_argument("--solver", default="splu", choices=("splu", "cg"))
    p.add_argument("--cg_rtol", type=float, default=1e-3,
                   help="CG's relative tolerance (default 1e-3, the lab's GMRES tolerance)")
    p.add_argument("--header", action="store_true")
    p.add_argument("--save_final", default="", help="CSV particle,x,y,z,vx,vy,vz as the lab's -save_final")
    a = p.parse_args()
    bad = ("--steps: accepted: an integer >= 1" if a.steps < 1 else
           f"--dt {a.dt}: accepted: a real number > 0" if not (np.isfinite(a.dt) and a.dt > 0) else
           f"--cg_rtol {a.cg_rtol}: accepted: a real number in (0, 1)" if not 0 < a.cg_rtol < 1 else "")
    if bad:  # bad options: one line, exit 2, as the labs
        fail(bad)
    if a.save_final:  # before the run, not after it
        folder = os.path.dirname(a.save_final) or "."
        if os.path.isdir(a.save_final) or not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            fail(f"--save_final: cannot write '{a.save_final}'; accepted: a file in an existing, writable directory")

    t0 = time.perf_counter()
    cloth = Cloth(a.dir)
    read = time.perf_counter() - t0
    dt, c = a.dt, a.dt * a.dt
    m3 = np.repeat(cloth.mass, 3)
    x = cloth.x0.copy()
    v = cloth.v0.copy()
    dv = np.zeros(3 * cloth.n)

    def residual(dv):
        return m3 * dv - dt * cloth.force(x + dt * (v + dv.reshape(-1, 3))).ravel()

    def energy(dv):  # Phi(dv), whose gradient is residual(dv) (solvers/EnergyLineSearch.hpp)
        return 0.5 * np.dot(m3 * dv, dv) + cloth.potential(x + dt * (v + dv.reshape(-1, 3)))

    index = np.arange(3 * cloth.n, dtype=np.uint64)
    signs = np.where(((index * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & np.uint64(1), 1.0, -1.0)

    def round_off_floor(dv):  # as ImplicitTheta::roundOffFloor: R's change when x moves by its round-off
        xt = (x + dt * (v + dv.reshape(-1, 3))).ravel()
        moved = xt + signs * np.finfo(float).eps * np.abs(xt)
        return dt * np.linalg.norm(cloth.force(moved.reshape(-1, 3)).ravel() - cloth.force(xt.reshape(-1, 3)).ravel())

    def solve(J, rhs, rtol):
        if a.solver == "splu":
            return scipy.sparse.linalg.splu(J.tocsc()).solve(rhs), 1
        count = [0]
        jacobi = scipy.sparse.diags(1.0 / J.diagonal())
        sol, info = scipy.sparse.linalg.cg(J, rhs, tol=rtol, atol=0.0, M=jacobi, maxiter=100000,
                                           callback=lambda _: count.__setitem__(0, count[0] + 1))
        if info != 0:
            fail(f"CG did not converge (info {info})", 3)
        return sol, count[0]

    seconds, newton, krylov = [], [], []
    for step in range(a.steps):
        t = time.perf_counter()
        R = residual(np.zeros_like(dv))
        reference = np.linalg.norm(R)
        R = residual(dv)
        fnorm = np.linalg.norm(R)
        floor = round_off_floor(dv)
        its = lits = 0
        while not np.isfinite(fnorm) or (fnorm > 1e-10 * reference and fnorm > 10 * floor):
            if not np.isfinite(fnorm) or its == 50:  # a NaN residual passed as converged, exit 0
                fail(f"Newton did not converge in step {step + 1} (residual {fnorm:.3e})", 3)
            J = cloth.jacobian(x + dt * (v + dv.reshape(-1, 3)), c)
            delta, n_lin = solve(J, -R, max(a.cg_rtol, min(0.1, floor / fnorm)))
            lits += n_lin
            lam = 1.0
            slope = -np.dot(R, delta)  # -dPhi/dlambda at 0: > 0 where delta descends on Phi
            phi = energy(dv) if slope > 0 else 0.0
            while True:
                trial = dv + lam * delta
                R_trial = residual(trial)
                f_trial = np.linalg.norm(R_trial)
                if lam < 1e-4:
                    break
                if slope > 0:
                    phi_trial = energy(trial)
                    if (phi_trial <= phi - 1e-4 * lam * slope or
                            (f_trial <= (1 - 1e-4 * lam) * fnorm and phi_trial <= phi + 1e-10 * abs(phi))):
                        break
                    curvature = phi_trial - phi + slope * lam
                    fit = slope * lam * lam / (2 * curvature) if curvature > 0 else 0.5 * lam
                    lam = min(max(fit, 0.1 * lam), 0.5 * lam)
                else:
                    if 0.5 * f_trial ** 2 <= 0.5 * fnorm ** 2 - 1e-4 * lam * fnorm ** 2:
                        break
                    curvature = 0.5 * f_trial ** 2 - 0.5 * fnorm ** 2 + fnorm ** 2 * lam
                    fit = fnorm ** 2 * lam * lam / (2 * curvature) if curvature > 0 else 0.5 * lam
                    lam = min(max(fit, 0.1 * lam), 0.5 * lam)
            its += 1
            snorm = lam * np.linalg.norm(delta)
            dv, R, fnorm = trial, R_trial, f_trial
            xnorm = np.linalg.norm(dv)
            if snorm <= 1e-8 * lam * xnorm or snorm <= 1e-12 * xnorm:  # a full step below 1e-8 |dv|
                break
        v = v + dv.reshape(-1, 3)
        x = x + dt * v
        seconds.append(time.perf_counter() - t)
        newton.append(its)
        krylov.append(lits)

    if a.save_final:
        table = np.column_stack([np.arange(cloth.n), x, v])
        np.savetxt(a.save_final, table, delimiter=",", header="particle,x,y,z,vx,vy,vz", comments="",
                   fmt=["%d"] + ["%.17g"] * 6)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    if a.header:
        print(COLUMNS)
    print(f"scipy,{a.solver},{cloth.n},{cloth.i.size},1,{a.steps},{read:.3f},0.000,{sorted(seconds)[len(seconds) // 2]:.6f},"
          f"{np.mean(seconds):.6f},{min(seconds):.6f},{max(seconds):.6f},{np.mean(newton):.2f},{np.mean(krylov):.1f},"
          f"{peak:.1f}")


if __name__ == "__main__":
    main()
