// Model files (issue 11's schema) parsed with nlohmann::json, the built-in examples and the chain.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>
#include <sstream>
#include <strings.h>
#include <sys/stat.h>

#include "Multibody/Description.hpp"
#include "common/Error.hpp"
#include "common/Exact.hpp"
#include "common/InputFile.hpp"
#include "common/Options.hpp"

#ifndef BEAM_MULTIBODY_MODELS
#error "BEAM_MULTIBODY_MODELS (the folder of the built-in model files) must be defined"
#endif

namespace beam::multibody {
namespace {

using nlohmann::json;

constexpr double kLargestPrincipalMoment = 1e306; // 36 times it still fits a double (the rotational mass)

const char *const kBuiltIn[] = {"pendulum", "n_four_bar", "andrews", "double_pendulum", "slider_crank",
                                "heavy_top", "free_body", "chain"};

// Every message names the model and the entry: "model m.json: bodies[2] (\"link\"): mass must be > 0".
struct Where {
  const std::string &source;
  std::string entry;
  [[noreturn]] void fail(const std::string &what) const {
    throw inputError("model " + source + ": " + entry + ": " + what);
  }
};

void checkKeys(const json &object, const Where &where, const std::set<std::string> &accepted) {
  if (!object.is_object()) where.fail("must be a JSON object");
  for (const auto &item : object.items())
    if (!accepted.count(item.key())) {
      std::string list;
      for (const auto &a : accepted) list += (list.empty() ? "" : ", ") + a;
      where.fail("unknown key \"" + item.key() + "\" (accepted: " + list + ")");
    }
}

double number(const json &value, const Where &where, const std::string &key) {
  if (!value.is_number()) where.fail(key + " must be a number");
  const double x = value.get<double>();
  if (!std::isfinite(x)) where.fail(key + " must be finite");
  // As the options read numbers: a subnormal (1e-320) has lost its digits.
  if (x != 0 && std::abs(x) < std::numeric_limits<double>::min())
    where.fail(key + " underflows a double: its magnitude is below 2.2e-308");
  return x;
}

template <int N>
Eigen::Matrix<double, N, 1> vector(const json &value, const Where &where, const std::string &key) {
  if (!value.is_array() || value.size() != N)
    where.fail(key + " must be an array of " + std::to_string(N) + " numbers");
  Eigen::Matrix<double, N, 1> v;
  for (int i = 0; i < N; ++i) v(i) = number(value[i], where, key);
  return v;
}

Vec3 vec3(const json &object, const char *key, const Where &where, const Vec3 &fallback, bool required) {
  if (!object.contains(key)) {
    if (required) where.fail(std::string("missing \"") + key + "\"");
    return fallback;
  }
  return vector<3>(object.at(key), where, key);
}

Mat3 inertia(const json &value, const Where &where) {
  Mat3 m = Mat3::Zero();
  if (value.is_array() && value.size() == 3 && value[0].is_number()) {
    m.diagonal() = vector<3>(value, where, "inertia");
  } else if (value.is_array() && value.size() == 3) {
    for (int i = 0; i < 3; ++i) m.row(i) = vector<3>(value[i], where, "inertia row").transpose();
    // Scaled first: at 1e200 both norms overflowed (inf > inf is false), at 1e-170 both underflowed to 0,
    // and a non-symmetric inertia passed (the body then gained energy).
    const double largest = m.cwiseAbs().maxCoeff();
    const Mat3 scaled = largest > 0 ? Mat3(m / largest) : m;
    if ((scaled - scaled.transpose()).norm() > 1e-12 * scaled.norm()) where.fail("inertia must be symmetric");
  } else {
    where.fail("inertia must be [Ixx, Iyy, Izz] or a 3x3 array");
  }
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(m);
  if (!(eig.eigenvalues().minCoeff() > 0)) where.fail("inertia must be positive definite");
  // A rigid body's principal moments obey I1 <= I2 + I3 (equality for a flat body): [1, 1, 3] is no
  // body's, and its motion no rigid body's. 1e-6 of the sum for rounded input.
  const Vec3 I = eig.eigenvalues();
  // The rotational mass 4 Phi^T I Phi (entries up to 4 I_max, summed over nine products) must be finite:
  // at 1e308 it overflowed and the first augmented solve got inf and NaN (exit 3, "non-finite
  // accelerations", from the initial projection), or at rest a kinetic energy of NaN.
  if (!(I.maxCoeff() <= kLargestPrincipalMoment)) {
    std::ostringstream largest;
    largest << I.maxCoeff();
    where.fail("inertia: the largest principal moment " + largest.str() + " overflows the rotational mass; accepted: up to " +
               "1e306 (in the file's units)");
  }
  if (I.maxCoeff() > (I.sum() - I.maxCoeff()) * (1 + 1e-6))
    where.fail("inertia: the largest principal moment exceeds the sum of the other two, which no rigid body's does; "
               "accepted: I1 <= I2 + I3");
  return m;
}

Shape shape(const json &value, const Where &where) {
  checkKeys(value, where, {"box", "sphere", "cylinder"});
  if (value.size() != 1) where.fail("shape must have exactly one of box, sphere, cylinder");
  Shape s;
  if (value.contains("box")) {
    s.kind = Shape::Kind::Box;
    s.size = vector<3>(value["box"], where, "box");
  } else if (value.contains("sphere")) {
    s.kind = Shape::Kind::Sphere;
    s.size(0) = number(value["sphere"], where, "sphere");
  } else {
    s.kind = Shape::Kind::Cylinder;
    s.size.head<2>() = vector<2>(value["cylinder"], where, "cylinder");
  }
  if (!(s.size.head(s.kind == Shape::Kind::Box ? 3 : s.kind == Shape::Kind::Sphere ? 1 : 2).minCoeff() > 0))
    where.fail("shape dimensions must be > 0");
  return s;
}

// A body name is a field of -save_final's CSV and of messages: a comma, quote or line break split its
// row (exit 0). Unicode's controls too, in UTF-8: C1 (U+0080-U+009F, NEL among them), the line and
// paragraph separators U+2028-U+2029 (line breaks to Python's splitlines), the bidirectional marks,
// overrides and isolates U+200E-U+200F, U+061C, U+202A-U+202E, U+2066-U+2069 (they reorder what a
// terminal shows) and U+FEFF (an invisible byte-order mark).
bool isPlainName(const std::string &name) {
  for (std::size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = name[i];
    if (c < 0x20 || c == 0x7f || c == ',' || c == '"') return false;
    const unsigned char c1 = i + 1 < name.size() ? name[i + 1] : 0, c2 = i + 2 < name.size() ? name[i + 2] : 0;
    if (c == 0xC2 && c1 >= 0x80 && c1 <= 0x9F) return false;
    if (c == 0xE2 && c1 == 0x80 && ((c2 >= 0xA8 && c2 <= 0xAE) || c2 == 0x8E || c2 == 0x8F)) return false;
    if ((c == 0xD8 && c1 == 0x9C) || (c == 0xEF && c1 == 0xBB && c2 == 0xBF)) return false;
    if (c == 0xE2 && c1 == 0x81 && c2 >= 0xA6 && c2 <= 0xA9) return false;
  }
  return true;
}

Body body(const json &value, const Where &where) {
  checkKeys(value, where, {"name", "mass", "inertia", "position", "orientation", "velocity", "angular_velocity", "shape"});
  Body b;
  if (!value.contains("name") || !value["name"].is_string() || value["name"].get<std::string>().empty())
    where.fail("missing \"name\" (a non-empty string)");
  b.name = value["name"].get<std::string>();
  if (b.name == "ground") where.fail("\"ground\" is reserved for the fixed frame");
  if (!isPlainName(b.name))
    where.fail("the name has a comma, a quote or a control character; accepted: a name without them");
  if (!value.contains("mass")) where.fail("missing \"mass\"");
  b.mass = number(value["mass"], where, "mass");
  if (!(b.mass > 0)) where.fail("mass " + exactDecimal(b.mass) + " is out of range; accepted: a real > 0");
  if (!value.contains("inertia")) where.fail("missing \"inertia\"");
  b.inertia = inertia(value["inertia"], where);
  b.position = vec3(value, "position", where, Vec3::Zero(), true);
  if (value.contains("orientation")) {
    b.orientation = vector<4>(value["orientation"], where, "orientation");
    // Values written with a few digits (0.7071) are normalized; anything further from unit is a mistake.
    const double norm = b.orientation.norm();
    if (std::abs(norm - 1) > 1e-3)
      where.fail("orientation must be a unit quaternion [w, x, y, z] (norm " + std::to_string(norm) +
                 "; within 1e-3 of 1 it is normalized)");
    b.orientation /= norm;
  }
  b.velocity = vec3(value, "velocity", where, Vec3::Zero(), false);
  b.angular_velocity = vec3(value, "angular_velocity", where, Vec3::Zero(), false);
  if (value.contains("shape")) b.shape = shape(value["shape"], where);
  return b;
}

// Body name -> index: a lookup per joint end, not a scan of the bodies (a 20 000-link chain took 13 s
// to read with the scan, quadratic in its length).
using BodyIndex = std::map<std::string, int>;

int bodyIndex(const json &object, const char *key, const Where &where, const BodyIndex &bodies) {
  if (!object.contains(key)) where.fail(std::string("missing \"") + key + "\" (a body name or \"ground\")");
  if (!object[key].is_string()) { // "body2": 0 was called missing
    std::string shown = object[key].dump();
    if (shown.size() > 40) shown = shown.substr(0, 40) + "...";
    where.fail(std::string("\"") + key + "\" is " + shown + ", not a string; accepted: a body name or \"ground\"");
  }
  const std::string name = object[key].get<std::string>();
  if (name == "ground") return kGround;
  if (const auto found = bodies.find(name); found != bodies.end()) return found->second;
  where.fail(std::string(key) + " \"" + name + "\" is not a body (bodies are named in \"bodies\"; or \"ground\")");
}

Vec3 unitAxis(const json &object, const Where &where) {
  const Vec3 axis = vec3(object, "axis", where, Vec3::Zero(), true);
  // Scaled before its norm is taken: [0, 1e160, 1e160] has a finite direction whose plain norm overflows.
  const double largest = axis.cwiseAbs().maxCoeff();
  if (!(largest > 0)) where.fail("axis must be a non-zero vector");
  return (axis / largest).normalized();
}

Joint joint(const json &value, const Where &where, const BodyIndex &bodies) {
  checkKeys(value, where, {"type", "body1", "body2", "point", "axis", "point1", "point2"});
  Joint j;
  const char *types = "spherical, revolute, prismatic, fixed, distance";
  if (!value.contains("type")) where.fail(std::string("no \"type\"; accepted: \"type\": one of ") + types);
  if (!value["type"].is_string()) where.fail(std::string("\"type\" is not a string; accepted: one of ") + types);
  const std::string type = value["type"].get<std::string>();
  if (type == "spherical") j.type = Joint::Type::Spherical;
  else if (type == "revolute") j.type = Joint::Type::Revolute;
  else if (type == "prismatic") j.type = Joint::Type::Prismatic;
  else if (type == "fixed") j.type = Joint::Type::Fixed;
  else if (type == "distance") j.type = Joint::Type::Distance;
  else where.fail("type \"" + type + "\" unknown; accepted: " + types);
  j.body1 = bodyIndex(value, "body1", where, bodies);
  j.body2 = bodyIndex(value, "body2", where, bodies);
  if (j.body1 == j.body2) where.fail("body1 and body2 must differ");
  // A key of another joint type was read by nobody ("axis" on a spherical joint).
  const bool distance = j.type == Joint::Type::Distance,
             axial = j.type == Joint::Type::Revolute || j.type == Joint::Type::Prismatic;
  for (const char *key : {"point", "axis", "point1", "point2"}) {
    const std::string k = key;
    const bool applies = distance ? (k == "point1" || k == "point2") : (k == "point" || (k == "axis" && axial));
    if (value.contains(key) && !applies)
      where.fail("\"" + k + "\" does not apply to a " + type + " joint; accepted: " +
                 (distance ? "point1, point2" : axial ? "point, axis" : "point"));
  }
  if (j.type == Joint::Type::Distance) {
    j.point1 = vec3(value, "point1", where, Vec3::Zero(), true);
    j.point2 = vec3(value, "point2", where, Vec3::Zero(), true);
    const double length = (j.point1 - j.point2).norm();
    if (!(length > 1e-12)) where.fail("point1 and point2 must differ (the length is their distance)");
    // The constraint works with the length's square: an overflowing one gave NaN violations and a body
    // that ignored gravity (exit 0).
    if (!(length < 1e150)) where.fail("point1 and point2 are too far apart; accepted: a length below 1e150");
  } else {
    j.point = vec3(value, "point", where, Vec3::Zero(), true);
    if (j.type == Joint::Type::Revolute || j.type == Joint::Type::Prismatic) j.axis = unitAxis(value, where);
  }
  return j;
}

Spring spring(const json &value, const Where &where, const BodyIndex &bodies) {
  checkKeys(value, where, {"body1", "body2", "point1", "point2", "stiffness", "damping", "rest_length"});
  Spring s;
  s.body1 = bodyIndex(value, "body1", where, bodies);
  s.body2 = bodyIndex(value, "body2", where, bodies);
  if (s.body1 == s.body2) where.fail("body1 and body2 must differ");
  s.point1 = vec3(value, "point1", where, Vec3::Zero(), true);
  s.point2 = vec3(value, "point2", where, Vec3::Zero(), true);
  s.stiffness = value.contains("stiffness") ? number(value["stiffness"], where, "stiffness") : 0;
  s.damping = value.contains("damping") ? number(value["damping"], where, "damping") : 0;
  s.rest_length = value.contains("rest_length") ? number(value["rest_length"], where, "rest_length")
                                                : (s.point1 - s.point2).norm();
  if (s.stiffness < 0 || s.damping < 0 || s.rest_length < 0) where.fail("stiffness, damping and rest_length must be >= 0");
  return s;
}

Torque torque(const json &value, const Where &where, const BodyIndex &bodies) {
  checkKeys(value, where, {"body", "torque"});
  Torque t;
  t.body = bodyIndex(value, "body", where, bodies);
  if (t.body == kGround) where.fail("body must be a body name (a torque on the ground does nothing)");
  t.torque = vec3(value, "torque", where, Vec3::Zero(), true);
  return t;
}

std::string readFile(const std::string &path) {
  constexpr std::size_t kMaxBytes = std::size_t(64) << 20;
  const std::string accepted = "a JSON model file of at most 64 MiB, or a built-in model: " + multibodyModelNames();
  checkInputFile("-model", path, kMaxBytes, accepted);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw inputError("model file " + path + " cannot be read");
  // Read up to the cap, not to the end: a file that grows while it is read (checked at 80 bytes, appended
  // to by another process) was read to 7 GB, exit 0.
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxBytes)
      throw inputError("-model: '" + path + "' grew beyond 64 MiB while it was read; accepted: " + accepted);
  }
  // The JSON reader stops at a NUL byte: what followed it was ignored, exit 0.
  const std::size_t nul = text.find('\0');
  if (nul != std::string::npos)
    throw inputError("model file " + path + ": a NUL byte at offset " + std::to_string(nul) +
                     "; accepted: a JSON text file");
  return text;
}

// `chain`: `links` rods (0.1 m, 0.1 kg, radius 5 mm) along +x from the origin, joined by spherical
// joints, the first one to the ground at the origin; released horizontal under gravity -z.
std::string chainJson(int links) {
  if (links < 1 || links > kMaxChainLinks)
    throw inputError("-links: " + std::to_string(links) + " is out of range; accepted: an integer in [1, " +
                     std::to_string(kMaxChainLinks) + "]");
  const double l = 0.1, m = 0.1, r = 0.005;
  const double axial = 0.5 * m * r * r, transverse = m * (3 * r * r + l * l) / 12;
  json model;
  model["gravity"] = {0, 0, -9.81};
  const double c = std::sqrt(0.5); // quaternion of +90 degrees about y: the rod's body z along world x
  for (int i = 0; i < links; ++i) {
    const std::string name = "link" + std::to_string(i + 1);
    model["bodies"].push_back({{"name", name}, {"mass", m}, {"inertia", {transverse, transverse, axial}},
                               {"position", {(i + 0.5) * l, 0, 0}}, {"orientation", {c, 0, c, 0}},
                               {"shape", {{"cylinder", {r, l}}}}});
    model["joints"].push_back({{"type", "spherical"}, {"body1", i == 0 ? std::string("ground") : "link" + std::to_string(i)},
                               {"body2", name}, {"point", {i * l, 0, 0}}});
  }
  return model.dump();
}

} // namespace

const char *jointTypeName(Joint::Type type) {
  switch (type) {
  case Joint::Type::Spherical: return "spherical";
  case Joint::Type::Revolute: return "revolute";
  case Joint::Type::Prismatic: return "prismatic";
  case Joint::Type::Fixed: return "fixed";
  case Joint::Type::Distance: return "distance";
  }
  return "?";
}

std::string multibodyModelNames() {
  std::string names;
  for (const char *n : kBuiltIn) names += (names.empty() ? "" : ", ") + std::string(n);
  return names + " (or a FILE.json)";
}

// A joint listed twice (the same type between the same bodies at the same place, the bodies in either
// order, an axis of either sign) adds only redundant rows: above the dense solve's size the augmented
// matrix was singular and the run stopped at its first step naming no joint (exit 3); below it a
// warning. Refused here by name, in one pass (a map of the joints' canonical forms).
void refuseRepeatedJoints(const std::vector<Joint> &joints, const std::string &source) {
  std::map<std::vector<double>, std::size_t> seen;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    Joint j = joints[i];
    if (j.body1 > j.body2) {
      std::swap(j.body1, j.body2);
      std::swap(j.point1, j.point2);
    }
    for (int k = 0; k < 3; ++k) // the axis's sign: its first non-zero component positive
      if (j.axis(k) != 0) {
        if (j.axis(k) < 0) j.axis = -j.axis;
        break;
      }
    std::vector<double> key = {double(int(j.type)), double(j.body1), double(j.body2)};
    for (const Vec3 *v : {&j.point, &j.axis, &j.point1, &j.point2}) key.insert(key.end(), v->data(), v->data() + 3);
    for (double &x : key) x += 0.0; // -0 and 0 are one place
    const auto [at, added] = seen.emplace(std::move(key), i);
    if (!added)
      Where{source, "joints[" + std::to_string(i) + "]"}.fail(
          "the same joint as joints[" + std::to_string(at->second) + "] (type, bodies and place); accepted: each joint once");
  }
}

// A number outside strings that a double cannot hold, refused with its line (nlohmann reads 1e-400 as 0:
// a mass was "mass must be > 0", a coordinate or a quaternion component silently 0, exit 0; and fails
// 1e400 as "malformed JSON"). The values themselves are nlohmann's, read as doubles: exact.
void refuseNumbersOutsideDouble(const std::string &text, const std::string &source) {
  int line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (c == '"') { // a string: skipped, escapes included (malformed ones are nlohmann's to refuse)
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t end = i;
      while (end < text.size() && std::strchr("+-.eE0123456789", text[end]) && text[end] != '\0') ++end;
      const std::string token = text.substr(i, end - i);
      const std::string problem = realProblem(token);
      if (problem.rfind("underflows", 0) == 0 || problem.rfind("overflows", 0) == 0)
        throw inputError("model " + source + ": line " + std::to_string(line) + ": the number '" + token + "' " + problem +
                         "; accepted: 0 or a magnitude between 2.2e-308 and 1.8e308");
      i = end - 1;
    }
  }
}

Description parseModel(const std::string &json_text, const std::string &source) {
  refuseNumbersOutsideDouble(json_text, source);
  json doc;
  // JSON leaves duplicate keys to the reader, and nlohmann keeps the last: "gravity": [0,-9.81,0],
  // "gravity": [0,0,0] ran without gravity, exit 0. A key given twice in one object is refused.
  std::vector<std::set<std::string>> keys; // of the objects open, innermost last
  // The schema nests 4 levels; 60 MB of '[' took 4.5 GB and 10 s before "malformed JSON" (or "out of
  // memory", exit 3, not naming the file): refused at the first level past 64.
  constexpr int kDepth = 64;
  const json::parser_callback_t noDuplicateKeys = [&](int depth, json::parse_event_t event, json &parsed) {
    if (depth > kDepth)
      throw inputError("model " + source + ": nested deeper than " + std::to_string(kDepth) +
                       " levels; accepted: the model schema's objects and lists (4 levels)");
    if (event == json::parse_event_t::object_start) keys.emplace_back();
    if (event == json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
    if (event == json::parse_event_t::key && !keys.empty() && !keys.back().insert(parsed.get<std::string>()).second)
      throw inputError("model " + source + ": the key \"" + parsed.get<std::string>() +
                       "\" appears twice in one object; accepted: each key once");
    return true;
  };
  try {
    doc = json::parse(json_text, noDuplicateKeys);
  } catch (const json::exception &e) {
    std::string what = e.what();
    for (char &ch : what)
      if (ch == '\n' || ch == '\r') ch = ' ';
    throw inputError("model " + source + ": malformed JSON: " + what +
                     "; accepted: one JSON object (RFC 8259: no comments, no trailing commas, numbers of "
                     "magnitude at most 1.8e308) with the model's keys");
  }
  Description d;
  d.source = source;
  const Where top{source, "top level"};
  checkKeys(doc, top, {"gravity", "bodies", "joints", "springs", "torques"});
  d.gravity = vec3(doc, "gravity", top, Vec3(0, 0, -9.81), false);
  if (!doc.contains("bodies") || !doc["bodies"].is_array() || doc["bodies"].empty())
    top.fail("\"bodies\" must be a non-empty array");
  BodyIndex names;
  for (std::size_t i = 0; i < doc["bodies"].size(); ++i) {
    const json &b = doc["bodies"][i];
    const bool named = b.is_object() && b.contains("name") && b["name"].is_string() && isPlainName(b["name"].get<std::string>());
    const std::string label = named ? " (\"" + b["name"].get<std::string>() + "\")" : "";
    d.bodies.push_back(body(b, Where{source, "bodies[" + std::to_string(i) + "]" + label}));
    if (!names.emplace(d.bodies.back().name, int(i)).second)
      Where{source, "bodies[" + std::to_string(i) + "]"}.fail("duplicate body name \"" + d.bodies.back().name + "\"");
  }
  // Each entry of an optional list parsed by `parse`, which gets the entry and where it is.
  auto entries = [&](const char *list, auto &out, auto parse) {
    if (!doc.contains(list)) return;
    if (!doc[list].is_array()) top.fail(std::string("\"") + list + "\" must be an array");
    for (std::size_t i = 0; i < doc[list].size(); ++i)
      out.push_back(parse(doc[list][i], Where{source, std::string(list) + "[" + std::to_string(i) + "]"}, names));
  };
  entries("joints", d.joints, joint);
  refuseRepeatedJoints(d.joints, source);
  entries("springs", d.springs, spring);
  entries("torques", d.torques, torque);
  return d;
}

Description loadModel(const std::string &name_or_file, int links) {
  // Built-in names ignore case, as every other choice of the labs does (PETSc's lists).
  if (strcasecmp(name_or_file.c_str(), "chain") == 0) return parseModel(chainJson(links), "chain");
  for (const char *n : kBuiltIn)
    if (strcasecmp(name_or_file.c_str(), n) == 0) return parseModel(readFile(std::string(BEAM_MULTIBODY_MODELS) + "/" + n + ".json"), n);
  const bool looks_like_file = name_or_file.find('/') != std::string::npos ||
                               (name_or_file.size() > 5 && name_or_file.substr(name_or_file.size() - 5) == ".json");
  if (!looks_like_file)
    throw inputError("-model \"" + name_or_file + "\" unknown (accepted: " + multibodyModelNames() + ")");
  return parseModel(readFile(name_or_file), name_or_file);
}

} // namespace beam::multibody
