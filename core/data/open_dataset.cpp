#include "data/open_dataset.hpp"

#include "data/image_dataset.hpp"
#include "data/text_datasets.hpp"

namespace rookery::data {

std::unique_ptr<Dataset> open_dataset(const job::JobSpec& job) {
  const auto& d = job.dataset;
  // Mixed with a constant so data order and parameter init never share a random stream.
  const uint64_t order_seed = job.seed ^ 0xDA7A0D3E5EED0001ULL;
  switch (d.kind) {
    case job::DatasetKind::text: {
      const auto& g = std::get<job::GptSpec>(job.model.arch);
      return std::make_unique<TextBytesDataset>(d.path, g.context, d.stride, order_seed, d.shuffle,
                                                d.held_out, d.format);
    }
    case job::DatasetKind::tokens: {
      const auto& g = std::get<job::GptSpec>(job.model.arch);
      return std::make_unique<TokenFileDataset>(d.path, g.context, d.stride, g.vocab, order_seed,
                                                d.shuffle, d.held_out);
    }
    case job::DatasetKind::images: {
      const int64_t classes = job.model.kind() == job::ModelKind::cnn
                                  ? std::get<job::CnnSpec>(job.model.arch).classes
                                  : std::get<job::MlpSpec>(job.model.arch).output;
      auto images = std::make_unique<IdxImageDataset>(d.path, d.labels, classes, order_seed,
                                                      d.shuffle, d.held_out);
      const std::string shape = std::to_string(images->channels()) + "x" +
                                std::to_string(images->height()) + "x" +
                                std::to_string(images->width());
      if (const auto* c = std::get_if<job::CnnSpec>(&job.model.arch)) {
        if (images->channels() != c->channels || images->height() != c->image_size ||
            images->width() != c->image_size)
          throw DatasetError(d.path, "images are " + shape + " but the model expects " +
                                         std::to_string(c->channels) + "x" +
                                         std::to_string(c->image_size) + "x" +
                                         std::to_string(c->image_size));
      } else {
        const auto& m = std::get<job::MlpSpec>(job.model.arch);
        if (images->channels() * images->height() * images->width() != m.input)
          throw DatasetError(
              d.path, "images are " + shape + " = " +
                          std::to_string(images->channels() * images->height() * images->width()) +
                          " values but the model's input is " + std::to_string(m.input));
      }
      return images;
    }
  }
  throw std::logic_error("open_dataset: unknown dataset kind");
}

}  // namespace rookery::data
