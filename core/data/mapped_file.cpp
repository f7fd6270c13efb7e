#include "data/mapped_file.hpp"

#include "data/dataset.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <utility>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define ROOKERY_HAVE_MMAP 1
#endif

namespace rookery::data {

MappedFile::MappedFile(const std::filesystem::path& path) : path_(path) {
#ifdef ROOKERY_HAVE_MMAP
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw DatasetError(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const int err = errno;
    ::close(fd);
    throw DatasetError(
        path, err ? std::string("cannot stat: ") + std::strerror(err) : "not a regular file");
  }
  size_ = size_t(st.st_size);
  if (size_ > 0) {
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    const int err = errno;
    ::close(fd);
    if (p == MAP_FAILED) throw DatasetError(path, std::string("cannot map: ") + std::strerror(err));
    data_ = static_cast<const std::byte*>(p);
    mapped_ = true;
  } else {
    ::close(fd);
  }
#else
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw DatasetError(path, "cannot open");
  copy_.resize(size_t(in.tellg()));
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(copy_.data()), std::streamsize(copy_.size())))
    throw DatasetError(path, "cannot read");
  data_ = copy_.data();
  size_ = copy_.size();
#endif
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : path_(std::move(other.path_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      mapped_(std::exchange(other.mapped_, false)),
      copy_(std::move(other.copy_)) {
  if (!mapped_ && !copy_.empty()) data_ = copy_.data();
}

MappedFile::~MappedFile() {
#ifdef ROOKERY_HAVE_MMAP
  if (mapped_) ::munmap(const_cast<std::byte*>(data_), size_);
#endif
  mapped_ = false;
}

}  // namespace rookery::data
