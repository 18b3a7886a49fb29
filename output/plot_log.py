"""Values for a log axis, shared by the chart scripts.

|v| floored at 1e-16 (round-off, so exact zeros stay on the chart) and capped at 1e100: a diverged run's
values (1e250, inf) overflowed matplotlib's tick computation and the chart failed. NaN stays NaN (a gap).
"""
FLOOR, CAP = 1e-16, 1e100


def log_magnitudes(values):
    return [v if v != v else min(max(abs(v), FLOOR), CAP) for v in values]
