#pragma once
// Where peers may dial this node, so that nobody types an address: the endpoints a node
// announces for one of its listening ports, gathered from what the coordinator saw it connect
// from, its home router's mapping, its own interfaces, and an expert's override. Which of them
// answer is measured by dialling them back; this only proposes.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rookery::reach {

enum class CandidateKind : std::uint8_t {
  configured,  // the owner's --host / Settings override
  mapped,      // the router's public address (or the observed one) and the mapped port
  observed,    // the address the coordinator saw this node connect from, the port as bound
  lan,         // an address of one of this PC's own interfaces
  relayed,     // a relay's host and the public port it opened for this node
};

struct Candidate {
  std::string host;  // IPv4 dotted or IPv6 without brackets
  std::uint16_t port = 0;
  CandidateKind kind = CandidateKind::lan;
  bool operator==(const Candidate&) const = default;
};

struct CandidateInputs {
  std::uint16_t port = 0;        // the node's own listening port
  std::string configured_host;   // "" when none is set
  std::string observed_address;  // "" when the coordinator has not said
  std::string mapped_address;    // the router's external address ("" when not mapped)
  std::optional<std::uint16_t> mapped_port;
  std::vector<std::string> lan_addresses;
};

// The candidates, best first and without repeats (the same host and port once, under its best
// kind). A configured host stands alone: the owner said where the node is.
std::vector<Candidate> gather_candidates(const CandidateInputs& in);

// This PC's addresses on interfaces that are up: not loopback, not link-local.
std::vector<std::string> interface_addresses();

// True for addresses no peer outside this PC can dial (loopback, unspecified).
bool is_loopback(const std::string& host);
// True for private, shared and link-local ranges (RFC 1918, RFC 6598, fc00::/7, fe80::/10).
bool is_private(const std::string& host);

// "tcp://host:port", with brackets around an IPv6 host.
std::string tcp_endpoint(const std::string& host, std::uint16_t port);
// The host and the port of "tcp://host:port" (brackets removed); "" and 0 when malformed.
std::string host_of(const std::string& endpoint);
std::uint16_t port_of(const std::string& endpoint);
std::string_view to_string(CandidateKind kind);

}  // namespace rookery::reach
