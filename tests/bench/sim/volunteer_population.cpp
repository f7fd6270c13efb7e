#include "volunteer_population.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace rookery::sim {

namespace {

// Regions and their home links. Medians of fixed broadband from the Ookla Speedtest Global
// Index (speedtest.net/global-index, late 2024, approximate), for the country with the most
// volunteers of each region: United States 242/32 Mbit/s down/up, Germany 92/41, Japan
// 180/110, India 61/57, Brazil 180/100, Australia 58/20. Shares of volunteers by region are
// an assumption close to BOINC's users by country (BOINCstats): most in North America and Europe.
const std::vector<Region> kRegions = {
    {"north-america", 0.28, 242, 32},  {"europe", 0.34, 92, 41},
    {"east-asia", 0.16, 180, 110},     {"south-asia", 0.08, 61, 57},
    {"south-america", 0.08, 180, 100}, {"oceania", 0.06, 58, 20},
};

// Round trips between regions, ms: WonderNetwork's global ping statistics
// (wondernetwork.com/pings), typical city pairs (New York, Frankfurt, Tokyo, Mumbai, São Paulo,
// Sydney; within a region its nearby cities), rounded.
constexpr std::array<std::array<double, 6>, 6> kRttMs = {{
    {40, 90, 150, 200, 125, 200},
    {90, 25, 230, 120, 190, 280},
    {150, 230, 35, 110, 260, 115},
    {200, 120, 110, 40, 300, 150},
    {125, 190, 260, 300, 40, 300},
    {200, 280, 115, 150, 300, 30},
}};
// The last mile of a home link, ms each way's share of a round trip: cable and DSL add about
// 10-25 ms over fibre (FCC, Measuring Broadband America, 2023: median latency 10-30 ms by
// technology). Taken as 15 ms.
constexpr double kAccessMs = 15;

// Home links spread around the median as a lognormal: M-Lab NDT's per-country distributions put
// the 90th percentile about 10x the 10th, so sigma = ln(10) / (2 * 1.2816) = 0.9.
constexpr double kLinkSigma = 0.9;

struct Gpu {
  const char* name;
  double steam_share;  // percent of Steam users (Steam Hardware & Software Survey, Oct 2024)
  double fp32_tflops;  // NVIDIA's datasheet, FP32 shader peak
  double memory_gb;
};
// The most common CUDA GPUs of the Steam survey; CUDA owners draw among them by share.
const std::vector<Gpu> kGpus = {
    {"RTX 3060", 5.9, 12.7, 12},       {"GTX 1650", 3.9, 3.0, 4},
    {"RTX 4060 Laptop", 4.6, 11.6, 8}, {"RTX 4060", 4.0, 15.1, 8},
    {"RTX 3060 Laptop", 3.6, 10.9, 6}, {"RTX 2060", 3.3, 6.5, 6},
    {"RTX 4060 Ti", 3.2, 22.1, 8},     {"RTX 3070", 3.1, 20.3, 8},
    {"RTX 3050", 2.8, 9.1, 8},         {"RTX 4070", 2.8, 29.1, 12},
    {"GTX 1060", 2.6, 4.4, 6},         {"RTX 3080", 1.8, 29.8, 10},
    {"RTX 4070 SUPER", 1.4, 35.5, 12}, {"RTX 4090", 0.9, 82.6, 24},
};
// Steam's survey: AMD and Intel GPUs are about a quarter of its users; LibTorch's CUDA build
// cannot use them, so their owners compute on the CPU.
constexpr double kNonCudaShare = 0.25;
// Steam's survey, physical CPU cores (Oct 2024, approximate): 4: 17%, 6: 33%, 8: 26%, 12: 10%,
// 16+: 14%. AVX2 with two FMA units: 32 FP32 FLOP per cycle per core at about 3.5 GHz.
constexpr std::array<std::pair<int, double>, 5> kCores = {
    {{4, 17}, {6, 33}, {8, 26}, {12, 10}, {16, 14}}};
constexpr double kCoreFlops = 32 * 3.5e9;
// Steam's survey, system RAM: 8 GB 11%, 16 GB 45%, 32 GB 36%, 64 GB 8%; half is free to train.
constexpr std::array<std::pair<double, double>, 4> kRamGb = {
    {{8, 11}, {16, 45}, {32, 36}, {64, 8}}};
// What training reaches of the datasheet peak (the node's benchmark runs the job's own blocks):
// assumed 40% on a GPU (PaLM reports 46% model FLOPs utilisation on TPU v4, consumer cards with
// small micro-batches run lower) and 25% on CPU cores.
constexpr double kGpuEfficiency = 0.40, kCpuEfficiency = 0.25;
// A GPU's free memory: the driver, desktop and CUDA context hold about 1 GB.
constexpr double kGpuReservedGb = 1.0;

// Preemptible cloud volunteers: a GPU instance of the kinds the clouds sell preemptibly, in a
// datacentre (Google Cloud's and AWS's documented network caps: 10+ Gbit/s; we take 2 Gbit/s
// per volunteer as sustained between clouds): T4 16 GB 8.1 TFLOP/s, L4 24 GB 30.3, A10G 24 GB
// 31.2 (NVIDIA datasheets).
const std::vector<Gpu> kCloudGpus = {
    {"T4 (spot)", 50, 8.1, 16}, {"L4 (spot)", 30, 30.3, 24}, {"A10G (spot)", 20, 31.2, 24}};
constexpr double kCloudShare = 0.05;  // assumed: a few owners add rented instances

template <typename T, typename W>
const T& pick(std::mt19937_64& rng, const std::vector<T>& items, W weight) {
  std::vector<double> w;
  for (const auto& i : items) w.push_back(weight(i));
  std::discrete_distribution<std::size_t> d(w.begin(), w.end());
  return items[d(rng)];
}

std::string key_for(const char* kind, int i) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%07d", kind, i);
  std::string k = buf;
  k.resize(40, 'x');
  return k;
}

std::string ipv4(std::uint32_t a) {
  return std::to_string(a >> 24) + "." + std::to_string((a >> 16) & 255) + "." +
         std::to_string((a >> 8) & 255) + "." + std::to_string(a & 255);
}

// Public addresses: first octet 11..223 (never loopback, private 10/8 or multicast).
std::uint32_t public_address(std::mt19937_64& rng) {
  std::uniform_int_distribution<std::uint32_t> first(11, 223), rest(0, 0xffffff);
  std::uint32_t a = (first(rng) << 24) | rest(rng);
  if ((a >> 24) == 127 || (a >> 24) == 172 || (a >> 24) == 192) a ^= 0x01000000u;
  return a;
}

}  // namespace

const std::vector<Region>& regions() { return kRegions; }

double region_rtt_s(int a, int b) {
  return (kRttMs.at(std::size_t(a)).at(std::size_t(b)) + 2 * kAccessMs) / 1e3;
}

std::vector<SimVolunteer> draw_population(const PopulationOptions& options) {
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> normal(0, 1);
  std::vector<SimVolunteer> out;
  const int farm =
      options.sybil_farm >= 0 ? options.sybil_farm : std::max(1, options.volunteers / 250);
  const int honest = options.volunteers - farm;
  std::vector<double> region_share;
  for (const auto& r : kRegions) region_share.push_back(r.share);
  std::discrete_distribution<int> region_of(region_share.begin(), region_share.end());
  for (int i = 0; i < options.volunteers; ++i) {
    SimVolunteer v;
    const bool sybil = i >= honest;
    v.key = key_for(sybil ? "farm" : "vol", i);
    v.region = region_of(rng);
    const auto& region = kRegions[std::size_t(v.region)];
    auto& p = v.profile;
    p.id = v.key;
    if (!sybil && unit(rng) < kCloudShare) {
      v.availability = Availability::preemptible;
      const auto& g = pick(rng, kCloudGpus, [](const Gpu& x) { return x.steam_share; });
      v.device = g.name;
      p.flops_per_s = g.fp32_tflops * 1e12 * kGpuEfficiency;
      p.free_memory_bytes = std::int64_t((g.memory_gb - kGpuReservedGb) * 1e9);
      p.upload_bytes_per_s = p.download_bytes_per_s = 2e9 / 8;
    } else {
      if (unit(rng) >= kNonCudaShare) {
        const auto& g = pick(rng, kGpus, [](const Gpu& x) { return x.steam_share; });
        v.device = g.name;
        p.flops_per_s = g.fp32_tflops * 1e12 * kGpuEfficiency;
        p.free_memory_bytes = std::int64_t((g.memory_gb - kGpuReservedGb) * 1e9);
      } else {
        std::discrete_distribution<std::size_t> cores({17, 33, 26, 10, 14});
        std::discrete_distribution<std::size_t> ram({11, 45, 36, 8});
        const int c = kCores[cores(rng)].first;
        v.device = "CPU " + std::to_string(c) + " cores";
        p.flops_per_s = c * kCoreFlops * kCpuEfficiency;
        p.free_memory_bytes = std::int64_t(kRamGb[ram(rng)].first / 2 * 1e9);
      }
      p.download_bytes_per_s = region.down_mbps * 1e6 / 8 * std::exp(kLinkSigma * normal(rng));
      p.upload_bytes_per_s = region.up_mbps * 1e6 / 8 * std::exp(kLinkSigma * normal(rng));
    }
    // Its round trip as the coordinator records it: the median over its peers, whose regions
    // are drawn by share (the weighted median of its row).
    std::vector<std::pair<double, double>> row;
    for (std::size_t r = 0; r < kRegions.size(); ++r)
      row.emplace_back(region_rtt_s(v.region, int(r)), kRegions[r].share);
    std::sort(row.begin(), row.end());
    double mass = 0;
    for (const auto& [rtt, share] : row) {
      mass += share;
      if (mass >= 0.5) {
        p.rtt_s = rtt;
        break;
      }
    }
    // Addresses: a household's PCs share one (assumed: 8% of volunteers run a second PC at
    // home); a Sybil farm's keys share a few addresses in one /24.
    if (sybil) {
      v.address = "198.51.100." + std::to_string(1 + i % 8);
      v.liar = true;
    } else if (!out.empty() && out.back().address.rfind("198.51.", 0) != 0 && unit(rng) < 0.08) {
      v.address = out.back().address;
    } else {
      v.address = ipv4(public_address(rng));
    }
    if (!sybil) v.liar = unit(rng) < options.liar_share;
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace rookery::sim
