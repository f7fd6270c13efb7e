#include "churn.hpp"

#include <algorithm>
#include <cmath>

namespace rookery::sim {

namespace {

// Home PCs: Javadi, Kondo, Vincent and Anderson, "Discovering statistical models of
// availability in large distributed systems: an empirical study of SETI@home" (IEEE TPDS 22(11),
// 2011; MASCOTS 2009). Over 230,000 hosts' traces, the hosts whose availability is independent
// and identically distributed (the largest group) fit availability intervals with Weibull laws of
// shape below 1 (about 0.3-0.6: many short sessions, a long tail of days) and scales of hours,
// and unavailability with log-normal laws. Taken here: Weibull shape 0.45, scale 3 h (mean
// 3 h x Gamma(1 + 1/0.45) = 7.4 h); log-normal unavailability of median 2 h, sigma 1.5
// (mean 6.2 h).
constexpr double kHomeShape = 0.45, kHomeScaleS = 3 * 3600.0;
constexpr double kAwayMedianS = 2 * 3600.0, kAwaySigma = 1.5;
// Preemptible cloud instances: Google Cloud's preemptible VMs "always stop after 24 hours", and
// Google documented preemption rates "generally between 5% and 15% per day" (Compute Engine,
// Preemptible VM instances). Taken: exponential with 10% a day, cut at 24 h; relaunched after a
// log-normal of median 10 min (an owner's script retrying for capacity; assumed).
constexpr double kPreemptPerDay = 0.10, kCloudMaxS = 24 * 3600.0;
constexpr double kRelaunchMedianS = 600, kRelaunchSigma = 1.0;

}  // namespace

double Churn::session_s(Availability a, std::mt19937_64& rng) {
  if (a == Availability::preemptible) {
    std::exponential_distribution<double> preempted(kPreemptPerDay / 86400.0);
    return std::min(preempted(rng), kCloudMaxS);
  }
  std::weibull_distribution<double> on(kHomeShape, kHomeScaleS);
  return std::max(1.0, on(rng));
}

double Churn::absence_s(Availability a, std::mt19937_64& rng) {
  std::lognormal_distribution<double> away(
      std::log(a == Availability::preemptible ? kRelaunchMedianS : kAwayMedianS),
      a == Availability::preemptible ? kRelaunchSigma : kAwaySigma);
  return std::max(1.0, away(rng));
}

double Churn::availability(Availability a) {
  if (a == Availability::preemptible) {
    // E[min(Exp(rate), 24 h)] = (1 - e^(-rate * 24 h)) / rate.
    const double rate = kPreemptPerDay / 86400.0;
    const double on = (1 - std::exp(-rate * kCloudMaxS)) / rate;
    const double off = kRelaunchMedianS * std::exp(kRelaunchSigma * kRelaunchSigma / 2);
    return on / (on + off);
  }
  const double on = kHomeScaleS * std::tgamma(1 + 1 / kHomeShape);
  const double off = kAwayMedianS * std::exp(kAwaySigma * kAwaySigma / 2);
  return on / (on + off);
}

}  // namespace rookery::sim
