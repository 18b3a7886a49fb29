// What a run makes on disk and what a refused run takes back (common/OutputFile): the directories a path
// will create, read as the system reads the path; only what the run made and still finds as made is
// removed, and a directory only when empty.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/OutputFile.hpp"

namespace fs = std::filesystem;

namespace {

// A fresh directory of the test's own, removed at the end.
struct Scratch {
  fs::path root;
  Scratch() {
    std::string pattern = (fs::temp_directory_path() / "beam_output_files_XXXXXX").string();
    root = fs::canonical(::mkdtemp(pattern.data()));
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  std::string operator/(const std::string &relative) const { return (root / relative).string(); }
};

void touch(const fs::path &file) { std::ofstream(file) << ""; }

} // namespace

TEST(OutputFiles, MissingDirectoriesAreWhatThePathWillCreate) {
  const Scratch s;
  fs::create_directories(s.root / "pre");
  fs::create_directories(s.root / "other/sub");
  fs::create_symlink(s.root / "other/sub", s.root / "link");
  touch(s.root / "file");
  using Paths = std::vector<fs::path>;
  EXPECT_EQ(beam::missingDirectories(s / "pre"), Paths{});
  EXPECT_EQ(beam::missingDirectories(s / "pre/a/b/"), (Paths{s.root / "pre/a", s.root / "pre/a/b"}));
  // A ".." after a new directory is that one's parent: new/../pre is pre, which exists.
  EXPECT_EQ(beam::missingDirectories(s / "new/../pre/x"), (Paths{s.root / "new", s.root / "pre/x"}));
  EXPECT_EQ(beam::missingDirectories(s / "new/./../new/y"), (Paths{s.root / "new", s.root / "new/y"}));
  // Through a link, ".." is its target's parent (other), not the link's (the root).
  EXPECT_EQ(beam::missingDirectories(s / "link/../n2"), Paths{s.root / "other/n2"});
  EXPECT_EQ(beam::missingDirectories(s / "link/n3"), Paths{s.root / "other/sub/n3"});
  // Where creation must fail (a file on the way), nothing past it.
  EXPECT_EQ(beam::missingDirectories(s / "n4/../file/x"), Paths{s.root / "n4"});
  // Relative to the working directory, and deep (each part read once: a weakly_canonical per prefix
  // took 80 s at 2000 parts).
  const fs::path cwd = fs::current_path();
  fs::current_path(s.root);
  EXPECT_EQ(beam::missingDirectories("pre/z"), Paths{s.root / "pre/z"});
  std::string deep;
  for (int i = 0; i < 2000; ++i) deep += "d/";
  const Paths missing = beam::missingDirectories(deep);
  fs::current_path(cwd);
  ASSERT_EQ(missing.size(), 2000u);
  EXPECT_EQ(missing.front(), s.root / "d");
}

TEST(OutputFiles, ARefusalTakesBackOnlyWhatTheRunMadeAndStillFinds) {
  const Scratch s;
  // Made and left empty: gone, parents with it; a directory there before stays.
  fs::create_directories(s.root / "pre");
  std::error_code ec;
  beam::makeDirectories(s / "pre/a/b", ec);
  ASSERT_FALSE(ec);
  touch(s.root / "pre/a/b/.lock");
  beam::recordMadeFile(s / "pre/a/b/.lock");
  beam::removeWhatTheRunMade(MPI_COMM_SELF);
  EXPECT_TRUE(fs::is_directory(s.root / "pre"));
  EXPECT_FALSE(fs::exists(s.root / "pre/a"));

  // A lock the run did not record (another run's, which won the directory) stays, and so does its
  // directory: the run that lost the race removed the winner's lock until 2026-11-30.
  beam::makeDirectories(s / "race/out", ec);
  touch(s.root / "race/out/.lock");
  beam::removeWhatTheRunMade(MPI_COMM_SELF);
  EXPECT_TRUE(fs::exists(s.root / "race/out/.lock"));

  // A path that has come to name something else (another directory or file in its place; the first
  // ones kept under other names, so that the new ones cannot reuse their inodes) stays.
  beam::makeDirectories(s / "again", ec);
  touch(s.root / "lockfile");
  beam::recordMadeFile(s / "lockfile");
  fs::rename(s.root / "again", s.root / "again.first");
  fs::create_directory(s.root / "again");
  fs::rename(s.root / "lockfile", s.root / "lockfile.first");
  touch(s.root / "lockfile");
  beam::removeWhatTheRunMade(MPI_COMM_SELF);
  EXPECT_TRUE(fs::is_directory(s.root / "again"));
  EXPECT_TRUE(fs::exists(s.root / "lockfile"));

  // A creation that failed further on still made its first parts: those go.
  touch(s.root / "file");
  beam::makeDirectories(s / "n1/../file/x", ec);
  EXPECT_TRUE(ec);
  EXPECT_TRUE(fs::is_directory(s.root / "n1"));
  beam::removeWhatTheRunMade(MPI_COMM_SELF);
  EXPECT_FALSE(fs::exists(s.root / "n1"));
  EXPECT_TRUE(fs::is_regular_file(s.root / "file"));
}
