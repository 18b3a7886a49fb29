// Loads that vary in time, f(t) = f0 g(t), and sampled per-DOF load histories P(t).
//
//   -load_curve FILE          g from a two-column CSV "t,g": piecewise linear through the rows, whose
//                             times must increase strictly; before the first time g is the first value
//                             and after the last time the last value (constant extrapolation). Lines
//                             starting with '#' and blank lines are skipped; a first line whose fields
//                             are not numbers (e.g. "t,g") is taken as a header.
//   -load_harmonic A,omega    g(t) = A sin(omega t).
//   -load_history FILE        (discrete systems) a Matrix Market N x S array of load samples, like the
//   -load_dt DT               P matrix of reference 000's MAMC function: column k is f at t = k DT, linear
//                             in between, the last column held after the last sample.
// Bad files are input errors (exit 2) naming "<file>:<line>: <problem>".
#pragma once
#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/Petsc.hpp"

namespace beam {

class LoadCurve {
public:
  LoadCurve(std::vector<double> t, std::vector<double> g); // checked: nonempty, strictly increasing t
  // Reads the -load_curve CSV.
  static LoadCurve read(const std::string &path);
  double operator()(double t) const;
  const std::vector<double> &times() const { return t_; }
  // max |g|: the curve's rows (piecewise linear, held beyond its ends).
  double largestMagnitude() const;
  // FNV-1a over its (t, g) bit patterns: the curve's identity in checkpoints and across ranks.
  std::uint64_t hash() const;

private:
  std::vector<double> t_, g_;
};

// A load in time as a checkpoint's identity records it (the kind and its parameters, a curve by a hash
// of its data: until 2026-11-27 only "yes", so a restart with another curve or -load_harmonic mixed two
// loads in one run, exit 0).
struct LoadIdentity {
  std::string text = "no";
  std::string curve_file;     // -load_curve, when given
  std::uint64_t curve_hash = 0;
  // The largest |g(t)| (a curve's largest |g|, a harmonic's |A|): f0 times it is the reference load of the
  // energy scale (SecondOrderSystem::load_factor_bound).
  double bound = 1;
};

// g(t) = amplitude sin(omega t)
std::function<double(double)> harmonicLoad(double amplitude, double omega);

// A sampled history: samples(i, k) = f_i(k dt).
class LoadHistory {
public:
  LoadHistory(Eigen::MatrixXd samples, double dt);
  // f(t) at the DOFs [begin, begin + n) (a rank's rows), linear between samples.
  void evaluate(double t, PetscInt begin, PetscInt n, PetscScalar *f) const;
  Eigen::Index dofs() const { return samples_.rows(); }
  Eigen::Index count() const { return samples_.cols(); }
  // The sample column of largest 2-norm (a reference load for energy scales).
  Eigen::VectorXd largestSample() const;
  // FNV-1a over dt and the samples' bit patterns.
  std::uint64_t hash() const;

private:
  Eigen::MatrixXd samples_;
  double dt_;
};

} // namespace beam
