#!/usr/bin/env bash
# Four hosts in network namespaces, each joined to a switch namespace by a veth pair shaped
# to RATE (default 100 Mbit/s) in both directions with tc tbf. Runs bench_reduce with one
# rank per host: uncompressed (ours and Gloo's rings, side by side) and 8-bit, and prints bus
# bandwidth as a fraction of the link rate. Needs root (CAP_NET_ADMIN); exits 77 (skipped)
# where namespaces cannot be created.
#
#   netns_bench.sh path/to/bench_reduce [--sizes-mb 16] [--iters 3]
set -euo pipefail
. "$(dirname "$0")/../netns.sh"
BENCH=${1:?usage: netns_bench.sh path/to/bench_reduce [bench args]}
shift
RATE_MBIT=${RATE_MBIT:-100}
HOSTS=4
P=rkb$$_
SW=${P}sw

cleanup() {
  for i in $(seq 0 $((HOSTS - 1))); do ip netns del "${P}$i" 2>/dev/null || true; done
  ip netns del "$SW" 2>/dev/null || true
}
trap cleanup EXIT
netns_switch "$SW" netns_bench
addrs=()
for i in $(seq 0 $((HOSTS - 1))); do
  ip netns add "${P}$i"
  netns_attach "$SW" "${P}$i" "h$i" "10.77.0.$((i + 1))" "$RATE_MBIT"
  addrs+=("10.77.0.$((i + 1))")
done
hosts=$(IFS=,; echo "${addrs[*]}")
link_mbs=$(awk "BEGIN { print $RATE_MBIT / 8 }")   # MB/s (1e6 bytes)

echo "== 4 hosts, ${RATE_MBIT} Mbit/s tbf links (${link_mbs} MB/s); bus bandwidth = bytes x 2(n-1)/n / time"
run() {
  local table status=0
  table=$(mktemp)
  "$BENCH" --ranks 4 --hosts "$hosts" --netns-prefix "$P" "$@" >"$table" || status=$?
  cat "$table" >&2
  awk -v link="$link_mbs" 'NR > 1 { printf "   %s: ours %.2f x link rate", $2, $3 / link;
                                    if ($4 + 0 > 0) printf ", gloo ring %.2f", $4 / link;
                                    if ($5 + 0 > 0) printf ", gloo chunked %.2f", $5 / link; printf "\n" }' "$table"
  rm -f "$table"
  return $status
}
# A failed run (Gloo's TCP pairs sometimes drop at teardown here) is reported, and the next
# still runs.
status=0
echo "-- uncompressed (f32), ours and Gloo's two rings"
run --impl all "$@" || { echo "   (that run failed: see above)"; status=1; }
echo "-- 8-bit blockwise (effective: f32 bytes averaged per second)"
run --impl ours --codec int8 "$@" || { echo "   (that run failed: see above)"; status=1; }
exit $status
