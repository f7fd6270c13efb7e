#pragma once
// Little fixed-layout fields for the small messages of verified aggregation (commitments,
// receipts, verdicts): in host byte order (the little-endian x86-64 and arm64 hosts Rookery is built for). Any short
// or oversized field makes a whole message invalid.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace rookery::reduce {

class Writer {
 public:
  template <class T>
  void put(const T& v) {
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    out.insert(out.end(), p, p + sizeof v);
  }
  template <std::size_t N>
  void put(const std::array<std::byte, N>& a) {
    out.insert(out.end(), a.begin(), a.end());
  }
  void put_bytes(std::span<const std::byte> b) {
    put(static_cast<std::uint32_t>(b.size()));
    out.insert(out.end(), b.begin(), b.end());
  }
  std::vector<std::byte> out;
};

// Reads what Writer wrote; any short or oversized field makes the whole message invalid.
class Reader {
 public:
  explicit Reader(std::span<const std::byte> in) : in_(in) {}
  template <class T>
  bool get(T& v) {
    if (in_.size() < sizeof v) return false;
    std::memcpy(&v, in_.data(), sizeof v);
    in_ = in_.subspan(sizeof v);
    return true;
  }
  bool get_bytes(std::vector<std::byte>& b) {
    std::uint32_t n = 0;
    if (!get(n) || in_.size() < n) return false;
    b.assign(in_.begin(), in_.begin() + n);
    in_ = in_.subspan(n);
    return true;
  }
  template <class T>
  bool get_vector(std::vector<T>& v) {
    std::uint32_t n = 0;
    if (!get(n) || in_.size() / sizeof(T) < n) return false;
    v.resize(n);
    if (n != 0) std::memcpy(v.data(), in_.data(), n * sizeof(T));  // empty: data() may be null
    in_ = in_.subspan(n * sizeof(T));
    return true;
  }
  bool done() const { return in_.empty(); }

 private:
  std::span<const std::byte> in_;
};

}  // namespace rookery::reduce
