"""Corpus tokenization at scale: token shards on disk and their reader.

``mtok tokenize-corpus`` (or :func:`tokenize_corpus`) writes a folder of
shards; :func:`open` reads it back with numpy memory maps. The format is in
docs/corpus.md.
"""

from .errors import CorpusError, RecordError
from .job import tokenize_corpus
from .options import JobOptions, ShardSize, parse_shard_size
from .reader import Dataset, open

__all__ = ["open", "Dataset", "tokenize_corpus", "JobOptions", "ShardSize", "parse_shard_size",
           "CorpusError", "RecordError"]
