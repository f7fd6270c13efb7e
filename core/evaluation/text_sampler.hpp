#pragma once
// Text a byte-level language model writes, for people to read how far it has come: a prompt
// cut from held-out text, the bytes the model samples after it, and both made valid UTF-8
// (a byte model can write any byte; a proto3 string must be UTF-8 or its parse fails).
#include <cstdint>
#include <string>
#include <string_view>

namespace rookery::model {
class Shard;
}

namespace rookery::evaluation {

// `bytes` as valid UTF-8: every ill-formed sequence becomes U+FFFD, one per maximal subpart
// (Unicode's recommended practice, what browsers and Qt do), so a stray byte costs one mark.
std::string valid_utf8(std::string_view bytes);

// A prompt out of a window of held-out text (raw bytes): the window's second line onwards,
// since its first is usually cut mid-word, past blank lines and fortune's "%" separators, and
// not past the next one (one text, not two); at most `max_bytes`, ending where a word ends.
// The window's start when no line follows. Empty only for an empty window.
std::string choose_prompt(std::string_view window, std::size_t max_bytes = 40);

// `count` bytes the model writes after `prompt` (non-empty), each drawn from its next-byte
// distribution at `temperature`, the model seeing at most the last `context` bytes. The model
// must be whole and in evaluation mode. The same model, prompt and seed give the same bytes.
std::string sample_text(model::Shard& model, std::int64_t context, std::string_view prompt,
                        std::int64_t count, double temperature, std::uint64_t seed);

}  // namespace rookery::evaluation
