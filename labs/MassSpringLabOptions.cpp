#include "labs/MassSpringLabOptions.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "MassSpring/BuiltinModels.hpp"
#include "MassSpring/Readers.hpp"
#include "common/Exact.hpp"
#include "common/Options.hpp"
#include "common/Warnings.hpp"
#include "solvers/TimeScheme.hpp"

namespace beam {

namespace {

// -particles/-springs or -model with its own options (each model's parameters in a block of its own,
// so -help lists those of the chosen model).
Network readSource(MPI_Comm comm, const std::string &default_model) {
  std::string model = default_model, particles, springs;
  bool files = false;
  readOptions(comm, "Mass-spring network", "", [&](OptionReader &r) {
    const std::vector<std::string> &models = builtinModelNames();
    int index = 0;
    for (size_t i = 0; i < models.size(); ++i)
      if (models[i] == default_model) index = int(i);
    model = models[size_t(r.choice("-model", "Built-in network", models, index, "model"))];
    bool has_particles = false, has_springs = false;
    particles = r.text("-particles", "CSV file of particles: x,y,z,mass,fixed[,vx,vy,vz]", "", &has_particles);
    springs = r.text("-springs", "CSV file of springs: i,j,stiffness[,rest_length,damping]", "", &has_springs);
    files = has_particles || has_springs;
    if (files && !(has_particles && has_springs))
      r.fail(std::string(has_particles ? "-particles" : "-springs") + ": given alone; accepted: -particles FILE and -springs FILE together");
    if (files && r.given("-model")) r.fail("-model: given with -particles/-springs; accepted: one source, a model or files");
    if (files && (particles.empty() || springs.empty())) r.fail("-particles/-springs: empty file name; accepted: a CSV file");
  });
  if (files) {
    Network net;
    net.particles = readParticles(particles);
    net.springs = readSprings(springs, PetscInt(net.particles.size()));
    net.source = "files";
    // Identified by their data (the model's hash), not their paths: the same files by another path or
    // copied elsewhere are the same run, as a -load_curve is.
    return net;
  }
  std::vector<BuiltinParameter> parameters = builtinParameters(model);
  readOptions(comm, "Model " + model, "", [&](OptionReader &r) {
    for (auto &p : parameters) {
      const std::string option = "-" + p.name;
      if (p.integer) {
        p.value = double(r.integer(option.c_str(), p.help.c_str(), PetscInt(p.value), PetscInt(p.min), PetscInt(kBuiltinMaxCount)));
      } else {
        const Bounds b = p.inclusive ? Bounds::atLeast(p.min) : Bounds::above(p.min);
        p.value = r.real(option.c_str(), p.help.c_str(), p.value, b);
      }
    }
  });
  return builtinNetwork(model, parameters);
}

// A plane with most free particles deep behind it at the start: its normal most likely points the wrong
// way (the disk under -plane 0,0,0,0,0,-1 started with 3.4e5 J of contact energy and "oscillated", exit
// 0). Said, not refused: a body may be meant to start pressed in. "Deep": beyond a tenth of the network's
// extent and 10 times the largest resting penetration m |g| / k_c, so a body at rest on the plane (a flat
// cloth at its equilibrium penetration has every particle behind it; a disk on a contact of k_c = 1 sinks
// 0.15 of its 1 m) or pressed into it (a particle held 5 cm deep by a spring) is not taken for one; not
// said of a network without extent (one particle) or without contact stiffness (nothing pushes).
void warnPlanesFacingAway(MPI_Comm comm, const Network &net) {
  if (net.contact.stiffness == 0) return;
  double heaviest = 0;
  for (const Particle &p : net.particles)
    if (!p.fixed) heaviest = std::max(heaviest, p.mass);
  const double extent = spread(net.particles);
  if (!(extent > 0)) return;
  const double resting = heaviest * std::sqrt(dot(net.gravity, net.gravity)) / net.contact.stiffness;
  // (The resting term at most half the extent: at k_c = 1 it was 1.5 m on the 1 m disk, and a disk wholly
  // behind a flipped soft plane went unsaid.)
  const double deep = std::max(0.1 * extent, std::min(10 * resting, 0.5 * extent));
  for (size_t k = 0; k < net.planes.size(); ++k) {
    const Plane &pl = net.planes[k];
    size_t free = 0, behind = 0;
    for (const Particle &p : net.particles) {
      if (p.fixed) continue;
      ++free;
      if (dot(pl.normal, p.x - pl.point) < -deep) ++behind;
    }
    if (2 * behind > free)
      warningLine(comm, "warning: -plane " + std::to_string(k) + ": " + std::to_string(behind) + " of the " + std::to_string(free) +
                            " free particles start deep behind it (its unit normal " + gText(pl.normal[0]) + "," + gText(pl.normal[1]) +
                            "," + gText(pl.normal[2]) + " points away from them), so contact pushes them out from the first step");
  }
}

// -gravity, -plane, -contact_*: override the source's defaults, then the network is validated.
void readEnvironment(MPI_Comm comm, Network &net) {
  readOptions(comm, "Gravity and contact", "", [&](OptionReader &r) {
    const std::vector<double> g =
        r.reals("-gravity", "Gravity gx,gy,gz (default 0,0,-9.81; beam_lattice 0,0,0)", [](const std::vector<double> &v) {
          return v.size() == 3 ? std::string()
                               : "-gravity: " + std::to_string(v.size()) + " values; accepted: three reals gx,gy,gz";
        });
    if (r.given("-gravity") && r.error().empty()) net.gravity = {g[0], g[1], g[2]};
    // Repeatable (two -plane options silently kept only the last plane, PETSc's database rule).
    const std::vector<double> planes =
        r.repeatableReals("-plane", "Contact planes px,py,pz,nx,ny,nz (6 numbers per plane; repeat -plane or give several in one list)",
                          6, "6 per plane (px,py,pz,nx,ny,nz)");
    if (r.given("-plane") && r.error().empty()) {
      if (planes.empty() || planes.size() % 6 != 0)
        r.fail("-plane: " + std::to_string(planes.size()) + " values; accepted: 6 per plane (px,py,pz,nx,ny,nz)");
      net.planes.clear();
      for (size_t k = 0; k + 5 < planes.size(); k += 6)
        net.planes.push_back({{planes[k], planes[k + 1], planes[k + 2]}, {planes[k + 3], planes[k + 4], planes[k + 5]}});
    }
    net.contact.stiffness = r.real("-contact_stiffness", "Penalty stiffness k_c of the planes", net.contact.stiffness,
                                   Bounds::atLeast(0));
    net.contact.damping = r.real("-contact_damping", "Contact damping b_c on the normal velocity", net.contact.damping,
                                 Bounds::atLeast(0));
    net.contact.damping_depth =
        r.real("-contact_damping_depth", "Depth over which the contact damping grows from 0 to b_c (0: in full at touchdown)",
               net.contact.damping_depth, Bounds::atLeast(0));
    net.contact.no_pull = r.flag("-contact_no_pull", "Clamp the contact force at zero (no pull when leaving)",
                                 net.contact.no_pull);
    // Contact options where they cannot act were read and ignored (-model chain -contact_stiffness 5, and
    // a -contact_damping_depth without damping to ramp: the same run bit for bit, exit 0, until 2026-12-01).
    if (r.error().empty() && net.planes.empty())
      for (const char *name : {"-contact_stiffness", "-contact_damping", "-contact_damping_depth", "-contact_no_pull"})
        if (r.given(name)) {
          r.fail(std::string(name) + ": the network has no plane to touch; accepted: contact options with -plane (the disk has "
                 "the ground z = 0 by default)");
          break;
        }
    if (r.error().empty() && net.contact.damping_depth > 0 && net.contact.damping == 0)
      r.fail("-contact_damping_depth: ramps the contact damping in, and -contact_damping is 0; accepted: "
             "-contact_damping_depth with a -contact_damping > 0");
  });
  try {
    net.validate();
  } catch (const Error &e) {
    // A built-in model's springs come from its options: name them (-beam_E 1e308 was refused as "spring
    // 0 (0, 1): stiffness ... out of range" without a word of -beam_E).
    // (A line that starts with an option's name, -plane's or -gravity's, names its cause already.)
    if (net.source == "files" || e.what()[0] == '-') throw;
    std::string given;
    for (const auto &[name, value] : net.parameters) given += " -" + name + " " + value;
    throw Error(e.exitCode(), "-model " + net.source + " as its options make it (" + given.substr(given.empty() ? 0 : 1) + "): " + e.what());
  }
  warnPlanesFacingAway(comm, net);
}

} // namespace

Network readNetworkOptions(MPI_Comm comm, const std::string &default_model) {
  Network net = readSource(comm, default_model);
  readEnvironment(comm, net);
  return net;
}

MassSpringLabOptions readMassSpringLabOptions(MPI_Comm comm) {
  MassSpringLabOptions o;
  o.run.dt = 1e-3;
  o.run.T = 2;
  o.run.newton_prefix = "ms_";
  o.output.dir = "out/mass_spring";
  agreeOn(comm, [&] {
    o.network = readNetworkOptions(comm, "disk");
    o.scheme = readModelRunOptions(comm, o.run, o.output, o.scheme, false, schemesServing(false, true)); // Newton solves with -ms_*
    if (makeScheme(o.scheme)->footprint().solvers > 0) checkNewtonFits(o.network, o.scheme);
    readOptions(comm, "Trajectories", "", [&](OptionReader &r) {
      // Indices written as integers, as every integer option (1e0 and 1.0 passed here; '' tracked nothing);
      // like every list, each occurrence on the command line is checked (only the last one is used).
      const size_t n = o.network.particles.size();
      const std::string indices = "particle indices i,j,... in [0, " + std::to_string(n - 1) + "]";
      const std::string accepted = "; accepted: " + indices;
      const auto trackError = [&](const std::vector<std::string> &items) -> std::string {
        std::vector<long long> seen;
        for (const auto &item : items) {
          const long long i = isIndexText(item) ? std::stoll(item) : -1;
          if (i < 0 || i >= (long long)n) return "-track: '" + item + "' is not a particle" + accepted;
          if (std::find(seen.begin(), seen.end(), i) != seen.end())
            return "-track: particle " + std::to_string(i) + " is listed twice (its rows were written twice)" + accepted;
          seen.push_back(i);
        }
        return "";
      };
      const char *help = "Particles whose trajectory goes to trajectory.csv (0-based indices)";
      if (r.given("-track"))
        for (const auto &item : r.names("-track", help, "", trackError, indices)) o.track.push_back(PetscInt(std::stoll(item)));
      else r.text("-track", help, "");
      o.write_network = r.path("-write_network",
                               "Write the network as DIR/particles.csv and DIR/springs.csv (-particles/-springs) and stop", "a directory name");
      // -write_network writes and stops: a run's options with it were read and ignored (-T 5 -track 3
      // -save_final f ran nothing, exit 0), and the environment is not in the files (see the note it prints).
      if (!o.write_network.empty())
        for (const char *name : {"-gravity", "-plane", "-contact_stiffness", "-contact_damping", "-contact_damping_depth",
                                 "-contact_no_pull", "-dt", "-T", "-divergence_factor", "-scheme",
                                 "-output_dir", "-save_final", "-snapshot_every", "-console_every",
                                 "-checkpoint_every", "-restart", "-track", "-quiet"})
          if (r.given(name)) {
            r.fail(std::string(name) + ": given with -write_network, which writes the network's particles and springs "
                   "and stops (gravity, planes and contact are not in the files: give them to the run that reads them); "
                   "accepted: -write_network with the network's options only");
            break;
          }
    });
  });
  o.run.identity = {{"lab", "mass_spring"}};
  return o;
}

} // namespace beam
