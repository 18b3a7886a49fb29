// A time scheme advances (x, y) = (displacement, velocity) of M x'' = f - S x by one step dt.
// Each scheme is one class in its own files, registered by name in SchemeRegistry.cpp.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "solvers/LinearSolver.hpp"
#include "solvers/SecondOrderSystem.hpp"

namespace beam {

struct SchemeSettings {
  double dt = 0.01;
  LinearSolverKind solver = LinearSolverKind::Direct;
};

class TimeScheme {
public:
  virtual ~TimeScheme() = default;
  // Builds operators and factorizations for this system and step. Called once per run.
  virtual void setup(const SecondOrderSystem &system, const SchemeSettings &settings) = 0;
  // One step from t to t + dt, in place.
  virtual void step(double t, Vec x, Vec y) = 0;
  virtual std::string name() const = 0;

  // Checkpoints: the state a scheme keeps beyond (x, y) (e.g. the acceleration, x_{n-1}); empty for
  // one-step schemes. Valid after setup(). A restart loads these vectors, then calls resume() so the
  // next step() continues the sequence exactly as if the run had never stopped.
  virtual std::vector<Vec> history() { return {}; }
  virtual void resume(double /*t*/, Vec /*x*/, Vec /*y*/) {}
};

// The schemes by name ("almost_explicit", "midpoint", ...).
std::unique_ptr<TimeScheme> makeScheme(const std::string &name);
const std::vector<std::string> &schemeNames();

} // namespace beam
