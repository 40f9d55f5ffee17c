/* mtok's C API: load a .mtok tokenizer, encode, decode (also as a stream
   for generation loops) and render its chat template. C99 and C++.

   Conventions (docs/native.md has the details and a complete example):
   - Every int function returns 0 (MTOK_OK) on success and a negative
     MTOK_E_* code otherwise; mtok_last_error() then names the cause, for
     the calling thread, until its next failing call.
   - Every buffer a function returns is the caller's, freed by the matching
     mtok_free_* (free functions accept NULL). Output pointers are written
     only on success.
   - A tokenizer is immutable: one may be used from any number of threads at
     once. A decode stream belongs to one generation and one thread at a
     time, and must not outlive its tokenizer.
   - Text is UTF-8 with an explicit length; it may hold NUL bytes. Returned
     text is also NUL-terminated (the terminator is not counted in *len). */
#ifndef MTOK_MTOK_H_
#define MTOK_MTOK_H_

#include <stddef.h>
#include <stdint.h>

#include "mtok/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes. */
#define MTOK_OK 0
#define MTOK_E_INVALID_ARGUMENT (-1) /* a NULL pointer or an argument out of range */
#define MTOK_E_IO (-2)               /* a file cannot be opened, read or mapped */
#define MTOK_E_FORMAT (-3)           /* a .mtok file or buffer is truncated or corrupt */
#define MTOK_E_UNSUPPORTED (-4)      /* a valid file uses what mtok cannot run exactly */
#define MTOK_E_INVALID_UTF8 (-5)     /* input text is not valid UTF-8 */
#define MTOK_E_ENCODE (-6)           /* the input cannot be encoded or decoded */
#define MTOK_E_NOT_FOUND (-7)        /* no such token, or the file does not set it */
#define MTOK_E_JSON (-8)             /* messages_json or options_json is not valid JSON */
#define MTOK_E_TEMPLATE (-9)         /* the chat template failed (raise_exception, undefined value...) */
#define MTOK_E_NO_MEMORY (-10)       /* an allocation failed */
#define MTOK_E_INTERNAL (-11)        /* a bug in mtok */

typedef struct mtok_tokenizer mtok_tokenizer;
typedef struct mtok_decode_stream mtok_decode_stream;

/* The library's version, e.g. "0.1.0". */
MTOK_API const char* mtok_version(void);
/* The calling thread's last error message ("" before any error). Valid
   until the thread's next mtok call. */
MTOK_API const char* mtok_last_error(void);
/* The name of a return code ("MTOK_E_FORMAT"; "unknown" for other values). */
MTOK_API const char* mtok_code_name(int code);

/* --- loading ----------------------------------------------------------- */
/* A .mtok file, memory-mapped. */
MTOK_API int mtok_load_file(const char* path, mtok_tokenizer** out);
/* .mtok bytes, copied (data may be freed after the call). */
MTOK_API int mtok_load_buffer(const void* data, size_t size, mtok_tokenizer** out);
MTOK_API void mtok_free(mtok_tokenizer* tok);

/* --- encoding ---------------------------------------------------------- */
/* The ids of the whole text: never truncated or padded, whatever the
   source tokenizer.json's own truncation or padding settings are.
   add_special_tokens != 0 adds what the post-processor adds (BOS, EOS,
   [CLS] ... [SEP]). Invalid UTF-8 is MTOK_E_INVALID_UTF8. */
MTOK_API int mtok_encode(const mtok_tokenizer* tok, const char* text, size_t len, int add_special_tokens,
                         uint32_t** ids, size_t* n_ids);
MTOK_API void mtok_free_ids(uint32_t* ids);
/* Encodes n texts (texts[i] of lens[i] bytes) on up to num_threads threads
   of mtok's pool (num_threads <= 0: $MTOK_NUM_THREADS, else the number of
   CPUs), with mtok_encode's rules. All ids go in one array: text i's are
   (*ids)[(*offsets)[i] .. (*offsets)[i + 1]), *offsets has n + 1 entries.
   Free *ids with mtok_free_ids and *offsets with mtok_free_offsets. The
   first failing text fails the call (an invalid UTF-8 one is named by its
   index). */
MTOK_API int mtok_encode_batch(const mtok_tokenizer* tok, const char* const* texts, const size_t* lens,
                               size_t n, int add_special_tokens, int num_threads, uint32_t** ids,
                               size_t** offsets);
MTOK_API void mtok_free_offsets(size_t* offsets);

/* --- decoding ---------------------------------------------------------- */
/* The text of ids. Unknown ids are skipped, as in the Python package;
   skip_special_tokens != 0 also drops special tokens. */
MTOK_API int mtok_decode(const mtok_tokenizer* tok, const uint32_t* ids, size_t n_ids, int skip_special_tokens,
                         char** text, size_t* len);
MTOK_API void mtok_free_string(char* s);

/* Streaming decode (HF tokenizers' DecodeStream): each step returns only
   text that is complete; the bytes of a character split across ids are
   held back until the id that completes it. */
MTOK_API int mtok_decode_stream_new(const mtok_tokenizer* tok, int skip_special_tokens, mtok_decode_stream** out);
MTOK_API int mtok_decode_stream_step(mtok_decode_stream* s, uint32_t id, char** text, size_t* len);
/* *text == NULL while no complete character is ready */
MTOK_API void mtok_decode_stream_free(mtok_decode_stream* s);

/* --- vocabulary and special tokens --------------------------------------- */
/* The id of a token string (added tokens first); MTOK_E_NOT_FOUND if none. */
MTOK_API int mtok_token_to_id(const mtok_tokenizer* tok, const char* token, size_t len, uint32_t* id);
/* The token string of an id (free with mtok_free_string); MTOK_E_NOT_FOUND
   for an unknown id. */
MTOK_API int mtok_id_to_token(const mtok_tokenizer* tok, uint32_t id, char** token, size_t* len);
/* The vocabulary size, with the added tokens when with_added_tokens != 0. */
MTOK_API int mtok_vocab_size(const mtok_tokenizer* tok, int with_added_tokens, size_t* size);
/* The ids of the file's BOS and EOS token texts; MTOK_E_NOT_FOUND when the
   file names none, or names one that is no token. */
MTOK_API int mtok_bos_id(const mtok_tokenizer* tok, uint32_t* id);
MTOK_API int mtok_eos_id(const mtok_tokenizer* tok, uint32_t* id);
/* The ids that end a generation (the file's stop ids; may be empty: then
   *ids is NULL). Free with mtok_free_ids. */
MTOK_API int mtok_stop_ids(const mtok_tokenizer* tok, uint32_t** ids, size_t* n_ids);
/* *special = 1 when id is a special token, else 0. */
MTOK_API int mtok_is_special(const mtok_tokenizer* tok, uint32_t id, int* special);

/* --- chat templates ---------------------------------------------------- */
/* Renders the chat template stored in the file, byte for byte as the
   Python package's apply_chat_template (and so transformers') does.
   messages_json: a JSON array of message objects. options_json: NULL, ""
   or a JSON object with "add_generation_prompt", "continue_final_message",
   "tools", "documents", "chat_template" (the name of one of the file's
   named templates, or template source to render instead) and any other
   key as an extra template variable. The file's special token texts
   (bos_token, eos_token, ...) are template variables; options override
   them. */
MTOK_API int mtok_apply_chat_template(const mtok_tokenizer* tok, const char* messages_json,
                                      const char* options_json, char** text, size_t* len);

#ifdef __cplusplus
}
#endif

#endif /* MTOK_MTOK_H_ */
