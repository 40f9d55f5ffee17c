"""The batch path of a patched transformers tokenizer: ``tok(texts)`` builds
its BatchEncoding from columns the native core fills, instead of one
Encoding per text converted in Python (transformers' own path).

It replaces ``TokenizersBackend._encode_plus`` (transformers 5), or
``PreTrainedTokenizerFast._batch_encode_plus`` (4.x), while patched, and
hands every call it does not cover to the original: another
backend, pre-tokenized input, control-token sanitizing, an empty batch or
anything that is not str. The steps it does take are transformers' own,
in its order (settings, encode_special_tokens, columns, too-long warning,
single-input unbatching).
"""

from .backend import TransformersBackend

# The options both patched methods take after their inputs, with the
# defaults transformers gives them (split_special_tokens: per method).
_OPTIONS = dict(add_special_tokens=True, padding_strategy=None, truncation_strategy=None, max_length=None,
                stride=0, is_split_into_words=False, pad_to_multiple_of=None, padding_side=None,
                return_tensors=None, return_token_type_ids=None, return_attention_mask=None,
                return_overflowing_tokens=False, return_special_tokens_mask=False,
                return_offsets_mapping=False, return_length=False, verbose=True)


def _split_options(given, split_special_tokens):
    """(options, extra): every option with its value or default, and the
    keywords that are not options."""
    options = dict(_OPTIONS, split_special_tokens=split_special_tokens)
    extra = {}
    for key, value in given.items():
        (options if key in options else extra)[key] = value
    return options, extra


def _original_args(options, extra):
    """The keywords the original method gets: every option (the padding and
    truncation strategies only when set, so that its own defaults hold)."""
    args = {k: v for k, v in options.items()
            if v is not None or k not in ("padding_strategy", "truncation_strategy")}
    args.update(extra)
    return args


def _columns_backend(self, options):
    """The mtok backend when the columns path may take the call, else None."""
    backend = self._tokenizer
    if not isinstance(backend, TransformersBackend) or backend._hf is not None or options["is_split_into_words"]:
        return None
    return backend


def make_encode_plus(original):
    """The patched ``_encode_plus``, falling back to `original`."""

    def _encode_plus(self, text, text_pair=None, **given):
        options, extra = _split_options(given, None)
        inputs = _plain_inputs(text, text_pair)
        if _columns_backend(self, options) is None or extra.get("sanitize_control_tokens") or inputs is None:
            return original(self, text=text, text_pair=text_pair, **_original_args(options, extra))
        texts, pairs, is_batched = inputs
        out = _native_batch(self, texts, pairs, options)
        if not is_batched and options["return_tensors"] is None and not options["return_overflowing_tokens"]:
            from transformers.tokenization_utils_base import BatchEncoding

            out = BatchEncoding({k: (v[0] if len(v) > 0 and isinstance(v[0], list) else v)
                                 for k, v in out.items()}, out._encodings, n_sequences=out.n_sequences)
        return out

    _encode_plus.__wrapped__ = original
    _encode_plus.__doc__ = original.__doc__
    return _encode_plus


def make_batch_encode_plus(original):
    """transformers 4's ``_batch_encode_plus``, on the same native path."""

    def _batch_encode_plus(self, batch_text_or_text_pairs, **given):
        options, extra = _split_options(given, False)
        batch = batch_text_or_text_pairs
        inputs = None
        if isinstance(batch, (list, tuple)) and batch:
            if all(isinstance(t, str) for t in batch):
                inputs = (list(batch), None)
            elif all(isinstance(t, (list, tuple)) and len(t) == 2 and all(isinstance(x, str) for x in t)
                     for t in batch):
                inputs = ([t[0] for t in batch], [t[1] for t in batch])
        if _columns_backend(self, options) is None or extra or inputs is None:
            return original(self, batch, **_original_args(options, extra))
        return _native_batch(self, inputs[0], inputs[1], options)

    _batch_encode_plus.__wrapped__ = original
    _batch_encode_plus.__doc__ = original.__doc__
    return _batch_encode_plus


def _native_batch(self, texts, pairs, options):
    """The BatchEncoding transformers builds for str texts (and pairs), in
    its steps and order, from native columns."""
    from transformers.tokenization_utils_base import BatchEncoding, PaddingStrategy, TruncationStrategy

    backend = self._tokenizer
    max_length = options["max_length"]
    self.set_truncation_and_padding(
        padding_strategy=options["padding_strategy"] or PaddingStrategy.DO_NOT_PAD,
        truncation_strategy=options["truncation_strategy"] or TruncationStrategy.DO_NOT_TRUNCATE,
        max_length=max_length, stride=options["stride"], pad_to_multiple_of=options["pad_to_multiple_of"],
        padding_side=options["padding_side"])
    split_special_tokens = options["split_special_tokens"]
    if split_special_tokens is None:
        split_special_tokens = self.split_special_tokens
    if backend.encode_special_tokens != split_special_tokens:
        backend.encode_special_tokens = split_special_tokens
    return_token_type_ids = options["return_token_type_ids"]
    if return_token_type_ids is None:
        return_token_type_ids = "token_type_ids" in self.model_input_names
    return_attention_mask = options["return_attention_mask"]
    if return_attention_mask is None:
        return_attention_mask = "attention_mask" in self.model_input_names
    columns = [name for name, wanted in (
        ("token_type_ids", return_token_type_ids), ("attention_mask", return_attention_mask),
        ("special_tokens_mask", options["return_special_tokens_mask"]),
        ("offset_mapping", options["return_offsets_mapping"]), ("length", options["return_length"])) if wanted]
    data, n_sequences, encodings = backend.encode_columns(
        texts, pairs, options["add_special_tokens"], columns, options["return_overflowing_tokens"])
    for input_ids in data["input_ids"]:
        self._eventual_warn_about_too_long_sequence(input_ids, max_length, options["verbose"])
    return BatchEncoding(data, encodings, tensor_type=options["return_tensors"], n_sequences=n_sequences)


def _plain_inputs(text, text_pair):
    """(texts, pairs or None, is_batched) for str inputs the columns path
    covers as transformers would batch them; None for anything else."""
    if isinstance(text, str):
        if text_pair is not None and not isinstance(text_pair, str):
            return None
        # transformers: `[(text, text_pair)] if text_pair else [text]`
        return [text], ([text_pair] if text_pair else None), False
    if not isinstance(text, (list, tuple)) or not text or not all(isinstance(t, str) for t in text):
        return None
    if text_pair is None:
        return list(text), None, True
    if (not isinstance(text_pair, (list, tuple)) or len(text_pair) != len(text)
            or not all(isinstance(t, str) for t in text_pair)):
        return None
    return list(text), list(text_pair), True
