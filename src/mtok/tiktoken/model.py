"""Which encoding each OpenAI model uses (tiktoken's published mapping)."""

from .registry import get_encoding

# Exact model names.
MODEL_TO_ENCODING = {
    **dict.fromkeys(["o1", "o3", "o4-mini", "gpt-5", "gpt-4.1", "gpt-4o"], "o200k_base"),
    **dict.fromkeys(["gpt-4", "gpt-3.5-turbo", "gpt-3.5", "gpt-35-turbo", "davinci-002",
                     "babbage-002", "text-embedding-ada-002", "text-embedding-3-small",
                     "text-embedding-3-large"], "cl100k_base"),
    **dict.fromkeys(["text-davinci-003", "text-davinci-002", "code-davinci-002", "code-davinci-001",
                     "code-cushman-002", "code-cushman-001", "davinci-codex", "cushman-codex"],
                    "p50k_base"),
    **dict.fromkeys(["text-davinci-edit-001", "code-davinci-edit-001"], "p50k_edit"),
    **dict.fromkeys(["text-davinci-001", "text-curie-001", "text-babbage-001", "text-ada-001",
                     "davinci", "curie", "babbage", "ada", "text-similarity-davinci-001",
                     "text-similarity-curie-001", "text-similarity-babbage-001",
                     "text-similarity-ada-001", "text-search-davinci-doc-001",
                     "text-search-curie-doc-001", "text-search-babbage-doc-001",
                     "text-search-ada-doc-001", "code-search-babbage-code-001",
                     "code-search-ada-code-001"], "r50k_base"),
    **dict.fromkeys(["gpt2", "gpt-2"], "gpt2"),
}

# Model name prefixes, tried in this order when the exact name is unknown.
MODEL_PREFIX_TO_ENCODING = {
    **dict.fromkeys(["o1-", "o3-", "o4-mini-", "gpt-5", "gpt-4.5-", "gpt-4.1-", "chatgpt-4o-",
                     "gpt-4o-"], "o200k_base"),
    **dict.fromkeys(["gpt-4-", "gpt-3.5-turbo-", "gpt-35-turbo-"], "cl100k_base"),
    "gpt-oss-": "o200k_harmony",
    "ft:gpt-4o": "o200k_base",
    **dict.fromkeys(["ft:gpt-4", "ft:gpt-3.5-turbo", "ft:davinci-002", "ft:babbage-002"],
                    "cl100k_base"),
}


def encoding_name_for_model(model_name: str) -> str:
    """The name of the encoding a model uses; KeyError when unknown."""
    if model_name in MODEL_TO_ENCODING:
        return MODEL_TO_ENCODING[model_name]
    for prefix, name in MODEL_PREFIX_TO_ENCODING.items():
        if model_name.startswith(prefix):
            return name
    raise KeyError(
        f"Could not automatically map {model_name} to a tokeniser. "
        "Please use `tiktoken.get_encoding` to explicitly get the tokeniser you expect.")


def encoding_for_model(model_name: str):
    """The Encoding a model uses; KeyError when the model is unknown."""
    return get_encoding(encoding_name_for_model(model_name))
