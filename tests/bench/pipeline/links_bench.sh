#!/usr/bin/env bash
# Two hosts in network namespaces joined by a veth pair shaped to RATE (default 50 Mbit/s) in
# both directions with tc tbf; bench_pipeline runs one stage on each and compares 8-bit with
# fp32 activations and gradients. Needs root (CAP_NET_ADMIN); exits 77 (skipped) otherwise.
#
#   links_bench.sh path/to/bench_pipeline [--micro-batches N]
set -euo pipefail
BENCH=${1:?usage: links_bench.sh path/to/bench_pipeline [options]}
shift
RATE_MBIT=${RATE_MBIT:-50}
A=rkp$$_a
B=rkp$$_b
cleanup() { ip netns del "$A" 2>/dev/null || true; ip netns del "$B" 2>/dev/null || true; }
if ! ip netns add "$A" 2>/dev/null; then
  echo "links_bench: cannot create network namespaces here (needs root / CAP_NET_ADMIN); skipped"
  exit 77
fi
trap cleanup EXIT
ip netns add "$B"
ip link add va netns "$A" type veth peer name vb netns "$B"
ip -n "$A" addr add 10.78.0.1/24 dev va
ip -n "$B" addr add 10.78.0.2/24 dev vb
for ns in "$A va" "$B vb"; do
  set -- $ns
  ip -n "$1" link set "$2" up
  ip -n "$1" link set lo up
  ip netns exec "$1" tc qdisc add dev "$2" root tbf rate "${RATE_MBIT}mbit" burst 64kb latency 100ms
done
echo "== 2 stages on a ${RATE_MBIT} Mbit/s tbf link (both directions)"
"$BENCH" links --hosts 10.78.0.1,10.78.0.2 --netns "$A,$B" "$@"
