// Image classification data in the IDX format (the format MNIST and Fashion-MNIST ship in):
// an images file of unsigned bytes with dimensions (n, rows, cols) — or (n, channels, rows,
// cols) for colour — and a labels file of unsigned bytes with dimension (n). Pixels are
// scaled to [0, 1].
#pragma once

#include "data/dataset.hpp"
#include "data/mapped_file.hpp"

namespace rookery::data {

class IdxImageDataset final : public Dataset {
 public:
  /// Throws DatasetError (naming the file) for a bad header, a size that disagrees with
  /// the header, or image and label counts that differ. `classes` bounds the labels. The last
  /// floor(held_out · images) images are held out (see Dataset::read_held_out).
  IdxImageDataset(const std::filesystem::path& images, const std::filesystem::path& labels,
                  int64_t classes, uint64_t order_seed, bool shuffle = true, double held_out = 0);

  SampleLayout layout() const override;
  void read(int64_t position, const SampleSlot& slot) const override;

  int64_t channels() const { return channels_; }
  int64_t height() const { return height_; }
  int64_t width() const { return width_; }

 private:
  struct Parsed;
  IdxImageDataset(Parsed parsed, int64_t classes, uint64_t order_seed, bool shuffle);
  void read_held_out_sample(int64_t index, const SampleSlot& slot) const override;

  MappedFile images_, labels_;
  size_t images_offset_, labels_offset_;
  int64_t channels_, height_, width_, classes_;
};

}  // namespace rookery::data
