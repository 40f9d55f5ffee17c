"""A little-endian byte builder for the .mtok writer."""

import struct

from ..errors import FormatError


class ByteWriter:
    """Appends fixed-size little-endian values and length-prefixed strings."""

    def __init__(self):
        self.buf = bytearray()

    def u8(self, v: int) -> None:
        self.buf += struct.pack("<B", v)

    def flag(self, v) -> None:
        self.u8(1 if v else 0)

    def u16(self, v: int) -> None:
        self.buf += struct.pack("<H", v)

    def u32(self, v: int) -> None:
        self.buf += struct.pack("<I", v)

    def u64(self, v: int) -> None:
        self.buf += struct.pack("<Q", v)

    def f64(self, v: float) -> None:
        self.buf += struct.pack("<d", v)

    def raw(self, b: bytes) -> None:
        self.buf += b

    def str(self, s, field: str = "string") -> None:
        """[u16 len][bytes]"""
        b = s.encode("utf-8") if isinstance(s, str) else bytes(s)
        if len(b) > 0xFFFF:
            raise FormatError(f"{field} is {len(b)} bytes; the format allows 65535")
        self.u16(len(b))
        self.buf += b

    def long_str(self, s) -> None:
        """[u32 len][bytes]"""
        b = s.encode("utf-8") if isinstance(s, str) else bytes(s)
        self.u32(len(b))
        self.buf += b

    def align(self, n: int) -> None:
        self.buf += b"\0" * (-len(self.buf) % n)

    def __len__(self) -> int:
        return len(self.buf)

    def getvalue(self) -> bytes:
        return bytes(self.buf)
