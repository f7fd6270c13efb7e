# Sourced by the benchmarks that run hosts in network namespaces (not run by itself): a switch
# namespace holding a bridge, and namespaces attached to it by veth pairs, each link shaped
# with tc tbf in both directions (the host's upload and its download) when given a rate.
# Needs root (CAP_NET_ADMIN).

# netns_switch SW WHO: creates namespace SW with a bridge br0; where namespaces cannot be
# made, says so for WHO and exits 77 (CTest's "skipped").
netns_switch() {
  local sw=$1 who=$2
  if ! ip netns add "$sw" 2>/dev/null; then
    echo "$who: cannot create network namespaces here (needs root / CAP_NET_ADMIN); skipped"
    exit 77
  fi
  ip -n "$sw" link add br0 type bridge
  ip -n "$sw" link set br0 up
}

# netns_attach SW NS IFNAME ADDR [RATE_MBIT]: joins namespace NS to the switch by a veth pair
# (IFNAME in NS, sIFNAME in SW), gives it ADDR/24, and shapes both directions to RATE_MBIT.
netns_attach() {
  local sw=$1 ns=$2 ifname=$3 addr=$4 rate=${5:-}
  ip link add "$ifname" netns "$ns" type veth peer name "s$ifname" netns "$sw"
  ip -n "$ns" addr add "$addr/24" dev "$ifname"
  ip -n "$ns" link set "$ifname" up
  ip -n "$ns" link set lo up
  ip -n "$sw" link set "s$ifname" master br0 up
  if [ -n "$rate" ]; then
    ip netns exec "$ns" tc qdisc add dev "$ifname" root tbf rate "${rate}mbit" burst 64kb latency 100ms
    ip netns exec "$sw" tc qdisc add dev "s$ifname" root tbf rate "${rate}mbit" burst 64kb latency 100ms
  fi
}
