#pragma once
// Where a user's Rookery state lives. Every folder is created private to the user (0700).
#include <filesystem>

namespace rookery::net {

// $ROOKERY_DATA_DIR, else $XDG_DATA_HOME/rookery, else ~/.local/share/rookery.
std::filesystem::path default_data_dir();
// $ROOKERY_RUNTIME_DIR, else $XDG_RUNTIME_DIR/rookery, else /tmp/rookery-<uid>.
std::filesystem::path default_runtime_dir();
// Creates `dir` (and parents) and makes it 0700; throws if it exists but belongs to another user.
void ensure_private_dir(const std::filesystem::path& dir);

}  // namespace rookery::net
