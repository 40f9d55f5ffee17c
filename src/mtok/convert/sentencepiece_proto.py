"""The part of SentencePiece's ModelProto that mtok reads, as a protobuf
message class built at runtime (no protoc, no generated code).

Field numbers and defaults follow sentencepiece_model.proto in
google/sentencepiece; fields mtok does not need are left out, and protobuf
skips them when parsing.
"""

import functools

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_F = descriptor_pb2.FieldDescriptorProto
_OPT, _REP = _F.LABEL_OPTIONAL, _F.LABEL_REPEATED

# (name, number, type, label, default or type name)
_TRAINER_SPEC = [
    ("model_type", 3, _F.TYPE_ENUM, _OPT, ".sentencepiece.TrainerSpec.ModelType", "UNIGRAM"),
    ("vocab_size", 4, _F.TYPE_INT32, _OPT, None, "8000"),
    ("treat_whitespace_as_suffix", 24, _F.TYPE_BOOL, _OPT, None, "false"),
    ("split_digits", 25, _F.TYPE_BOOL, _OPT, None, "false"),
    ("byte_fallback", 35, _F.TYPE_BOOL, _OPT, None, "false"),
    ("unk_id", 40, _F.TYPE_INT32, _OPT, None, "0"),
    ("bos_id", 41, _F.TYPE_INT32, _OPT, None, "1"),
    ("eos_id", 42, _F.TYPE_INT32, _OPT, None, "2"),
    ("pad_id", 43, _F.TYPE_INT32, _OPT, None, "-1"),
    ("unk_surface", 44, _F.TYPE_STRING, _OPT, None, " \u2047 "),
]
_NORMALIZER_SPEC = [
    ("name", 1, _F.TYPE_STRING, _OPT, None, None),
    ("precompiled_charsmap", 2, _F.TYPE_BYTES, _OPT, None, None),
    ("add_dummy_prefix", 3, _F.TYPE_BOOL, _OPT, None, "true"),
    ("remove_extra_whitespaces", 4, _F.TYPE_BOOL, _OPT, None, "true"),
    ("escape_whitespaces", 5, _F.TYPE_BOOL, _OPT, None, "true"),
]
_PIECE = [
    ("piece", 1, _F.TYPE_STRING, _OPT, None, None),
    ("score", 2, _F.TYPE_FLOAT, _OPT, None, None),
    ("type", 3, _F.TYPE_ENUM, _OPT, ".sentencepiece.ModelProto.SentencePiece.Type", "NORMAL"),
]
_MODEL = [
    ("pieces", 1, _F.TYPE_MESSAGE, _REP, ".sentencepiece.ModelProto.SentencePiece", None),
    ("trainer_spec", 2, _F.TYPE_MESSAGE, _OPT, ".sentencepiece.TrainerSpec", None),
    ("normalizer_spec", 3, _F.TYPE_MESSAGE, _OPT, ".sentencepiece.NormalizerSpec", None),
    ("denormalizer_spec", 5, _F.TYPE_MESSAGE, _OPT, ".sentencepiece.NormalizerSpec", None),
]
PIECE_TYPES = {"NORMAL": 1, "UNKNOWN": 2, "CONTROL": 3, "USER_DEFINED": 4, "UNUSED": 5, "BYTE": 6}
MODEL_TYPES = {"UNIGRAM": 1, "BPE": 2, "WORD": 3, "CHAR": 4}


def _message(parent, name, fields):
    msg = parent.add(name=name)
    for fname, number, ftype, label, type_name, default in fields:
        f = msg.field.add(name=fname, number=number, type=ftype, label=label)
        if type_name:
            f.type_name = type_name
        if default is not None:
            f.default_value = default
    return msg


def _enum(parent, name, values):
    e = parent.add(name=name)
    for vname, number in values.items():
        e.value.add(name=vname, number=number)


@functools.lru_cache(maxsize=None)
def model_proto_class():
    """The ModelProto message class."""
    fd = descriptor_pb2.FileDescriptorProto(name="mtok_sentencepiece_model.proto",
                                            package="sentencepiece", syntax="proto2")
    trainer = _message(fd.message_type, "TrainerSpec", _TRAINER_SPEC)
    _enum(trainer.enum_type, "ModelType", MODEL_TYPES)
    _message(fd.message_type, "NormalizerSpec", _NORMALIZER_SPEC)
    model = _message(fd.message_type, "ModelProto", _MODEL)
    piece = _message(model.nested_type, "SentencePiece", _PIECE)
    _enum(piece.enum_type, "Type", PIECE_TYPES)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("sentencepiece.ModelProto"))
