#include "reduce/centered_clip.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>

#include "reduce/simd.hpp"

namespace rookery::reduce {

namespace {

constexpr std::size_t kBlock = 256;  // coordinates per block: n rows of it stay in L1
static_assert(kBlock % kLanes == 0);

using Comparators = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// Batcher's odd-even merge sort for n inputs (the power-of-two network with every comparator
// that touches a position >= n dropped: padding those with +inf, they would never move),
// pruned to the comparators the two middle outputs depend on.
Comparators median_network(std::uint32_t n) {
  std::uint32_t size = 1;
  while (size < n) size <<= 1;
  Comparators all;
  for (std::uint32_t p = 1; p < size; p <<= 1) {
    for (std::uint32_t k = p; k >= 1; k >>= 1) {
      for (std::uint32_t j = k % p; j + k < size; j += 2 * k) {
        for (std::uint32_t i = 0; i < k && i + j + k < size; ++i) {
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p) && i + j + k < n)
            all.emplace_back(i + j, i + j + k);
        }
      }
    }
  }
  std::vector<bool> needed(n, false);
  needed[(n - 1) / 2] = needed[n / 2] = true;
  Comparators kept;
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    if (needed[it->first] || needed[it->second]) {
      kept.push_back(*it);
      needed[it->first] = needed[it->second] = true;
    }
  }
  std::reverse(kept.begin(), kept.end());
  return kept;
}

// Per-call working memory, reused across calls on the same thread (the ring's threads).
struct Scratch {
  std::vector<float> rows;        // n4 x kBlock (n4 = n rounded up to 4; the padding rows stay 0)
  std::vector<float> median;      // the slice's coordinate-wise median (when it is the centre)
  std::vector<double> gram;       // n4 x n4, the upper triangle valid
  std::vector<float> gram_lanes;  // n4 x n4 x kLanes, accumulate_gram's lane-wise partial sums
  std::size_t stride = 0;         // n4
  std::vector<double> norm2;      // n
};

std::size_t round_up4(std::size_t n) { return (n + 3) & ~std::size_t(3); }

// Adds the Gram matrix of one block of centred rows (n4 rows of `vecs` vectors, zero padded)
// to the lane-wise accumulators `acc` (n4 x n4 vectors, upper triangle; flush_gram folds
// them into the double matrix every kFlushBlocks blocks, so no horizontal sums run per
// block). Register tiles of 2 rows x 4 rows: six loads feed eight multiply-adds. Entries a
// little below the diagonal inside a tile are computed too and never read.
template <std::size_t kTileRows>
[[gnu::always_inline]] inline void accumulate_gram(const float* rows, std::size_t n4,
                                                   std::size_t vecs, float* acc) {
  for (std::size_t a = 0; a < n4; a += kTileRows) {
    for (std::size_t b = a & ~std::size_t(3); b < n4; b += 4) {
      const float* rb = rows + b * kBlock;
      f8 s[kTileRows][4];
      for (std::size_t i = 0; i < kTileRows; ++i)
        for (std::size_t j = 0; j < 4; ++j) s[i][j] = load(acc + ((a + i) * n4 + b + j) * kLanes);
      for (std::size_t v = 0; v < vecs; ++v) {
        const std::size_t o = v * kLanes;
        const f8 y0 = load(rb + o), y1 = load(rb + kBlock + o), y2 = load(rb + 2 * kBlock + o),
                 y3 = load(rb + 3 * kBlock + o);
        for (std::size_t i = 0; i < kTileRows; ++i) {
          const f8 x = load(rows + (a + i) * kBlock + o);
          s[i][0] += x * y0;
          s[i][1] += x * y1;
          s[i][2] += x * y2;
          s[i][3] += x * y3;
        }
      }
      for (std::size_t i = 0; i < kTileRows; ++i)
        for (std::size_t j = 0; j < 4; ++j) store(acc + ((a + i) * n4 + b + j) * kLanes, s[i][j]);
    }
  }
}

// 4 x 4 register tiles where there are 32 vector registers (AVX-512), 2 x 4 where there are 16.
[[gnu::always_inline]] inline void accumulate_gram(const float* rows, std::size_t n4,
                                                   std::size_t vecs, float* acc) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool wide = __builtin_cpu_supports("avx512f");
  if (wide) return accumulate_gram<4>(rows, n4, vecs, acc);
#endif
  accumulate_gram<2>(rows, n4, vecs, acc);
}

// Blocks summed lane-wise in f32 before a flush to double: 16 x 256 coordinates, so each lane
// adds at most 512 products in f32.
constexpr std::size_t kFlushBlocks = 16;

[[gnu::always_inline]] inline void flush_gram(float* acc, std::size_t n4, double* gram) {
  for (std::size_t a = 0; a < n4; ++a) {
    for (std::size_t b = a & ~std::size_t(3); b < n4; ++b) {
      float* lanes = acc + (a * n4 + b) * kLanes;
      gram[a * n4 + b] += hsum(load(lanes));
      store(lanes, splat(0.f));
    }
  }
}

// A member's squared norm over one block: in f32 lanes, or in double where f32 overflowed
// or the block holds a NaN/Inf (then the sum is that, and the member is rejected).
[[gnu::always_inline]] inline double block_norm2(const float* src, std::size_t len, f8 acc) {
  const float partial = hsum(acc);
  if (std::isfinite(partial)) return partial;
  double d = 0;
  for (std::size_t k = 0; k < len; ++k) d += double(src[k]) * double(src[k]);
  return d;
}

// One blocked pass over the members `active` about a given centre (the caller's own values):
// per member the squared norm and the Gram matrix of (g_i - centre). No sorting: the
// coordinate-wise median is not needed when the centre is known to be honest.
ROOKERY_SIMD_CLONES
void gram_about(std::span<const Contribution> c, const std::vector<std::uint32_t>& active,
                const float* centre, std::size_t len_total, Scratch& s) {
  const std::size_t n = active.size(), n4 = s.stride;
  float* rows = s.rows.data();
  for (std::size_t k0 = 0; k0 < len_total; k0 += kBlock) {
    const std::size_t len = std::min(kBlock, len_total - k0);
    const std::size_t full = len / kLanes, vecs = (len + kLanes - 1) / kLanes;
    const float* m = centre + k0;
    for (std::size_t a = 0; a < n; ++a) {
      const float* src = c[active[a]].values.data() + k0;
      float* row = rows + a * kBlock;
      f8 acc = splat(0.f);
      for (std::size_t v = 0; v < full; ++v) {
        const f8 x = load(src + v * kLanes);
        acc += x * x;
        store(row + v * kLanes, x - load(m + v * kLanes));
      }
      for (std::size_t k = full * kLanes; k < vecs * kLanes; ++k) {
        const float x = k < len ? src[k] : 0.f;
        acc[0] += x * x;
        row[k] = k < len ? x - m[k] : 0.f;
      }
      s.norm2[a] += block_norm2(src, len, acc);
    }
    accumulate_gram(rows, n4, vecs, s.gram_lanes.data());
    if (k0 / kBlock % kFlushBlocks == kFlushBlocks - 1)
      flush_gram(s.gram_lanes.data(), n4, s.gram.data());
  }
  flush_gram(s.gram_lanes.data(), n4, s.gram.data());
}

// One blocked pass over the members `active` (indices into `c`): per member the squared norm,
// the coordinate-wise median into `median`, and the Gram matrix of (g_i - median).
// Returns false when the median has a non-finite coordinate (a majority non-finite there).
ROOKERY_SIMD_CLONES
bool median_and_gram(std::span<const Contribution> c, const std::vector<std::uint32_t>& active,
                     const Comparators& network, Scratch& s) {
  const std::size_t n = active.size(), len_total = s.median.size(), n4 = s.stride;
  const std::uint32_t lo = std::uint32_t((n - 1) / 2), hi = std::uint32_t(n / 2);
  float* rows = s.rows.data();
  bool finite_median = true;
  alignas(64) float mblock[kBlock];
  const f8 inf = splat(std::numeric_limits<float>::infinity());
  for (std::size_t k0 = 0; k0 < len_total; k0 += kBlock) {
    const std::size_t len = std::min(kBlock, len_total - k0);
    const std::size_t vecs = (len + kLanes - 1) / kLanes;
    // Copy each member's block (zero padded), its squared norm, and NaN -> +inf for the network.
    for (std::size_t a = 0; a < n; ++a) {
      const float* src = c[active[a]].values.data() + k0;
      float* row = rows + a * kBlock;
      std::memcpy(row, src, len * sizeof(float));
      std::memset(row + len, 0, (vecs * kLanes - len) * sizeof(float));
      f8 acc = splat(0.f);
      for (std::size_t v = 0; v < vecs; ++v) {
        const f8 x = load(row + v * kLanes);
        acc += x * x;
        store(row + v * kLanes, x == x ? x : inf);
      }
      s.norm2[a] += block_norm2(src, len, acc);
    }
    for (const auto& [x, y] : network) {
      float* ra = rows + x * kBlock;
      float* rb = rows + y * kBlock;
      for (std::size_t v = 0; v < vecs; ++v) {
        const f8 p = load(ra + v * kLanes), q = load(rb + v * kLanes);
        store(ra + v * kLanes, p < q ? p : q);
        store(rb + v * kLanes, p < q ? q : p);
      }
    }
    {
      const float* rl = rows + lo * kBlock;
      const float* rh = rows + hi * kBlock;
      f8 check = splat(0.f);
      for (std::size_t v = 0; v < vecs; ++v) {
        const f8 m = (load(rl + v * kLanes) + load(rh + v * kLanes)) * 0.5f;
        store(mblock + v * kLanes, m);
        check += m - m;  // NaN where m is not finite
      }
      if (!(hsum(check) == 0.f)) finite_median = false;
      std::memcpy(s.median.data() + k0, mblock, len * sizeof(float));
    }
    // Centre the original values on the median, then accumulate the Gram matrix.
    const std::size_t full = len / kLanes;
    for (std::size_t a = 0; a < n; ++a) {
      const float* src = c[active[a]].values.data() + k0;
      float* row = rows + a * kBlock;
      for (std::size_t v = 0; v < full; ++v)
        store(row + v * kLanes, load(src + v * kLanes) - load(mblock + v * kLanes));
      for (std::size_t k = full * kLanes; k < vecs * kLanes; ++k)
        row[k] = k < len ? src[k] - mblock[k] : 0.f;
    }
    accumulate_gram(rows, n4, vecs, s.gram_lanes.data());
    if (k0 / kBlock % kFlushBlocks == kFlushBlocks - 1)
      flush_gram(s.gram_lanes.data(), n4, s.gram.data());
  }
  flush_gram(s.gram_lanes.data(), n4, s.gram.data());
  return finite_median;
}

// out = centre + sum_a beta_a (g_a - centre). `centre_member`: the member whose values are the
// centre (its term is 0 and skipped, so out may be that member's storage).
ROOKERY_SIMD_CLONES
void combine(std::span<const Contribution> c, const std::vector<std::uint32_t>& active,
             const std::vector<double>& beta, const float* centre,
             std::optional<std::uint32_t> centre_member, std::span<float> out) {
  const std::size_t len_total = out.size();
  for (std::size_t k0 = 0; k0 < len_total; k0 += kBlock) {
    const std::size_t len = std::min(kBlock, len_total - k0), full = len / kLanes;
    float* o = out.data() + k0;
    const float* m = centre + k0;
    std::memcpy(o, m, len * sizeof(float));
    for (std::size_t a = 0; a < active.size(); ++a) {
      if (beta[a] == 0 || active[a] == centre_member) continue;
      const float b = float(beta[a]);
      const float* src = c[active[a]].values.data() + k0;
      const f8 bv = splat(b);
      for (std::size_t v = 0; v < full; ++v) {
        const std::size_t k = v * kLanes;
        store(o + k, load(o + k) + bv * (load(src + k) - load(m + k)));
      }
      for (std::size_t k = full * kLanes; k < len; ++k) o[k] += b * (src[k] - m[k]);
    }
  }
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t h = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + long(h), v.end());
  if (v.size() % 2) return v[h];
  const double upper = v[h];
  return 0.5 * (*std::max_element(v.begin(), v.begin() + long(h)) + upper);
}

thread_local Scratch tls_scratch;

}  // namespace

void validate(const CenteredClipOptions& o) {
  auto need = [](bool ok, const char* field, const std::string& what) {
    if (!ok) throw std::invalid_argument(std::string("centered clip: ") + field + " " + what);
  };
  need(std::isfinite(o.tau) && o.tau > 0, "tau",
       "must be a positive finite number, got " + std::to_string(o.tau));
  need(o.max_iterations >= 1, "max_iterations", "must be >= 1");
  need(std::isfinite(o.tolerance) && o.tolerance > 0, "tolerance",
       "must be a positive finite number, got " + std::to_string(o.tolerance));
  need(std::isfinite(o.reject_norm_factor) &&
           (o.reject_norm_factor == 0 || o.reject_norm_factor >= 1),
       "reject_norm_factor",
       "must be 0 (off) or >= 1, got " + std::to_string(o.reject_norm_factor));
  need(std::isfinite(o.weight_cap) && (o.weight_cap == 0 || o.weight_cap >= 1), "weight_cap",
       "must be 0 (off) or >= 1, got " + std::to_string(o.weight_cap));
  need(o.hard_clip_factor > 0 && o.hard_clip_factor <= 1, "hard_clip_factor",
       "must be in (0, 1], got " + std::to_string(o.hard_clip_factor));
}

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::accepted:
      return "accepted";
    case Verdict::clipped:
      return "clipped";
    case Verdict::clipped_hard:
      return "clipped-hard";
    case Verdict::rejected_non_finite:
      return "rejected-non-finite";
    case Verdict::rejected_weight:
      return "rejected-weight";
    case Verdict::rejected_norm:
      return "rejected-norm";
  }
  return "?";
}

void AggregationTally::on_aggregate(const AggregationReport& report) {
  std::lock_guard lock(mutex_);
  ++calls_;
  for (const auto& m : report.members) {
    auto& c = counts_[m.member];
    ++c.seen;
    if (is_rejected(m.verdict)) ++c.rejected;
    if (m.verdict == Verdict::clipped_hard) ++c.clipped_hard;
    if (m.verdict == Verdict::clipped || m.verdict == Verdict::clipped_hard) ++c.clipped;
  }
}

std::map<std::string, AggregationTally::Counts> AggregationTally::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

std::uint64_t AggregationTally::calls() const {
  std::lock_guard lock(mutex_);
  return calls_;
}

CenteredClip::CenteredClip(CenteredClipOptions options,
                           std::shared_ptr<AggregationObserver> observer)
    : options_(options), observer_(std::move(observer)) {
  validate(options_);
  if (observer_) untallied_ = std::make_shared<const CenteredClip>(options_);
}

void CenteredClip::aggregate(std::span<const Contribution> contributions,
                             std::span<float> out) const {
  (void)aggregate_with_report(contributions, out);
}

AggregationReport CenteredClip::aggregate_with_report(std::span<const Contribution> c,
                                                      std::span<float> out) const {
  if (c.empty()) throw std::invalid_argument("centered clip: no contributions");
  for (const auto& x : c) {
    if (x.values.size() != out.size())
      throw std::invalid_argument("centered clip: slices differ in length");
  }
  const std::size_t total = c.size(), len = out.size();
  AggregationReport report;
  report.values = len;
  report.members.resize(total);
  for (std::size_t i = 0; i < total; ++i) report.members[i].member = std::string(c[i].member);

  // Weights first: a member claiming a weight that is not a positive finite number is out.
  std::vector<std::uint32_t> active;
  for (std::uint32_t i = 0; i < total; ++i) {
    if (std::isfinite(c[i].weight) && c[i].weight > 0) {
      active.push_back(i);
    } else {
      report.members[i].verdict = Verdict::rejected_weight;
    }
  }

  // The centre the arithmetic runs about: the caller's own values where it passed them (the
  // ring's slice owner always does; an honest node trusts itself), else the coordinate-wise
  // median, which needs a sorting network per coordinate and so costs more.
  std::optional<std::uint32_t> own;
  for (auto i : active) {
    if (c[i].own) own = i;
  }
  Scratch& s = tls_scratch;
  auto pass = [&](const std::vector<std::uint32_t>& members, bool about_own) {
    const std::size_t n = members.size();
    s.stride = round_up4(n);
    s.rows.assign(s.stride * kBlock, 0.f);
    s.gram.assign(s.stride * s.stride, 0.0);
    s.gram_lanes.assign(s.stride * s.stride * kLanes, 0.f);
    s.norm2.assign(n, 0.0);
    if (about_own) {
      gram_about(c, members, c[*own].values.data(), len, s);
      return true;
    }
    s.median.resize(len);
    return median_and_gram(c, members, median_network(std::uint32_t(n)), s);
  };

  // Norms and Gram (and the median, when it is the centre) over every member with a valid
  // weight; the rejected ones are outliers the median ignores unless they are a majority
  // somewhere, when it is recomputed.
  std::vector<std::uint32_t> accepted;
  bool about_own = own.has_value();
  if (!active.empty()) {
    const bool finite_median = pass(active, about_own);
    std::vector<double> finite_norms;
    for (std::size_t a = 0; a < active.size(); ++a) {
      auto& m = report.members[active[a]];
      m.norm = std::sqrt(s.norm2[a]);
      if (std::isfinite(m.norm)) finite_norms.push_back(m.norm);
    }
    report.median_norm = median_of(finite_norms);
    std::vector<std::size_t> keep;  // positions in `active`
    for (std::size_t a = 0; a < active.size(); ++a) {
      auto& m = report.members[active[a]];
      if (!std::isfinite(m.norm)) {
        m.verdict = Verdict::rejected_non_finite;
      } else if (options_.reject_norm_factor > 0 && report.median_norm > 0 &&
                 m.norm > options_.reject_norm_factor * report.median_norm) {
        m.verdict = Verdict::rejected_norm;
      } else {
        keep.push_back(a);
      }
    }
    for (auto a : keep) accepted.push_back(active[a]);
    const bool own_rejected =
        about_own && std::find(accepted.begin(), accepted.end(), *own) == accepted.end();
    if (own_rejected) about_own = false;  // our own values failed the checks: trust the median
    if (!accepted.empty() &&
        (own_rejected ||
         (!about_own && (!finite_median || accepted.size() < active.size() / 2 + 1)))) {
      // The rejected were a majority somewhere: the median and Gram of the accepted alone.
      pass(accepted, about_own);
    } else if (accepted.size() < active.size()) {
      // Keep the pass's Gram, restricted to the accepted members.
      const std::size_t stride = s.stride, na = keep.size();
      std::vector<double> g(na * na);
      for (std::size_t p = 0; p < na; ++p) {
        for (std::size_t q = p; q < na; ++q) g[p * na + q] = s.gram[keep[p] * stride + keep[q]];
      }
      s.gram = std::move(g);
      s.stride = na;
    }
  }
  if (accepted.empty()) {
    if (observer_) observer_->on_aggregate(report);
    throw std::invalid_argument("centered clip: every contribution was rejected");
  }

  const std::size_t n = accepted.size();
  std::vector<double> H(n * n);
  for (std::size_t p = 0; p < n; ++p) {
    for (std::size_t q = p; q < n; ++q) H[p * n + q] = H[q * n + p] = s.gram[p * s.stride + q];
  }
  for (double h : H) {
    if (!std::isfinite(h))
      throw std::invalid_argument("centered clip: values too large for f32 products");
  }

  // Weights, capped at weight_cap x the median weight.
  std::vector<double> w(n);
  {
    std::vector<double> ws;
    for (auto i : accepted) ws.push_back(c[i].weight);
    const double cap = options_.weight_cap > 0 ? options_.weight_cap * median_of(ws)
                                               : std::numeric_limits<double>::infinity();
    for (std::size_t p = 0; p < n; ++p) w[p] = std::min(c[accepted[p]].weight, cap);
  }
  double W = 0;
  for (double x : w) W += x;

  // x = centre + sum_p beta_p h_p (h_p = g_p - centre); ||g_p - x||^2 = H_pp - 2 (H beta)_p + beta' H beta.
  std::vector<double> beta(n, 0.0), Hb(n), dist(n), step(n), cw(n);
  auto distances = [&] {
    double bHb = 0;
    for (std::size_t p = 0; p < n; ++p) {
      double acc = 0;
      for (std::size_t q = 0; q < n; ++q) acc += H[p * n + q] * beta[q];
      Hb[p] = acc;
      bHb += beta[p] * acc;
    }
    for (std::size_t p = 0; p < n; ++p)
      dist[p] = std::sqrt(std::max(0.0, H[p * n + p] - 2 * Hb[p] + bHb));
  };
  // ||sum_p v_p h_p|| = sqrt(v' H v): how far a step in coefficient space moves x.
  auto length = [&](const std::vector<double>& v) {
    double norm2 = 0;
    for (std::size_t p = 0; p < n; ++p) {
      double acc = 0;
      for (std::size_t q = 0; q < n; ++q) acc += H[p * n + q] * v[q];
      norm2 += v[p] * acc;
    }
    return std::sqrt(std::max(0.0, norm2));
  };
  distances();  // from the centre (beta = 0)
  if (about_own) {
    // The start: the weighted geometric median, by Weiszfeld's iteration in coefficient space
    // from the weighted mean (n x n work per step, nothing read again; not from a member's
    // own point, where Weiszfeld's step would stay). Like the coordinate-wise median it cannot
    // be moved far by a minority, and it does not depend on the axes.
    double spread = 0;
    for (double d : dist) spread = std::max(spread, d);
    const double floor = 1e-12 * spread;
    for (std::size_t p = 0; p < n; ++p) beta[p] = w[p] / W;
    distances();
    std::vector<double> next(n);
    for (int it = 0; it < 1000 && spread > 0; ++it) {
      double sum = 0;
      for (std::size_t p = 0; p < n; ++p) sum += next[p] = w[p] / std::max(dist[p], floor);
      for (std::size_t p = 0; p < n; ++p) step[p] = next[p] / sum - beta[p];
      const double moved = length(step);
      for (std::size_t p = 0; p < n; ++p) beta[p] += step[p];
      distances();
      if (moved <= 1e-9 * spread) break;
    }
  }
  report.tau = options_.tau * median_of(dist);
  const double tau = report.tau;

  auto clip = [&](double d) { return d <= tau ? 1.0 : tau / d; };
  for (std::uint32_t it = 0; it < options_.max_iterations; ++it) {
    distances();
    double C = 0;
    for (std::size_t p = 0; p < n; ++p) C += cw[p] = w[p] * clip(dist[p]);
    for (std::size_t p = 0; p < n; ++p) step[p] = (cw[p] - C * beta[p]) / W;
    const double moved = length(step);
    for (std::size_t p = 0; p < n; ++p) beta[p] += step[p];
    report.iterations = it + 1;
    if (moved <= options_.tolerance * tau) {
      report.converged = true;
      break;
    }
  }
  distances();
  for (std::size_t p = 0; p < n; ++p) {
    auto& m = report.members[accepted[p]];
    m.weight = w[p];
    m.distance = dist[p];
    m.clip_factor = clip(dist[p]);
    m.verdict = m.clip_factor >= 1                           ? Verdict::accepted
                : m.clip_factor >= options_.hard_clip_factor ? Verdict::clipped
                                                             : Verdict::clipped_hard;
  }
  const float* centre = about_own ? c[*own].values.data() : s.median.data();
  if (about_own && centre < out.data() + out.size() && out.data() < centre + len) {
    s.median.assign(centre, centre + len);  // out is our own values: combine from a copy
    centre = s.median.data();
  }
  combine(c, accepted, beta, centre, about_own ? own : std::nullopt, out);
  if (observer_) observer_->on_aggregate(report);
  return report;
}

std::shared_ptr<const Aggregator> make_aggregator(const job::AggregatorSpec& spec,
                                                  std::shared_ptr<AggregationObserver> observer) {
  switch (spec.kind) {
    case job::AggregatorKind::mean:
      return std::make_shared<WeightedMean>();
    case job::AggregatorKind::centered_clip: {
      CenteredClipOptions o;
      o.tau = spec.tau;
      if (spec.iterations < 1 ||
          spec.iterations > std::int64_t(std::numeric_limits<std::uint32_t>::max()))
        throw std::invalid_argument("centered clip: iterations must be >= 1, got " +
                                    std::to_string(spec.iterations));
      o.max_iterations = std::uint32_t(spec.iterations);
      o.reject_norm_factor = spec.reject_norm_factor;
      o.weight_cap = spec.weight_cap;
      return std::make_shared<CenteredClip>(o, std::move(observer));
    }
  }
  throw std::invalid_argument("unknown aggregator kind");
}

}  // namespace rookery::reduce
