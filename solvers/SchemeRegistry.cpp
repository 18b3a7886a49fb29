// The one list of schemes: adding a scheme adds one line here.
#include <functional>
#include <utility>

#include "solvers/AlmostExplicit.hpp"
#include "solvers/CentralDifference.hpp"
#include "solvers/FullyImplicit.hpp"
#include "solvers/GeneralizedAlpha.hpp"
#include "solvers/Mamc.hpp"
#include "solvers/Midpoint.hpp"
#include "solvers/Rk4.hpp"
#include "solvers/SemiImplicit.hpp"

namespace beam {
namespace {

using Factory = std::function<std::unique_ptr<TimeScheme>()>;

template <class S>
std::pair<std::string, Factory> entry(const char *name) {
  return {name, [] { return std::make_unique<S>(); }};
}

const std::vector<std::pair<std::string, Factory>> &registry() {
  static const std::vector<std::pair<std::string, Factory>> schemes = {
      entry<AlmostExplicit>("almost_explicit"),
      entry<SemiImplicit>("semi_implicit"),
      entry<FullyImplicit>("fully_implicit"),
      entry<Midpoint>("midpoint"),
      entry<Newmark>("newmark"),
      entry<Mamc>("mamc"),
      entry<CentralDifference>("central_difference"),
      entry<Rk4>("rk4"),
      entry<HhtAlpha>("hht"),
      entry<ChungHulbertAlpha>("generalized_alpha"),
  };
  return schemes;
}

} // namespace

const std::vector<std::string> &schemeNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto &e : registry()) n.push_back(e.first);
    return n;
  }();
  return names;
}

std::unique_ptr<TimeScheme> makeScheme(const std::string &name) {
  for (const auto &e : registry())
    if (e.first == name) return e.second();
  std::string list;
  for (const auto &n : schemeNames()) list += (list.empty() ? "" : ", ") + n;
  throw inputError("-scheme: unknown scheme '" + name + "'; accepted: " + list);
}

} // namespace beam
