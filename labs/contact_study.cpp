// Lab "contact study" (reference 004, section 4.2, made measurable): one particle of mass m dropped from
// height h onto the plane z = 0 (penalty stiffness k_c, damping b_c on the normal velocity), for a sweep
// of damping ratios zeta = b_c / (2 sqrt(k_c m)). The measured restitution e = v_out / v_in (rebound
// speed over impact speed, both at the plane) is compared with the linear spring-dashpot value
//   e = exp(-pi zeta / sqrt(1 - zeta^2))   (zeta < 1; 0 from zeta = 1 on: no rebound).
// Biases: gravity keeps acting during the contact (the particle oscillates about -m g / k_c, not about
// the plane, and leaves later and slower: a relative bias of order m g / (k_c delta), delta = v_in / w
// the penetration), the time step (the contact lasts pi / w; with dt = that / N the scheme's error is
// O(1/N^2) for the second-order ones), and the first and last steps of the contact, which straddle s = 0.
// Writes <output_dir>/contact_study.csv (zeta,damping,e_theory,e_measured,relative_difference) and
// contact_study.png.
#include <cmath>
#include <cstdio>

#include "MassSpring/MassSpringModel.hpp"
#include "common/Exact.hpp"
#include "common/Options.hpp"
#include "output/FileUtil.hpp"
#include "output/PlotScript.hpp"
#include "solvers/RunOptions.hpp"
#include "solvers/TimeLoop.hpp"

static const char help[] = "Restitution of the penalty contact (reference 004, 4.2) against the spring-dashpot formula.\n";

namespace {

// Impact and rebound speeds: the vertical velocity at the last step above the plane before the first
// contact, and at the first step above it after.
struct Bounce final : beam::Monitor {
  void observe(const beam::StepState &s) override {
    const PetscScalar *x, *v;
    double z = 0, vz = 0;
    PetscInt n;
    BEAM_PETSC(VecGetLocalSize(s.x, &n));
    if (n == 3) { // the rank that owns the particle
      BEAM_PETSC(VecGetArrayRead(s.x, &x));
      BEAM_PETSC(VecGetArrayRead(s.y, &v));
      z = PetscRealPart(x[2]);
      vz = PetscRealPart(v[2]);
      BEAM_PETSC(VecRestoreArrayRead(s.x, &x));
      BEAM_PETSC(VecRestoreArrayRead(s.y, &v));
    }
    double zv[2] = {z, vz}, all[2];
    MPI_Allreduce(zv, all, 2, MPI_DOUBLE, MPI_SUM, PetscObjectComm(PetscObject(s.x)));
    if (!touched && all[0] > 0) v_in = all[1];
    if (all[0] <= 0) touched = true;
    if (touched && !left && all[0] > 0) {
      left = true;
      v_out = all[1];
    }
  }
  bool touched = false, left = false;
  double v_in = 0, v_out = 0;
};

} // namespace

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "contact_study", [&] {
    double m = 0.1, k = 1e4, h = 0.1, g = 9.81, points_per_contact = 400;
    std::vector<double> zetas = {0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9};
    std::string scheme_name = "implicit_midpoint";
    beam::OutputOptions out;
    out.dir = "out/contact_study";
    beam::agreeOnOutcome(PETSC_COMM_WORLD, [&] {
      beam::readOptions(PETSC_COMM_WORLD, "Contact study", "", [&](beam::OptionReader &r) {
        m = r.real("-mass", "Particle mass", m, beam::Bounds::above(0));
        k = r.real("-contact_stiffness", "Penalty stiffness k_c of the plane", k, beam::Bounds::above(0));
        h = r.real("-drop_height", "Height the particle falls from", h, beam::Bounds::above(0));
        g = r.real("-gravity_z", "Downward gravity (m/s^2; 0: the particle starts at the plane with the impact speed)", g,
                   beam::Bounds::atLeast(0));
        points_per_contact = r.real("-steps_per_contact", "Time steps per contact duration pi/w (dt = pi/(w N))",
                                    points_per_contact, beam::Bounds::atLeast(4));
        const std::vector<double> z = r.reals("-zetas", "Damping ratios to sweep, each in [0, 1)");
        if (r.given("-zetas")) zetas = z;
        for (double v : zetas)
          if (!(v >= 0 && v < 1)) r.fail("-zetas: " + beam::exactDecimal(v) + " is out of range; accepted: reals in [0, 1)");
      });
      scheme_name = beam::readSchemeOption(PETSC_COMM_WORLD, scheme_name);
      beam::readOutputOptions(PETSC_COMM_WORLD, out, {nullptr, 0, false});
    });
    const double w = std::sqrt(k / m), contact = M_PI / w, v0 = g > 0 ? std::sqrt(2 * g * h) : 1.0;
    beam::RunSettings run;
    run.dt = contact / points_per_contact;
    run.T = (g > 0 ? v0 / g : 0) + 3 * contact;
    // Every model and loop first, so all options are read before the unknown-option check.
    std::vector<std::unique_ptr<beam::MassSpringModel>> models;
    std::vector<std::unique_ptr<beam::TimeScheme>> schemes;
    std::vector<std::unique_ptr<beam::TimeLoop>> loops;
    for (double zeta : zetas) {
      beam::Network net;
      beam::Particle p;
      p.mass = m;
      p.x = {0, 0, g > 0 ? h : 1e-9};
      p.v = {0, 0, g > 0 ? 0.0 : -v0};
      net.particles = {p};
      net.gravity = {0, 0, -g};
      net.planes = {beam::Plane{}};
      net.contact_stiffness = k;
      net.contact_damping = 2 * zeta * std::sqrt(k * m);
      net.validate();
      models.push_back(std::make_unique<beam::MassSpringModel>(net, PETSC_COMM_WORLD));
      schemes.push_back(beam::makeScheme(scheme_name));
      run.newton_prefix = "ms_";
      loops.push_back(std::make_unique<beam::TimeLoop>(*schemes.back(), *models.back(), run));
    }
    if (beam::finishOptions(PETSC_COMM_WORLD)) return 0;
    beam::prepareOutputDirectory(out.dir);

    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD,
                           "contact_study: m = %g, k_c = %g, drop %g (impact speed %.4g), %s, dt = %.3g (contact / %g)\n\n"
                           "%8s %12s %12s %12s %12s\n",
                           m, k, h, v0, scheme_name.c_str(), run.dt, points_per_contact, "zeta", "b_c", "e theory",
                           "e measured", "rel. diff"));
    std::string csv = "zeta,damping,e_theory,e_measured,relative_difference\n";
    for (size_t i = 0; i < zetas.size(); ++i) {
      beam::PVec x = models[i]->createVector(), v = models[i]->createVector();
      models[i]->initialState(x, v);
      Bounce bounce;
      const beam::RunResult r = loops[i]->run(x, v, {&bounce});
      if (r.diverged) throw beam::runError(r.divergence);
      const double zeta = zetas[i], b = 2 * zeta * std::sqrt(k * m);
      const double e_theory = std::exp(-M_PI * zeta / std::sqrt(1 - zeta * zeta));
      const double e = bounce.left ? bounce.v_out / -bounce.v_in : 0.0;
      const double diff = (e - e_theory) / e_theory;
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%8.3g %12.5g %12.6f %12.6f %12.3e\n", zeta, b, e_theory, e, diff));
      csv += beam::exactDecimal(zeta) + "," + beam::exactDecimal(b) + "," + beam::exactDecimal(e_theory) + "," +
             beam::exactDecimal(e) + "," + beam::exactDecimal(diff) + "\n";
    }
    int rank = 0;
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    if (rank == 0) {
      beam::writeFileAtomically(out.dir + "/contact_study.csv", csv);
      beam::runPlotScript("plot_contact_study.py", std::vector<std::string>{out.dir});
    }
    return 0;
  });
}
