"""Progress bar (input bytes/s and tokens/s) and the final summary line."""

import sys
import time


class Progress:
    """A tqdm bar over input bytes, with tokens/s in its postfix. Disabled
    (only counting) when `enabled` is false or tqdm is missing."""

    def __init__(self, total_bytes: int, enabled: bool = True, initial: int = 0):
        self.start = time.perf_counter()
        self.bytes = 0
        self.tokens = 0
        self._bar = None
        self._last_postfix = 0.0
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                tqdm = None
            if tqdm is not None:
                self._bar = tqdm(total=total_bytes, initial=initial, unit="B", unit_scale=True,
                                 unit_divisor=1000, desc="tokenizing", file=sys.stderr,
                                 dynamic_ncols=True, smoothing=0.1)

    def advance(self, nbytes: int, ntokens: int) -> None:
        """Adds work done since the last call."""
        self.bytes += nbytes
        self.tokens += ntokens
        if self._bar is None:
            return
        self._bar.update(nbytes)
        now = time.perf_counter()
        if now - self._last_postfix > 0.2:
            self._last_postfix = now
            rate = self.tokens / max(now - self.start, 1e-9)
            self._bar.set_postfix_str(f"{_si(rate)}tok/s", refresh=False)

    def write(self, line: str) -> None:
        """Prints a line to stderr without breaking the bar."""
        if self._bar is not None:
            self._bar.write(line, file=sys.stderr)
        else:
            print(line, file=sys.stderr)

    def close(self) -> float:
        """Closes the bar; returns the elapsed seconds."""
        if self._bar is not None:
            self._bar.close()
        return time.perf_counter() - self.start


def _si(x: float) -> str:
    for unit in ("", "k", "M", "G"):
        if abs(x) < 1000:
            return f"{x:.3g} {unit}"
        x /= 1000
    return f"{x:.3g} T"
