#include "MesLib/BeamSystem.hpp"
#include <algorithm>
#include <fstream>
#include <cstdio>
#include <cmath>

#include "MesLib/MatrixFreeOperator.hpp"

namespace beam {

const char *operatorName(OperatorKind k) { return k == OperatorKind::Assembled ? "assembled" : "matfree"; }

OperatorKind parseOperator(const std::string &name) {
  if (name == "assembled") return OperatorKind::Assembled;
  if (name == "matfree") return OperatorKind::MatrixFree;
  throw inputError("-operator: unknown value '" + name + "'; accepted: assembled, matfree");
}

SecondOrderSystem beamSystem(const Beam &beam, OperatorKind kind) {
  SecondOrderSystem system;
  system.load = beam.load();
  system.diagonal_mass = beam.spec().lumped_mass;
  if (kind == OperatorKind::Assembled) {
    system.mass = beam.mass();
    system.stiffness = beam.stiffness();
  } else {
    system.mass = matrixFreeOperator(beam, 1.0, 0.0);
    system.stiffness = matrixFreeOperator(beam, 0.0, 1.0);
    system.combine = [&beam](double a, double, double c) { return matrixFreeOperator(beam, a, c); };
  }
  return system;
}

std::uint64_t estimatedRunBytes(const BeamSpec &spec, OperatorKind kind, bool direct_solver) {
  const double n = 2.0 * (spec.mx + 1.0) * (spec.my + 1.0);
  double bytes = 16 * 8 * n; // vectors
  if (kind == OperatorKind::Assembled) bytes += 2 * 18 * 12 * n;
  if (direct_solver) {
    // Fill of the Cholesky factor, the smaller of a band (bandwidth 2 (n1 + 1) DOFs across the short
    // side) and nested dissection (31/8 Nn log2 Nn for a square grid of Nn nodes, times 4 for the 2 x 2
    // DOF blocks); 12 bytes per entry and half again for the solver's work space.
    const double n1 = std::min(spec.mx, spec.my) + 1.0, nodes = n / 2;
    const double band = n * 2 * n1, dissection = 4 * 31.0 / 8 * nodes * std::log2(nodes + 2);
    bytes += 1.5 * 12 * std::min(band, dissection);
  }
  return std::uint64_t(bytes);
}

void checkMemory(const BeamSpec &spec, OperatorKind kind, bool direct_solver) {
  std::uint64_t available = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (meminfo >> key >> kb >> unit)
    if (key == "MemAvailable:") available = kb * 1024;
  const std::uint64_t need = estimatedRunBytes(spec, kind, direct_solver);
  if (available > 0 && need > available) {
    char msg[320];
    std::snprintf(msg, sizeof msg,
                  "-mx %d -my %d: the run needs about %.1f GiB (%s operator%s), this machine has %.1f GiB available; "
                  "accepted: a smaller beam%s",
                  spec.mx, spec.my, double(need) / (1 << 30), operatorName(kind), direct_solver ? ", direct solver" : "",
                  double(available) / (1 << 30), direct_solver ? ", or -linear_solver cg -operator matfree" : "");
    throw inputError(msg);
  }
}

void addRayleighDamping(SecondOrderSystem &system, const Beam &beam, double alpha, double beta) {
  if (alpha == 0 && beta == 0) return;
  if (!system.combine) {
    // From the frozen M and S (identity rows there), so the frozen rows and columns of C hold
    // alpha + beta on the diagonal and 0 elsewhere; zeroing them (diagonal 0) decouples them from C.
    BEAM_PETSC(MatDuplicate(system.mass, MAT_COPY_VALUES, system.damping.out()));
    BEAM_PETSC(MatScale(system.damping, alpha));
    BEAM_PETSC(MatAXPY(system.damping, beta, system.stiffness, SUBSET_NONZERO_PATTERN));
    const std::vector<PetscInt> frozen = beam.ownedFrozenDofs();
    BEAM_PETSC(MatZeroRowsColumns(system.damping, PetscInt(frozen.size()), frozen.data(), 0.0, nullptr, nullptr));
    BEAM_PETSC(MatSetOption(system.damping, MAT_SYMMETRIC, PETSC_TRUE));
    return;
  }
  // Matrix-free: C = alpha M + beta S as a composite of the two shells. Its frozen rows hold
  // (alpha + beta) x_i instead of 0, which changes nothing: every scheme keeps x_i = y_i = 0 there.
  Mat parts[2] = {system.mass, system.stiffness};
  BEAM_PETSC(MatCreateComposite(beam.comm(), 2, parts, system.damping.out()));
  const PetscScalar scalings[2] = {alpha, beta};
  BEAM_PETSC(MatCompositeSetScalings(system.damping, scalings));
  // a M + b C + c S = (a + b alpha) M + (c + b beta) S for the schemes' system matrices.
  system.combine = [inner = system.combine, alpha, beta](double a, double b, double c) {
    return inner(a + b * alpha, 0.0, c + b * beta);
  };
}

} // namespace beam
