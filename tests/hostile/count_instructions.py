"""Run under valgrind --tool=callgrind by test_worst_case_work.py: loads
one tokenizer and encodes each job's text on one thread between the hooks'
count_start and count_stop, so that each encode's instructions are dumped
as a profile of their own. Argument: a JSON file with sys_path, path and
jobs (label, warm, text)."""

import json
import sys

spec = json.load(open(sys.argv[1], encoding="utf-8"))
sys.path[:0] = spec["sys_path"]

import mtok  # noqa: E402
import mtok_testing  # noqa: E402

tok = mtok.Tokenizer.from_file(spec["path"])
tok.no_truncation()
for job in spec["jobs"]:
    tok.encode(job["warm"], num_threads=1)  # a text of the same kind and size first: allocations and caches grown
    mtok_testing.count_start()
    tok.encode(job["text"], num_threads=1)
    mtok_testing.count_stop(job["label"])
