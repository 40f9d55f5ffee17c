// Test driver for the native chat template renderer (tests/chat/test_native_renderer.py).
//
//   chat_render_driver [--now="YYYY-MM-DD HH:MM:SS"] TEMPLATE MESSAGES_JSON [OPTIONS_JSON [BOS [EOS]]]
//       (file paths) prints the render, or "error <kind>: <message>" on stderr with exit code 1.
//   chat_render_driver [--now=...] --batch REQUESTS
//       REQUESTS holds one JSON object per line: {"template", "messages_json", "options_json", "bos", "eos"}
//       (strings); prints one JSON line per request: {"ok": true, "text": ...} or
//       {"ok": false, "kind": "format"|"encode"|"internal", "message": ...}.
// --now pins strftime_now(); limits may be lowered with --max-steps=N, --max-depth=N, --max-iterations=N
// and --max-length=N (for the limit tests).
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "chat/apply_chat_template.h"
#include "chat/json.h"

namespace {

bool ReadFile(const char* path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

const char* KindName(mtok::ErrorKind k) {
  switch (k) {
    case mtok::ErrorKind::kFormat: return "format";
    case mtok::ErrorKind::kEncode: return "encode";
    default: return "internal";
  }
}

std::string Field(const mtok::chat::Value& request, const char* key) {
  const mtok::chat::Value* v = request.dict().Find(std::string_view(key));
  return v && v->is_string() ? v->s() : std::string();
}

int Batch(const char* path, const mtok::chat::RenderSettings& settings) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path);
    return 2;
  }
  std::string line;
  mtok::chat::JsonDumpOptions json;
  json.item_separator = ", ";
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    mtok::chat::Value request;
    std::string error;
    if (!mtok::chat::ReadJson(line, &request, &error) || !request.is_dict()) {
      std::fprintf(stderr, "bad request line: %s\n", error.c_str());
      return 2;
    }
    std::string text;
    mtok::Status st = mtok::chat::ApplyChatTemplate(Field(request, "template"), Field(request, "messages_json"),
                                                    Field(request, "options_json"), Field(request, "bos"),
                                                    Field(request, "eos"), settings, &text);
    mtok::chat::Dict reply;
    reply.Set(mtok::chat::Value::Str("ok"), mtok::chat::Value::Bool(st.ok()));
    if (st.ok()) {
      reply.Set(mtok::chat::Value::Str("text"), mtok::chat::Value::Str(text));
    } else {
      reply.Set(mtok::chat::Value::Str("kind"), mtok::chat::Value::Str(KindName(st.kind())));
      reply.Set(mtok::chat::Value::Str("message"), mtok::chat::Value::Str(st.message()));
    }
    std::cout << mtok::chat::DumpJson(mtok::chat::Value::MakeDict(std::move(reply)), json) << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  mtok::chat::RenderSettings settings;
  int k = 1;
  const char* batch = nullptr;
  for (; k < argc && std::strncmp(argv[k], "--", 2) == 0; ++k) {
    std::string arg = argv[k];
    auto value = [&](const char* prefix) { return arg.substr(std::strlen(prefix)); };
    if (arg.rfind("--now=", 0) == 0) {
      std::tm tm{};
      if (std::sscanf(value("--now=").c_str(), "%d-%d-%d %d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                      &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6) {
        std::fprintf(stderr, "--now wants \"YYYY-MM-DD HH:MM:SS\"\n");
        return 2;
      }
      tm.tm_year -= 1900;
      tm.tm_mon -= 1;
      tm.tm_isdst = -1;
      std::mktime(&tm);  // fills the weekday and day of the year
      settings.clock = [tm] { return tm; };
    } else if (arg == "--batch" && k + 1 < argc) {
      batch = argv[++k];
    } else if (arg.rfind("--max-steps=", 0) == 0) {
      settings.limits.max_steps = std::stoll(value("--max-steps="));
    } else if (arg.rfind("--max-depth=", 0) == 0) {
      settings.limits.max_call_depth = std::stoll(value("--max-depth="));
    } else if (arg.rfind("--max-iterations=", 0) == 0) {
      settings.limits.max_loop_iterations = std::stoll(value("--max-iterations="));
    } else if (arg.rfind("--max-length=", 0) == 0) {
      settings.limits.max_sequence_length = std::stoll(value("--max-length="));
    } else {
      std::fprintf(stderr, "unknown option %s\n", argv[k]);
      return 2;
    }
  }
  if (batch) return Batch(batch, settings);
  if (argc - k < 2) {
    std::fprintf(stderr, "usage: %s [--now=...] TEMPLATE MESSAGES_JSON [OPTIONS_JSON [BOS [EOS]]]\n", argv[0]);
    return 2;
  }
  std::string source, messages, options;
  if (!ReadFile(argv[k], &source) || !ReadFile(argv[k + 1], &messages) ||
      (argc - k > 2 && !ReadFile(argv[k + 2], &options))) {
    std::fprintf(stderr, "cannot read an input file\n");
    return 2;
  }
  std::string bos = argc - k > 3 ? argv[k + 3] : "";
  std::string eos = argc - k > 4 ? argv[k + 4] : "";
  std::string text;
  mtok::Status st = mtok::chat::ApplyChatTemplate(source, messages, options, bos, eos, settings, &text);
  if (!st.ok()) {
    std::fprintf(stderr, "error %s: %s\n", KindName(st.kind()), st.message().c_str());
    return 1;
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}
