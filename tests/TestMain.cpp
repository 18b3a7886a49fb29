// GoogleTest main with PETSc initialized for the whole run (also under mpiexec).
#include <gtest/gtest.h>

#include "common/Petsc.hpp"

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  beam::PetscSession session(&argc, &argv, nullptr);
  if (session.rank() != 0) { // one report, from rank 0
    auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  return RUN_ALL_TESTS();
}
