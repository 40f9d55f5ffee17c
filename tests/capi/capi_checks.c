/* The C API's promises that need no Python to check: NULL arguments, bad
   files, invalid UTF-8, bad JSON and unknown ids are errors with a message
   (never a crash), each thread has its own last error, one tokenizer
   serves many threads at once, and every buffer is freed by its
   mtok_free_* (run under ASan by `make sanitize`, which also checks leaks).

   usage: capi_checks MODEL.mtok   (or --version: prints mtok_version())
   Prints "ok <number of checks>" and exits 0, or names the failed check. */
#include <mtok/mtok.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks = 0;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    ++checks;                                              \
    if (!(cond)) {                                         \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                        \
      fprintf(stderr, " (last error: %s)\n", mtok_last_error()); \
      exit(1);                                             \
    }                                                      \
  } while (0)

/* rc is `code` and the message contains `needle`. */
static void expect_error(int rc, int code, const char* needle, const char* what) {
  CHECK(rc == code, "%s returned %s, expected %s", what, mtok_code_name(rc), mtok_code_name(code));
  CHECK(strstr(mtok_last_error(), needle) != NULL, "%s: message lacks '%s'", what, needle);
}

static char* read_file(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  char* data;
  long n;
  if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    perror(path);
    exit(2);
  }
  data = (char*)malloc((size_t)n + 1);
  if (data == NULL || fread(data, 1, (size_t)n, f) != (size_t)n) exit(2);
  fclose(f);
  *size = (size_t)n;
  return data;
}

static const char* const kTexts[] = {
    "Hello, world! This is mtok's C API.",
    "Ça va? Größe, 你好世界, こんにちは, Привет, مرحبا, 🎉👍🏽",
    "  leading and trailing spaces  \n\ttabs\r\nand lines",
    "",
    "1234567890 3.14159 x=y+z; if (a && b) { return c; }",
};
#define N_TEXTS (sizeof(kTexts) / sizeof(kTexts[0]))

static void check_null_arguments(const mtok_tokenizer* tok) {
  uint32_t* ids;
  size_t n, len;
  char* text;
  uint32_t id = 0;
  mtok_tokenizer* out;
  mtok_decode_stream* stream;
  const char* texts[1] = {NULL};
  size_t lens[1] = {3};
  size_t* offsets;
  expect_error(mtok_load_file(NULL, &out), MTOK_E_INVALID_ARGUMENT, "path is NULL", "load_file(NULL)");
  expect_error(mtok_load_file("x.mtok", NULL), MTOK_E_INVALID_ARGUMENT, "out is NULL", "load_file(out=NULL)");
  expect_error(mtok_load_buffer(NULL, 10, &out), MTOK_E_INVALID_ARGUMENT, "data is NULL", "load_buffer(NULL)");
  expect_error(mtok_encode(NULL, "a", 1, 1, &ids, &n), MTOK_E_INVALID_ARGUMENT, "tok is NULL", "encode(tok=NULL)");
  expect_error(mtok_encode(tok, NULL, 1, 1, &ids, &n), MTOK_E_INVALID_ARGUMENT, "text is NULL", "encode(text=NULL)");
  expect_error(mtok_encode(tok, "a", 1, 1, NULL, &n), MTOK_E_INVALID_ARGUMENT, "ids is NULL", "encode(ids=NULL)");
  expect_error(mtok_encode_batch(tok, texts, lens, 1, 1, 1, &ids, &offsets), MTOK_E_INVALID_ARGUMENT,
               "texts[0] is NULL", "encode_batch(texts[0]=NULL)");
  expect_error(mtok_decode(tok, NULL, 2, 0, &text, &len), MTOK_E_INVALID_ARGUMENT, "ids is NULL", "decode(NULL)");
  expect_error(mtok_decode(tok, &id, 1, 0, NULL, &len), MTOK_E_INVALID_ARGUMENT, "text is NULL", "decode(text=NULL)");
  expect_error(mtok_decode_stream_new(NULL, 0, &stream), MTOK_E_INVALID_ARGUMENT, "tok is NULL", "stream_new");
  expect_error(mtok_decode_stream_step(NULL, 1, &text, &len), MTOK_E_INVALID_ARGUMENT, "s is NULL", "stream_step");
  expect_error(mtok_token_to_id(tok, NULL, 1, &id), MTOK_E_INVALID_ARGUMENT, "token is NULL", "token_to_id");
  expect_error(mtok_id_to_token(tok, 0, NULL, &len), MTOK_E_INVALID_ARGUMENT, "token is NULL", "id_to_token");
  expect_error(mtok_vocab_size(NULL, 1, &n), MTOK_E_INVALID_ARGUMENT, "tok is NULL", "vocab_size");
  expect_error(mtok_bos_id(tok, NULL), MTOK_E_INVALID_ARGUMENT, "id is NULL", "bos_id");
  expect_error(mtok_stop_ids(tok, NULL, &n), MTOK_E_INVALID_ARGUMENT, "ids is NULL", "stop_ids");
  expect_error(mtok_apply_chat_template(tok, NULL, NULL, &text, &len), MTOK_E_INVALID_ARGUMENT,
               "messages_json is NULL", "apply_chat_template(NULL)");
  /* Free functions accept NULL. */
  mtok_free(NULL);
  mtok_free_ids(NULL);
  mtok_free_offsets(NULL);
  mtok_free_string(NULL);
  mtok_decode_stream_free(NULL);
}

static void check_bad_files(const char* path, const char* data, size_t size) {
  mtok_tokenizer* tok;
  /* A load validates the whole file: fewer tries on a large one. */
  const size_t tries = size > (4u << 20) ? 16 : 128;
  size_t cut, step = size / tries + 1, i;
  char* copy = (char*)malloc(size);
  expect_error(mtok_load_file("/nonexistent/dir/model.mtok", &tok), MTOK_E_IO, "/nonexistent/dir/model.mtok",
               "load_file(missing)");
  expect_error(mtok_load_file("/", &tok), MTOK_E_IO, "/", "load_file(a directory)");
  CHECK(mtok_load_buffer("", 0, &tok) == MTOK_E_FORMAT, "an empty buffer loads");
  CHECK(mtok_load_buffer("not a tokenizer at all", 22, &tok) == MTOK_E_FORMAT, "text loads as a tokenizer");
  CHECK(strlen(mtok_last_error()) > 0, "a format error has no message");
  /* Every truncation is an error naming where the file ended. */
  for (cut = 0; cut < size; cut += (cut < 1024 ? 97 : step)) {
    int rc = mtok_load_buffer(data, cut, &tok);
    CHECK(rc == MTOK_E_FORMAT, "%s cut to %zu bytes: %s", path, cut, mtok_code_name(rc));
    /* The core names the section and the offset: "model at byte 60: ..." */
    CHECK(strstr(mtok_last_error(), " at byte ") != NULL, "%s cut to %zu bytes: %s", path, cut, mtok_last_error());
  }
  /* Corrupt bytes: an error, or a tokenizer that still encodes and decodes
     without crashing. */
  if (copy == NULL) exit(3);
  for (i = 0; i < tries; ++i) {
    size_t at = (i * 2654435761u) % size;
    int rc;
    memcpy(copy, data, size);
    copy[at] = (char)(copy[at] ^ (0x5b + i));
    rc = mtok_load_buffer(copy, size, &tok);
    if (rc == MTOK_OK) {
      uint32_t* ids;
      size_t n, len;
      char* text;
      if (mtok_encode(tok, kTexts[1], strlen(kTexts[1]), 1, &ids, &n) == MTOK_OK) {
        if (mtok_decode(tok, ids, n, 0, &text, &len) == MTOK_OK) mtok_free_string(text);
        mtok_free_ids(ids);
      }
      mtok_free(tok);
    } else {
      CHECK(rc == MTOK_E_FORMAT || rc == MTOK_E_UNSUPPORTED, "byte %zu flipped: %s", at, mtok_code_name(rc));
    }
  }
  free(copy);
}

static void check_text_errors(const mtok_tokenizer* tok) {
  static const char* const bad[] = {"ok \xff", "\xc3", "a\xed\xa0\x80z" /* a UTF-16 surrogate */, "\xc0\xaf"};
  uint32_t* ids;
  size_t n, i, len;
  char* text;
  uint32_t id;
  for (i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i)
    expect_error(mtok_encode(tok, bad[i], strlen(bad[i]), 1, &ids, &n), MTOK_E_INVALID_UTF8, "offset",
                 "encode(invalid UTF-8)");
  {
    const char* texts[2] = {"fine", "\xe4\xbd"};
    size_t lens[2] = {4, 2};
    size_t* offsets;
    expect_error(mtok_encode_batch(tok, texts, lens, 2, 1, 2, &ids, &offsets), MTOK_E_INVALID_UTF8, "texts[1]",
                 "encode_batch(invalid UTF-8)");
  }
  /* Text with a NUL byte is text like any other. */
  CHECK(mtok_encode(tok, "a\0b", 3, 0, &ids, &n) == MTOK_OK, "encode with a NUL byte");
  mtok_free_ids(ids);
  expect_error(mtok_token_to_id(tok, "no such token \x01\x02", 16, &id), MTOK_E_NOT_FOUND, "no token",
               "token_to_id(unknown)");
  expect_error(mtok_id_to_token(tok, 4000000000u, &text, &len), MTOK_E_NOT_FOUND, "4000000000",
               "id_to_token(unknown)");
}

static void check_json_errors(const mtok_tokenizer* tok) {
  static const char* const bad[] = {"[{\"role\": \"user\", \"content\": \"hi\"", "[{'role': 'user'}]", "", "[1,]"};
  char* text;
  size_t len, i;
  /* TEMPORARY until the native engine lands on this branch. */
  if (mtok_apply_chat_template(tok, "[]", NULL, &text, &len) == MTOK_E_INTERNAL &&
      strstr(mtok_last_error(), "not built yet") != NULL)
    return;
  for (i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    int rc = mtok_apply_chat_template(tok, bad[i], NULL, &text, &len);
    CHECK(rc == MTOK_E_JSON, "messages %s: %s", bad[i], mtok_code_name(rc));
  }
  CHECK(mtok_apply_chat_template(tok, "[]", "{\"add_generation_prompt\": tru}", &text, &len) == MTOK_E_JSON,
        "bad options JSON");
  CHECK(mtok_apply_chat_template(tok, "[]", "[1, 2]", &text, &len) != MTOK_OK, "options that are no object");
}

/* Decoding skips unknown ids, as the Python package does. */
static void check_unknown_ids(const mtok_tokenizer* tok) {
  uint32_t* ids;
  size_t n, len_a, len_b, vocab;
  char *a, *b;
  uint32_t* with_unknown;
  CHECK(mtok_vocab_size(tok, 1, &vocab) == MTOK_OK && vocab > 0, "vocab size");
  CHECK(mtok_encode(tok, kTexts[0], strlen(kTexts[0]), 0, &ids, &n) == MTOK_OK && n >= 2, "encode");
  with_unknown = (uint32_t*)malloc((n + 2) * sizeof(uint32_t));
  if (with_unknown == NULL) exit(3);
  with_unknown[0] = (uint32_t)vocab + 1000;
  memcpy(with_unknown + 1, ids, n * sizeof(uint32_t));
  with_unknown[n + 1] = 0xffffffffu;
  CHECK(mtok_decode(tok, ids, n, 0, &a, &len_a) == MTOK_OK, "decode");
  CHECK(mtok_decode(tok, with_unknown, n + 2, 0, &b, &len_b) == MTOK_OK, "decode with unknown ids");
  CHECK(len_a == len_b && memcmp(a, b, len_a) == 0, "unknown ids changed the text: '%s' vs '%s'", a, b);
  mtok_free_string(a);
  mtok_free_string(b);
  free(with_unknown);
  mtok_free_ids(ids);
}

static void check_vocab(const mtok_tokenizer* tok) {
  uint32_t* ids;
  size_t n, len, vocab, i;
  char* token;
  uint32_t id;
  CHECK(mtok_vocab_size(tok, 0, &vocab) == MTOK_OK, "vocab size");
  for (i = 0; i < vocab; i += vocab / 97 + 1) {
    if (mtok_id_to_token(tok, (uint32_t)i, &token, &len) != MTOK_OK) continue; /* a hole in the ids */
    CHECK(mtok_token_to_id(tok, token, len, &id) == MTOK_OK, "token of id %zu has no id", i);
    mtok_free_string(token);
  }
  CHECK(mtok_stop_ids(tok, &ids, &n) == MTOK_OK && (n == 0) == (ids == NULL), "stop ids");
  for (i = 0; i < n; ++i) {
    int special = 0;
    CHECK(mtok_is_special(tok, ids[i], &special) == MTOK_OK, "is_special");
  }
  mtok_free_ids(ids);
}

/* Many threads share one tokenizer; each has its own last error. */
typedef struct {
  const mtok_tokenizer* tok;
  uint32_t* expected[N_TEXTS];
  size_t expected_n[N_TEXTS];
  int failed;
  int index;
} shared_state;

static void* encode_many(void* arg) {
  shared_state* st = (shared_state*)arg;
  size_t round, i, n;
  uint32_t* ids;
  char* text;
  size_t len;
  for (round = 0; round < 40; ++round) {
    for (i = 0; i < N_TEXTS; ++i) {
      if (mtok_encode(st->tok, kTexts[i], strlen(kTexts[i]), 1, &ids, &n) != MTOK_OK) {
        st->failed = 1;
        continue;
      }
      if (n != st->expected_n[i] || (n && memcmp(ids, st->expected[i], n * sizeof(uint32_t)) != 0)) st->failed = 1;
      if (mtok_decode(st->tok, ids, n, 0, &text, &len) == MTOK_OK) mtok_free_string(text);
      mtok_free_ids(ids);
    }
  }
  return NULL;
}

typedef struct {
  const mtok_tokenizer* tok;
  char message[256];
} error_state;

static void* fail_in_thread(void* arg) {
  error_state* st = (error_state*)arg;
  uint32_t* ids;
  size_t n;
  mtok_encode(st->tok, "\xff", 1, 1, &ids, &n);
  strncpy(st->message, mtok_last_error(), sizeof(st->message) - 1);
  return NULL;
}

static void check_threads(const mtok_tokenizer* tok) {
  enum { kThreads = 8 };
  pthread_t threads[kThreads];
  shared_state states[kThreads];
  error_state err;
  size_t i, t;
  uint32_t* ids;
  size_t n;
  for (t = 0; t < kThreads; ++t) {
    states[t].tok = tok;
    states[t].failed = 0;
    for (i = 0; i < N_TEXTS; ++i)
      CHECK(mtok_encode(tok, kTexts[i], strlen(kTexts[i]), 1, &states[t].expected[i], &states[t].expected_n[i]) ==
                MTOK_OK, "encode");
  }
  for (t = 0; t < kThreads; ++t) CHECK(pthread_create(&threads[t], NULL, encode_many, &states[t]) == 0, "thread");
  for (t = 0; t < kThreads; ++t) pthread_join(threads[t], NULL);
  for (t = 0; t < kThreads; ++t) {
    CHECK(!states[t].failed, "thread %zu got other ids than one thread alone", t);
    for (i = 0; i < N_TEXTS; ++i) mtok_free_ids(states[t].expected[i]);
  }
  /* A failure on another thread leaves this thread's last error alone. */
  mtok_encode(tok, NULL, 1, 1, &ids, &n);
  memset(&err, 0, sizeof(err));
  err.tok = tok;
  CHECK(pthread_create(&threads[0], NULL, fail_in_thread, &err) == 0, "thread");
  pthread_join(threads[0], NULL);
  CHECK(strstr(err.message, "UTF-8") != NULL, "the other thread's message: %s", err.message);
  CHECK(strstr(mtok_last_error(), "text is NULL") != NULL, "this thread's message changed");
}

static void check_stream(const mtok_tokenizer* tok) {
  /* A stream never returns half a character: its pieces join to the
     decoded text. */
  const char* s = kTexts[1];
  uint32_t* ids;
  size_t n, i, len, whole_len, at = 0;
  char *text, *whole;
  mtok_decode_stream* stream;
  CHECK(mtok_encode(tok, s, strlen(s), 0, &ids, &n) == MTOK_OK, "encode");
  CHECK(mtok_decode(tok, ids, n, 0, &whole, &whole_len) == MTOK_OK, "decode");
  CHECK(mtok_decode_stream_new(tok, 0, &stream) == MTOK_OK, "stream");
  for (i = 0; i < n; ++i) {
    CHECK(mtok_decode_stream_step(stream, ids[i], &text, &len) == MTOK_OK, "step %zu", i);
    if (text != NULL) {
      CHECK(len > 0 && at + len <= whole_len && memcmp(whole + at, text, len) == 0, "step %zu gave '%s'", i, text);
      at += len;
      mtok_free_string(text);
    } else {
      CHECK(len == 0, "no text but a length");
    }
  }
  CHECK(at == whole_len, "the stream gave %zu of %zu bytes", at, whole_len);
  mtok_decode_stream_free(stream);
  mtok_free_string(whole);
  mtok_free_ids(ids);
}

int main(int argc, char** argv) {
  mtok_tokenizer* tok;
  size_t size;
  char* data;
  if (argc == 2 && strcmp(argv[1], "--version") == 0) {
    printf("%s\n", mtok_version());
    return 0;
  }
  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL.mtok | --version\n", argv[0]);
    return 2;
  }
  data = read_file(argv[1], &size);
  CHECK(mtok_load_buffer(data, size, &tok) == MTOK_OK, "load %s", argv[1]);
  check_null_arguments(tok);
  check_bad_files(argv[1], data, size);
  check_text_errors(tok);
  check_json_errors(tok);
  check_unknown_ids(tok);
  check_vocab(tok);
  check_threads(tok);
  check_stream(tok);
  mtok_free(tok);
  free(data);
  printf("ok %d\n", checks);
  return 0;
}
