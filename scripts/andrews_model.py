#!/usr/bin/env python3
"""Writes Multibody/models/andrews.json: IFToMM A03, Andrews' squeezing mechanism, as 3D bodies.

Data: the Test Set for IVP Solvers (Mazzia, Magherini; problem "andrews", file andrews.f), i.e. Hairer &
Wanner, Solving ODE II, sec. VII.7: seven planar bodies K1..K7 described there by seven angles
(beta, theta, gamma, phi, delta, omega, epsilon), no gravity, a spring c0 between point D of K3 and the
fixed point C, a constant driving torque mom on K1.

Reading the Test Set's mass matrix and constraints back into bodies, with e(a) = (cos a, sin a),
n(a) = (-sin a, cos a) and w(a) = (sin a, -cos a):
  K1  rotates about O by beta; centre at ra e(beta); joint P = rr e(beta).
  K2  angle beta + theta, joint P; centre P - da e(beta + theta); joint E = P - d e(beta + theta).
  K3  rotates about B by gamma; E = B + ss w(gamma); spring point D = B + sd e(gamma) + sc w(gamma).
  K5  rotates about A by delta; joint F = A + zt e(delta).
  K4  angle phi + delta, joints F and E = F + e w(phi + delta); centre F + (e - ea) w(phi + delta).
  K7  rotates about A by epsilon; joint G = A + u w(epsilon).
  K6  angle omega + epsilon, joints G and E = G + zf e(omega + epsilon); centre G + (zf - fa) e(...).
These reproduce every entry of the Test Set's mass matrix and constraints. The Test Set holds only
sa^2 + sb^2, ta^2 + tb^2 and ua^2 + ub^2 for the bodies turning about a fixed point (K3, K5, K7): where
their centres sit around the pivot does not enter the motion without gravity. This file puts them at
B + sa w(gamma) + sb e(gamma), A + ta e(delta) + tb n(delta), A + ua w(epsilon) + ub e(epsilon).
Every body starts with its absolute angle as orientation (a rotation about z), so the angles are read back
from the quaternions; the out-of-plane inertias do not enter (the revolute joints keep the bodies in the
plane) and are set equal to the in-plane one.

    /usr/bin/python3 scripts/andrews_model.py > Multibody/models/andrews.json
"""
import json
import math
import re

m = [.04325, .00365, .02373, .00706, .07050, .00706, .05498]
inertia = [2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5]
xa, ya, xb, yb, xc, yc = -.06934, -.00227, -0.03635, .03273, .014, .072
c0, l0, mom = 4530.0, 7785e-5, 33e-3
d, da, e, ea, rr, ra = 28e-3, 115e-4, 2e-2, 1421e-5, 7e-3, 92e-5
ss, sa, sb, sc, sd = 35e-3, 1874e-5, 1043e-5, 18e-3, 2e-2
ta, tb, u, ua, ub = 2308e-5, 916e-5, 4e-2, 1228e-5, 449e-5
zf, zt, fa = 2e-2, 4e-2, 1421e-5
# Consistent initial angles (the Test Set's, to 30 digits).
beta, theta, gamma = -0.0617138900142764496358948458001, 0.0, 0.455279819163070380255912382449
phi, delta = 0.222668390165885884674473185609, 0.487364979543842550225598953530
omega, epsilon = -0.222668390165885884674473185609, 1.23054744454982119249735015568


def e_(a): return (math.cos(a), math.sin(a))
def n_(a): return (-math.sin(a), math.cos(a))
def w_(a): return (math.sin(a), -math.cos(a))
def add(*terms):
    """Sum of (scale, 2-vector) pairs and plain 2-vectors."""
    x = y = 0.0
    for t in terms:
        s, v = t if isinstance(t[1], tuple) else (1.0, t)
        x += s * v[0]
        y += s * v[1]
    return (x, y)


A, B, C, O = (xa, ya), (xb, yb), (xc, yc), (0.0, 0.0)
P = add((rr, e_(beta)))
E = add(P, (-d, e_(beta + theta)))
F = add(A, (zt, e_(delta)))
G = add(A, (u, w_(epsilon)))
D = add(B, (sd, e_(gamma)), (sc, w_(gamma)))
# The three ways to E must agree (the constraints at t = 0).
for other in (add(B, (ss, w_(gamma))), add(F, (e, w_(phi + delta))), add(G, (zf, e_(omega + epsilon)))):
    assert math.dist(E, other) < 1e-15, (E, other)

angles = [beta, beta + theta, gamma, phi + delta, delta, omega + epsilon, epsilon]
centres = [add((ra, e_(beta))), add(P, (-da, e_(beta + theta))), add(B, (sa, w_(gamma)), (sb, e_(gamma))),
           add(F, (e - ea, w_(phi + delta))), add(A, (ta, e_(delta)), (tb, n_(delta))),
           add(G, (zf - fa, e_(omega + epsilon))), add(A, (ua, w_(epsilon)), (ub, e_(epsilon)))]
# Bars for the pictures: length along the body axis the bar lies on (x for e(.), y for w(.)).
bars = [[rr, 0.002, 0.002], [d, 0.002, 0.002], [0.002, ss, 0.002], [0.002, e, 0.002], [zt, 0.002, 0.002],
        [zf, 0.002, 0.002], [0.002, u, 0.002]]


def point(p): return [p[0], p[1], 0.0]


bodies = []
for k in range(7):
    a = angles[k]
    bodies.append({"name": "K%d" % (k + 1), "mass": m[k], "inertia": [inertia[k]] * 3,
                   "position": point(centres[k]), "orientation": [math.cos(a / 2), 0.0, 0.0, math.sin(a / 2)],
                   "shape": {"box": bars[k]}})
z = [0.0, 0.0, 1.0]
pairs = [("ground", "K1", O), ("K1", "K2", P), ("K2", "K3", E), ("K2", "K4", E), ("K2", "K6", E),
         ("ground", "K3", B), ("K4", "K5", F), ("ground", "K5", A), ("K6", "K7", G), ("ground", "K7", A)]
model = {
    "gravity": [0.0, 0.0, 0.0],
    "bodies": bodies,
    "joints": [{"type": "revolute", "body1": b1, "body2": b2, "point": point(p), "axis": z} for b1, b2, p in pairs],
    "springs": [{"body1": "K3", "body2": "ground", "point1": point(D), "point2": point(C), "stiffness": c0,
                 "rest_length": l0}],
    "torques": [{"body": "K1", "torque": [0.0, 0.0, mom]}],
}
text = json.dumps(model, indent=1)
# Arrays of numbers on one line, as in the other model files.
print(re.sub(r"\[([^\[\]{}]*)\]", lambda a: "[" + ", ".join(x.strip() for x in a.group(1).split(",")) + "]", text))
