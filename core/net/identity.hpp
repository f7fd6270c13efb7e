#pragma once
// A node's or coordinator's CURVE identity: its key pair is its name in the swarm.
#include <filesystem>
#include <string>

namespace rookery::net {

struct CurveKeyPair {
  std::string public_key;  // Z85, 40 characters
  std::string secret_key;  // Z85, 40 characters; never leaves this machine

  static CurveKeyPair generate();
  // Loads `<dir>/<name>.key` (secret, mode 0600) and `<dir>/<name>.pub`, creating them on
  // first start. A damaged key file is an error, never silently replaced: the identity
  // carries the user's contribution history.
  static CurveKeyPair load_or_create(const std::filesystem::path& dir,
                                     const std::string& name = "identity");
};

// True for a well-formed Z85 CURVE key (40 characters from the Z85 alphabet).
bool is_z85_key(const std::string& key);
// The public key that belongs to a secret key.
std::string public_key_of(const std::string& secret_z85);
// First characters of a key, for logs and the GUI.
std::string short_key(const std::string& key);

}  // namespace rookery::net
