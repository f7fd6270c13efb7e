// JobSpec: one training run as its owner publishes it — the model, the dataset, the
// optimizer and the knobs of the asynchronous pipeline. Parsing is strict: an unknown key,
// a wrong type or a value out of range is a JobSpecError naming the field, because a typo
// in a spec that thousands of volunteers train on must not pass silently.
//
// The spec is plain data (no torch): the coordinator's planner, the GUI and the node all
// read it; core/model and core/data turn it into modules and batches.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "job/averaging_spec.hpp"

namespace rookery::job {

/// Thrown for any invalid spec; what() starts with the field's path, e.g.
/// "job.optimizer.lr: must be > 0, got -1".
class JobSpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ---- model ------------------------------------------------------------------------------

/// GPT-style decoder-only language model. Blocks: token+position embedding, `depth` pre-LN
/// transformer layers, final LayerNorm + LM head.
struct GptSpec {
  int64_t vocab = 256;    ///< 256 for a byte-level model
  int64_t context = 64;   ///< tokens per sample (sequence length)
  int64_t width = 128;    ///< model (residual stream) width
  int64_t depth = 4;      ///< transformer layers
  int64_t heads = 4;      ///< attention heads; width % heads == 0
  int64_t mlp_ratio = 4;  ///< hidden width of the MLP = mlp_ratio * width
  double dropout = 0.0;   ///< on embeddings, attention output and MLP output
  friend bool operator==(const GptSpec&, const GptSpec&) = default;
};

/// Small image classifier. Blocks: one per stage (3x3 conv, ReLU, 2x2 max-pool, so each
/// stage halves the image side), then a head (global average pool + linear).
struct CnnSpec {
  int64_t channels = 1;     ///< input channels
  int64_t image_size = 28;  ///< input side (square images); divisible by 2^stages
  int64_t classes = 10;
  std::vector<int64_t> widths;  ///< output channels of each conv stage
  friend bool operator==(const CnnSpec&, const CnnSpec&) = default;
};

/// Multi-layer perceptron classifier. Blocks: one per linear layer (hidden layers use ReLU;
/// the last layer produces logits). The first block flattens its input.
struct MlpSpec {
  int64_t input = 784;
  std::vector<int64_t> hidden;
  int64_t output = 10;
  friend bool operator==(const MlpSpec&, const MlpSpec&) = default;
};

enum class ModelKind { gpt, cnn, mlp };

struct ModelSpec {
  std::variant<GptSpec, CnnSpec, MlpSpec> arch;

  ModelKind kind() const { return static_cast<ModelKind>(arch.index()); }
  friend bool operator==(const ModelSpec&, const ModelSpec&) = default;
};

// ---- dataset ----------------------------------------------------------------------------

enum class DatasetKind {
  text,    ///< a UTF-8/plain text file, or a folder of them, read as bytes
  tokens,  ///< uint16 little-endian token ids (nanoGPT's train.bin)
  images,  ///< IDX (MNIST layout): unsigned-byte images + a labels file
};

/// How a text dataset's files hold their text.
enum class TextFormat {
  plain,    ///< every byte is text
  fortune,  ///< fortune(6) cookie files: a line holding only "%" ends a cookie and reads as a
            ///< blank line; in a folder, strfile's *.dat indexes are skipped
};

struct DatasetSpec {
  DatasetKind kind = DatasetKind::text;
  /// File or folder. A relative path in a spec file is resolved against the file's folder.
  std::filesystem::path path;
  /// images only: the IDX labels file (resolved like `path`).
  std::filesystem::path labels;
  /// text/tokens: distance in tokens between the starts of consecutive windows; 1 makes
  /// every offset a sample (nanoGPT's random crops), `context` makes windows disjoint.
  int64_t stride = 1;
  /// false keeps sample id == data position (useful to inspect data); true permutes ids.
  bool shuffle = true;
  /// text only: how the files hold their text.
  TextFormat format = TextFormat::plain;
  /// The fraction of the data, in [0, 0.5], kept out of training for evaluation: the end of
  /// each stripe of about 64 Ki tokens (text, tokens; data/text_datasets.hpp) or the last
  /// images. 0: none.
  double held_out = 0;
  friend bool operator==(const DatasetSpec&, const DatasetSpec&) = default;
};

// ---- optimizer --------------------------------------------------------------------------

enum class OptimizerKind { adamw, sgd };
enum class LrDecay { cosine, linear, constant };

/// Learning rate over local optimizer steps: linear warm-up from 0 to lr over
/// `warmup_steps`, then decay to lr * min_lr_ratio at `total_steps`, constant after.
struct ScheduleSpec {
  int64_t warmup_steps = 0;
  LrDecay decay = LrDecay::constant;
  int64_t total_steps = 0;  ///< required (> warmup_steps) unless decay is constant
  double min_lr_ratio = 0.1;
  friend bool operator==(const ScheduleSpec&, const ScheduleSpec&) = default;
};

struct OptimizerSpec {
  OptimizerKind kind = OptimizerKind::adamw;
  double lr = 1e-3;
  std::array<double, 2> betas{0.9, 0.95};  ///< adamw
  double eps = 1e-8;                       ///< adamw
  double weight_decay = 0.0;               ///< applied to matrices only, never to biases/norms
  double momentum = 0.0;                   ///< sgd
  bool nesterov = false;                   ///< sgd; needs momentum > 0
  ScheduleSpec schedule;
  friend bool operator==(const OptimizerSpec&, const OptimizerSpec&) = default;
};

// ---- aggregation ------------------------------------------------------------------------

enum class AggregatorKind { centered_clip, mean };

/// How the multi-ring average combines the members' values. centered_clip is BTARD's robust
/// aggregator (core/reduce/centered_clip.hpp); mean is the plain weighted mean, which a single
/// lying member can drag anywhere (for comparison runs only).
struct AggregatorSpec {
  AggregatorKind kind = AggregatorKind::centered_clip;
  /// centered_clip only. The clip radius, as a multiple of the median distance of the
  /// members' values from their coordinate-wise median.
  double tau = 1.0;
  int64_t iterations = 50;  ///< at most this many clipping iterations
  /// Values whose norm exceeds this multiple of the median norm are rejected (0: off).
  double reject_norm_factor = 100.0;
  /// A member's weight counts at most this multiple of the median weight (0: no cap).
  double weight_cap = 1.0;
  friend bool operator==(const AggregatorSpec&, const AggregatorSpec&) = default;
};

/// Spot-checks of pipeline work (core/pipeline/spot_check.hpp): a stage has the activations
/// and gradients it receives recomputed, now and then, by other holders of the sender's
/// blocks, and refuses (and reports) a sender caught lying. Needs a dropout-free model (dropout makes two honest
/// forwards differ) and at least two pipelines whose cuts match.
struct SpotCheckSpec {
  /// The share of micro-batches checked once a sender is past probation (0: no checks).
  double rate = 0.02;
  /// Every sender's first this many micro-batches are checked: trust is earned, and a liar
  /// is caught before it has done much harm.
  int64_t probation = 3;
  /// Honest replicas differ (each trains between averages), so a check fails only when the
  /// checked output is farther than this from every verifier's recomputation, relative to
  /// their norms: ||a - b|| / max(||a||, ||b||). Garbage (anything uncorrelated with the
  /// true output) is at least 1 away. Honest replicas can drift as far, so a check is judged
  /// only by verifiers that stand close to a point the sender came from too
  /// (core/pipeline/common_point.hpp): their drift and the sender's estimate take at most
  /// two thirds of this.
  double tolerance = 0.9;
  /// Failed checks after which a sender is caught (refused and reported), if they are at
  /// least a third of its conclusive checks.
  int64_t failures_to_catch = 2;
  friend bool operator==(const SpotCheckSpec&, const SpotCheckSpec&) = default;
};

// ---- averaging as outer steps -------------------------------------------------------------

/// How pipelines that hold the same blocks combine their training (DiLoCo's outer step). Each
/// round, the rings average every replica's pseudo-gradient, the weights at the last outer
/// step (the anchor) minus its weights now, compressed with the job's codec; never the
/// weights themselves. Every replica then applies the same outer step to the same anchor:
///   m = momentum * m + g;  anchor -= lr * (g + momentum * m)   (Nesterov; g: the average)
/// and keeps the local steps it took while the round ran. lr 1 with momentum 0 is the plain
/// average of the replicas' weights. DiLoCo's 0.7 / 0.9 fits rounds hundreds of steps apart;
/// with rounds a few steps apart the momentum amplifies each step (test_pipeline_averaging
/// measured it diverge), so the default is the plain average.
struct OuterSpec {
  double lr = 1.0;
  double momentum = 0.0;  ///< Nesterov momentum of the outer step, in [0, 1)
  /// Keep what the codec dropped from this replica's pseudo-gradient and add it to the next
  /// round's (error feedback), so quantisation error does not accumulate in the model.
  bool error_feedback = true;
  /// Every this many rounds (by round number, as every member counts them) the rings also
  /// average the anchors themselves, uncompressed: a replica that missed a round, or applied
  /// one its partner gave up on, comes back to the others' anchor.
  int64_t anchor_sync_every = 8;
  friend bool operator==(const OuterSpec&, const OuterSpec&) = default;
};

// ---- job --------------------------------------------------------------------------------

/// How activations and gradients are compressed on the wire.
enum class Codec { none, fp16, bf16, int8 };

/// Compression of the activations and gradients that cross stage boundaries, on top of (or
/// instead of) the codec. lowrank: each micro-batch's [samples * tokens, width] activation
/// (and its gradient) travels as two int8 factors P [samples * tokens, rank] and
/// Q [rank, width] found by randomized subspace iteration (core/pipeline/
/// boundary_compression.hpp): 4 * width / (rank + rank * width / (samples * tokens)) times
/// fewer bytes than fp32, about 16x at rank 32 and width 128. GPT models only: their
/// activations have one width at every boundary, which a rank is chosen against.
enum class BoundaryKind { none, lowrank };
struct BoundarySpec {
  BoundaryKind kind = BoundaryKind::none;
  int64_t rank = 16;  ///< lowrank: the factors' rank, in [1, width)
  friend bool operator==(const BoundarySpec&, const BoundarySpec&) = default;
};

/// The arithmetic of the forward and backward passes (autocast). Master weights, gradients
/// and optimizer state stay fp32 whatever it is, and so do activations at stage boundaries
/// (the codec compresses those).
///   automatic: bf16 on a GPU that has it, fp16 with loss scaling on one that has not, fp32
///              on a CPU (whose bf16 is slower than fp32 without AMX-class units);
///   fp32, bf16, fp16: that, on any device (fp16 always with dynamic loss scaling).
enum class Precision { automatic, fp32, bf16, fp16 };

struct JobSpec {
  std::string id;    ///< stable identifier: [a-z0-9._-], 1..64 chars
  std::string name;  ///< human-readable title (defaults to id)
  ModelSpec model;
  DatasetSpec dataset;
  OptimizerSpec optimizer;
  int64_t micro_batch_size = 8;   ///< samples per pipeline micro-batch
  int64_t grad_accumulation = 1;  ///< micro-batches per optimizer step
  int64_t staleness = 1;          ///< micro-batches the first stage keeps in flight (>= 1)
  /// Forward on the weights predicted for when the gradient lands (SpecTrain/PipeMare);
  /// corrects the staleness of asynchronous pipelines. No effect with staleness 1.
  bool weight_prediction = true;
  /// Learning-rate rescheduling by delay (PipeMare): a stage whose gradients arrive tau
  /// optimizer steps late steps with lr x tau^-p, where p falls from 1 to 0 over this many
  /// of its steps, so early training (when the weights move fastest and stale gradients hurt
  /// most) takes small steps on late stages. 0: off. No effect on the last stage or with
  /// staleness 1 (no delay there).
  int64_t staleness_lr_anneal_steps = 0;
  /// Nesterov look-ahead for asynchronous pipelines: forwards run on the master moved on by
  /// the measured delay along the momentum of its updates (d <- g d + (1 - g) update, g this
  /// value) instead of along the last update alone, so one noisy step does not steer the
  /// prediction. In [0, 1); 0: off (weight_prediction's last update, if that is on).
  /// No effect on the last stage or with staleness 1 (no delay there).
  double nesterov_lookahead = 0.0;
  /// Clips each optimizer step's gradient to this global L2 norm, of the whole model across
  /// every stage of the pipeline (torch's clip_grad_norm_ semantics). 0: off.
  double max_grad_norm = 0.0;
  Codec codec = Codec::none;
  BoundarySpec boundary;  ///< off by default: activations go with the codec alone
  Precision precision = Precision::automatic;
  /// Recompute each block's activations in the backward pass instead of keeping them: less
  /// memory (one block's activations per micro-batch in flight) for about a third more compute.
  bool activation_checkpointing = false;
  /// Local steps between multi-ring averages, as Ravnest counts them. Running stages do not
  /// use it: rounds follow the plan's averaging_interval_ms by the clock, because step
  /// counters drift apart between pipelines (drops, restarts) and rounds paired by counter
  /// miss each other. Kept so job files stay valid; the coordinator service (not built yet)
  /// is meant to turn it into an interval using the measured step time.
  int64_t averaging_period = 100;
  /// Every this many averaging rounds (rounds whose number is a multiple of it, so every
  /// member agrees without asking), the rounds also average the optimizer's per-parameter
  /// state: AdamW's first and second moments, SGD's momentum buffers. 0: never. The moments
  /// double (AdamW) or match (SGD) the parameters' bytes and change slowly (AdamW's second
  /// moment over ~1/(1 - beta2) steps), so 4 is a sensible value: 1.5x a parameters-only
  /// round's traffic on average instead of 3x, replicas' moments within a few rounds of each
  /// other. Off by default, for its traffic: nothing here measured what replicas gain from
  /// shared moments. It is as safe against a liar as parameters-only averaging:
  /// test_byzantine_averaging runs both (a sign-flipping liar among four pipelines; the
  /// honest replicas' loss within 2% of the clean run either way), thanks to partners'
  /// exclusion of a member they clip hard (reduce::PeerExclusion) and the floor on averaged
  /// second moments.
  int64_t average_optimizer_state_every = 0;
  /// Averaging in groups (Moshpit SGD): a round's rings span at most this many pipelines.
  /// The pipelines sit on a d-dimensional grid (reduce/averaging_groups.hpp) and round r
  /// averages along dimension r mod d, so a round's size, and the pipelines one failure holds
  /// up, stay bounded as pipelines grow; after any d rounds every replica's values reached
  /// every other (on a full grid, exactly their mean). 0 (the default): one ring per range
  /// across every pipeline. In groups, outer.anchor_sync_every and
  /// average_optimizer_state_every count sweeps of d rounds, so the anchors and moments mix
  /// along every dimension (pipeline/stage_averaging.hpp). Otherwise >= 2; bounds below 4 fit
  /// only some pipeline counts (groups of 2: powers of 2), and a stage whose plan does not fit
  /// averages in groups of at most 4 and says so.
  int64_t averaging_max_group = 0;
  AggregatorSpec aggregator;  ///< how those averages combine the members' values
  AveragingSpec averaging;    ///< whether the rings verify their aggregators, and how many
  OuterSpec outer;            ///< what the averages are of, and the step that applies them
  SpotCheckSpec spot_checks;  ///< how stages verify the activations and gradients they receive
  uint64_t seed = 0;          ///< parameter init and data order derive from it
  friend bool operator==(const JobSpec&, const JobSpec&) = default;
};

/// Whether the job's rings verify their aggregators (averaging.verify, auto: with CenteredClip).
inline bool verifies_aggregation(const JobSpec& s) {
  return verifies(s.averaging, s.aggregator.kind == AggregatorKind::centered_clip);
}

/// Parses and validates a spec. Relative dataset paths are resolved against `base_dir`
/// when it is not empty (load_job_spec passes the spec file's folder).
JobSpec parse_job_spec(std::string_view json, const std::filesystem::path& base_dir = {});

/// Reads the file and parses it; errors name the file as well as the field.
JobSpec load_job_spec(const std::filesystem::path& path);

/// Canonical JSON (every field written, defaults included); parse_job_spec(to_json(s)) == s.
std::string to_json(const JobSpec& spec, int indent = 2);

/// Throws JobSpecError when the spec breaks a range or cross-field rule; parse_job_spec
/// calls it, and code that builds a JobSpec by hand can too.
void validate(const JobSpec& spec);
/// The model section alone (field names still start with "job.model").
void validate(const ModelSpec& model);

/// The learning rate for local optimizer step `step` (0-based), per the schedule.
double learning_rate_at(const OptimizerSpec& optimizer, int64_t step);

// Names as they appear in JSON.
std::string_view to_string(ModelKind);
std::string_view to_string(DatasetKind);
std::string_view to_string(TextFormat);
std::string_view to_string(OptimizerKind);
std::string_view to_string(LrDecay);
std::string_view to_string(Codec);
std::string_view to_string(BoundaryKind);
std::string_view to_string(Precision);
std::string_view to_string(AggregatorKind);

}  // namespace rookery::job
