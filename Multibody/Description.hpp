// A rigid multibody system as its model file describes it (issue 11's JSON schema): bodies, joints,
// springs and torques at t = 0, in world coordinates. Plain data; MultibodyModel turns it into constraints.
#pragma once
#include <string>
#include <vector>

#include "Multibody/Quaternion.hpp"

namespace beam::multibody {

struct Shape {
  enum class Kind { None, Box, Sphere, Cylinder };
  Kind kind = Kind::None;
  Vec3 size = Vec3::Zero(); // box: edges a, b, c; sphere: (r, 0, 0); cylinder: (r, h, 0), axis = body z
};

struct Body {
  std::string name;
  double mass = 0;
  Mat3 inertia = Mat3::Zero(); // about the centre of mass, body axes
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat(1, 0, 0, 0); // body to world, unit
  Vec3 velocity = Vec3::Zero(), angular_velocity = Vec3::Zero(); // world
  Shape shape;
};

inline constexpr int kGround = -1;

struct Joint {
  enum class Type { Spherical, Revolute, Prismatic, Fixed, Distance };
  Type type = Type::Spherical;
  int body1 = kGround, body2 = kGround; // indices into bodies, or kGround
  Vec3 point = Vec3::Zero(), axis = Vec3::Zero(); // world, t = 0
  Vec3 point1 = Vec3::Zero(), point2 = Vec3::Zero(); // distance joint
};

struct Spring {
  int body1 = kGround, body2 = kGround;
  Vec3 point1 = Vec3::Zero(), point2 = Vec3::Zero(); // world, t = 0
  double stiffness = 0, damping = 0, rest_length = 0;
};

// A constant torque on one body, world axes (a motor driving a crank: IFToMM A03's mom on K1). Its work
// is the model's external work (Model::externalForce); it has no potential in 3D.
struct Torque {
  int body = kGround;
  Vec3 torque = Vec3::Zero();
};

struct Description {
  std::string source; // the -model argument: a built-in name or a file path
  Vec3 gravity = Vec3(0, 0, -9.81);
  std::vector<Body> bodies;
  std::vector<Joint> joints;
  std::vector<Spring> springs;
  std::vector<Torque> torques;
};

const char *jointTypeName(Joint::Type type);

// Parses a model from JSON text; any violation of the schema is a beam::inputError naming `source`,
// the entry and what is accepted.
Description parseModel(const std::string &json_text, const std::string &source);
// -model NAME|FILE.json: a built-in example (multibodyModelNames()) or a file; `links` sizes `chain`
// (1 to kMaxChainLinks).
constexpr int kMaxChainLinks = 1000000;
Description loadModel(const std::string &name_or_file, int links = 10);
// The built-in examples' names, comma separated, for messages and -help.
std::string multibodyModelNames();

} // namespace beam::multibody
