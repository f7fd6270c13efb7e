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

/// Ravnest's split of one pipeline: nodes in the order given, equal parameter counts.
PartitionResult ravnest_partition(const std::vector<NodeProfile>& nodes,
                                  const std::vector<BlockProfile>& blocks,
                                  const TrainingSettings& settings);

/// Ravnest's whole plan (see above). Groups that overrun memory are in out_of_memory and
/// contribute no throughput.
ClusterPlan ravnest_plan(const std::vector<NodeProfile>& nodes,
                         const std::vector<BlockProfile>& blocks, const TrainingSettings& settings);

}  // namespace rookery::cluster
