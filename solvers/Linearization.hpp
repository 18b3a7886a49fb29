// The linear system a model behaves like near a state: for small motions dx about (x, v) at time t,
//   M dx'' + C dx' + S dx = 0,  M = J(1, 0, 0), C = J(0, 1, 0), S = J(0, 0, 1),
// with J(a, b, c) = a M - b dF/dv - c dF/dx the model's shifted Jacobian (solvers/Model.hpp). At rest
// (v = 0, every spring at its rest length) S holds the springs' k d d' blocks alone; gravity does not
// enter S, and a prestressed state would add its geometric stiffness. Used for omega_max of a
// nonlinear model (FreeVibration on M and S; C is left out: the undamped limit is the one compared).
#pragma once
#include "solvers/Model.hpp"
#include "solvers/SecondOrderSystem.hpp"

namespace beam {

// M and S of `model` linearized at (t, x, v); load = 0 (only its layout is used). Needs hasJacobian().
SecondOrderSystem linearization(const Model &model, double t, Vec x, Vec v);

} // namespace beam
