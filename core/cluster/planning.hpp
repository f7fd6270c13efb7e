// The coordinator's pure planning: how much memory a shard needs, where to cut a pipeline's
// chain of blocks and in which order to put its nodes, and how to group a crowd of nodes into
// pipelines. No network, no torch, no clock: plain structs in, plain structs out, so every
// decision can be tested against brute force and compared against Ravnest's plan.
//
// ---- Memory model (a hard constraint) ------------------------------------------------------
// A node holding blocks [a, b) of the chain needs, in bytes,
//
//   P·(param_bytes + grad_bytes + optimizer_bytes_per_param + staleness·param_bytes)
//   + staleness · micro_batch · ( in(a) + Σ_{i∈[a,b)} (activation_i + stash_i) )
//
// where P = Σ params of its blocks, in(a) = activation_{a-1} (the received input it keeps for
// its backward; 0 for the first stage, whose input is the data), activation_i the output of
// block i per sample (each output is the next block's saved input, and the last one feeds the
// loss), stash_i the intermediates a block's forward pins until its backward beyond its input
// and output (model::BlockCost::stash_bytes_per_sample; 0 when unknown). `staleness` is the
// number of micro-batches the asynchronous pipeline keeps in flight, hence both the number of
// stashed weight versions (PipeDream-style, one per in-flight forward, counted on top of the
// live weights: an upper bound) and the number of activation sets held. Not counted: the
// framework's own footprint, the incoming-gradient buffer of one micro-batch and allocator
// slack; the caller reports *free* memory net of those.
//
// ---- Time model (per micro-batch, steady state) -------------------------------------------
// Stage k on node n with blocks [a, b):  compute = micro_batch · Σ flops_i / n.flops_per_s.
// The link between consecutive stages k-1 → k cut at block a carries x = micro_batch ·
// activation_{a-1} bytes forward and the same bytes of gradient backward:
//   link = x / min(up_{k-1}, down_k) + x / min(up_k, down_{k-1}) + max(rtt_{k-1}, rtt_k)
// (both directions charged serially, plus one round trip: conservative). Compute and
// communication run on separate threads and overlap across micro-batches, so each stage's
// compute and each link is its own resource; the pipeline's bottleneck is the max over all of
// them and its throughput is micro_batch / bottleneck samples/s.
//
// ---- Partitioning (partition_pipeline) ------------------------------------------------------
// Fixed node order: exact DP over (stage, end block): f[k][b] = min over a of
// max(f[k-1][a], link(k-1,k,a), compute(k,a,b)), shards non-empty and within each node's
// memory; O(K·B²). Order search: for K ≤ exact_order_max_nodes an exact DP over subsets
// (state: set of nodes used, last node, end block; the max-of-costs objective satisfies the
// principle of optimality), O(2^K·K²·B²); above that, a heuristic: the best of several seed
// orders (as given, FLOP/s descending and ascending, memory descending, bandwidth
// descending), each cut by the exact DP, then first-improvement local search over swaps and
// single-node moves until no move helps. When no plan fits in memory the result carries the
// reason and the least possible worst shortfall (the same search with "bytes over the cap"
// as the cost), never a plan.
//
// ---- Uniform mode (partition_uniform) ------------------------------------------------------
// SWARM's regime: several pipelines of equal length share one set of boundaries so that each
// stage group is a set of interchangeable replicas. Exact DP over the shared boundaries
// minimising the worst pipeline's bottleneck, every node within its memory.
//
// ---- Clustering (form_pipelines) -----------------------------------------------------------
// 1. Bandwidth tiers: nodes sorted by link bandwidth min(up, down); a new tier starts when a
//    node's bandwidth is below the tier's fastest / tier_bandwidth_ratio. A tier that cannot
//    form a single memory-feasible pipeline is merged into the next slower tier (the last one
//    into the previous); otherwise tiers never mix, so a pipeline's links are all alike.
// 2. Within a tier, for every pipeline count P from the most its memory allows down to 1:
//    nodes in memory-descending order go to the group with the least memory until every group
//    has 10% more than the model's lower bound, then to the group with the least FLOP/s
//    (at most one node per block). Each group is partitioned; the P whose groups are all
//    feasible with the highest total throughput wins, except that fewer (deeper) pipelines
//    must beat more by 5%: the time model does not charge depth's staleness and fragility;
//    and one pipeline must beat several by 25%, since with one every block lives on one
//    node only and a volunteer that vanishes takes its blocks' training with it.
// 3. Local search within each tier (run for every candidate P of step 2, before the counts
//    are compared): move a node to another pipeline, or swap two nodes of
//    different pipelines, whenever Σ 1/bottleneck rises (first improvement, repeated until
//    no move helps or max_local_search_passes), every pipeline staying memory-feasible.
//    Moves are evaluated with a cheaper order search (exact for ≤ 4 nodes, seed orders
//    above); the final pipelines get the full partition_pipeline. Spares: a group is
//    peeled (the node whose absence costs least dropped, again and again, ties dropping the
//    slower) and the best smaller group kept when it is 5% faster; the dropped nodes wait
//    unassigned as spares, seated again where they make a group 5% faster.
// Nodes that fit no feasible pipeline are listed as unassigned with the reason.
//
// ---- Packing against a target bottleneck (pack_pipelines), for large swarms ---------------
// form_pipelines tries every pipeline count and moves nodes between groups one at a time:
// about N³, 4.5 s at 64 volunteers and 392 s at 256. pack_pipelines is near-linear:
// 1. The same bandwidth tiers (and merging of tiers that hold no pipeline).
// 2. Within a tier, a packing against a target bottleneck T builds one pipeline after the
//    other: the slowest node left that finishes the pipeline (its compute of the remaining
//    blocks within T, and its memory) does so (best fit: no faster node's capacity is spent
//    on a tail a slower one carries); when none can, the next extender takes the longest run
//    of the next blocks it computes within T and holds (its link from the previous node
//    within T too), and a node that cannot take one block is left over. Taking as much as
//    fits is optimal for a fixed order (the classic linear check of a bottleneck partition).
//    Two orders of extenders are tried: the fastest first (compute is what pipelines lack)
//    and the least memory first (memory is: each small node then gets a large one as its
//    finisher, where the fastest, often large too, would pair two large ones and strand the
//    small). O(N log N) per packing (a max-tree of memory over the FLOP/s order).
// 3. Targets on a geometric grid (ratio target_step) between one block on the fastest node
//    and the slowest node's whole model (or the tier's slowest link), plus memory alone.
//    Every pipeline of one packing runs at about the same pace, so the nodes it leaves are
//    packed again at their own target, `rounds` rounds in all: slow nodes form slower
//    pipelines rather than waiting. Each round keeps, of its best packings by their own Σ
//    1/bottleneck (`lookahead` of them, or all while the pool is small), the one that is
//    best together with what its leftovers are worth packed greedily.
// 4. Each pipeline is cut again by partition's DP (order searched from the seed orders,
//    exactly up to exact_order_max_nodes): the packing fixes the group, the DP its split.
//    Then a bounded local search: moves and swaps of one node between two pipelines of a
//    tier, pairs closest in speed first, while Σ samples/s rises, within local_search_cuts
//    pipeline cuts whatever the swarm's size (bounded_local_search.cpp).
// 5. Nodes still unseated try the `seat_candidates` slowest pipelines of their tier with
//    room, and join one when it gets 5% faster (form_pipelines' margin for a deeper
//    pipeline); the others are spares (or TierFull when every pipeline is full).
// O(N log N · targets · rounds) in all; the grid's size depends on the spread of speeds and
// links, not on N. Unlike form_pipelines it applies no margin against fewer, deeper pipelines
// or a single one; on the swarms both solve it predicts within 5% of form_pipelines' plan
// (tests/cluster/test_cluster_packing), and it plans 10,000 volunteers in under 2 s on one
// core (bench_cluster).
//
// ---- Incremental plans (update_pipelines) --------------------------------------------------
// A join or a leave re-plans the pipelines it touches, not the swarm: every pipeline of the
// previous plan whose nodes are all still present and still fit their shards is kept with its
// cuts (no shard moves), re-timed with today's profiles; the nodes of broken pipelines, the
// newcomers and the previous spares are packed per tier as in pack_pipelines, and whoever is
// left tries to join a kept pipeline (step 5). The replaced pipelines are the only ones that
// change. Its quality drifts from a fresh plan's only by what the kept pipelines leave on the
// table; the caller re-plans from scratch when a fresh plan predicts enough more.
//
// ---- Ravnest's baseline (ravnest_partition, ravnest_plan) ----------------------------------
// What Ravnest does, evaluated with the same models: clusters of similar bandwidth (its
// genetic algorithm's target; here nodes sorted by bandwidth and cut into consecutive groups
// once a group's total memory covers model_memory_bytes — more than Ravnest's soft penalty
// asks, so the baseline is not handicapped by a worse memory count), nodes in the order
// listed, and shard boundaries that split the parameter count equally. A Ravnest pipeline
// whose equal split overruns a node under our memory model is reported as out of memory (it
// would not run) and adds no throughput.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace rookery::cluster {

struct NodeProfile {
  std::string id;
  double flops_per_s = 0;         ///< measured
  int64_t free_memory_bytes = 0;  ///< free device memory
  double upload_bytes_per_s = 0;
  double download_bytes_per_s = 0;
  double rtt_s = 0;
};

/// One block of the model's chain (the caller converts model::BlockCost).
struct BlockProfile {
  int64_t params = 0;
  double flops_per_sample = 0;              ///< forward + backward
  int64_t activation_bytes_per_sample = 0;  ///< the block's output
  int64_t stash_bytes_per_sample = 0;       ///< pinned from forward to backward beyond in/out
};

struct TrainingSettings {
  int64_t micro_batch = 1;
  int64_t staleness = 1;                  ///< micro-batches in flight = stashed weight versions
  int64_t optimizer_bytes_per_param = 8;  ///< AdamW: two fp32 moments
  int64_t param_bytes = 4;
  int64_t grad_bytes = 4;
};

/// Bytes a node needs to hold blocks [first, last) (see the formula above).
int64_t shard_memory_bytes(const std::vector<BlockProfile>& blocks, int first, int last,
                           const TrainingSettings& settings);
/// Lower bound of what any pipeline needs in total: the whole model as one shard.
int64_t model_memory_bytes(const std::vector<BlockProfile>& blocks,
                           const TrainingSettings& settings);

struct Stage {
  std::string node_id;
  int node_index = -1;  ///< index into the node list the planner was given
  int first_block = 0;  ///< shard [first_block, last_block)
  int last_block = 0;
  double compute_s = 0;  ///< per micro-batch
  double link_in_s = 0;  ///< the link from the previous stage (0 for the first)
  int64_t memory_bytes = 0;
  int64_t memory_cap_bytes = 0;
};

struct PipelinePlan {
  std::vector<Stage> stages;
  double bottleneck_s = 0;
  double samples_per_s = 0;  ///< micro_batch / bottleneck_s

  std::vector<int> boundaries() const;  ///< first_block of each stage, then the block count
};

struct Infeasible {
  std::string reason;
  int64_t shortfall_bytes = 0;  ///< the least possible worst overrun of a node's memory
};

struct PartitionResult {
  std::optional<PipelinePlan> plan;
  Infeasible infeasible;  ///< set when !plan
  bool ok() const { return plan.has_value(); }
};

struct PartitionOptions {
  bool search_order = true;       ///< false: keep the nodes in the order given
  int exact_order_max_nodes = 7;  ///< subset DP up to this many nodes, heuristic above
  int local_search_rounds = 50;   ///< heuristic order search's cap
};

/// Time of one stage / one link under the time model above.
double stage_compute_s(const NodeProfile& node, const std::vector<BlockProfile>& blocks, int first,
                       int last, const TrainingSettings& settings);
double link_s(const NodeProfile& from, const NodeProfile& to,
              const std::vector<BlockProfile>& blocks, int cut, const TrainingSettings& settings);

/// The plan of `nodes` in the order `order` with stage k holding [bounds[k], bounds[k+1]);
/// bounds has order.size()+1 entries, 0 first and the block count last. Reports memory
/// overruns as Infeasible. Used by the baselines and by tests.
PartitionResult evaluate_plan(const std::vector<NodeProfile>& nodes, const std::vector<int>& order,
                              const std::vector<int>& bounds,
                              const std::vector<BlockProfile>& blocks,
                              const TrainingSettings& settings);

/// Every node of `nodes` gets one non-empty contiguous shard; minimises the bottleneck.
PartitionResult partition_pipeline(const std::vector<NodeProfile>& nodes,
                                   const std::vector<BlockProfile>& blocks,
                                   const TrainingSettings& settings,
                                   const PartitionOptions& options = {});

struct UniformResult {
  std::vector<int> boundaries;  ///< shared by every pipeline; empty when infeasible
  std::vector<PipelinePlan> pipelines;
  Infeasible infeasible;
  bool ok() const { return !boundaries.empty(); }
};

/// SWARM's regime: `pipelines` (ordered, all the same length) share one set of boundaries.
UniformResult partition_uniform(const std::vector<std::vector<NodeProfile>>& pipelines,
                                const std::vector<BlockProfile>& blocks,
                                const TrainingSettings& settings);

struct ClusteringOptions {
  double tier_bandwidth_ratio = 4.0;
  int max_local_search_passes = 20;
  PartitionOptions partition;
};

/// Why a node has no seat. The coordinator sends it as a code the volunteer's window words.
enum class Unseated {
  NoPipelineHoldsModel,  ///< no group of the available nodes holds the model (detail: why not)
  TierFull,              ///< every pipeline of its bandwidth tier already has one node per block
  Spare,  ///< its pipeline is faster without it (its link or speed would be the bottleneck):
          ///< it waits to fill a seat that falls empty
};

struct Unassigned {
  std::string node_id;
  Unseated why = Unseated::NoPipelineHoldsModel;
  std::string detail;  ///< NoPipelineHoldsModel: the partitioner's reason
};

/// The same in English, for logs.
std::string describe(const Unassigned& u);

struct ClusterPlan {
  std::vector<PipelinePlan> pipelines;  ///< stage node_index refers to the input node list
  std::vector<int> tier;                ///< bandwidth tier of each pipeline, 0 = fastest
  std::vector<Unassigned> unassigned;
  std::vector<Infeasible> out_of_memory;  ///< baselines only: groups that would not fit
  double samples_per_s = 0;               ///< Σ over pipelines
  bool ok() const { return !pipelines.empty(); }
};

ClusterPlan form_pipelines(const std::vector<NodeProfile>& nodes,
                           const std::vector<BlockProfile>& blocks,
                           const TrainingSettings& settings, const ClusteringOptions& options = {});

struct PackingOptions {
  double tier_bandwidth_ratio = 4.0;  ///< as ClusteringOptions'
  double target_step = 1.1;           ///< ratio between consecutive targets tried
  int rounds = 4;                     ///< unseated nodes packed again at their own target
  int lookahead = 6;                  ///< packings per round judged with their leftovers' worth
  long lookahead_nodes = 20000;       ///< ... or more, up to this over the pool's size
  long local_search_cuts = 5000;      ///< the polish's budget: groups cut, whatever the swarm
  int local_search_passes = 20;
  int seat_candidates = 4;                 ///< pipelines a leftover node tries to join
  PartitionOptions partition{true, 4, 0};  ///< the final cut of each pipeline
};

/// The near-linear planner for large swarms (see above). Same result type as form_pipelines.
ClusterPlan pack_pipelines(const std::vector<NodeProfile>& nodes,
                           const std::vector<BlockProfile>& blocks,
                           const TrainingSettings& settings, const PackingOptions& options = {});

/// `previous` (a plan of an earlier membership, matched to `nodes` by node id) updated for the
/// membership `nodes` now holds (see above). Stage node_index refers to `nodes`.
ClusterPlan update_pipelines(const ClusterPlan& previous, const std::vector<NodeProfile>& nodes,
                             const std::vector<BlockProfile>& blocks,
                             const TrainingSettings& settings, const PackingOptions& options = {});

/// Ravnest's split of one pipeline: nodes in the order given, equal parameter counts.
PartitionResult ravnest_partition(const std::vector<NodeProfile>& nodes,
                                  const std::vector<BlockProfile>& blocks,
                                  const TrainingSettings& settings);

/// Ravnest's whole plan (see above). Groups that overrun memory are in out_of_memory and
/// contribute no throughput.
ClusterPlan ravnest_plan(const std::vector<NodeProfile>& nodes,
                         const std::vector<BlockProfile>& blocks, const TrainingSettings& settings);

}  // namespace rookery::cluster
