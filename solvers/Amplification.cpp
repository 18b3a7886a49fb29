#include "solvers/Amplification.hpp"

#include "solvers/LinearModel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "common/Exact.hpp"
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

// A scheme of the scan set up on the oscillator (omega_h, xi), with h = 1, and a state for it: (x, y)
// and the scheme's history, one value per history vector (the oscillator has one DOF).
class OscillatorStepper {
public:
  OscillatorStepper(const std::string &scheme, double omega_h, double xi)
      : stepper_(scanScheme(scheme)), // its parameters come from the lab's options...
        system_(privateOscillator(omega_h, xi)), model_(system_, LinearSolverKind::Direct) {
    stepper_->setup(model_, {1.0, LinearSolverKind::Direct}); // ...its solvers from the private ones
    x_ = system_.createVector();
    y_ = system_.createVector();
    history_ = stepper_->history();
    for (Vec h : history_)
      if (!h) throw runError(scheme + ": a history vector is not allocated by setup(), so its amplification matrix cannot be measured");
  }
  Eigen::Index size() const { return Eigen::Index(2 + history_.size()); }
  // The state s at time t, which the scheme continues from (TimeScheme::resume, as a restart from a
  // checkpoint does): its history is taken as given, not rebuilt from (x, y).
  void set(double t, const Eigen::VectorXd &s) {
    BEAM_PETSC(VecSet(x_, s(0)));
    BEAM_PETSC(VecSet(y_, s(1)));
    for (size_t k = 0; k < history_.size(); ++k) BEAM_PETSC(VecSet(history_[k], s(Eigen::Index(2 + k))));
    stepper_->resume(t, x_, y_);
  }
  // One step from time t.
  void step(double t) { stepper_->step(t, x_, y_); }
  Eigen::VectorXd state() const {
    Eigen::VectorXd s(size());
    s(0) = value(x_);
    s(1) = value(y_);
    for (size_t k = 0; k < history_.size(); ++k) s(Eigen::Index(2 + k)) = value(history_[k]);
    return s;
  }

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
  std::vector<Vec> history_;
};

// The 2x2 case in closed form: eigenvalues p +- sqrt(d), p = tr/2, d = p^2 - det written as
// ((a - d)/2)^2 + b c, which avoids the cancellation of p^2 - det when both are ~1. Complex pair (d < 0):
// |lambda|^2 = det.
double spectralRadius2(double a, double b, double c, double d) {
  const double p = 0.5 * (a + d);
  const double half_gap = 0.5 * (a - d);
  const double disc = half_gap * half_gap + b * c;
  if (disc < 0) return std::sqrt(a * d - b * c);
  return std::abs(p) + std::sqrt(disc);
}

} // namespace

Eigen::MatrixXd amplificationMatrix(const std::string &scheme, double omega_h, double xi) {
  OscillatorStepper run(scheme, omega_h, xi);
  Eigen::MatrixXd A(run.size(), run.size());
  for (Eigen::Index column = 0; column < A.cols(); ++column) {
    run.set(0.0, Eigen::VectorXd::Unit(A.rows(), column));
    run.step(0.0);
    A.col(column) = run.state();
  }
  return A;
}

Eigen::VectorXd continuedSteps(const std::string &scheme, double omega_h, double xi, const Eigen::VectorXd &s0, int steps) {
  OscillatorStepper run(scheme, omega_h, xi);
  if (s0.size() != run.size()) throw inputError("continuedSteps: the state has " + std::to_string(s0.size()) + " entries; accepted: " + std::to_string(run.size()));
  run.set(0.0, s0);
  for (int n = 0; n < steps; ++n) run.step(double(n));
  return run.state();
}

// A zero column j (a history entry the step does not read, e.g. an iterative solve's initial guess) or
// a zero row j gives det(A - lambda I) = -lambda det(A without row and column j): eigenvalue 0, the rest
// are the reduced matrix's. Removed first, so the common schemes reach the closed 2x2 form (exact near
// rho = 1, where the general eigensolver's error at a double root is ~sqrt(eps)). The state's (x, y)
// stay first.
Eigen::MatrixXd withoutUnreadEntries(const Eigen::MatrixXd &A_in) {
  Eigen::MatrixXd A = A_in;
  for (Eigen::Index j = 0; j < A.rows();) {
    if (A.rows() > 1 && (A.col(j).isZero(0) || A.row(j).isZero(0))) {
      Eigen::MatrixXd reduced(A.rows() - 1, A.cols() - 1);
      for (Eigen::Index r = 0, rr = 0; r < A.rows(); ++r) {
        if (r == j) continue;
        for (Eigen::Index c = 0, cc = 0; c < A.cols(); ++c)
          if (c != j) reduced(rr, cc++) = A(r, c);
        ++rr;
      }
      A = reduced;
      j = 0;
    } else {
      ++j;
    }
  }
  return A;
}

Eigen::MatrixXd withoutCarriedResidual(const Eigen::MatrixXd &A_in, double omega_h, double xi) {
  if (!A_in.allFinite()) return A_in;
  const Eigen::MatrixXd A = withoutUnreadEntries(A_in);
  if (A.rows() < 3) return A; // (x or y unread: no such residual)
  for (Eigen::Index k = 2; k < A.rows(); ++k) {
    Eigen::VectorXd l = Eigen::VectorXd::Zero(A.rows());
    l(0) = omega_h * omega_h;
    l(1) = 2 * xi * omega_h;
    l(k) = 1;
    // l^T A = l^T to round-off (the products' size: |l| |A|).
    if ((A.transpose() * l - l).norm() > 1e-12 * (1 + l.norm() * A.norm())) continue;
    // An orthonormal basis of l's complement (Householder: Q's first column is along l), where A acts
    // as Q2^T A Q2 exactly, the subspace being invariant.
    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(l);
    const Eigen::MatrixXd Q = qr.householderQ();
    const Eigen::MatrixXd Q2 = Q.rightCols(A.rows() - 1);
    return Q2.transpose() * A * Q2;
  }
  return A;
}

double spectralRadius(const Eigen::MatrixXd &A_in) {
  if (!A_in.allFinite()) return std::numeric_limits<double>::quiet_NaN();
  const Eigen::MatrixXd A = withoutUnreadEntries(A_in);
  if (A.rows() == 1) return std::abs(A(0, 0));
  if (A.rows() == 2) return spectralRadius2(A(0, 0), A(0, 1), A(1, 0), A(1, 1));
  const Eigen::EigenSolver<Eigen::MatrixXd> eig(A, false);
  if (eig.info() != Eigen::Success) return std::numeric_limits<double>::quiet_NaN();
  return eig.eigenvalues().cwiseAbs().maxCoeff();
}

bool isStable(const std::string &scheme, double omega_h, double xi, double tolerance) {
  const double rho = spectralRadius(scheme, omega_h, xi);
  // NaN is no verdict: 2 xi Omega overflowed (Rayleigh beta 1e304 read the central difference's NaN at
  // Omega = 426 as its limit, 10.1 for 0.0474, exit 0).
  if (std::isnan(rho))
    throw inputError("the amplification matrix of " + scheme + " at Omega = " + gText(omega_h) + ", xi = " + gText(xi) +
                     " is not finite (it overflows); accepted: damping ratios and scheme parameters of a usual size");
  return rho <= 1 + tolerance * (1 + 1e-4 * omega_h * omega_h);
}

double criticalOmega(const std::string &scheme, double xi, const CriticalOmegaSearch &search) {
  auto stable = [&](double omega_h) { return isStable(scheme, omega_h, xi, search.tolerance); };
  // A light damping ratio xi opens a stability interval of about 2 xi for schemes unstable undamped (forward
  // Euler: Omega <= 2 xi), so the first point is at most xi; not below 1e-4, where forward Euler's undamped
  // growth sqrt(1 + Omega^2) - 1 = 5e-9 still stands above the allowance (below 5e-5, such an interval
  // reads 0). Rayleigh beta 0.002 read forward Euler's limit beta as 0 from the mode at omega_max/100.
  const double first = std::min(search.first, std::max(1e-4, xi > 0 ? xi : search.first)) / std::max(1.0, xi);
  if (!stable(first)) return 0.0;
  // Log-spaced scan from `first` to `bound`; the first unstable point brackets the limit.
  const double ratio = std::pow(10.0, 1.0 / search.per_decade), ratio_below = std::pow(10.0, 1.0 / search.per_decade_below);
  double lo = first, hi = 0;
  while (lo < search.bound) {
    const double next = std::min({lo < 1e-3 ? std::min(lo * ratio_below, 1e-3) : lo * ratio, search.bound});
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
