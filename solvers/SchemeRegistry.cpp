// The one list of schemes: adding a scheme adds one line here.
#include <functional>
#include <utility>

#include "solvers/AlmostExplicit.hpp"
#include "solvers/CentralDifference.hpp"
#include "solvers/ExplicitEuler.hpp"
#include "solvers/FullyImplicit.hpp"
#include "solvers/GeneralizedAlpha.hpp"
#include "solvers/ImplicitTheta.hpp"
#include "solvers/Mamc.hpp"
#include "solvers/Midpoint.hpp"
#include "solvers/Rk4.hpp"
#include "solvers/SemiImplicit.hpp"
#include "solvers/VelocityVerlet.hpp"

namespace beam {
namespace {

using Factory = std::function<std::unique_ptr<TimeScheme>()>;
enum class Serves { LinearModels, AnyModel, ModelsWithJacobian };
struct Entry {
  std::string name;
  Serves serves;
  Factory make;
};

template <class S, class... Args>
Entry linearOnly(const char *name, Args... args) {
  return {name, Serves::LinearModels, [=] { return std::make_unique<S>(args...); }};
}
template <class S, class... Args>
Entry general(const char *name, Args... args) {
  return {name, Serves::AnyModel, [=] { return std::make_unique<S>(args...); }};
}
// Newton on a nonlinear model needs its Jacobian (Model::hasJacobian).
template <class S, class... Args>
Entry newton(const char *name, Args... args) {
  return {name, Serves::ModelsWithJacobian, [=] { return std::make_unique<S>(args...); }};
}

const std::vector<Entry> &registry() {
  static const std::vector<Entry> schemes = {
      linearOnly<AlmostExplicit>("almost_explicit"),
      linearOnly<SemiImplicit>("semi_implicit"),
      linearOnly<FullyImplicit>("fully_implicit"),
      linearOnly<Midpoint>("midpoint"),
      linearOnly<Newmark>("newmark"),
      linearOnly<Mamc>("mamc"),
      linearOnly<CentralDifference>("central_difference"),
      general<Rk4>("rk4"),
      linearOnly<HhtAlpha>("hht"),
      linearOnly<ChungHulbertAlpha>("generalized_alpha"),
      general<ExplicitEuler>("explicit_euler", std::string("explicit_euler"), true),
      general<ExplicitEuler>("semi_implicit_euler", std::string("semi_implicit_euler"), true),
      general<ExplicitEuler>("forward_euler", std::string("forward_euler"), false),
      general<VelocityVerlet>("verlet"),
      newton<ImplicitTheta>("implicit_euler", std::string("implicit_euler"), 1.0),
      newton<ImplicitTheta>("implicit_midpoint", std::string("implicit_midpoint"), 0.5),
  };
  return schemes;
}

std::string joined(const std::vector<std::string> &names) {
  std::string list;
  for (const auto &n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

} // namespace

const std::vector<std::string> &schemeNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto &e : registry()) n.push_back(e.name);
    return n;
  }();
  return names;
}

const std::vector<std::string> &generalSchemeNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto &e : registry())
      if (e.serves != Serves::LinearModels) n.push_back(e.name);
    return n;
  }();
  return names;
}

std::vector<std::string> schemesServing(bool linear, bool jacobian) {
  std::vector<std::string> n;
  for (const auto &e : registry())
    if (linear || e.serves == Serves::AnyModel || (e.serves == Serves::ModelsWithJacobian && jacobian)) n.push_back(e.name);
  return n;
}

std::string schemesAccepting(const Model &model) {
  return joined(schemesServing(model.linear() != nullptr, model.hasJacobian()));
}

std::unique_ptr<TimeScheme> makeScheme(const std::string &name, const std::string &option) {
  for (const auto &e : registry())
    if (e.name == name) return e.make();
  throw inputError(option + ": unknown scheme '" + name + "'; accepted: " + joined(schemeNames()));
}

const SecondOrderSystem &requireLinear(const Model &model, const std::string &scheme) {
  if (const SecondOrderSystem *s = model.linear()) return *s;
  throw inputError("-scheme " + scheme + ": written for linear systems M x'' + C x' + S x = f(t), but the model '" +
                   model.name() + "' is nonlinear; accepted: " + schemesAccepting(model));
}

} // namespace beam
