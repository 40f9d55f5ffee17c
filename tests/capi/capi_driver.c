/* Runs the C API over inputs the Python test writes and prints what it
   returns, so test_capi.py can compare it with the Python package.

   usage: capi_driver MODEL.mtok MODE INPUT
   INPUT holds records "<byte count>\n<bytes>\n". Every output line is a tag
   and values; text is printed as hex, so any bytes survive.
     text  each record is a text:
             E <ids, add_special_tokens=1>   P <ids, add_special_tokens=0>
             D <decode(P ids)>   S <decode(E ids, skip_special_tokens=1)>
             T <stream decode of E ids, one value per step, '-' for no text,
                '!' for an error, which ends the stream>
           then all texts again through mtok_encode_batch on 2 threads,
           which must give the E ids ("B <count>").
     ids   each record is decimal ids separated by spaces: D, S and T lines.
     chat  records are (messages_json, options_json) pairs:
             R <rendered text>  or  X <code name> <error message> */
#include <mtok/mtok.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char* data;
  size_t len;
} record;

static void die(const char* what, int code) {
  fprintf(stderr, "%s: %s: %s\n", what, mtok_code_name(code), mtok_last_error());
  exit(1);
}

static record* read_records(const char* path, size_t* n) {
  FILE* f = fopen(path, "rb");
  record* out = NULL;
  size_t cap = 0;
  unsigned long len;
  *n = 0;
  if (f == NULL) {
    perror(path);
    exit(2);
  }
  while (fscanf(f, "%lu", &len) == 1) {
    if (fgetc(f) != '\n') break;
    if (*n == cap) {
      cap = cap ? 2 * cap : 64;
      out = (record*)realloc(out, cap * sizeof(record));
      if (out == NULL) exit(3);
    }
    out[*n].len = len;
    out[*n].data = (char*)malloc(len + 1);
    if (out[*n].data == NULL || fread(out[*n].data, 1, len, f) != len || fgetc(f) != '\n') {
      fprintf(stderr, "%s: bad record %zu\n", path, *n);
      exit(2);
    }
    out[*n].data[len] = '\0';
    ++*n;
  }
  fclose(f);
  return out;
}

static void print_hex(const char* s, size_t len) {
  size_t i;
  if (len == 0) fputc('.', stdout); /* an empty value is "." */
  for (i = 0; i < len; ++i) printf("%02x", (unsigned char)s[i]);
}

static void print_ids(char tag, const uint32_t* ids, size_t n) {
  size_t i;
  putchar(tag);
  for (i = 0; i < n; ++i) printf(" %u", (unsigned)ids[i]);
  putchar('\n');
}

static void print_decode(const mtok_tokenizer* tok, char tag, const uint32_t* ids, size_t n, int skip) {
  char* text;
  size_t len;
  int rc = mtok_decode(tok, ids, n, skip, &text, &len);
  if (rc != MTOK_OK) die("mtok_decode", rc);
  if (text[len] != '\0') die("mtok_decode: no terminating NUL", MTOK_E_INTERNAL);
  printf("%c ", tag);
  print_hex(text, len);
  putchar('\n');
  mtok_free_string(text);
}

static void print_stream(const mtok_tokenizer* tok, const uint32_t* ids, size_t n) {
  mtok_decode_stream* s;
  size_t i, len;
  char* text;
  int rc = mtok_decode_stream_new(tok, 0, &s);
  if (rc != MTOK_OK) die("mtok_decode_stream_new", rc);
  putchar('T');
  for (i = 0; i < n; ++i) {
    rc = mtok_decode_stream_step(s, ids[i], &text, &len);
    putchar(' ');
    if (rc != MTOK_OK) { /* as DecodeStream.step raises: the stream ends */
      putchar('!');
      break;
    }
    if (text == NULL) {
      putchar('-');
    } else {
      print_hex(text, len);
      mtok_free_string(text);
    }
  }
  putchar('\n');
  mtok_decode_stream_free(s);
}

static void run_text(const mtok_tokenizer* tok, const record* r, size_t n) {
  size_t i, n_ids, n_plain, total = 0;
  uint32_t *ids, *plain, *batch;
  size_t* offsets;
  const char** texts = (const char**)malloc((n ? n : 1) * sizeof(char*));
  size_t* lens = (size_t*)malloc((n ? n : 1) * sizeof(size_t));
  uint32_t** singles = (uint32_t**)malloc((n ? n : 1) * sizeof(uint32_t*));
  size_t* counts = (size_t*)malloc((n ? n : 1) * sizeof(size_t));
  int rc;
  if (!texts || !lens || !singles || !counts) exit(3);
  for (i = 0; i < n; ++i) {
    if ((rc = mtok_encode(tok, r[i].data, r[i].len, 1, &ids, &n_ids)) != MTOK_OK) die("mtok_encode", rc);
    if ((rc = mtok_encode(tok, r[i].data, r[i].len, 0, &plain, &n_plain)) != MTOK_OK) die("mtok_encode", rc);
    print_ids('E', ids, n_ids);
    print_ids('P', plain, n_plain);
    print_decode(tok, 'D', plain, n_plain, 0);
    print_decode(tok, 'S', ids, n_ids, 1);
    print_stream(tok, ids, n_ids);
    mtok_free_ids(plain);
    singles[i] = ids;
    counts[i] = n_ids;
    texts[i] = r[i].data;
    lens[i] = r[i].len;
  }
  if ((rc = mtok_encode_batch(tok, texts, lens, n, 1, 2, &batch, &offsets)) != MTOK_OK) die("mtok_encode_batch", rc);
  for (i = 0; i < n; ++i) {
    size_t got = offsets[i + 1] - offsets[i];
    if (got != counts[i] || (got && memcmp(batch + offsets[i], singles[i], got * sizeof(uint32_t)) != 0)) {
      fprintf(stderr, "mtok_encode_batch: text %zu differs from mtok_encode\n", i);
      exit(1);
    }
    total += got;
    mtok_free_ids(singles[i]);
  }
  if (offsets[n] != total) die("mtok_encode_batch: offsets", MTOK_E_INTERNAL);
  printf("B %zu\n", n);
  mtok_free_ids(batch);
  mtok_free_offsets(offsets);
  free(texts);
  free(lens);
  free(singles);
  free(counts);
}

static void run_ids(const mtok_tokenizer* tok, const record* r, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i) {
    size_t count = 0, cap = 16;
    uint32_t* ids = (uint32_t*)malloc(cap * sizeof(uint32_t));
    char* p = r[i].data;
    char* end;
    unsigned long v;
    if (ids == NULL) exit(3);
    for (v = strtoul(p, &end, 10); end != p; v = strtoul(p, &end, 10)) {
      if (count == cap && (ids = (uint32_t*)realloc(ids, (cap *= 2) * sizeof(uint32_t))) == NULL) exit(3);
      ids[count++] = (uint32_t)v;
      p = end;
    }
    print_decode(tok, 'D', ids, count, 0);
    print_decode(tok, 'S', ids, count, 1);
    print_stream(tok, ids, count);
    free(ids);
  }
}

static void run_chat(const mtok_tokenizer* tok, const record* r, size_t n) {
  size_t i, len;
  char* text;
  for (i = 0; i + 1 < n; i += 2) {
    int rc = mtok_apply_chat_template(tok, r[i].data, r[i + 1].len ? r[i + 1].data : NULL, &text, &len);
    if (rc == MTOK_OK) {
      printf("R ");
      print_hex(text, len);
      mtok_free_string(text);
    } else {
      printf("X %s ", mtok_code_name(rc));
      print_hex(mtok_last_error(), strlen(mtok_last_error()));
    }
    putchar('\n');
  }
}

int main(int argc, char** argv) {
  mtok_tokenizer* tok;
  record* records;
  size_t n, i;
  int rc;
  if (argc != 4) {
    fprintf(stderr, "usage: %s MODEL.mtok text|ids|chat INPUT\n", argv[0]);
    return 2;
  }
  if ((rc = mtok_load_file(argv[1], &tok)) != MTOK_OK) die("mtok_load_file", rc);
  records = read_records(argv[3], &n);
  if (strcmp(argv[2], "text") == 0) {
    run_text(tok, records, n);
  } else if (strcmp(argv[2], "ids") == 0) {
    run_ids(tok, records, n);
  } else if (strcmp(argv[2], "chat") == 0) {
    run_chat(tok, records, n);
  } else {
    fprintf(stderr, "unknown mode %s\n", argv[2]);
    return 2;
  }
  for (i = 0; i < n; ++i) free(records[i].data);
  free(records);
  mtok_free(tok);
  return 0;
}
