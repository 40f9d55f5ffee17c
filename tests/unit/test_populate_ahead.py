"""PopulateAhead (common/huge_pages.h): work (a region backed, a table
built) on a thread of its own, as a BPE model builds its short-token
table when the file has none. A process
forked while that thread works has no such thread; waiting for it there
must return at once, not hang."""

import os
import signal

import pytest

from hooks_module import hooks


@pytest.mark.parametrize("mb", [64, 512])
def test_wait_in_a_forked_child_returns_and_the_region_stays_zero(mb):
    # 512 MB takes the thread long enough that the fork lands while it works.
    status, parent_zero = hooks().populate_ahead_fork(mb)
    assert not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM), \
        "the child hung waiting for a thread it does not have"
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"child status {status}"
    assert parent_zero, "backing a region must not change what it holds"
