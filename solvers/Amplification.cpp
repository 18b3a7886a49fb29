#include "solvers/Amplification.hpp"

#include "solvers/LinearModel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "solvers/GeneralizedAlpha.hpp"
#include "solvers/TimeScheme.hpp"

namespace beam {
namespace {

// A 1x1 matrix on PETSC_COMM_SELF holding `value` (stored even when 0, so patterns match for MatAXPY).
PMat scalarMatrix(double value) {
  PMat A;
  BEAM_PETSC(MatCreateSeqAIJ(PETSC_COMM_SELF, 1, 1, 1, nullptr, A.out()));
  BEAM_PETSC(MatSetValue(A, 0, 0, value, INSERT_VALUES));
  BEAM_PETSC(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  BEAM_PETSC(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  BEAM_PETSC(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  return A;
}

// For its lifetime, PETSc objects created read a private, empty options database instead of the lab's.
// A scan sets schemes up hundreds of times on a 1x1 oscillator, and the options given for the lab's own
// solves (-mass_ksp_view, -shifted_ksp_monitor, -shifted_pc_type gamg, ...) must neither print from
// inside the scan nor configure its solvers; the lab's database, its "used" marks included, is untouched.
class PrivateOptions {
public:
  PrivateOptions() {
    BEAM_PETSC(PetscOptionsCreate(&db_));
    BEAM_PETSC(PetscOptionsPush(db_));
  }
  ~PrivateOptions() {
    (void)PetscOptionsPop();
    (void)PetscOptionsDestroy(&db_);
  }
  PrivateOptions(const PrivateOptions &) = delete;
  PrivateOptions &operator=(const PrivateOptions &) = delete;

private:
  PetscOptions db_ = nullptr;
};

// A scheme instance of the scan: its parameters are those the lab's options give (-newmark_beta, ...,
// read here from the lab's database), and, as an instance of its own, it has its own options prefix, so
// nothing else of the lab's options reaches it.
std::unique_ptr<TimeScheme> scanScheme(const std::string &name) {
  auto scheme = makeScheme(name);
  if (const auto *family = dynamic_cast<const GeneralizedAlpha *>(scheme.get())) {
    auto fixed = std::make_unique<GeneralizedAlpha>(name, family->optionParameters());
    fixed->setOptionsPrefix("amplification_");
    return fixed;
  }
  return scheme;
}

// The oscillator with omega = Omega and h = 1: m = 1, k = Omega^2, c = 2 xi Omega, f = 0.
SecondOrderSystem oscillator(double omega_h, double xi) {
  if (!(omega_h >= 0) || !std::isfinite(omega_h))
    throw inputError("Omega = omega*h: " + std::to_string(omega_h) + " is out of range; accepted: a real >= 0");
  if (!(xi >= 0) || !std::isfinite(xi))
    throw inputError("-xi: " + std::to_string(xi) + " is out of range; accepted: a real >= 0");
  SecondOrderSystem s;
  s.mass = scalarMatrix(1.0);
  BEAM_PETSC(MatSetOption(s.mass, MAT_SPD, PETSC_TRUE));
  s.stiffness = scalarMatrix(omega_h * omega_h);
  if (xi > 0) s.damping = scalarMatrix(2 * xi * omega_h);
  BEAM_PETSC(VecCreateSeq(PETSC_COMM_SELF, 1, s.load.out()));
  BEAM_PETSC(VecSet(s.load, 0.0));
  return s;
}

double value(Vec v) {
  const PetscInt zero = 0;
  PetscScalar a;
  BEAM_PETSC(VecGetValues(v, 1, &zero, &a));
  return PetscRealPart(a);
}

using Matrix2 = std::array<std::array<double, 2>, 2>;

// A scheme of the scan set up on the oscillator (omega_h, xi), with h = 1, and a state (x, y) for it.
class OscillatorStepper {
public:
  OscillatorStepper(const std::string &scheme, double omega_h, double xi)
      : stepper_(scanScheme(scheme)), // its parameters come from the lab's options...
        system_(privateOscillator(omega_h, xi)), model_(system_, LinearSolverKind::Direct) {
    stepper_->setup(model_, {1.0, LinearSolverKind::Direct}); // ...its solvers from the private ones
    x_ = system_.createVector();
    y_ = system_.createVector();
  }
  // One step from (x, y) at time t; the state is then (x(), y()).
  void step(double t) { stepper_->step(t, x_, y_); }
  void set(double x, double y) {
    BEAM_PETSC(VecSet(x_, x));
    BEAM_PETSC(VecSet(y_, y));
  }
  double x() const { return value(x_); }
  double y() const { return value(y_); }

private:
  SecondOrderSystem privateOscillator(double omega_h, double xi) {
    private_options_.emplace();
    return oscillator(omega_h, xi);
  }
  std::optional<PrivateOptions> private_options_; // outlives the stepper's solvers, which are made under it
  std::unique_ptr<TimeScheme> stepper_;
  SecondOrderSystem system_;
  LinearModel model_;
  PVec x_, y_;
};

} // namespace

Matrix2 amplificationMatrix(const std::string &scheme, double omega_h, double xi) {
  OscillatorStepper run(scheme, omega_h, xi);
  Matrix2 A{};
  for (size_t column = 0; column < 2; ++column) {
    // Each column starts from a state set from outside, which a scheme with internal state must treat
    // as a restart (StepContinuity.hpp).
    run.set(column == 0 ? 1.0 : 0.0, column == 1 ? 1.0 : 0.0);
    run.step(0.0);
    A[0][column] = run.x();
    A[1][column] = run.y();
  }
  return A;
}

bool isOneStepMap(const std::string &scheme, double omega_h, double xi) {
  const Matrix2 A = amplificationMatrix(scheme, omega_h, xi);
  OscillatorStepper run(scheme, omega_h, xi);
  run.set(1.0, 0.0);
  run.step(0.0); // two consecutive steps: a scheme may use what it kept from the first
  run.step(1.0);
  // A^2 (1, 0)
  const double x2 = A[0][0] * A[0][0] + A[0][1] * A[1][0], y2 = A[1][0] * A[0][0] + A[1][1] * A[1][0];
  const double scale = std::max({1.0, std::abs(x2), std::abs(y2)});
  return std::abs(run.x() - x2) <= 1e-8 * scale && std::abs(run.y() - y2) <= 1e-8 * scale;
}

double spectralRadius(const std::array<std::array<double, 2>, 2> &A) {
  // Eigenvalues p +- sqrt(d), p = tr/2, d = p^2 - det written as ((a - d)/2)^2 + b c, which avoids the
  // cancellation of p^2 - det when both are ~1. Complex pair (d < 0): |lambda|^2 = det.
  const double p = 0.5 * (A[0][0] + A[1][1]);
  const double half_gap = 0.5 * (A[0][0] - A[1][1]);
  const double d = half_gap * half_gap + A[0][1] * A[1][0];
  if (d < 0) return std::sqrt(A[0][0] * A[1][1] - A[0][1] * A[1][0]);
  return std::abs(p) + std::sqrt(d);
}

bool isStable(const std::string &scheme, double omega_h, double xi, double tolerance) {
  return spectralRadius(scheme, omega_h, xi) <= 1 + tolerance * (1 + 1e-4 * omega_h * omega_h);
}

double criticalOmega(const std::string &scheme, double xi, const CriticalOmegaSearch &search) {
  auto stable = [&](double omega_h) { return isStable(scheme, omega_h, xi, search.tolerance); };
  const double first = search.first / std::max(1.0, xi);
  if (!stable(first)) return 0.0;
  // Log-spaced scan from `first` to `bound`; the first unstable point brackets the limit.
  const double ratio = std::pow(10.0, 1.0 / search.per_decade);
  double lo = first, hi = 0;
  while (lo < search.bound) {
    const double next = std::min(lo * ratio, search.bound);
    if (!stable(next)) {
      hi = next;
      break;
    }
    lo = next;
  }
  if (hi == 0) return std::numeric_limits<double>::infinity();
  // Bisection to the resolution of a double.
  while (hi - lo > 4 * std::numeric_limits<double>::epsilon() * hi) {
    const double mid = 0.5 * (lo + hi);
    (stable(mid) ? lo : hi) = mid;
  }
  return lo;
}

} // namespace beam
