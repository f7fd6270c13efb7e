#include "net/identity.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include <zmq.h>

#include "net/paths.hpp"

namespace rookery::net {

namespace {

constexpr std::string_view kZ85 =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

std::string read_key_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot read key file " + p.string());
  std::string key;
  std::getline(in, key);
  while (!key.empty() && (key.back() == '\r' || key.back() == ' ')) key.pop_back();
  if (!is_z85_key(key)) {
    throw std::runtime_error(
        "key file " + p.string() +
        " is damaged (not a 40-character Z85 key); "
        "restore it from a backup or remove both identity files to start as a new identity");
  }
  return key;
}

void write_file_atomically(const std::filesystem::path& p, const std::string& content,
                           mode_t mode) {
  const auto tmp = p.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) throw std::runtime_error("cannot create " + tmp);
  const std::string line = content + "\n";
  const bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) &&
                  ::fsync(fd) == 0;
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), p.c_str()) != 0) {
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot write " + p.string() + " (disk full?)");
  }
  ::chmod(p.c_str(), mode);
}

}  // namespace

bool is_z85_key(const std::string& key) {
  if (key.size() != 40) return false;
  for (char c : key) {
    if (kZ85.find(c) == std::string_view::npos) return false;
  }
  return true;
}

std::string public_key_of(const std::string& secret_z85) {
  std::array<char, 41> pub{};
  if (!is_z85_key(secret_z85) || zmq_curve_public(pub.data(), secret_z85.c_str()) != 0) {
    throw std::runtime_error("invalid CURVE secret key");
  }
  return std::string(pub.data(), 40);
}

std::string short_key(const std::string& key) { return key.substr(0, 8); }

CurveKeyPair CurveKeyPair::generate() {
  std::array<char, 41> pub{}, sec{};
  if (zmq_curve_keypair(pub.data(), sec.data()) != 0) {
    throw std::runtime_error("libzmq was built without CURVE support");
  }
  return {std::string(pub.data(), 40), std::string(sec.data(), 40)};
}

CurveKeyPair CurveKeyPair::load_or_create(const std::filesystem::path& dir,
                                          const std::string& name) {
  ensure_private_dir(dir);
  const auto sec_path = dir / (name + ".key");
  const auto pub_path = dir / (name + ".pub");
  if (std::filesystem::exists(sec_path)) {
    CurveKeyPair kp;
    kp.secret_key = read_key_file(sec_path);
    kp.public_key = public_key_of(kp.secret_key);
    struct stat st {};
    if (::stat(sec_path.c_str(), &st) == 0 && (st.st_mode & 077) != 0)
      ::chmod(sec_path.c_str(), 0600);
    if (!std::filesystem::exists(pub_path)) write_file_atomically(pub_path, kp.public_key, 0644);
    return kp;
  }
  auto kp = generate();
  write_file_atomically(sec_path, kp.secret_key, 0600);
  write_file_atomically(pub_path, kp.public_key, 0644);
  return kp;
}

}  // namespace rookery::net
