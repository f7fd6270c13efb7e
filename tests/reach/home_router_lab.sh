#!/usr/bin/env bash
# A home router in network namespaces, for the reach tests:
#
#   <tag>i (the internet: 198.20.0.1) ── <tag>r (router: 198.20.0.2 outside, 192.168.77.1 inside,
#      │                                         masquerading with nftables) ── <tag>h (a home PC:
#      │                                         192.168.77.10, default route via the router)
#   <tag>p (a public host: 198.21.0.2, routed through the internet's 198.21.0.1)
#      │
#   <tag>s (with SECOND=none: a second home router, 198.22.0.2 outside, 192.168.78.1 inside,
#                masquerading, no port mapping) ── <tag>t (a PC in that home: 192.168.78.10)
#
# The outside block lies just past RFC 2544's benchmarking range, because miniupnpd refuses to
# map ports on a router whose outside address is reserved; it exists only inside these
# namespaces. MODE: upnp (miniupnpd with UPnP IGD and NAT-PMP), natpmp (NAT-PMP only), none.
#
#   home_router_lab.sh up TAG MODE [RATE_MBIT] [SECOND]  # exit 77 when this machine cannot host it
#
# RATE_MBIT shapes the public host's link and the router's outside link with tc tbf, both
# directions.
#   home_router_lab.sh down TAG
set -euo pipefail
cmd=${1:?up or down}
tag=${2:?tag}
dir=/tmp/rookery-lab-$tag

down() {
  if [ -f "$dir/daemon.pid" ]; then
    pid=$(cat "$dir/daemon.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  for ns in "${tag}i" "${tag}r" "${tag}h" "${tag}p" "${tag}s" "${tag}t"; do
    ip netns del "$ns" 2>/dev/null || true
  done
  rm -rf "$dir"
}

if [ "$cmd" = down ]; then
  down
  exit 0
fi

mode=${3:?upnp, natpmp or none}
rate=${4:-}
second=${5:-}
if [ -n "$second" ] && [ "$second" != none ]; then
  echo "home_router_lab: the second home's router maps nothing: SECOND is none or empty" >&2
  exit 2
fi
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null || ! command -v nft >/dev/null ||
  { [ "$mode" != none ] && ! command -v miniupnpd >/dev/null; }; then
  echo "home_router_lab: needs root, ip, nft and miniupnpd" >&2
  exit 77
fi
down
mkdir -p "$dir"
ip netns add "${tag}i"
ip netns add "${tag}r"
ip netns add "${tag}h"
ip netns add "${tag}p"
ip link add "${tag}w" type veth peer name "${tag}wi"
ip link set "${tag}w" netns "${tag}r"
ip link set "${tag}wi" netns "${tag}i"
ip link add "${tag}l" type veth peer name "${tag}lh"
ip link set "${tag}l" netns "${tag}r"
ip link set "${tag}lh" netns "${tag}h"
ip link add "${tag}p" type veth peer name "${tag}pi"
ip link set "${tag}p" netns "${tag}p"
ip link set "${tag}pi" netns "${tag}i"
for ns in "${tag}i" "${tag}r" "${tag}h" "${tag}p"; do ip -n "$ns" link set lo up; done
ip -n "${tag}i" addr add 198.20.0.1/24 dev "${tag}wi"
ip -n "${tag}i" link set "${tag}wi" up
ip -n "${tag}r" addr add 198.20.0.2/24 dev "${tag}w"
ip -n "${tag}r" link set "${tag}w" up
ip -n "${tag}r" addr add 192.168.77.1/24 dev "${tag}l"
ip -n "${tag}r" link set "${tag}l" up
ip -n "${tag}h" addr add 192.168.77.10/24 dev "${tag}lh"
ip -n "${tag}h" link set "${tag}lh" up
ip -n "${tag}h" route add default via 192.168.77.1
ip -n "${tag}i" addr add 198.21.0.1/24 dev "${tag}pi"
ip -n "${tag}i" link set "${tag}pi" up
ip -n "${tag}p" addr add 198.21.0.2/24 dev "${tag}p"
ip -n "${tag}p" link set "${tag}p" up
ip -n "${tag}p" route add default via 198.21.0.1
ip -n "${tag}r" route add 198.21.0.0/24 via 198.20.0.1
ip netns exec "${tag}i" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "${tag}r" sysctl -qw net.ipv4.ip_forward=1
if [ -n "$second" ]; then
  ip netns add "${tag}s"
  ip netns add "${tag}t"
  ip link add "${tag}v" type veth peer name "${tag}vi"
  ip link set "${tag}v" netns "${tag}s"
  ip link set "${tag}vi" netns "${tag}i"
  ip link add "${tag}m" type veth peer name "${tag}mt"
  ip link set "${tag}m" netns "${tag}s"
  ip link set "${tag}mt" netns "${tag}t"
  for ns in "${tag}s" "${tag}t"; do ip -n "$ns" link set lo up; done
  ip -n "${tag}i" addr add 198.22.0.1/24 dev "${tag}vi"
  ip -n "${tag}i" link set "${tag}vi" up
  ip -n "${tag}s" addr add 198.22.0.2/24 dev "${tag}v"
  ip -n "${tag}s" link set "${tag}v" up
  ip -n "${tag}s" addr add 192.168.78.1/24 dev "${tag}m"
  ip -n "${tag}s" link set "${tag}m" up
  ip -n "${tag}t" addr add 192.168.78.10/24 dev "${tag}mt"
  ip -n "${tag}t" link set "${tag}mt" up
  ip -n "${tag}t" route add default via 192.168.78.1
  ip -n "${tag}s" route add default via 198.22.0.1
  ip -n "${tag}r" route add 198.22.0.0/24 via 198.20.0.1
  ip netns exec "${tag}s" sysctl -qw net.ipv4.ip_forward=1
  ip netns exec "${tag}s" nft -f - <<NFT
table ip home_nat {
  chain postrouting { type nat hook postrouting priority srcnat; oifname "${tag}v" masquerade; }
}
NFT
fi
if [ -n "$rate" ]; then
  for link in "${tag}p ${tag}p" "${tag}i ${tag}pi" "${tag}r ${tag}w" "${tag}i ${tag}wi"; do
    set -- $link
    ip netns exec "$1" tc qdisc add dev "$2" root tbf rate "${rate}mbit" burst 64kb latency 100ms
  done
fi
# The home router: masquerade outgoing, and the chains miniupnpd's nftables backend fills.
ip netns exec "${tag}r" nft -f - <<NFT
table ip home_nat {
  chain postrouting { type nat hook postrouting priority srcnat; oifname "${tag}w" masquerade; }
}
table inet miniupnpd {
  chain forward { type filter hook forward priority 0; policy accept; jump miniupnpd; }
  chain miniupnpd { }
  chain prerouting { type nat hook prerouting priority -100; policy accept; jump prerouting_miniupnpd; }
  chain postrouting { type nat hook postrouting priority 100; policy accept; jump postrouting_miniupnpd; }
  chain prerouting_miniupnpd { }
  chain postrouting_miniupnpd { }
}
NFT
[ "$mode" = none ] && exit 0
upnp=yes
[ "$mode" = natpmp ] && upnp=no
cat >"$dir/miniupnpd.conf" <<CONF
ext_ifname=${tag}w
listening_ip=${tag}l
http_port=0
upnp_table_name=miniupnpd
upnp_nat_table_name=miniupnpd
enable_natpmp=yes
enable_upnp=$upnp
secure_mode=yes
system_uptime=yes
clean_ruleset_interval=2
allow 1024-65535 192.168.77.0/24 1024-65535
deny 0-65535 0.0.0.0/0 0-65535
CONF
ip netns exec "${tag}r" miniupnpd -d -4 -f "$dir/miniupnpd.conf" -P "$dir/miniupnpd.pid" \
  >"$dir/miniupnpd.log" 2>&1 &
echo $! >"$dir/daemon.pid"
# Ready when NAT-PMP's port is bound (UPnP's HTTP port comes up in the same breath).
for _ in $(seq 50); do
  ip netns exec "${tag}r" ss -lun 2>/dev/null | grep -q ':5351 ' && exit 0
  sleep 0.1
done
echo "home_router_lab: miniupnpd did not start:" >&2
cat "$dir/miniupnpd.log" >&2
exit 1
