#pragma once
// How long a volunteer stays and how long it is away, by its kind: home PCs as SETI@home's
// hosts, preemptible cloud instances as their providers document them. Sources where the
// distributions are defined (churn.cpp).
#include <random>

#include "volunteer_population.hpp"

namespace rookery::sim {

class Churn {
 public:
  // Seconds online from a (re)start.
  static double session_s(Availability a, std::mt19937_64& rng);
  // Seconds away before it comes back.
  static double absence_s(Availability a, std::mt19937_64& rng);
  // The long-run share of time online (for the start: who is online at time 0).
  static double availability(Availability a);
};

}  // namespace rookery::sim
