"""One tokenizer shared by many threads gives the same results as serial
calls, with no locks on the caller's side."""

import threading

from hf_pairs import pair, sample


def test_eight_threads_ten_thousand_calls_equal_serial():
    _, tok = pair("llama3")
    texts = list(sample(100, max_chars=200))
    expected = [tok.encode(t) for t in texts]
    expected_offsets = [tok.encode(t, return_encoding=True).offsets for t in texts[:20]]
    failures = []

    def worker(k):
        for i in range(10_000):
            j = (i * 7 + k) % len(texts)
            if i % 50 == 0:
                if tok.encode(texts[j % 20], return_encoding=True).offsets != expected_offsets[j % 20]:
                    failures.append((k, i))
            elif tok.encode(texts[j]) != expected[j]:
                failures.append((k, i))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_caches_made_at_load_belong_to_the_loading_thread():
    # Loading makes the loading thread's caches (so that its first encode
    # does not wait for their memory). A tokenizer loaded on a thread that
    # then ends, and tokenizers loaded past the few owners a thread keeps
    # caches for, must still encode as the reference on any thread.
    import mtok

    names = ["llama3", "gpt-4o-o200k-hf", "qwen3", "gpt2", "xlm-roberta", "t5-small"]
    blobs = {n: pair(n)[1].to_bytes() for n in names}
    texts = list(sample(60))
    expected = {n: [pair(n)[0].encode(t, add_special_tokens=False).ids for t in texts] for n in names}
    loaded = {}

    def load_all():
        for n in names:
            tok = mtok.Tokenizer.from_bytes(blobs[n])
            tok.no_truncation()  # as pair() has it
            tok.no_padding()
            loaded[n] = tok

    loader = threading.Thread(target=load_all)
    loader.start()
    loader.join()
    results = {}

    def encode_all(k):
        results[k] = {n: [loaded[n].encode(t, add_special_tokens=False) for t in texts] for n in names}

    threads = [threading.Thread(target=encode_all, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    load_all()  # again, on this thread: the first ones' caches are dropped for the later ones'
    encode_all("main")
    for k, by_name in results.items():
        for n in names:
            assert by_name[n] == expected[n], f"{n} on thread {k}"


def test_concurrent_batches_share_the_pool():
    _, tok = pair("gpt2")
    texts = list(sample(200))
    expected = [tok.encode(t) for t in texts]
    results = [None] * 6

    def worker(k):
        results[k] = tok.encode_batch(texts, num_threads=4)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == expected for r in results)


def test_settings_are_per_object_and_survive_pickle():
    import pickle

    ref, tok = pair("bert-base-uncased")
    other = pickle.loads(pickle.dumps(tok))
    other.enable_truncation(8)
    other.enable_padding(length=12)
    assert tok.truncation is None and tok.padding is None
    again = pickle.loads(pickle.dumps(other))
    assert again.truncation == other.truncation and again.padding == other.padding
    assert len(again.encode("a b c d e f g h i j k")) == 12


def _allowed_cpus_by_thread() -> dict:
    """Each thread of this process and the CPUs it may run on (Linux)."""
    import os

    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            out[int(tid)] = os.sched_getaffinity(int(tid))
        except OSError:  # the thread ended meanwhile
            pass
    return out


def test_pool_workers_get_their_affinity_back():
    # The pool wakes its workers with the caller's CPU taken out of their
    # affinity (a placement hint); each must restore its own once awake.
    import os
    import sys
    import time

    import pytest

    if not sys.platform.startswith("linux") or len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs Linux and at least 2 usable CPUs")
    _, tok = pair("gpt2")
    texts = list(sample(64))
    expected = [tok.encode(t) for t in texts]
    full = os.sched_getaffinity(0)
    for _ in range(5):
        assert tok.encode_batch(texts, num_threads=len(full)) == expected
    deadline = time.monotonic() + 5
    while (narrowed := [t for t, cpus in _allowed_cpus_by_thread().items() if cpus != full]):
        assert time.monotonic() < deadline, f"threads {narrowed} kept a narrowed affinity"
        time.sleep(0.01)


def _other_thread_ran_during(call) -> bool:
    """Whether a counting Python thread advanced while `call` ran. The
    switch interval is made long, so this thread keeps the GIL through its
    own bytecode: the counter runs only if the native call lets the GIL go.
    The counter gives the GIL back at every step (sleep), so this thread
    gets it again as soon as the call returns."""
    import sys
    import time

    count = [0]
    stop, started = threading.Event(), threading.Event()

    def spin():
        started.set()
        while not stop.is_set():
            count[0] += 1
            time.sleep(0)

    interval = sys.getswitchinterval()
    spinner = threading.Thread(target=spin)
    spinner.start()
    started.wait()
    sys.setswitchinterval(30.0)
    try:
        before = count[0]
        call()
        return count[0] > before
    finally:
        sys.setswitchinterval(interval)
        stop.set()
        spinner.join()


def test_long_encode_lets_other_python_threads_run():
    import mtok

    tok = mtok.get_encoding("o200k_base")._tokenizer
    text = "Ein langer Satz, der sich wiederholt. 長い文章です。\n" * 40_000  # 2.4 MB
    assert _other_thread_ran_during(lambda: tok.encode(text, num_threads=1))
    assert _other_thread_ran_during(lambda: tok.encode_to_numpy(text, num_threads=1))
