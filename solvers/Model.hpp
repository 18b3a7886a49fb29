// The one interface every model gives the time schemes and the monitors (beam, discrete system,
// mass-spring network, rigid multibody system):
//
//     M(x) x'' = F(t, x, x')          x: the model's coordinates, v = x': their rates
//
// F holds every force: internal (springs, element stiffness), damping, contact, gravity, loads. The
// model also gives the accelerations (a = M^{-1} F, or the constrained accelerations of a multibody
// system), the shifted Jacobian J = a M - b dF/dv - c dF/dx that a Newton step needs (as PETSc TS's
// I2Jacobian: the scheme owns the shifts a, b, c, the model owns the physics), its energy, and how to
// draw itself.
//
// A linear model (M, C, S constant, F = f(t) - S x - C v) is the special case whose Jacobian never
// changes: linear() gives its matrices, so the schemes of the course that are written for M, C, S
// (the four lab schemes, the Newmark family, MAMC, central difference) use them and refuse any other
// model with one line naming the scheme and the model; schemes written with force() and acceleration()
// alone serve every model.
#pragma once
#include <petscmat.h>

#include <string>
#include <utility>
#include <vector>

#include "common/Drawing.hpp"
#include "common/Petsc.hpp"

namespace beam {

struct SecondOrderSystem;

class Model {
public:
  virtual ~Model() = default;

  // A short lower-case name for messages and checkpoints: "beam", "discrete", "mass_spring", "multibody".
  virtual std::string name() const = 0;
  virtual MPI_Comm comm() const = 0;
  // A vector with the layout of x and v.
  virtual PVec createVector() const = 0;

  // --- forces and accelerations ---------------------------------------------------------------
  // F(t, x, v) into F (zero on frozen DOFs).
  virtual void force(double t, Vec x, Vec v, Vec F) const = 0;
  // a = M(x)^{-1} F(t, x, v) (constrained models: the acceleration that keeps the constraints).
  // Const like every evaluation here: a model keeps the factorizations and work vectors it reuses in
  // mutable members, so schemes and monitors can share one const model.
  virtual void acceleration(double t, Vec x, Vec v, Vec a) const = 0;
  // Mv = M(x) v.
  virtual void massMult(Vec x, Vec v, Vec Mv) const = 0;

  // --- Newton steps (implicit schemes) ---------------------------------------------------------
  // Models that can give J = a M - b dF/dv - c dF/dx say so; implicit schemes refuse the others.
  virtual bool hasJacobian() const { return false; }
  // A matrix with the nonzero pattern of every shifted Jacobian (filled by shiftedJacobian).
  virtual PMat createJacobian() const;
  virtual void shiftedJacobian(double t, Vec x, Vec v, double a, double b, double c, Mat J) const;

  // Models whose every force is minus the gradient of their stored potential energy (the stored energies
  // after the kinetic one): no damping, no loads that vary in time, no constraint forces. A Newton step
  // of an implicit scheme then minimizes an energy, and its line search measures progress by it
  // (solvers/EnergyLineSearch.hpp). Default: no.
  virtual bool conservative() const { return false; }

  // Called by the time loop after every accepted step: a model may correct (x, v) there (the
  // multibody model's -projection onto its constraints). Default: nothing.
  virtual void afterStep(double /*t*/, Vec /*x*/, Vec /*v*/) const {}

  // The constant matrices of a linear model, or nullptr.
  virtual const SecondOrderSystem *linear() const { return nullptr; }

  // --- energy ----------------------------------------------------------------------------------
  // The stored energies, named (kinetic first): {"kinetic", "potential"} for the beam, {"kinetic",
  // "gravity", "elastic", "contact"} for a mass-spring network. Their sum, minus the work of the loads
  // that vary in time, plus the energy dissipated so far, is the conserved total.
  virtual std::vector<std::string> energyNames() const = 0;
  virtual void storedEnergy(double t, Vec x, Vec v, std::vector<double> &parts) const = 0;
  // The parts of the stored energy that are offsets: the potential of uniform fields, whose zero is the
  // coordinate origin's (gravity, -sum m g.x, and constant point loads, -sum f.x), and energy that no
  // motion can change (a spring between two fixed particles). The drift scale leaves them out of |E0|
  // (solvers/Energy.hpp driftScale): lifting a scene by 1000 m changes E0 by its weight times 1000 m,
  // and a stretched spring between two anchors by its constant energy, not how far the run drifts,
  // which runs count as diverging or where a dt turns unstable. Default: none.
  virtual double offsetEnergy(double /*t*/, Vec /*x*/, Vec /*v*/) const { return 0; }
  // What a failed implicit step's message adds about this model (a force that jumps, ...); "" if nothing.
  virtual std::string implicitStepHint() const { return ""; }
  // Loads whose work is integrated along the run (time-dependent loads, or loads with no potential such
  // as a torque on a body: not in the stored energy), as generalized forces at (t, x).
  virtual bool hasExternalWork() const { return false; }
  virtual void externalForce(double /*t*/, Vec /*x*/, Vec /*f*/) const {}
  // The external force does not change in time (its work is then f'(x - x0), one dot per step).
  virtual bool constantExternalForce() const { return false; }
  // Power dissipated at (x, v): v'C v for viscous damping, dashpots, contact damping.
  virtual double dissipationRate(double /*t*/, Vec /*x*/, Vec /*v*/) const { return 0; }
  // An energy the drift (E - E0) / scale is measured against when |E0| is small: scale = max(|E0|,
  // referenceEnergy()); if both vanish the time loop takes the energies' own size. Called once per run, before
  // anything is written (it may solve a system and read solver options).
  virtual double referenceEnergy() const { return 0; }
  // What referenceEnergy() is, for the run summary's footnote.
  virtual std::string referenceEnergyFormula() const { return "none"; }
  // More columns for the energy log (constraint violations, ...), named, measured at (x, v).
  virtual std::vector<std::string> diagnosticNames() const { return {}; }
  virtual void diagnostics(double /*t*/, Vec /*x*/, Vec /*v*/, std::vector<double> & /*values*/) const {}

  // --- identity (checkpoints) and drawing ------------------------------------------------------
  // Everything that defines the model, as (field, value) pairs: a restart refuses a checkpoint whose
  // identity differs, naming the first differing field.
  virtual std::vector<std::pair<std::string, std::string>> identity() const { return {{"model", name()}}; }
  // This rank's piece of a picture of the state (x, v). Collective. v is null only for the beam's mode
  // shapes (the modes lab), which BeamModel draws without a velocity array.
  virtual void draw(Vec x, Vec v, Drawing &drawing) const = 0;
};

} // namespace beam
