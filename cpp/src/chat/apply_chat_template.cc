// Input preparation as mtok.chat.render does it (same checks, in the same
// order, so the same error wins), then the render and the
// continue_final_message cut.
#include "chat/apply_chat_template.h"

#include <new>

#include "chat/errors.h"
#include "chat/json.h"
#include "chat/parser.h"
#include "chat/pystr.h"
#include "common/utf8.h"

namespace mtok::chat {
namespace {

// transformers appends this to the continued message and cuts the output there.
constexpr std::string_view kContinueMarker = "CONTINUE_FINAL_MESSAGE_TAG ";
const char* const kReasoningKeys[] = {"reasoning_content", "thinking", "reasoning"};

[[noreturn]] void InputFail(std::string reason) { Fail("input", std::move(reason)); }

Value ReadJsonArg(std::string_view text, const char* what) {
  Value v;
  std::string error;
  if (!ReadJson(text, &v, &error)) Fail("json", std::string(what) + ": invalid JSON: " + error);
  return v;
}

// Drops None-valued keys of each message (OpenAI-style content=null).
List NormalizeMessages(const Value& messages) {
  if (!messages.is_list_like()) {
    InputFail("messages_json must be a JSON array of message objects, got " + TypeName(messages));
  }
  const List& items = messages.list();
  if (items.empty()) InputFail("Cannot apply chat template to an empty conversation. Provide at least one message.");
  if (items[0].is_list_like()) {
    InputFail("render() takes a single conversation (a list of message dicts), not a batch; call it once per conversation.");
  }
  List out;
  for (const Value& m : items) {
    if (!m.is_dict()) InputFail("Chat messages should be dicts, dataclasses or pydantic models, but got " + Repr(m) + ".");
    Dict kept;
    for (const auto& kv : m.dict().items) {
      if (!kv.second.is_none()) kept.items.push_back(kv);
    }
    out.push_back(Value::MakeDict(std::move(kept)));
  }
  return out;
}

// A message's reasoning copied to "thinking" (first) and "reasoning_content".
Value WithReasoningAliases(const Value& message) {
  const Dict& d = message.dict();
  const Value* reasoning = nullptr;
  for (const char* key : kReasoningKeys) {
    if ((reasoning = d.Find(std::string_view(key))) != nullptr) break;
  }
  if (reasoning == nullptr) return message;
  Dict aliased;
  aliased.Set(Value::Str("thinking"), *reasoning);
  for (const auto& kv : d.items) aliased.Set(kv.first, kv.second);
  aliased.Set(Value::Str("reasoning_content"), *reasoning);
  return Value::MakeDict(std::move(aliased));
}

// Appends the continue marker to the final message; returns the text continued.
std::string MarkFinalMessage(List* chat, const Value& option, std::string_view source) {
  std::string field = option.is_string() ? option.s() : "content";
  Dict final_msg = chat->back().dict();
  const Value* final_value = final_msg.Find(std::string_view(field));
  if (final_value == nullptr) {
    InputFail("continue_final_message is set but the final message has no \"" + field + "\" to continue!");
  }
  Value final = *final_value;
  std::vector<std::string> fields{field};
  bool reasoning = false;
  for (const char* k : kReasoningKeys) reasoning |= field == k;
  if (reasoning) {
    fields.clear();
    for (const char* k : kReasoningKeys) {
      const Value* v = final_msg.Find(std::string_view(k));
      if (v && Equal(*v, final)) fields.push_back(k);
    }
  }
  bool accepted = false;
  for (const std::string& f : fields) accepted |= source.find(f) != std::string_view::npos;
  if (!accepted) {
    InputFail("continue_final_message is set to \"" + field + "\" but this is not an accepted field in the chat_template");
  }
  std::string continued;
  if (final.is_list_like()) {
    List blocks = final.list();
    bool found = false;
    for (size_t k = blocks.size(); k-- > 0;) {
      // Python: `"text" in block`, then block["text"], on whatever the block is.
      const Value& b = blocks[k];
      if (b.is_string() || b.is_list_like()) {
        if (!Contains(b, Value::Str("text"))) continue;
        InputFail(b.is_string() ? "TypeError: string indices must be integers, not 'str'"
                                : "TypeError: list indices must be integers or slices, not str");
      }
      if (!b.is_dict()) InputFail("TypeError: argument of type " + StrRepr(TypeName(b)) + " is not iterable");
      Dict block = b.dict();
      const Value* text = block.Find(std::string_view("text"));
      if (text == nullptr) continue;
      if (!text->is_string()) InputFail("TypeError: unsupported operand type(s) for +: '" + TypeName(*text) + "' and 'str'");
      continued = text->s();
      block.Set(Value::Str("text"), Value::Str(continued + std::string(kContinueMarker)));
      blocks[k] = Value::MakeDict(std::move(block));
      found = true;
      break;
    }
    if (!found) InputFail("continue_final_message is set but we could not find any text to continue in the final message!");
    final_msg.Set(Value::Str(field), Value::MakeList(std::move(blocks)));
  } else {
    if (!final.is_string()) {
      InputFail("TypeError: unsupported operand type(s) for +: '" + TypeName(final) + "' and 'str'");
    }
    continued = final.s();
    for (const std::string& f : fields) {
      const Value* v = final_msg.Find(std::string_view(f));
      final_msg.Set(Value::Str(f), Value::Str(v->s() + std::string(kContinueMarker)));
    }
  }
  chat->back() = Value::MakeDict(std::move(final_msg));
  return continued;
}

std::string CutAtMarker(const std::string& rendered, const std::string& final_text) {
  std::string marker = PyStrip(kContinueMarker, nullptr, true, true);
  std::string stripped = PyStrip(final_text, nullptr, true, true);
  if (rendered.find(stripped) == std::string::npos || rendered.find(marker) == std::string::npos) {
    InputFail(
        "continue_final_message is set but the final message does not appear in the chat after applying the chat "
        "template! This can happen if the chat template deletes portions of the final message. Please verify the "
        "chat template and final message in your chat to ensure they are compatible.Final message to continue: " +
        stripped + "\nRendered chat:\n" + rendered);
  }
  size_t at = rendered.rfind(marker);
  if (rendered.compare(at, kContinueMarker.size(), kContinueMarker) == 0) return rendered.substr(0, at);
  // The template trimmed the space after the marker, so it may also have
  // trimmed the message's own trailing whitespace: cut it too.
  return PyStrip(std::string_view(rendered).substr(0, at), nullptr, false, true);
}

std::string Render(std::string_view source, std::string_view messages_json, std::string_view options_json,
                   std::string_view bos_token, std::string_view eos_token, const RenderSettings& settings) {
  size_t bad = 0;
  if (!utf8::validate(source, &bad)) Fail("json", "template source: invalid UTF-8 at offset " + std::to_string(bad));
  List chat = NormalizeMessages(ReadJsonArg(messages_json, "messages_json"));
  Value options = options_json.empty() ? Value::MakeDict(Dict()) : ReadJsonArg(options_json, "options_json");
  if (!options.is_dict()) Fail("json", "options_json must be a JSON object, got " + TypeName(options));

  Value add_generation_prompt = Value::Bool(false), continue_final = Value::Bool(false);
  Value tools = Value::None(), documents = Value::None();
  Dict variables;
  if (!bos_token.empty()) variables.Set(Value::Str("bos_token"), Value::Str(std::string(bos_token)));
  if (!eos_token.empty()) variables.Set(Value::Str("eos_token"), Value::Str(std::string(eos_token)));
  for (const auto& kv : options.dict().items) {
    const std::string& key = kv.first.s();
    if (key == "add_generation_prompt") add_generation_prompt = kv.second;
    else if (key == "continue_final_message") continue_final = kv.second;
    else if (key == "tools") tools = kv.second;
    else if (key == "documents") documents = kv.second;
    else if (key == "messages") InputFail("template variable 'messages' is set by the renderer and cannot be passed as a keyword");
    else variables.Set(kv.first, kv.second);
  }
  if (Truthy(continue_final) && Truthy(add_generation_prompt)) {
    InputFail(
        "continue_final_message and add_generation_prompt are not compatible. Use continue_final_message when you "
        "want the model to continue the final message, and add_generation_prompt when you want to add a header that "
        "will prompt it to start a new assistant message instead.");
  }

  Template tmpl = Parse(source);

  // Python iterates tools and documents whatever they are: a string or an
  // object yields strings (rejected below), a number is not iterable.
  auto items = [](const Value& v) -> List {
    if (v.is_list_like()) return v.list();
    if (v.is_string() || v.is_dict()) return Truthy(v) ? List{Value::Str("")} : List{};
    InputFail("TypeError: " + StrRepr(TypeName(v)) + " object is not iterable");
  };
  if (!tools.is_none()) {
    List schemas;
    for (const Value& t : items(tools)) {
      if (!t.is_dict()) {
        InputFail("Tools should either be a JSON schema, or a callable function with type hints and a docstring "
                  "suitable for auto-conversion to a schema.");
      }
      schemas.push_back(t);
    }
    tools = Value::MakeList(std::move(schemas));
  }
  if (!documents.is_none()) {
    for (const Value& d : items(documents)) {
      if (!d.is_dict()) InputFail("Documents should be a list of dicts with 'title' and 'text' keys!");
    }
  }
  for (Value& m : chat) m = WithReasoningAliases(m);
  bool continuing = Truthy(continue_final);
  std::string continued;
  if (continuing) continued = MarkFinalMessage(&chat, continue_final, source);

  variables.Set(Value::Str("messages"), Value::MakeList(std::move(chat)));
  variables.Set(Value::Str("tools"), tools);
  variables.Set(Value::Str("documents"), documents);
  variables.Set(Value::Str("add_generation_prompt"), add_generation_prompt);

  Clock clock = settings.clock;
  if (!clock) {
    clock = [] {
      std::time_t t = std::time(nullptr);
      std::tm tm{};
      localtime_r(&t, &tm);
      return tm;
    };
  }
  Interpreter interp(tmpl, settings.limits, clock);
  std::string rendered = interp.Render(variables);
  return continuing ? CutAtMarker(rendered, continued) : rendered;
}

Status ErrorStatus(const RenderError& e) {
  std::string where = e.type == "json" ? "" : "chat template" + (e.line ? ", line " + std::to_string(e.line) : std::string()) + ": ";
  if (e.type == "json") return FormatError(e.message);
  if (e.type == "input") return FormatError(where + e.message);
  if (e.type == "TemplateSyntaxError" || e.type == "TemplateAssertionError") {
    return FormatError(where + "syntax error: " + e.message);
  }
  if (e.type == "raise_exception") return EncodeError(where + "raise_exception: " + e.message);
  return EncodeError(where + e.type + ": " + e.message);
}

}  // namespace

Status ApplyChatTemplate(std::string_view template_source, std::string_view messages_json,
                         std::string_view options_json, std::string_view bos_token, std::string_view eos_token,
                         const RenderSettings& settings, std::string* out) {
  try {
    *out = Render(template_source, messages_json, options_json, bos_token, eos_token, settings);
    return Status::Ok();
  } catch (const RenderError& e) {
    return ErrorStatus(e);
  } catch (const std::bad_alloc&) {
    return EncodeError("chat template: out of memory while rendering");
  } catch (const std::exception& e) {
    return Status(ErrorKind::kInternal, std::string("chat template: internal error: ") + e.what());
  }
}

Status ApplyChatTemplate(std::string_view template_source, std::string_view messages_json,
                         std::string_view options_json, std::string_view bos_token, std::string_view eos_token,
                         std::string* out) {
  return ApplyChatTemplate(template_source, messages_json, options_json, bos_token, eos_token, RenderSettings(), out);
}

}  // namespace mtok::chat
