#include "evaluation/text_sampler.hpp"

#include <torch/torch.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "model/block_chain.hpp"

namespace rookery::evaluation {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A line that separates texts rather than holding one: blank, or fortune's "%".
bool is_separator(std::string_view line) {
  const auto first = std::find_if_not(line.begin(), line.end(), is_space);
  const auto last = std::find_if_not(line.rbegin(), line.rend(), is_space).base();
  const std::string_view rest(first, last);
  return rest.empty() || rest == "%";
}

// Where the prompt starts in `window`: the first line after the first newline that is not a
// separator; 0 when there is none.
std::size_t prompt_start(std::string_view window) {
  const auto newline = window.find('\n');
  if (newline == std::string_view::npos) return 0;
  std::size_t at = newline + 1;
  while (at < window.size()) {
    const auto end = std::min(window.find('\n', at), window.size());
    if (!is_separator(window.substr(at, end - at))) return at;
    at = end + 1;
  }
  return 0;
}

// `text` up to its first separator line, the newline before it kept: a prompt from one text,
// not two.
std::string_view first_text(std::string_view text) {
  for (auto newline = text.find('\n'); newline != std::string_view::npos;
       newline = text.find('\n', newline + 1)) {
    const auto end = std::min(text.find('\n', newline + 1), text.size());
    if (is_separator(text.substr(newline + 1, end - newline - 1)))
      return text.substr(0, newline + 1);
  }
  return text;
}

}  // namespace

std::string valid_utf8(std::string_view bytes) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(bytes.size());
  std::size_t i = 0;
  while (i < bytes.size()) {
    const auto lead = static_cast<unsigned char>(bytes[i]);
    if (lead < 0x80) {
      out.push_back(bytes[i++]);
      continue;
    }
    // The sequence's length by its lead byte, and the range of its second byte, which rules
    // out overlong forms, surrogates and code points beyond U+10FFFF (Unicode table 3-7).
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    }
    std::size_t good = 1;  // the well-formed prefix, lead byte included
    while (good < length && i + good < bytes.size()) {
      const auto b = static_cast<unsigned char>(bytes[i + good]);
      if (b < (good == 1 ? low : 0x80) || b > (good == 1 ? high : 0xBF)) break;
      ++good;
    }
    if (length > 0 && good == length)
      out.append(bytes.substr(i, length));
    else
      out.append(kReplacement);
    i += good;
  }
  return out;
}

std::string choose_prompt(std::string_view window, std::size_t max_bytes) {
  const std::string_view text = first_text(window.substr(prompt_start(window)));
  // The last word end within max_bytes: a byte that is not a space followed by one that is.
  // Only a space seen in the window ends a word: the window's last byte may be mid-word.
  const std::size_t last = text.empty() ? 0 : std::min(max_bytes, text.size() - 1);
  for (std::size_t end = last; end > 0; --end) {
    if (is_space(text[end]) && !is_space(text[end - 1])) return std::string(text.substr(0, end));
  }
  return std::string(text.substr(0, max_bytes));
}

std::string sample_text(model::Shard& model, std::int64_t context, std::string_view prompt,
                        std::int64_t count, double temperature, std::uint64_t seed) {
  if (prompt.empty() || context < 1 || temperature <= 0)
    throw std::invalid_argument("sample_text: needs a prompt, a context and a temperature > 0");
  torch::NoGradGuard no_grad;
  auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  std::vector<std::int64_t> tokens;
  tokens.reserve(prompt.size() + static_cast<std::size_t>(count));
  for (const char c : prompt) tokens.push_back(static_cast<unsigned char>(c));
  std::string out;
  out.reserve(static_cast<std::size_t>(count));
  for (std::int64_t k = 0; k < count; ++k) {
    const auto seen = std::min<std::int64_t>(context, static_cast<std::int64_t>(tokens.size()));
    const auto ids = torch::from_blob(tokens.data() + (tokens.size() - std::size_t(seen)),
                                      {1, seen}, torch::kLong)
                         .clone();
    const auto logits = model.forward(ids);
    // Bytes only, should the vocabulary be larger than a byte's 256 values.
    const auto next_logits = logits[0][seen - 1].slice(0, 0, 256).to(torch::kFloat) / temperature;
    const auto next = torch::multinomial(torch::softmax(next_logits, 0), 1, false, generator)
                          .item<std::int64_t>();
    tokens.push_back(next);
    out.push_back(static_cast<char>(static_cast<unsigned char>(next)));
  }
  return out;
}

}  // namespace rookery::evaluation
