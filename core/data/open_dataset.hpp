// The dataset a job names, opened with the shapes its model needs.
#pragma once

#include "data/dataset.hpp"
#include "job/job_spec.hpp"

#include <memory>

namespace rookery::data {

/// Opens job.dataset for job.model: text and tokens windows are the model's context; images
/// must match a CNN's channels and side or an MLP's input size. The sample order is seeded
/// from job.seed (a stream distinct from parameter initialisation); job.dataset.held_out of
/// the data is kept out of it (Dataset::read_held_out). Throws DatasetError.
std::unique_ptr<Dataset> open_dataset(const job::JobSpec& job);

}  // namespace rookery::data
