// A time scheme advances (x, v) of a Model, M(x) x'' = F(t, x, x'), by one step dt.
// Each scheme is one class in its own files, registered by name in SchemeRegistry.cpp.
//
// Two kinds (solvers/Model.hpp): the schemes of the course written for M x'' + C x' + S x = f(t) with
// constant matrices (the four lab schemes, the Newmark family, MAMC, central difference) take the
// model's linear() matrices and refuse any other model (requireLinear); the schemes written with the
// model's forces, accelerations and shifted Jacobians alone (rk4, the Euler family, verlet, implicit
// midpoint) serve every model, linear or not.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/Error.hpp"
#include "solvers/LinearSolver.hpp"
#include "solvers/Model.hpp"
#include "solvers/SecondOrderSystem.hpp"

namespace beam {

struct SchemeSettings {
  SchemeSettings(double step = 0.01, LinearSolverKind kind = LinearSolverKind::Direct) : dt(step), solver(kind) {}
  double dt;
  LinearSolverKind solver;
  // Prefix of this scheme instance's own options: its parameters (-<prefix>newmark_beta) and its solvers
  // (-<prefix>mass_ksp_type, -<prefix>shifted_pc_type, -<prefix><newton_prefix>snes_monitor). "" for
  // the labs' schemes (the documented names); two instances in one program can be tuned apart.
  std::string options_prefix;
  // Prefix of the nonlinear solver of implicit schemes on nonlinear models: -<prefix>snes_monitor,
  // -<prefix>ksp_type, -<prefix>pc_type (the mass-spring lab uses "ms_").
  std::string newton_prefix = "newton_";
  // What a failed Newton solve advises, in the lab's own options; empty: "try a smaller -dt" and the
  // model's implicitStepHint() (a lab without -dt, contact_study, says what sets dt there).
  std::string newton_hint;
  // The run checkpoints and stops on a signal (the time loop sets it when it writes checkpoints): a scheme
  // whose step can take minutes (Newton) may then give the step up (StepInterrupted). Without it a step
  // always ends: a sweep's run (contact_study) goes on to its end, so its row is whole.
  bool stop_on_signal = false;
};

// Thrown by a step() that gave up on a stop request (a signal received during a long Newton solve): x, y
// and the scheme's history are as before the step, so the time loop ends the run at the last accepted
// step with its checkpoint, as if the signal had come at that step's end. Anywhere else it ends the lab as
// the signal does (exit 128 + signal).
class StepInterrupted : public Error {
public:
  explicit StepInterrupted(int signal)
      : Error(128 + signal, "stopped by signal " + std::to_string(signal) + " during a step"), signal_(signal) {}
  int signal() const { return signal_; }

private:
  int signal_;
};

class TimeScheme {
public:
  virtual ~TimeScheme() = default;
  // Builds operators and factorizations for this model and step. Called once per run; the model must
  // outlive the scheme's use of it.
  virtual void setup(const Model &model, const SchemeSettings &settings) = 0;
  // One step from t to t + dt, in place. A nonlinear solve that fails throws a run error (exit 3); one
  // abandoned on a signal, StepInterrupted.
  virtual void step(double t, Vec x, Vec y) = 0;
  // Before a run's first step from t = 0 (not on a restart), before anything of the run is written: what
  // depends on the initial state may be set up here, where options PETSc checks only then are refused.
  // Optional: step() does the same when it was not called.
  virtual void begin(Vec /*x*/, Vec /*y*/) {}
  virtual std::string name() const = 0;
  // The parameters that change results (for checkpoints), as (field, value) pairs; the name is added
  // by the caller.
  virtual std::vector<std::pair<std::string, std::string>> identity() const { return {}; }
  // A change of one identity field in the user's terms (the option that sets it), for a refused
  // restart; "" to show the field as it is.
  virtual std::string explainIdentity(const std::string & /*field*/, const std::string & /*then*/,
                                      const std::string & /*now*/) const {
    return "";
  }

  // Whether a step that throws leaves x and y as they were (the run's last accepted state, which the
  // snapshots then show); false unless the scheme says so.
  virtual bool failureKeepsState() const { return false; }
  // Newton iterations of the last step, or -1 for schemes that solve no nonlinear system.
  virtual PetscInt newtonIterations() const { return -1; }
  // Krylov iterations of the last step's linear solves (over all its Newton iterations), or -1 for
  // schemes that do not count them.
  virtual PetscInt linearIterations() const { return -1; }

  // Checkpoints: the state a scheme keeps beyond (x, y) (e.g. the acceleration, x_{n-1}, the initial
  // guess of an iterative solve); empty for one-step schemes. Valid after setup(). A restart loads
  // these vectors, then calls resume() so the next step() continues the sequence exactly as if the
  // run had never stopped.
  // continues() says, when a checkpoint is written, whether the next step() would use that history for
  // (t, x, y) (false once a model's afterStep, e.g. a projection, changed the state the step returned);
  // the restart calls resume() only then, so it recomputes what the straight run recomputes.
  virtual std::vector<Vec> history() { return {}; }
  virtual bool continues(double /*t*/, Vec /*x*/, Vec /*y*/) const { return true; }
  virtual void resume(double /*t*/, Vec /*x*/, Vec /*y*/) {}

  // What setup() builds on a linear model beyond the model's own M, S (and C) and its mass solver: the
  // combinations a M + b C + c S it assembles (each a matrix with the pattern of S) and the linear
  // solvers it makes (each a factorization on the direct path); the most it may need, whatever the
  // damping. The beam labs' memory check counts them before anything is allocated (MesLib/BeamSystem.hpp).
  struct Footprint {
    int matrices = 0;
    int solvers = 0;
  };
  virtual Footprint footprint() const { return {}; }
};

// The model's constant matrices, or an input error naming the scheme, the model and the schemes that
// accept it.
const SecondOrderSystem &requireLinear(const Model &model, const std::string &scheme);

// The schemes by name ("almost_explicit", "midpoint", ...); an unknown name is an input error naming `option`.
std::unique_ptr<TimeScheme> makeScheme(const std::string &name, const std::string &option = "-scheme");
const std::vector<std::string> &schemeNames();
// The schemes that accept any model (the others need a linear one; Newton's on a nonlinear one also
// its Jacobian).
const std::vector<std::string> &generalSchemeNames();
// The names of the schemes `model` accepts, comma separated (for error messages).
std::string schemesAccepting(const Model &model);
// The schemes a kind of model accepts, before one is built: linear, or nonlinear with or without a
// Jacobian (in the registry's order).
std::vector<std::string> schemesServing(bool linear, bool jacobian);

} // namespace beam
