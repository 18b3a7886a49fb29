// Lab "contact study" (reference 004, section 4.2, made measurable): one particle of mass m dropped from
// height h onto the plane z = 0 (penalty stiffness k_c, damping b_c on the normal velocity), for a sweep
// of damping ratios zeta = b_c / (2 sqrt(k_c m)). The measured restitution e = v_out / v_in (rebound
// speed over impact speed, both at the plane) is compared with the linear spring-dashpot value
//   e = exp(-pi zeta / sqrt(1 - zeta^2))   (zeta < 1; 0 from zeta = 1 on: no rebound).
// Biases: gravity keeps acting during the contact (the particle oscillates about -m g / k_c, not about
// the plane, and leaves later and slower: a relative bias of order m g / (k_c delta), delta = v_in / w
// the penetration), the time step (the contact lasts pi / w; with dt = that / N the scheme's error is
// O(1/N^2) for the second-order ones), and the first and last steps of the contact, which straddle s = 0.
// The disk (-shapes particle,disk): the report's falling disk (MassSpring/BuiltinModels.hpp, total mass
// -mass, springs -disk_stiffness) dropped so its lowest particle falls -drop_height; e is measured on the
// centre of mass and compared with the same formula for a rigid body of the disk's mass (zeta =
// b_c / (2 sqrt(k_c M))): the difference is the energy the impact leaves in the disk's vibrations.
// -contact_damping_depth grows the damping over a depth instead of switching it on at touchdown
// (MassSpring/Physics.hpp): the measured e then also carries the damping the ramp leaves out.
// Writes <output_dir>/contact_study.csv (shape,zeta,damping,e_theory,e_measured,relative_difference,status)
// and contact_study.png; a failed run's row is empty and marked failed, and the lab then ends with exit 3.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "MassSpring/BuiltinModels.hpp"
#include "common/Warnings.hpp"
#include "MassSpring/MassSpringModel.hpp"
#include "common/Exact.hpp"
#include "common/Options.hpp"
#include "common/StopSignal.hpp"
#include "output/FileUtil.hpp"
#include "output/PlotScript.hpp"
#include "solvers/RunOptions.hpp"
#include "solvers/TimeLoop.hpp"

static const char help[] = "Restitution of the penalty contact (reference 004, 4.2) against the spring-dashpot formula.\n";

namespace {

// Impact and rebound speeds of the centre of mass: its vertical velocity at the last step before any
// particle first reaches the plane, and at the first step after that with every particle above it and
// the centre of mass rising (a disk's lowest particle can lift off for a moment while the disk still
// falls: that moment was taken for the rebound, and e = -0.98 printed).
struct Bounce final : beam::Monitor {
  explicit Bounce(const beam::MassSpringModel &model) : model(model) {}
  void observe(const beam::StepState &s) override {
    const PetscScalar *x, *v;
    double lowest = HUGE_VAL, momentum[2] = {0, 0}; // sum m vz, sum m
    BEAM_PETSC(VecGetArrayRead(s.x, &x));
    BEAM_PETSC(VecGetArrayRead(s.y, &v));
    for (PetscInt p = 0; p < model.ownedParticles(); ++p) {
      lowest = std::min(lowest, double(PetscRealPart(x[3 * p + 2])));
      momentum[0] += model.mass(p) * PetscRealPart(v[3 * p + 2]);
      momentum[1] += model.mass(p);
    }
    BEAM_PETSC(VecRestoreArrayRead(s.x, &x));
    BEAM_PETSC(VecRestoreArrayRead(s.y, &v));
    const MPI_Comm comm = PetscObjectComm(PetscObject(s.x));
    double total[2];
    MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_DOUBLE, MPI_MIN, comm);
    MPI_Allreduce(momentum, total, 2, MPI_DOUBLE, MPI_SUM, comm);
    const double vz = total[0] / total[1];
    if (!touched && lowest > 0) v_in = vz;
    if (lowest <= 0) touched = true;
    if (touched && !left && lowest > 0 && vz > 0) {
      left = true;
      v_out = vz;
    }
  }
  const beam::MassSpringModel &model;
  bool touched = false, left = false;
  double v_in = 0, v_out = 0;
};

// The dropped body: one particle of mass m, or the disk of total mass m, its lowest point at height h
// (without gravity: just above the plane, h = 1e-3 of the largest penetration v0/w, falling at the
// impact speed v0; a fixed 1e-9 m kept a body with k/m above 4e20 from reaching the plane within the
// run, "no rebound" at zeta = 0).
beam::Network droppedBody(const std::string &shape, double m, double h, double v0, double disk_stiffness, bool gravity) {
  beam::Network net;
  if (shape == "particle") {
    beam::Particle p;
    p.mass = m;
    net.particles = {p};
  } else {
    auto parameters = beam::builtinParameters("disk");
    for (auto &q : parameters) {
      if (q.name == "mass") q.value = m;
      if (q.name == "stiffness") q.value = disk_stiffness;
    }
    net = beam::builtinNetwork("disk", parameters);
  }
  double lowest = HUGE_VAL;
  for (const auto &p : net.particles) lowest = std::min(lowest, p.x[2]);
  for (auto &p : net.particles) {
    p.x[2] += h - lowest;
    p.v = {0, 0, gravity ? 0.0 : -v0};
  }
  return net;
}

} // namespace

int main(int argc, char **argv) {
  beam::PetscSession session(&argc, &argv, help);
  return beam::runMain(session, "contact_study", [&] {
    double m = 0.1, k = 1e4, h = 0.1, g = 9.81, points_per_contact = 400, disk_stiffness = 2000, depth = 0;
    std::vector<double> zetas = {0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9};
    std::vector<std::string> shapes = {"particle", "disk"};
    std::string scheme_name = "implicit_midpoint";
    beam::OutputOptions out;
    out.dir = "out/contact_study";
    beam::agreeOn(PETSC_COMM_WORLD, [&] {
      beam::readOptions(PETSC_COMM_WORLD, "Contact study", "", [&](beam::OptionReader &r) {
        m = r.real("-mass", "Mass of the particle, total mass of the disk", m, beam::Bounds::above(0));
        k = r.real("-contact_stiffness", "Penalty stiffness k_c of the plane", k, beam::Bounds::above(0));
        h = r.real("-drop_height", "Height the lowest point falls from", h, beam::Bounds::above(0));
        g = r.real("-gravity_z", "Downward gravity (m/s^2; 0: the body starts at the plane with the impact speed)", g,
                   beam::Bounds::atLeast(0));
        points_per_contact = r.real("-steps_per_contact", "Time steps per contact duration pi/w (dt = pi/(w N))",
                                    points_per_contact, beam::Bounds::atLeast(4));
        // Each list checked on every occurrence of its option (-zetas 2 -zetas 0.1 ran).
        const std::vector<double> z = r.reals("-zetas", "Damping ratios to sweep, each in [0, 1)", [](const std::vector<double> &v) {
          for (double zeta : v)
            if (!(zeta >= 0 && zeta < 1)) return "-zetas: " + beam::exactDecimal(zeta) + " is out of range; accepted: reals in [0, 1)";
          if (const double *twice = beam::firstRepeated(v))
            return "-zetas: " + beam::exactDecimal(*twice) + " is listed twice; accepted: each value once";
          return std::string();
        });
        if (r.given("-zetas")) zetas = z;
        for (double &zeta : zetas) zeta += 0.0; // -0 is 0 (the table printed -0)
        // Names in any case, as the schemes' (-shapes Particle was refused).
        auto lower = [](std::vector<std::string> s) {
          for (auto &w : s) w = beam::lowerCase(w);
          return s;
        };
        shapes = lower(r.names("-shapes", "Dropped bodies: particle, disk", "particle,disk", [&](const std::vector<std::string> &given) {
          const std::vector<std::string> s = lower(given);
          for (const auto &shape : s)
            if (shape != "particle" && shape != "disk") return "-shapes: " + shape + " is unknown; accepted: particle, disk";
          if (const std::string *twice = beam::firstRepeated(s))
            return "-shapes: " + *twice + " is listed twice; accepted: each body once";
          return std::string();
        }));
        if (g == 0 && r.given("-drop_height")) // read and ignored until 2026-11-27
          r.fail("-drop_height: given with -gravity_z 0, where the body starts at the plane with speed 1; accepted: one of them");
        disk_stiffness = r.real("-disk_stiffness", "Stiffness of the disk's springs", disk_stiffness,
                                beam::Bounds::above(0));
        depth = r.real("-contact_damping_depth", "Depth over which the contact damping grows (0: the report's law)",
                       depth, beam::Bounds::atLeast(0));
        // Read and ignored without the disk, or without a damping to ramp, until 2026-12-01 (the same table, exit 0).
        if (depth > 0 && std::all_of(zetas.begin(), zetas.end(), [](double z) { return z == 0; }))
          r.fail("-contact_damping_depth: ramps the contact damping in, and every -zetas is 0; accepted: "
                 "-contact_damping_depth with a damping ratio > 0 in -zetas");
        if (r.given("-disk_stiffness") && std::find(shapes.begin(), shapes.end(), "disk") == shapes.end())
          r.fail("-disk_stiffness: the disk's springs, and -shapes has no disk; accepted: -disk_stiffness with -shapes disk "
                 "(or the default particle,disk)");
      });
      scheme_name = beam::readSchemeOption(PETSC_COMM_WORLD, scheme_name, beam::schemesServing(false, true));
      beam::readOutputOptions(PETSC_COMM_WORLD, out, {nullptr, 0, false});
    });
    // w = sqrt(k_c / m) with m the whole body's mass: the rigid-body contact the formula describes.
    const double w = std::sqrt(k / m), contact = M_PI / w, v0 = g > 0 ? std::sqrt(2 * g * h) : 1.0;
    // A contact duration beyond double precision (-mass 1e300 -contact_stiffness 1e-300: "take -nan steps").
    if (!(std::isfinite(contact) && contact > 0))
      throw beam::inputError("-mass, -contact_stiffness: the contact lasts pi sqrt(m / k_c) = " + beam::exactDecimal(contact) +
                             " s for m = " + beam::exactDecimal(m) + ", k_c = " + beam::exactDecimal(k) +
                             "; accepted: a mass and contact stiffness whose contact duration is a positive finite number");
    beam::RunSettings run;
    run.dt = contact / points_per_contact;
    // The fall and six contact durations: a disk with soft springs stays on the plane longer than the
    // rigid contact lasts (with -disk_stiffness 1000 it left at three, the end of the run until 2026-11-27).
    run.T = (g > 0 ? v0 / g : 0) + 6 * contact;
    run.newton_prefix = "ms_";
    // This lab sets dt by -steps_per_contact and the damping by -zetas (no -dt, no -contact_damping).
    run.newton_hint = "try more -steps_per_contact" +
                      std::string(depth > 0 ? ""
                                            : "; with damping the contact force jumps where the body reaches the plane, "
                                              "and the step may have no solution there at any dt: try -contact_damping_depth "
                                              "(the damping grows over that depth)");
    // This lab has no -T or -dt: a step count past the time loop's limit is named by the options that set it.
    if (!(run.T / run.dt <= 1e9))
      throw beam::inputError("-steps_per_contact, -drop_height, -gravity_z, -mass, -contact_stiffness: the drop and six contact "
                             "durations take " + beam::exactDecimal(std::ceil(run.T / run.dt)) + " steps of dt = contact / " +
                             beam::exactDecimal(points_per_contact) + "; accepted: at most 1e9 steps");
    // The impact speed is read at the last step before the contact: a fall of a few steps has none (a
    // drop of 1e-12 touched in the first step, from rest, and e = -inf was printed).
    if (g > 0 && !(v0 / g >= 10 * run.dt))
      throw beam::inputError("-drop_height: the fall takes " + beam::exactDecimal(v0 / g / run.dt) + " steps of dt = " +
                             beam::exactDecimal(run.dt) + "; accepted: a drop that takes at least 10 steps (here a height of at least " +
                             beam::exactDecimal(g * std::pow(10 * run.dt, 2) / 2) + ")");
    // Every model and loop first, so all options are read before the unknown-option check.
    struct Case {
      std::string shape;
      double zeta;
      double damping; // the contact's b = 2 zeta sqrt(k_c m), as the model has it (the table's column)
      std::unique_ptr<beam::MassSpringModel> model;
      std::unique_ptr<beam::TimeScheme> scheme;
      std::unique_ptr<beam::TimeLoop> loop;
    };
    std::vector<Case> cases;
    // Set up together: an option one run's Newton does not use may be another's (bt's order: the damped
    // runs' line search, not the undamped runs' energy search).
    beam::setUpSolversTogether(PETSC_COMM_WORLD, [&] {
      for (const auto &shape : shapes)
        for (double zeta : zetas) {
          beam::Network net = droppedBody(shape, m, g > 0 ? h : 1e-3 * v0 / w, v0, disk_stiffness, g > 0);
          net.gravity = {0, 0, -g};
          net.planes = {beam::Plane{}};
          net.contact.stiffness = k;
          net.contact.damping = 2 * zeta * std::sqrt(k * m);
          net.contact.damping_depth = depth;
          net.validate();
          Case c{shape, zeta, net.contact.damping, std::make_unique<beam::MassSpringModel>(net, PETSC_COMM_WORLD),
                 beam::makeScheme(scheme_name), nullptr};
          c.loop = std::make_unique<beam::TimeLoop>(*c.scheme, *c.model, run);
          cases.push_back(std::move(c));
        }
    });
    // Each run's initial state checked and Newton's preconditioner set up before the directory: an option
    // refused there leaves none behind (and under -help, before the help ends: the inner solvers' options).
    // Their options are judged together: the particle's GAMG has one level, the disk's two.
    const auto prepare = [&] {
      beam::setUpSolversTogether(PETSC_COMM_WORLD, [&] {
        for (Case &c : cases) {
          beam::PVec x = c.model->createVector(), v = c.model->createVector();
          c.model->initialState(x, v);
          c.loop->prepareStart(x, v);
        }
      });
    };
    if (beam::finishOptions(PETSC_COMM_WORLD, prepare)) return 0;
    prepare();
    beam::prepareOutputDirectory(out.dir);
    beam::releaseWarnings(); // the sweep starts (common/Warnings.hpp)

    // The zeta column as wide as its longest exact value (0.123456789 broke the alignment).
    int zw = 8;
    for (const Case &c : cases) zw = std::max(zw, int(beam::exactDecimal(c.zeta).size()));
    BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD,
                           "contact_study: m = %s, k_c = %s, %s (impact speed %.4g), %s, dt = %.3g (contact / %s)%s\n\n"
                           "%8s %*s %12s %12s %12s %12s\n",
                           beam::gText(m).c_str(), beam::gText(k).c_str(),
                           (g > 0 ? "drop " + beam::gText(h) : std::string("no gravity, starting just above the plane")).c_str(), v0,
                           scheme_name.c_str(),
                           run.dt, beam::gText(points_per_contact).c_str(),
                           depth > 0 ? (", damping depth " + beam::exactDecimal(depth) + " (the ramp adds to the bias)").c_str() : "",
                           "body", zw, "zeta", "b_c",
                           "e theory", "e measured", "rel. diff"));
    std::string csv = "shape,zeta,damping,e_theory,e_measured,relative_difference,status\n";
    // A run that fails (a Newton solve at the contact's jump) leaves its row empty, marked failed; the
    // sweep goes on, the table and plot are written, and the lab then ends with exit 3 naming the first.
    std::string first_failure;
    size_t failures = 0, done = 0;
    // SIGINT/SIGTERM end the sweep after the run in progress, with the rows so far written (the lab died
    // at once and every row computed was lost, until 2026-11-27).
    const beam::StopHandlers stop_handlers;
    int interrupted_by = 0;
    // The rows so far, written from the start and after each run: a signal to mpiexec ends the ranks one
    // second after it forwards it (OpenMPI), too soon to finish the run in progress; the rows measured stay.
    const std::string csv_path = out.dir + "/contact_study.csv";
    const auto saveRows = [&] { beam::writeOnRankZero(PETSC_COMM_WORLD, csv_path, csv); };
    saveRows();
    for (Case &c : cases) {
      if ((interrupted_by = beam::stopRequested(PETSC_COMM_WORLD)) != 0) break;
      beam::PVec x = c.model->createVector(), v = c.model->createVector();
      c.model->initialState(x, v);
      Bounce bounce(*c.model);
      const beam::RunResult r = c.loop->run(x, v, {&bounce}); // no checkpoint: the run goes to its end
      ++done;
      const double b = c.damping;
      const double e_theory = std::exp(-M_PI * c.zeta / std::sqrt(1 - c.zeta * c.zeta));
      if (r.diverged) {
        if (failures++ == 0) first_failure = c.shape + " at zeta " + beam::exactDecimal(c.zeta) + ": " + r.divergence;
        BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%8s %*s %12.5g %12.6f %12s %12s\n", c.shape.c_str(), zw,
                               beam::exactDecimal(c.zeta).c_str(), b, e_theory, "failed", "-"));
        csv += c.shape + "," + beam::exactDecimal(c.zeta) + "," + beam::exactDecimal(b) + "," +
               beam::exactDecimal(e_theory) + ",,,failed\n";
        saveRows();
        continue;
      }
      // No rebound by the end of the run (the drop and six contact durations): e = 0, marked so; the
      // formula's e can underflow to 0 too (zeta = 1 - 1e-16), where no relative difference exists.
      const double e = bounce.left ? bounce.v_out / -bounce.v_in : 0.0;
      const bool has_diff = e_theory > 0;
      const double diff = has_diff ? (e - e_theory) / e_theory : 0.0;
      char diff_text[32] = "-";
      if (has_diff) std::snprintf(diff_text, sizeof diff_text, "%.3e", diff);
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "%8s %*s %12.5g %12.6f %12.6f %12s%s\n", c.shape.c_str(), zw,
                             beam::exactDecimal(c.zeta).c_str(), b, e_theory, e, diff_text,
                             bounce.left ? "" : "  (no rebound)"));
      csv += c.shape + "," + beam::exactDecimal(c.zeta) + "," + beam::exactDecimal(b) + "," +
             beam::exactDecimal(e_theory) + "," + beam::exactDecimal(e) + "," + (has_diff ? beam::exactDecimal(diff) : "") +
             (bounce.left ? ",ok\n" : ",no_rebound\n");
      saveRows();
    }
    if (!interrupted_by) interrupted_by = beam::stopRequested(PETSC_COMM_WORLD); // during the last run
    int rank = 0;
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    beam::agreeOn(PETSC_COMM_WORLD, [&] { // rank 0 draws: its failure ends every rank at once
      if (rank == 0) beam::runPlotScript("plot_contact_study.py", std::vector<std::string>{out.dir});
    });
    if (interrupted_by) {
      BEAM_PETSC(PetscPrintf(PETSC_COMM_WORLD, "stopped by signal %d after %zu of %zu runs; contact_study.csv holds those\n",
                             interrupted_by, done, cases.size()));
      return 128 + interrupted_by;
    }
    if (failures)
      throw beam::runError(std::to_string(failures) + " of " + std::to_string(cases.size()) +
                           " runs failed (rows marked failed in contact_study.csv, the others measured); the first, " +
                           first_failure);
    return 0;
  });
}
