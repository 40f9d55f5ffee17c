"""MNN's legacy tokenizer.txt formats (docs/legacy_txt.md), both ways:
mnn_txt reads one into a spec (with options/specs for what the file does not
record), writer exports a spec as one (bodies per legacy type)."""
