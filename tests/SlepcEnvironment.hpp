// SLEPc for the whole test program: TestMain starts PETSc only, so test files that use SLEPc register
// this environment (SetUp runs inside RUN_ALL_TESTS, after PETSc is up; TearDown before PETSc stops).
#pragma once
#include <gtest/gtest.h>

#include <memory>

#include "common/Slepc.hpp"

namespace beam {

class SlepcEnvironment : public ::testing::Environment {
public:
  void SetUp() override { scope_ = std::make_unique<SlepcScope>(); }
  void TearDown() override { scope_.reset(); }

private:
  std::unique_ptr<SlepcScope> scope_;
};

// In one test file, at namespace scope: `[[maybe_unused]] const auto *env = registerSlepcEnvironment();`
inline ::testing::Environment *registerSlepcEnvironment() {
  return ::testing::AddGlobalTestEnvironment(new SlepcEnvironment); // gtest owns it
}

} // namespace beam
