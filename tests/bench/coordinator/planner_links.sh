#!/usr/bin/env bash
# The planner benchmark on unequal links: each volunteer in its own network namespace, joined
# to a switch namespace by a veth pair shaped with tc tbf in both directions (its upload and
# its download) to its own rate; the coordinator in a namespace of its own on an unshaped
# link, and this shell reaching it through one more. bench_planner_swarm then runs ours and
# Ravnest's plan side by side as on loopback, every process started in its namespace. The
# coordinator measures each volunteer's bandwidth with real transfers when it joins, so the
# shaped links are what the planner sees. Needs root (CAP_NET_ADMIN); exits 77 (skipped)
# where namespaces cannot be made.
#
#   planner_links.sh path/to/bench_planner_swarm [--repeats N] [--seconds S]
#   RATES_MBIT="100,100,8" (one rate per volunteer; DUTY in bench_planner_swarm's --duty)
set -euo pipefail
. "$(dirname "$0")/../netns.sh"
BENCH=${1:?usage: planner_links.sh path/to/bench_planner_swarm [options]}
shift
IFS=, read -r -a rates <<<"${RATES_MBIT:-100,100,8}"
P=rkl$$_
SW=${P}sw
C=${P}c
n=${#rates[@]}
cleanup() {
  for i in $(seq 0 $((n - 1))); do ip netns del "${P}$i" 2>/dev/null || true; done
  ip netns del "$C" 2>/dev/null || true
  ip netns del "$SW" 2>/dev/null || true
  ip link del "${P}root" 2>/dev/null || true
}
trap cleanup EXIT
netns_switch "$SW" planner_links
hosts=() netns=()
for i in $(seq 0 $((n - 1))); do
  ip netns add "${P}$i"
  netns_attach "$SW" "${P}$i" "v$i" "10.81.0.$((i + 1))" "${rates[$i]}"
  hosts+=("10.81.0.$((i + 1))")
  netns+=("${P}$i")
done
ip netns add "$C"
netns_attach "$SW" "$C" vc 10.81.0.100
# This shell's namespace reaches the coordinator too (the benchmark asks it for the run status).
ip link add "${P}root" type veth peer name "s${P}root" netns "$SW"
ip addr add 10.81.0.254/24 dev "${P}root"
ip link set "${P}root" up
ip -n "$SW" link set "s${P}root" master br0 up
echo "== ${n} volunteers on tbf links of ${RATES_MBIT:-100,100,8} Mbit/s (both directions); coordinator unshaped"
"$BENCH" --hosts "$(IFS=,; echo "${hosts[*]}")" --netns "$(IFS=,; echo "${netns[*]}")" \
  --coordinator-host 10.81.0.100 --coordinator-netns "$C" "$@"
