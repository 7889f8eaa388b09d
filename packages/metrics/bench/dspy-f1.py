#!/usr/bin/env python3
"""Python comparison figures for bench/f1.bench.mjs: DSPy's F1 and EM on the same seed-9 corpus.

    python3 bench/dspy-f1.py [/tmp/evalkern-bench-seed9-100000.jsonl]

DSPy itself is not installed here, so this times a direct transcription of the steps that
docs/spec/rule-metrics.md §1.1-1.3 documents for dspy/evaluate/metrics.py (NFD, lower, delete
string.punctuation, re.sub of \\b(a|an|the)\\b, split/join; Counter intersection for F1; max over
the answers), which is what DSPy runs per pair. Run bench/f1.bench.mjs first: it writes the corpus
file to the OS temp folder.
"""
import json
import os
import platform
import re
import string
import sys
import tempfile
import time
import unicodedata
from collections import Counter

PUNCT = set(string.punctuation)
ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalize_text(s):
    s = unicodedata.normalize("NFD", s).lower()
    s = "".join(ch for ch in s if ch not in PUNCT)
    s = ARTICLES.sub(" ", s)
    return " ".join(s.split())


def f1_score(prediction, ground_truth):
    p = normalize_text(prediction).split()
    g = normalize_text(ground_truth).split()
    common = Counter(p) & Counter(g)
    same = sum(common.values())
    if same == 0:
        return 0
    precision = 1.0 * same / len(p)
    recall = 1.0 * same / len(g)
    return (2 * precision * recall) / (precision + recall)


def F1(prediction, answers):
    return max(f1_score(prediction, a) for a in answers)


def EM(prediction, answers):
    return max(normalize_text(prediction) == normalize_text(a) for a in answers)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(tempfile.gettempdir(), "evalkern-bench-seed9-100000.jsonl")
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    print(f"{len(rows)} pairs from {path}; CPython {platform.python_version()} (unicodedata {unicodedata.unidata_version}), one thread, {platform.processor() or platform.machine()}")
    print("| implementation | pairs/s | ns/pair | pairs per CPU-second |")
    print("|---|---:|---:|---:|")
    for name, fn in (("CPython DSPy F1", F1), ("CPython DSPy EM", EM)):
        best = float("inf")
        best_cpu = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            c = time.process_time()
            for r in rows:
                fn(r["hyp"], r["refs"])
            best = min(best, time.perf_counter() - t)
            best_cpu = min(best_cpu, time.process_time() - c)
        print(f"| {name} | {round(len(rows) / best):,} | {best / len(rows) * 1e9:.0f} | {round(len(rows) / best_cpu):,} |")


if __name__ == "__main__":
    main()
