#include "data/image_dataset.hpp"

#include <algorithm>
#include <cstdio>

namespace rookery::data {
namespace {

struct IdxHeader {
  std::vector<int64_t> dims;
  size_t data_offset = 0;
};

IdxHeader parse_idx(const MappedFile& file, std::initializer_list<size_t> allowed_dims,
                    const char* what) {
  const auto bytes = file.bytes();
  const auto byte = [&](size_t i) { return std::to_integer<unsigned>(bytes[i]); };
  if (bytes.size() < 4) throw DatasetError(file.path(), "too short for an IDX header");
  if (byte(0) != 0 || byte(1) != 0) {
    char magic[16];
    std::snprintf(magic, sizeof magic, "%02x%02x%02x%02x", byte(0), byte(1), byte(2), byte(3));
    throw DatasetError(file.path(), std::string("not an IDX file (magic 0x") + magic + ")");
  }
  if (byte(2) != 0x08) {
    char type[8];
    std::snprintf(type, sizeof type, "0x%02x", byte(2));
    throw DatasetError(file.path(), std::string("IDX element type ") + type +
                                        " is not supported (only unsigned bytes, 0x08)");
  }
  const size_t ndims = byte(3);
  if (std::find(allowed_dims.begin(), allowed_dims.end(), ndims) == allowed_dims.end())
    throw DatasetError(file.path(),
                       std::string("has ") + std::to_string(ndims) + " dimensions; " + what);
  IdxHeader header;
  header.data_offset = 4 + 4 * ndims;
  if (bytes.size() < header.data_offset) throw DatasetError(file.path(), "truncated IDX header");
  uint64_t elements = 1;
  for (size_t d = 0; d < ndims; ++d) {
    const size_t at = 4 + 4 * d;  // big-endian uint32
    const uint64_t n = (uint64_t(byte(at)) << 24) | (uint64_t(byte(at + 1)) << 16) |
                       (uint64_t(byte(at + 2)) << 8) | uint64_t(byte(at + 3));
    if (n == 0) throw DatasetError(file.path(), "dimension " + std::to_string(d) + " is 0");
    elements *= n;
    if (elements > (uint64_t{1} << 48))
      throw DatasetError(file.path(), "dimensions are implausibly large");
    header.dims.push_back(int64_t(n));
  }
  const uint64_t have = bytes.size() - header.data_offset;
  if (have != elements)
    throw DatasetError(file.path(),
                       "holds " + std::to_string(have) + " data bytes but its header promises " +
                           std::to_string(elements) + (have < elements ? " (truncated)" : ""));
  return header;
}

}  // namespace

struct IdxImageDataset::Parsed {
  MappedFile images, labels;
  IdxHeader image_header, label_header;
  int64_t held_out = 0;  // images
};

IdxImageDataset::IdxImageDataset(const std::filesystem::path& images,
                                 const std::filesystem::path& labels, int64_t classes,
                                 uint64_t order_seed, bool shuffle, double held_out)
    : IdxImageDataset(
          [&] {
            MappedFile image_file(images), label_file(labels);
            IdxHeader ih = parse_idx(image_file, {3, 4},
                                     "images need (n, rows, cols) or (n, channels, rows, cols)");
            IdxHeader lh = parse_idx(label_file, {1}, "labels need (n)");
            if (ih.dims[0] != lh.dims[0])
              throw DatasetError(labels, "holds " + std::to_string(lh.dims[0]) + " labels for " +
                                             std::to_string(ih.dims[0]) + " images in " +
                                             images.string());
            // At most half held out, so training keeps at least as many as the held-out part.
            const int64_t held = held_out_units(ih.dims[0], held_out, 1, images, "images");
            return Parsed{std::move(image_file), std::move(label_file), std::move(ih),
                          std::move(lh), held};
          }(),
          classes, order_seed, shuffle) {}

IdxImageDataset::IdxImageDataset(Parsed p, int64_t classes, uint64_t order_seed, bool shuffle)
    : Dataset(p.image_header.dims[0] - p.held_out, p.held_out, order_seed, shuffle),
      images_(std::move(p.images)),
      labels_(std::move(p.labels)),
      images_offset_(p.image_header.data_offset),
      labels_offset_(p.label_header.data_offset),
      channels_(p.image_header.dims.size() == 4 ? p.image_header.dims[1] : 1),
      height_(p.image_header.dims[p.image_header.dims.size() - 2]),
      width_(p.image_header.dims.back()),
      classes_(classes) {}

SampleLayout IdxImageDataset::layout() const {
  return {.input = SampleLayout::Input::pixels,
          .input_shape = {channels_, height_, width_},
          .target_shape = {}};
}

void IdxImageDataset::read(int64_t position, const SampleSlot& slot) const {
  const int64_t label =
      std::to_integer<int64_t>(labels_.bytes()[labels_offset_ + size_t(position)]);
  if (label >= classes_)
    throw DatasetError(labels_.path(), "label " + std::to_string(label) + " of sample " +
                                           std::to_string(position) + " is not below the " +
                                           std::to_string(classes_) + " classes");
  const int64_t n = channels_ * height_ * width_;
  const auto pixels = images_.bytes().subspan(images_offset_ + size_t(position * n), size_t(n));
  for (int64_t i = 0; i < n; ++i)
    slot.pixels[size_t(i)] = float(std::to_integer<uint8_t>(pixels[size_t(i)])) / 255.0f;
  slot.targets[0] = label;
}

void IdxImageDataset::read_held_out_sample(int64_t index, const SampleSlot& slot) const {
  read(size() + index, slot);  // the held-out images follow the training ones
}

}  // namespace rookery::data
