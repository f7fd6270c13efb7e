#pragma once
// Ten thousand volunteers as the internet would send them: devices, free memory, home links,
// round trips by region and how they come and go, each drawn from a published distribution
// (the sources are cited where each is defined, in volunteer_population.cpp and churn.cpp).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cluster/planning.hpp"

namespace rookery::sim {

enum class Availability {
  home,        // a home PC, on and off as SETI@home hosts are (churn.hpp)
  preemptible  // a preemptible cloud instance: taken back within a day, relaunched
};

struct SimVolunteer {
  std::string key;               // unique, 40 characters like a Z85 CURVE key
  cluster::NodeProfile profile;  // as the coordinator measures it at the join
  std::string device;            // "RTX 3060", "CPU 8 cores"
  int region = 0;                // index into regions()
  std::string address;           // the IPv4 address it joins from
  Availability availability = Availability::home;
  // It sends wrong gradients, and accuses honest ring partners (a Sybil farm's keys do both).
  bool liar = false;
};

struct Region {
  const char* name;
  double share;               // of the volunteers
  double down_mbps, up_mbps;  // median fixed broadband
};
const std::vector<Region>& regions();
// Round trip between two regions' volunteers, seconds (the access network's included).
double region_rtt_s(int a, int b);

struct PopulationOptions {
  int volunteers = 10000;
  std::uint64_t seed = 1;
  double liar_share = 0.005;  // honest-looking volunteers that lie
  int sybil_farm = -1;        // keys one attacker enrols from one /24 (-1: 0.4% of volunteers)
};

std::vector<SimVolunteer> draw_population(const PopulationOptions& options);

}  // namespace rookery::sim
