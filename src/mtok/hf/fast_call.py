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


def make_encode_plus(original):
    """The patched ``_encode_plus``, falling back to `original`."""

    def _encode_plus(self, text, text_pair=None, add_special_tokens=True, padding_strategy=None,
                     truncation_strategy=None, max_length=None, stride=0, is_split_into_words=False,
                     pad_to_multiple_of=None, padding_side=None, return_tensors=None,
                     return_token_type_ids=None, return_attention_mask=None,
                     return_overflowing_tokens=False, return_special_tokens_mask=False,
                     return_offsets_mapping=False, return_length=False, verbose=True,
                     split_special_tokens=None, **kwargs):
        args = dict(text=text, text_pair=text_pair, add_special_tokens=add_special_tokens,
                    max_length=max_length, stride=stride, is_split_into_words=is_split_into_words,
                    pad_to_multiple_of=pad_to_multiple_of, padding_side=padding_side,
                    return_tensors=return_tensors, return_token_type_ids=return_token_type_ids,
                    return_attention_mask=return_attention_mask,
                    return_overflowing_tokens=return_overflowing_tokens,
                    return_special_tokens_mask=return_special_tokens_mask,
                    return_offsets_mapping=return_offsets_mapping, return_length=return_length,
                    verbose=verbose, split_special_tokens=split_special_tokens, **kwargs)
        if padding_strategy is not None:
            args["padding_strategy"] = padding_strategy
        if truncation_strategy is not None:
            args["truncation_strategy"] = truncation_strategy
        backend = self._tokenizer
        inputs = _plain_inputs(text, text_pair)
        if (not isinstance(backend, TransformersBackend) or backend._hf is not None or is_split_into_words
                or kwargs.get("sanitize_control_tokens") or inputs is None):
            return original(self, **args)
        texts, pairs, is_batched = inputs
        out = _native_batch(self, texts, pairs, add_special_tokens, padding_strategy, truncation_strategy,
                            max_length, stride, pad_to_multiple_of, padding_side, return_tensors,
                            return_token_type_ids, return_attention_mask, return_overflowing_tokens,
                            return_special_tokens_mask, return_offsets_mapping, return_length, verbose,
                            split_special_tokens)
        if not is_batched and return_tensors is None and not return_overflowing_tokens:
            from transformers.tokenization_utils_base import BatchEncoding

            out = BatchEncoding({k: (v[0] if len(v) > 0 and isinstance(v[0], list) else v)
                                 for k, v in out.items()}, out._encodings, n_sequences=out.n_sequences)
        return out

    _encode_plus.__wrapped__ = original
    _encode_plus.__doc__ = original.__doc__
    return _encode_plus


def make_batch_encode_plus(original):
    """transformers 4's ``_batch_encode_plus``, on the same native path."""

    def _batch_encode_plus(self, batch_text_or_text_pairs, add_special_tokens=True, padding_strategy=None,
                           truncation_strategy=None, max_length=None, stride=0, is_split_into_words=False,
                           pad_to_multiple_of=None, padding_side=None, return_tensors=None,
                           return_token_type_ids=None, return_attention_mask=None,
                           return_overflowing_tokens=False, return_special_tokens_mask=False,
                           return_offsets_mapping=False, return_length=False, verbose=True,
                           split_special_tokens=False, **kwargs):
        args = dict(add_special_tokens=add_special_tokens, max_length=max_length, stride=stride,
                    is_split_into_words=is_split_into_words, pad_to_multiple_of=pad_to_multiple_of,
                    padding_side=padding_side, return_tensors=return_tensors,
                    return_token_type_ids=return_token_type_ids, return_attention_mask=return_attention_mask,
                    return_overflowing_tokens=return_overflowing_tokens,
                    return_special_tokens_mask=return_special_tokens_mask,
                    return_offsets_mapping=return_offsets_mapping, return_length=return_length,
                    verbose=verbose, split_special_tokens=split_special_tokens, **kwargs)
        if padding_strategy is not None:
            args["padding_strategy"] = padding_strategy
        if truncation_strategy is not None:
            args["truncation_strategy"] = truncation_strategy
        backend = self._tokenizer
        batch = batch_text_or_text_pairs
        inputs = None
        if isinstance(batch, (list, tuple)) and batch:
            if all(isinstance(t, str) for t in batch):
                inputs = (list(batch), None)
            elif all(isinstance(t, (list, tuple)) and len(t) == 2 and all(isinstance(x, str) for x in t)
                     for t in batch):
                inputs = ([t[0] for t in batch], [t[1] for t in batch])
        if (not isinstance(backend, TransformersBackend) or backend._hf is not None or is_split_into_words
                or kwargs or inputs is None):
            return original(self, batch, **args)
        return _native_batch(self, inputs[0], inputs[1], add_special_tokens, padding_strategy,
                             truncation_strategy, max_length, stride, pad_to_multiple_of, padding_side,
                             return_tensors, return_token_type_ids, return_attention_mask,
                             return_overflowing_tokens, return_special_tokens_mask, return_offsets_mapping,
                             return_length, verbose, split_special_tokens)

    _batch_encode_plus.__wrapped__ = original
    _batch_encode_plus.__doc__ = original.__doc__
    return _batch_encode_plus


def _native_batch(self, texts, pairs, add_special_tokens, padding_strategy, truncation_strategy, max_length,
                  stride, pad_to_multiple_of, padding_side, return_tensors, return_token_type_ids,
                  return_attention_mask, return_overflowing_tokens, return_special_tokens_mask,
                  return_offsets_mapping, return_length, verbose, split_special_tokens):
    """The BatchEncoding transformers builds for str texts (and pairs), in
    its steps and order, from native columns."""
    from transformers.tokenization_utils_base import BatchEncoding, PaddingStrategy, TruncationStrategy

    backend = self._tokenizer
    self.set_truncation_and_padding(
        padding_strategy=padding_strategy or PaddingStrategy.DO_NOT_PAD,
        truncation_strategy=truncation_strategy or TruncationStrategy.DO_NOT_TRUNCATE,
        max_length=max_length, stride=stride, pad_to_multiple_of=pad_to_multiple_of,
        padding_side=padding_side)
    if split_special_tokens is None:
        split_special_tokens = self.split_special_tokens
    if backend.encode_special_tokens != split_special_tokens:
        backend.encode_special_tokens = split_special_tokens
    if return_token_type_ids is None:
        return_token_type_ids = "token_type_ids" in self.model_input_names
    if return_attention_mask is None:
        return_attention_mask = "attention_mask" in self.model_input_names
    columns = [name for name, wanted in (
        ("token_type_ids", return_token_type_ids), ("attention_mask", return_attention_mask),
        ("special_tokens_mask", return_special_tokens_mask),
        ("offset_mapping", return_offsets_mapping), ("length", return_length)) if wanted]
    data, n_sequences, encodings = backend.encode_columns(
        texts, pairs, add_special_tokens, columns, return_overflowing_tokens)
    for input_ids in data["input_ids"]:
        self._eventual_warn_about_too_long_sequence(input_ids, max_length, verbose)
    return BatchEncoding(data, encodings, tensor_type=return_tensors, n_sequences=n_sequences)


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
