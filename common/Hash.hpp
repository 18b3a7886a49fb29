// FNV-1a over bytes: the one hash of the project's data identities (checkpoint checksums, a network's,
// a mechanism's and a discrete system's data), continued from `h` (the caller's basis).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace beam {

inline std::uint64_t fnv1a(const void *data, std::size_t n, std::uint64_t h) {
  const auto *p = static_cast<const unsigned char *>(data);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ULL;
  return h;
}

// The bytes of one trivially copyable value.
template <typename T> std::uint64_t fnv1a(const T &value, std::uint64_t h) { return fnv1a(&value, sizeof(T), h); }

} // namespace beam
