#!/usr/bin/env bash
# Hosts with IPv6 addresses only, for the reach tests: namespaces <tag>0, <tag>1, ... on a
# switch (<tag>s, a bridge), host i at fd77::<i+1>/64 and no IPv4 address but loopback's.
#
#   ipv6_lab.sh up TAG HOSTS   # exit 77 when this machine cannot host it (not root, no ip)
#   ipv6_lab.sh down TAG
set -euo pipefail
cmd=${1:?up or down}
tag=${2:?tag}

down() {
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^${tag}([0-9]+|s)$" || true); do
    ip netns del "$ns" 2>/dev/null || true
  done
}

if [ "$cmd" = down ]; then
  down
  exit 0
fi
hosts=${3:?how many hosts}
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null; then
  echo "ipv6_lab: needs root and ip" >&2
  exit 77
fi
down
ip netns add "${tag}s"
ip -n "${tag}s" link add br0 type bridge
ip -n "${tag}s" link set br0 up
for i in $(seq 0 $((hosts - 1))); do
  ns="${tag}$i"
  ip netns add "$ns"
  ip link add "${tag}v$i" netns "$ns" type veth peer name "${tag}b$i" netns "${tag}s"
  ip -n "$ns" link set lo up
  ip -n "$ns" addr add "fd77::$((i + 1))/64" dev "${tag}v$i" nodad
  ip -n "$ns" link set "${tag}v$i" up
  ip -n "${tag}s" link set "${tag}b$i" master br0 up
done
# Addresses without duplicate detection and a bridge without STP: usable at once.
