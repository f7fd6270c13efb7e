#include "job/job_spec.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <numbers>
#include <optional>
#include <sstream>

namespace rookery::job {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string& field, const std::string& message) {
  throw JobSpecError(field + ": " + message);
}

std::string show(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}
std::string show(int64_t v) { return std::to_string(v); }

// A JSON value as it should appear in an error message (strings quoted, long values cut).
std::string show(const json& v) {
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

template <typename Enum, size_t N>
Enum parse_enum(const json& v, const std::string& field,
                const std::array<std::pair<std::string_view, Enum>, N>& names) {
  std::string list;
  for (const auto& [name, value] : names) {
    if (v.is_string() && v.get_ref<const std::string&>() == name) return value;
    list += (list.empty() ? "" : ", ") + std::string(name);
  }
  fail(field, "must be one of " + list + "; got " + show(v));
}

constexpr std::array<std::pair<std::string_view, ModelKind>, 3> kModelKinds{
    {{"gpt", ModelKind::gpt}, {"cnn", ModelKind::cnn}, {"mlp", ModelKind::mlp}}};
constexpr std::array<std::pair<std::string_view, DatasetKind>, 3> kDatasetKinds{
    {{"text", DatasetKind::text},
     {"tokens", DatasetKind::tokens},
     {"images", DatasetKind::images}}};
constexpr std::array<std::pair<std::string_view, TextFormat>, 2> kTextFormats{
    {{"plain", TextFormat::plain}, {"fortune", TextFormat::fortune}}};
constexpr std::array<std::pair<std::string_view, OptimizerKind>, 2> kOptimizerKinds{
    {{"adamw", OptimizerKind::adamw}, {"sgd", OptimizerKind::sgd}}};
constexpr std::array<std::pair<std::string_view, LrDecay>, 3> kDecays{
    {{"cosine", LrDecay::cosine}, {"linear", LrDecay::linear}, {"constant", LrDecay::constant}}};
constexpr std::array<std::pair<std::string_view, Codec>, 4> kCodecs{
    {{"none", Codec::none}, {"fp16", Codec::fp16}, {"bf16", Codec::bf16}, {"int8", Codec::int8}}};
constexpr std::array<std::pair<std::string_view, BoundaryKind>, 2> kBoundaryKinds{
    {{"none", BoundaryKind::none}, {"lowrank", BoundaryKind::lowrank}}};
constexpr std::array<std::pair<std::string_view, Precision>, 4> kPrecisions{
    {{"auto", Precision::automatic},
     {"fp32", Precision::fp32},
     {"bf16", Precision::bf16},
     {"fp16", Precision::fp16}}};

constexpr std::array<std::pair<std::string_view, AggregatorKind>, 2> kAggregatorKinds{
    {{"centered_clip", AggregatorKind::centered_clip}, {"mean", AggregatorKind::mean}}};

template <typename Enum, size_t N>
std::string_view enum_name(Enum e, const std::array<std::pair<std::string_view, Enum>, N>& names) {
  for (const auto& [name, value] : names)
    if (value == e) return name;
  return "?";
}

// One JSON object being read. Every key the reader asks for is remembered, so finish()
// can reject the keys nobody asked for — that is how typos are caught.
class ObjectReader {
 public:
  ObjectReader(const json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) fail(path_, "must be an object, got " + show(object_));
  }

  std::string field(std::string_view key) const { return path_ + "." + std::string(key); }

  const json* find(std::string_view key) {
    known_.emplace_back(key);
    auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }
  const json& require(std::string_view key) {
    const json* v = find(key);
    if (!v) fail(field(key), "is required");
    return *v;
  }

  int64_t integer(std::string_view key, std::optional<int64_t> fallback) {
    const json* v = fallback ? find(key) : &require(key);
    if (!v) return *fallback;
    return as_integer(*v, field(key));
  }
  uint64_t unsigned_integer(std::string_view key, uint64_t fallback) {
    const json* v = find(key);
    if (!v) return fallback;
    if (v->is_number_unsigned()) return v->get<uint64_t>();
    fail(field(key), "must be a non-negative integer, got " + show(*v));
  }
  double number(std::string_view key, std::optional<double> fallback) {
    const json* v = fallback ? find(key) : &require(key);
    if (!v) return *fallback;
    if (!v->is_number()) fail(field(key), "must be a number, got " + show(*v));
    return v->get<double>();
  }
  bool boolean(std::string_view key, bool fallback) {
    const json* v = find(key);
    if (!v) return fallback;
    if (!v->is_boolean()) fail(field(key), "must be true or false, got " + show(*v));
    return v->get<bool>();
  }
  std::string string(std::string_view key, std::optional<std::string> fallback) {
    const json* v = fallback ? find(key) : &require(key);
    if (!v) return *fallback;
    if (!v->is_string()) fail(field(key), "must be a string, got " + show(*v));
    return v->get<std::string>();
  }
  std::vector<int64_t> integers(std::string_view key,
                                std::optional<std::vector<int64_t>> fallback) {
    const json* v = fallback ? find(key) : &require(key);
    if (!v) return *fallback;
    if (!v->is_array()) fail(field(key), "must be an array of integers, got " + show(*v));
    std::vector<int64_t> out;
    for (size_t i = 0; i < v->size(); ++i)
      out.push_back(as_integer((*v)[i], field(key) + "[" + std::to_string(i) + "]"));
    return out;
  }
  template <typename Enum, size_t N>
  Enum choice(std::string_view key, std::optional<Enum> fallback,
              const std::array<std::pair<std::string_view, Enum>, N>& names) {
    const json* v = fallback ? find(key) : &require(key);
    if (!v) return *fallback;
    return parse_enum(*v, field(key), names);
  }

  void finish() const {
    for (const auto& [key, value] : object_.items()) {
      if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
      std::string expected;
      for (const auto& k : known_) expected += (expected.empty() ? "" : ", ") + k;
      fail(field(key), "unknown key (expected one of: " + expected + ")");
    }
  }

 private:
  static int64_t as_integer(const json& v, const std::string& field) {
    if (v.is_number_integer()) {
      if (v.is_number_unsigned() &&
          v.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))
        fail(field, "is too large, got " + show(v));
      return v.get<int64_t>();
    }
    fail(field, "must be an integer, got " + show(v));
  }

  const json& object_;
  std::string path_;
  std::vector<std::string> known_;
};

std::filesystem::path resolve(const std::string& p, const std::filesystem::path& base_dir) {
  std::filesystem::path path(p);
  if (path.is_relative() && !base_dir.empty()) path = base_dir / path;
  return path.lexically_normal();
}

ModelSpec parse_model(ObjectReader r) {
  ModelSpec model;
  switch (r.choice<ModelKind>("kind", std::nullopt, kModelKinds)) {
    case ModelKind::gpt: {
      GptSpec g;
      g.vocab = r.integer("vocab", g.vocab);
      g.context = r.integer("context", std::nullopt);
      g.width = r.integer("width", std::nullopt);
      g.depth = r.integer("depth", std::nullopt);
      g.heads = r.integer("heads", std::nullopt);
      g.mlp_ratio = r.integer("mlp_ratio", g.mlp_ratio);
      g.dropout = r.number("dropout", g.dropout);
      model.arch = g;
      break;
    }
    case ModelKind::cnn: {
      CnnSpec c;
      c.channels = r.integer("channels", std::nullopt);
      c.image_size = r.integer("image_size", std::nullopt);
      c.classes = r.integer("classes", std::nullopt);
      c.widths = r.integers("widths", std::nullopt);
      model.arch = c;
      break;
    }
    case ModelKind::mlp: {
      MlpSpec m;
      m.input = r.integer("input", std::nullopt);
      m.hidden = r.integers("hidden", std::vector<int64_t>{});
      m.output = r.integer("output", std::nullopt);
      model.arch = m;
      break;
    }
  }
  r.finish();
  return model;
}

DatasetSpec parse_dataset(ObjectReader r, const std::filesystem::path& base_dir) {
  DatasetSpec d;
  d.kind = r.choice<DatasetKind>("kind", std::nullopt, kDatasetKinds);
  d.path = resolve(r.string("path", std::nullopt), base_dir);
  if (d.kind == DatasetKind::images)
    d.labels = resolve(r.string("labels", std::nullopt), base_dir);
  else
    d.stride = r.integer("stride", d.stride);
  if (d.kind == DatasetKind::text)
    d.format = r.choice<TextFormat>("format", d.format, kTextFormats);
  d.shuffle = r.boolean("shuffle", d.shuffle);
  d.held_out = r.number("held_out", d.held_out);
  r.finish();
  return d;
}

ScheduleSpec parse_schedule(ObjectReader r) {
  ScheduleSpec s;
  s.warmup_steps = r.integer("warmup_steps", s.warmup_steps);
  s.decay = r.choice<LrDecay>("decay", s.decay, kDecays);
  s.total_steps = r.integer("total_steps", s.total_steps);
  s.min_lr_ratio = r.number("min_lr_ratio", s.min_lr_ratio);
  r.finish();
  return s;
}

OptimizerSpec parse_optimizer(ObjectReader r) {
  OptimizerSpec o;
  o.kind = r.choice<OptimizerKind>("kind", o.kind, kOptimizerKinds);
  o.lr = r.number("lr", std::nullopt);
  o.weight_decay = r.number("weight_decay", o.weight_decay);
  // Each optimizer accepts only its own hyper-parameters: "momentum" on adamw is a mistake.
  if (o.kind == OptimizerKind::adamw) {
    if (const auto* betas = r.find("betas")) {
      const std::string field = r.field("betas");
      if (!betas->is_array() || betas->size() != 2 || !(*betas)[0].is_number() ||
          !(*betas)[1].is_number())
        fail(field, "must be an array of two numbers, got " + show(*betas));
      o.betas = {(*betas)[0].get<double>(), (*betas)[1].get<double>()};
    }
    o.eps = r.number("eps", o.eps);
  } else {
    o.momentum = r.number("momentum", o.momentum);
    o.nesterov = r.boolean("nesterov", o.nesterov);
  }
  if (const auto* schedule = r.find("schedule"))
    o.schedule = parse_schedule(ObjectReader(*schedule, r.field("schedule")));
  r.finish();
  return o;
}

AggregatorSpec parse_aggregator(ObjectReader r) {
  AggregatorSpec a;
  a.kind = r.choice<AggregatorKind>("kind", a.kind, kAggregatorKinds);
  // The mean has no knobs: CenteredClip's on it are a mistake.
  if (a.kind == AggregatorKind::centered_clip) {
    a.tau = r.number("tau", a.tau);
    a.iterations = r.integer("iterations", a.iterations);
    a.reject_norm_factor = r.number("reject_norm_factor", a.reject_norm_factor);
    a.weight_cap = r.number("weight_cap", a.weight_cap);
  }
  r.finish();
  return a;
}

OuterSpec parse_outer(ObjectReader r) {
  OuterSpec o;
  o.lr = r.number("lr", o.lr);
  o.momentum = r.number("momentum", o.momentum);
  o.error_feedback = r.boolean("error_feedback", o.error_feedback);
  o.anchor_sync_every = r.integer("anchor_sync_every", o.anchor_sync_every);
  r.finish();
  return o;
}

SpotCheckSpec parse_spot_checks(ObjectReader r) {
  SpotCheckSpec s;
  s.rate = r.number("rate", s.rate);
  s.probation = r.integer("probation", s.probation);
  s.tolerance = r.number("tolerance", s.tolerance);
  s.failures_to_catch = r.integer("failures_to_catch", s.failures_to_catch);
  r.finish();
  return s;
}

BoundarySpec parse_boundary(ObjectReader r) {
  BoundarySpec b;
  b.kind = r.choice<BoundaryKind>("kind", b.kind, kBoundaryKinds);
  b.rank = r.integer("rank", b.rank);
  r.finish();
  return b;
}

void check(bool ok, const std::string& field, const std::string& message) {
  if (!ok) fail(field, message);
}
void at_least(int64_t v, int64_t min, const std::string& field) {
  check(v >= min, field, "must be >= " + show(min) + ", got " + show(v));
}
void at_most(int64_t v, int64_t max, const std::string& field) {
  check(v <= max, field, "must be <= " + show(max) + ", got " + show(v));
}
void finite(double v, const std::string& field) {
  check(std::isfinite(v), field, "must be a finite number, got " + show(v));
}

void validate_model(const ModelSpec& model) {
  const std::string m = "job.model";
  if (const auto* g = std::get_if<GptSpec>(&model.arch)) {
    // Token ids travel as uint16 (the tokens dataset format), hence the vocabulary cap.
    at_least(g->vocab, 2, m + ".vocab");
    at_most(g->vocab, 65536, m + ".vocab");
    at_least(g->context, 1, m + ".context");
    at_most(g->context, 65536, m + ".context");
    at_least(g->width, 1, m + ".width");
    at_least(g->depth, 1, m + ".depth");
    at_least(g->heads, 1, m + ".heads");
    check(g->width % g->heads == 0, m + ".width",
          "must be divisible by heads (" + show(g->heads) + "), got " + show(g->width));
    at_least(g->mlp_ratio, 1, m + ".mlp_ratio");
    finite(g->dropout, m + ".dropout");
    check(g->dropout >= 0 && g->dropout < 1, m + ".dropout",
          "must be in [0, 1), got " + show(g->dropout));
  } else if (const auto* c = std::get_if<CnnSpec>(&model.arch)) {
    at_least(c->channels, 1, m + ".channels");
    at_least(c->image_size, 1, m + ".image_size");
    at_least(c->classes, 2, m + ".classes");
    check(!c->widths.empty(), m + ".widths", "must list at least one conv stage");
    check(c->widths.size() <= 16, m + ".widths",
          "must list at most 16 stages, got " + show(int64_t(c->widths.size())));
    for (size_t i = 0; i < c->widths.size(); ++i)
      at_least(c->widths[i], 1, m + ".widths[" + std::to_string(i) + "]");
    const int64_t halving = int64_t{1} << c->widths.size();
    check(c->image_size % halving == 0, m + ".image_size",
          "must be divisible by 2^" + show(int64_t(c->widths.size())) + " = " + show(halving) +
              " (each stage halves it), got " + show(c->image_size));
  } else {
    const auto& p = std::get<MlpSpec>(model.arch);
    at_least(p.input, 1, m + ".input");
    at_least(p.output, 2, m + ".output");
    for (size_t i = 0; i < p.hidden.size(); ++i)
      at_least(p.hidden[i], 1, m + ".hidden[" + std::to_string(i) + "]");
  }
}

void validate_dataset(const DatasetSpec& d, const ModelSpec& model) {
  const std::string f = "job.dataset";
  check(!d.path.empty(), f + ".path", "must not be empty");
  at_least(d.stride, 1, f + ".stride");
  finite(d.held_out, f + ".held_out");
  check(d.held_out >= 0 && d.held_out <= 0.5, f + ".held_out",
        "must be a fraction in [0, 0.5] (0: no held-out part), got " + show(d.held_out));
  check(d.kind == DatasetKind::text || d.format == TextFormat::plain, f + ".format",
        "applies to text datasets only, got " + std::string(to_string(d.format)) + " for " +
            std::string(to_string(d.kind)));
  switch (d.kind) {
    case DatasetKind::text:
    case DatasetKind::tokens: {
      const auto* g = std::get_if<GptSpec>(&model.arch);
      check(g != nullptr, f + ".kind",
            std::string(to_string(d.kind)) + " needs a gpt model, got " +
                std::string(to_string(model.kind())));
      if (d.kind == DatasetKind::text)
        check(g->vocab >= 256, "job.model.vocab",
              "must be >= 256 for a text (bytes) dataset, got " + show(g->vocab));
      break;
    }
    case DatasetKind::images:
      check(model.kind() != ModelKind::gpt, f + ".kind",
            "images needs a cnn or mlp model, got gpt");
      check(!d.labels.empty(), f + ".labels", "must not be empty");
      break;
  }
}

void validate_optimizer(const OptimizerSpec& o) {
  const std::string f = "job.optimizer";
  finite(o.lr, f + ".lr");
  check(o.lr > 0, f + ".lr", "must be > 0, got " + show(o.lr));
  for (int i = 0; i < 2; ++i) {
    const std::string field = f + ".betas[" + std::to_string(i) + "]";
    check(o.betas[i] >= 0 && o.betas[i] < 1, field, "must be in [0, 1), got " + show(o.betas[i]));
  }
  finite(o.eps, f + ".eps");
  check(o.eps > 0, f + ".eps", "must be > 0, got " + show(o.eps));
  finite(o.weight_decay, f + ".weight_decay");
  check(o.weight_decay >= 0, f + ".weight_decay", "must be >= 0, got " + show(o.weight_decay));
  check(o.momentum >= 0 && o.momentum < 1, f + ".momentum",
        "must be in [0, 1), got " + show(o.momentum));
  check(!o.nesterov || o.momentum > 0, f + ".nesterov", "requires momentum > 0");

  const auto& s = o.schedule;
  const std::string sf = f + ".schedule";
  at_least(s.warmup_steps, 0, sf + ".warmup_steps");
  at_least(s.total_steps, 0, sf + ".total_steps");
  if (s.decay != LrDecay::constant)
    check(s.total_steps > s.warmup_steps, sf + ".total_steps",
          "must be > warmup_steps (" + show(s.warmup_steps) + ") for " +
              std::string(to_string(s.decay)) + " decay, got " + show(s.total_steps));
  check(s.min_lr_ratio >= 0 && s.min_lr_ratio <= 1, sf + ".min_lr_ratio",
        "must be in [0, 1], got " + show(s.min_lr_ratio));
}

void validate_aggregator(const AggregatorSpec& a) {
  const std::string f = "job.aggregator";
  finite(a.tau, f + ".tau");
  check(a.tau > 0, f + ".tau", "must be > 0, got " + show(a.tau));
  at_least(a.iterations, 1, f + ".iterations");
  at_most(a.iterations, 10000, f + ".iterations");
  finite(a.reject_norm_factor, f + ".reject_norm_factor");
  check(a.reject_norm_factor == 0 || a.reject_norm_factor >= 1, f + ".reject_norm_factor",
        "must be 0 (off) or >= 1, got " + show(a.reject_norm_factor));
  finite(a.weight_cap, f + ".weight_cap");
  check(a.weight_cap == 0 || a.weight_cap >= 1, f + ".weight_cap",
        "must be 0 (no cap) or >= 1, got " + show(a.weight_cap));
}

void validate_outer(const OuterSpec& o) {
  const std::string f = "job.outer";
  finite(o.lr, f + ".lr");
  check(o.lr > 0 && o.lr <= 2, f + ".lr", "must be in (0, 2], got " + show(o.lr));
  finite(o.momentum, f + ".momentum");
  check(o.momentum >= 0 && o.momentum < 1, f + ".momentum",
        "must be in [0, 1), got " + show(o.momentum));
  at_least(o.anchor_sync_every, 1, f + ".anchor_sync_every");
}

void validate_spot_checks(const SpotCheckSpec& s) {
  const std::string f = "job.spot_checks";
  finite(s.rate, f + ".rate");
  check(s.rate >= 0 && s.rate <= 1, f + ".rate", "must be in [0, 1], got " + show(s.rate));
  at_least(s.probation, 0, f + ".probation");
  at_most(s.probation, 1000, f + ".probation");
  finite(s.tolerance, f + ".tolerance");
  check(s.tolerance > 0 && s.tolerance < 10, f + ".tolerance",
        "must be in (0, 10), got " + show(s.tolerance));
  at_least(s.failures_to_catch, 1, f + ".failures_to_catch");
  at_most(s.failures_to_catch, 1000, f + ".failures_to_catch");
}

// The rank is checked even when the kind is none, so a spec that turns compression on later
// cannot start from a rank that was never valid.
void validate_boundary(const BoundarySpec& b, const ModelSpec& model) {
  const std::string f = "job.boundary";
  at_least(b.rank, 1, f + ".rank");
  if (b.kind == BoundaryKind::none) return;
  const auto* gpt = std::get_if<GptSpec>(&model.arch);
  // CNN and MLP activations change shape from boundary to boundary and have no token axis to
  // stack, so one rank would mean a different compression at each cut; refused, not guessed.
  check(gpt != nullptr, f + ".kind",
        "lowrank needs a gpt model (its boundaries all carry [samples, tokens, width]), got " +
            std::string(to_string(model.kind())));
  check(b.rank < gpt->width, f + ".rank",
        "must be below the model's width " + show(gpt->width) + ", got " + show(b.rank));
}

}  // namespace

void validate(const ModelSpec& model) { validate_model(model); }

void validate(const JobSpec& spec) {
  check(!spec.id.empty() && spec.id.size() <= 64, "job.id",
        "must be 1..64 characters, got " + show(json(spec.id)));
  for (char c : spec.id)
    check((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-',
          "job.id", "may contain only a-z, 0-9, '.', '_' and '-', got " + show(json(spec.id)));
  validate_model(spec.model);
  validate_dataset(spec.dataset, spec.model);
  validate_optimizer(spec.optimizer);
  at_least(spec.micro_batch_size, 1, "job.micro_batch_size");
  at_least(spec.grad_accumulation, 1, "job.grad_accumulation");
  at_least(spec.staleness, 1, "job.staleness");
  at_least(spec.staleness_lr_anneal_steps, 0, "job.staleness_lr_anneal_steps");
  finite(spec.nesterov_lookahead, "job.nesterov_lookahead");
  check(spec.nesterov_lookahead >= 0 && spec.nesterov_lookahead < 1, "job.nesterov_lookahead",
        "must be in [0, 1) (0: off), got " + show(spec.nesterov_lookahead));
  finite(spec.max_grad_norm, "job.max_grad_norm");
  check(spec.max_grad_norm >= 0, "job.max_grad_norm",
        "must be >= 0 (0: off), got " + show(spec.max_grad_norm));
  at_least(spec.averaging_period, 1, "job.averaging_period");
  at_least(spec.average_optimizer_state_every, 0, "job.average_optimizer_state_every");
  check(spec.averaging_max_group == 0 || spec.averaging_max_group >= 2, "job.averaging_max_group",
        "must be 0 (one ring) or >= 2 pipelines, got " + show(spec.averaging_max_group));
  validate_aggregator(spec.aggregator);
  validate_averaging(spec.averaging, verifies_aggregation(spec), "job.averaging");
  validate_outer(spec.outer);
  validate_spot_checks(spec.spot_checks);
  validate_boundary(spec.boundary, spec.model);
}

JobSpec parse_job_spec(std::string_view text, const std::filesystem::path& base_dir) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers like 1e8888
    throw JobSpecError(std::string("job: invalid JSON: ") + e.what());
  }
  ObjectReader r(doc, "job");
  JobSpec spec;
  spec.id = r.string("id", std::nullopt);
  spec.name = r.string("name", spec.id);
  spec.model = parse_model(ObjectReader(r.require("model"), "job.model"));
  spec.dataset = parse_dataset(ObjectReader(r.require("dataset"), "job.dataset"), base_dir);
  spec.optimizer = parse_optimizer(ObjectReader(r.require("optimizer"), "job.optimizer"));
  spec.micro_batch_size = r.integer("micro_batch_size", spec.micro_batch_size);
  spec.grad_accumulation = r.integer("grad_accumulation", spec.grad_accumulation);
  spec.staleness = r.integer("staleness", spec.staleness);
  spec.weight_prediction = r.boolean("weight_prediction", spec.weight_prediction);
  spec.staleness_lr_anneal_steps =
      r.integer("staleness_lr_anneal_steps", spec.staleness_lr_anneal_steps);
  spec.nesterov_lookahead = r.number("nesterov_lookahead", spec.nesterov_lookahead);
  spec.max_grad_norm = r.number("max_grad_norm", spec.max_grad_norm);
  spec.codec = r.choice<Codec>("codec", spec.codec, kCodecs);
  if (const auto* boundary = r.find("boundary"))
    spec.boundary = parse_boundary(ObjectReader(*boundary, "job.boundary"));
  spec.precision = r.choice<Precision>("precision", spec.precision, kPrecisions);
  spec.activation_checkpointing =
      r.boolean("activation_checkpointing", spec.activation_checkpointing);
  spec.averaging_period = r.integer("averaging_period", spec.averaging_period);
  spec.average_optimizer_state_every =
      r.integer("average_optimizer_state_every", spec.average_optimizer_state_every);
  spec.averaging_max_group = r.integer("averaging_max_group", spec.averaging_max_group);
  if (const auto* aggregator = r.find("aggregator"))
    spec.aggregator = parse_aggregator(ObjectReader(*aggregator, "job.aggregator"));
  if (const auto* a = r.find("averaging")) spec.averaging = parse_averaging(*a, "job.averaging");
  if (const auto* outer = r.find("outer"))
    spec.outer = parse_outer(ObjectReader(*outer, "job.outer"));
  if (const auto* spot_checks = r.find("spot_checks"))
    spec.spot_checks = parse_spot_checks(ObjectReader(*spot_checks, "job.spot_checks"));
  spec.seed = r.unsigned_integer("seed", spec.seed);
  r.finish();
  validate(spec);
  return spec;
}

JobSpec load_job_spec(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw JobSpecError(path.string() + ": cannot open job spec");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw JobSpecError(path.string() + ": cannot read job spec");
  try {
    return parse_job_spec(text.str(), std::filesystem::absolute(path).parent_path());
  } catch (const JobSpecError& e) {
    throw JobSpecError(path.string() + ": " + e.what());
  }
}

std::string to_json(const JobSpec& spec, int indent) {
  using ojson = nlohmann::ordered_json;
  ojson model;
  model["kind"] = to_string(spec.model.kind());
  std::visit(
      [&](const auto& arch) {
        using T = std::decay_t<decltype(arch)>;
        if constexpr (std::is_same_v<T, GptSpec>) {
          model["vocab"] = arch.vocab;
          model["context"] = arch.context;
          model["width"] = arch.width;
          model["depth"] = arch.depth;
          model["heads"] = arch.heads;
          model["mlp_ratio"] = arch.mlp_ratio;
          model["dropout"] = arch.dropout;
        } else if constexpr (std::is_same_v<T, CnnSpec>) {
          model["channels"] = arch.channels;
          model["image_size"] = arch.image_size;
          model["classes"] = arch.classes;
          model["widths"] = arch.widths;
        } else {
          model["input"] = arch.input;
          model["hidden"] = arch.hidden;
          model["output"] = arch.output;
        }
      },
      spec.model.arch);

  ojson dataset;
  dataset["kind"] = to_string(spec.dataset.kind);
  dataset["path"] = spec.dataset.path.generic_string();
  if (spec.dataset.kind == DatasetKind::images)
    dataset["labels"] = spec.dataset.labels.generic_string();
  else
    dataset["stride"] = spec.dataset.stride;
  if (spec.dataset.kind == DatasetKind::text) dataset["format"] = to_string(spec.dataset.format);
  dataset["shuffle"] = spec.dataset.shuffle;
  dataset["held_out"] = spec.dataset.held_out;

  const auto& o = spec.optimizer;
  ojson optimizer;
  optimizer["kind"] = to_string(o.kind);
  optimizer["lr"] = o.lr;
  optimizer["weight_decay"] = o.weight_decay;
  if (o.kind == OptimizerKind::adamw) {
    optimizer["betas"] = o.betas;
    optimizer["eps"] = o.eps;
  } else {
    optimizer["momentum"] = o.momentum;
    optimizer["nesterov"] = o.nesterov;
  }
  optimizer["schedule"] = ojson{{"warmup_steps", o.schedule.warmup_steps},
                                {"decay", to_string(o.schedule.decay)},
                                {"total_steps", o.schedule.total_steps},
                                {"min_lr_ratio", o.schedule.min_lr_ratio}};

  ojson doc;
  doc["id"] = spec.id;
  doc["name"] = spec.name;
  doc["model"] = std::move(model);
  doc["dataset"] = std::move(dataset);
  doc["optimizer"] = std::move(optimizer);
  doc["micro_batch_size"] = spec.micro_batch_size;
  doc["grad_accumulation"] = spec.grad_accumulation;
  doc["staleness"] = spec.staleness;
  doc["weight_prediction"] = spec.weight_prediction;
  doc["staleness_lr_anneal_steps"] = spec.staleness_lr_anneal_steps;
  // Written only when set, so nodes that predate the field (they refuse unknown keys) still
  // read a job that does not use it.
  if (spec.nesterov_lookahead != 0) doc["nesterov_lookahead"] = spec.nesterov_lookahead;
  doc["max_grad_norm"] = spec.max_grad_norm;
  doc["codec"] = to_string(spec.codec);
  // Written only when set: a default spec's JSON stays what it was, and nodes that predate
  // the field (whose parsing refuses unknown keys) still read it.
  if (spec.boundary != BoundarySpec{})
    doc["boundary"] = ojson{{"kind", to_string(spec.boundary.kind)}, {"rank", spec.boundary.rank}};
  doc["precision"] = to_string(spec.precision);
  doc["activation_checkpointing"] = spec.activation_checkpointing;
  doc["averaging_period"] = spec.averaging_period;
  doc["average_optimizer_state_every"] = spec.average_optimizer_state_every;
  if (spec.averaging_max_group != 0) doc["averaging_max_group"] = spec.averaging_max_group;
  ojson aggregator;
  aggregator["kind"] = to_string(spec.aggregator.kind);
  if (spec.aggregator.kind == AggregatorKind::centered_clip) {
    aggregator["tau"] = spec.aggregator.tau;
    aggregator["iterations"] = spec.aggregator.iterations;
    aggregator["reject_norm_factor"] = spec.aggregator.reject_norm_factor;
    aggregator["weight_cap"] = spec.aggregator.weight_cap;
  }
  doc["aggregator"] = std::move(aggregator);
  if (spec.averaging != AveragingSpec{}) doc["averaging"] = ojson::parse(to_json(spec.averaging));
  doc["outer"] = ojson{{"lr", spec.outer.lr},
                       {"momentum", spec.outer.momentum},
                       {"error_feedback", spec.outer.error_feedback},
                       {"anchor_sync_every", spec.outer.anchor_sync_every}};
  ojson spot_checks;
  spot_checks["rate"] = spec.spot_checks.rate;
  spot_checks["probation"] = spec.spot_checks.probation;
  spot_checks["tolerance"] = spec.spot_checks.tolerance;
  spot_checks["failures_to_catch"] = spec.spot_checks.failures_to_catch;
  doc["spot_checks"] = std::move(spot_checks);
  doc["seed"] = spec.seed;
  return doc.dump(indent);
}

double learning_rate_at(const OptimizerSpec& o, int64_t step) {
  if (step < 0)
    throw std::invalid_argument("learning_rate_at: step must be >= 0, got " + show(step));
  const auto& s = o.schedule;
  if (step < s.warmup_steps)  // reaches the full rate at the last warm-up step, never 0
    return o.lr * double(step + 1) / double(s.warmup_steps);
  if (s.decay == LrDecay::constant) return o.lr;
  const double progress =
      std::min(1.0, double(step - s.warmup_steps) / double(s.total_steps - s.warmup_steps));
  const double floor = o.lr * s.min_lr_ratio;
  if (s.decay == LrDecay::linear) return o.lr - (o.lr - floor) * progress;
  return floor + (o.lr - floor) * 0.5 * (1.0 + std::cos(std::numbers::pi * progress));
}

std::string_view to_string(ModelKind v) { return enum_name(v, kModelKinds); }
std::string_view to_string(DatasetKind v) { return enum_name(v, kDatasetKinds); }
std::string_view to_string(TextFormat v) { return enum_name(v, kTextFormats); }
std::string_view to_string(OptimizerKind v) { return enum_name(v, kOptimizerKinds); }
std::string_view to_string(LrDecay v) { return enum_name(v, kDecays); }
std::string_view to_string(Codec v) { return enum_name(v, kCodecs); }
std::string_view to_string(BoundaryKind v) { return enum_name(v, kBoundaryKinds); }
std::string_view to_string(Precision v) { return enum_name(v, kPrecisions); }
std::string_view to_string(AggregatorKind v) { return enum_name(v, kAggregatorKinds); }

}  // namespace rookery::job
