/* mtok from C: load a .mtok, encode a text, decode it back, decode it again
   token by token as a generation loop would, and render the file's chat
   template for a short conversation.

   usage: mtok_example model.mtok "text to encode" */
#include <mtok/mtok.h>
#include <stdio.h>
#include <string.h>

static int fail(const char* what, int code) {
  fprintf(stderr, "%s failed: %s: %s\n", what, mtok_code_name(code), mtok_last_error());
  return 1;
}

int main(int argc, char** argv) {
  mtok_tokenizer* tok = NULL;
  uint32_t* ids = NULL;
  size_t n_ids = 0, i, len = 0;
  char* text = NULL;
  mtok_decode_stream* stream = NULL;
  int rc;

  if (argc != 3) {
    fprintf(stderr, "usage: %s model.mtok text\n", argv[0]);
    return 2;
  }
  printf("mtok %s\n", mtok_version());
  if ((rc = mtok_load_file(argv[1], &tok)) != MTOK_OK) return fail("mtok_load_file", rc);

  /* Encode: the ids of the whole text, with the post-processor's specials. */
  if ((rc = mtok_encode(tok, argv[2], strlen(argv[2]), 1, &ids, &n_ids)) != MTOK_OK) {
    mtok_free(tok);
    return fail("mtok_encode", rc);
  }
  printf("%zu ids:", n_ids);
  for (i = 0; i < n_ids; ++i) printf(" %u", (unsigned)ids[i]);
  printf("\n");

  /* Decode, dropping special tokens. */
  if ((rc = mtok_decode(tok, ids, n_ids, 1, &text, &len)) == MTOK_OK) {
    printf("decoded: %s\n", text);
    mtok_free_string(text);
  }

  /* Stream decode: text only once its characters are complete. */
  if (mtok_decode_stream_new(tok, 1, &stream) == MTOK_OK) {
    printf("streamed:");
    for (i = 0; i < n_ids; ++i) {
      if (mtok_decode_stream_step(stream, ids[i], &text, &len) != MTOK_OK) break;
      if (text != NULL) {
        printf(" [%s]", text);
        mtok_free_string(text);
      }
    }
    printf("\n");
    mtok_decode_stream_free(stream);
  }
  mtok_free_ids(ids);

  /* The chat template stored in the file, if it has one. */
  rc = mtok_apply_chat_template(tok, "[{\"role\": \"user\", \"content\": \"Hello!\"}]",
                                "{\"add_generation_prompt\": true}", &text, &len);
  if (rc == MTOK_OK) {
    printf("chat prompt (%zu bytes):\n%s\n", len, text);
    mtok_free_string(text);
  } else {
    printf("no chat prompt: %s\n", mtok_last_error());
  }
  mtok_free(tok);
  return 0;
}
