#!/usr/bin/env python3
"""Cuts a Chrome/Kineto trace down to a time window, keeping the original text.

    cut_trace_window.py IN OUT START_US END_US

Keeps every metadata event (ph "M"), every event without a ts, and every event whose ts lies
in [START_US, END_US]; the top-level keys around "traceEvents" are copied byte for byte, and
each kept event keeps its own text (numbers are never re-printed, so nanosecond fractions and
integers above 2^53 survive). IN and OUT may end in .gz. Used to make the test copies in
tests/data/import of files too large to ship whole; see tests/data/README.md.
"""
import gzip
import json
import sys
from decimal import Decimal


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return f.read()


def write(path, text):
    if path.endswith(".gz"):
        # mtime=0: the same input always gives the same bytes.
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                                                    compresslevel=9) as f:
            f.write(text.encode("utf-8"))
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def main():
    src, dst, start, end = sys.argv[1], sys.argv[2], Decimal(sys.argv[3]), Decimal(sys.argv[4])
    text = read(src)
    key = text.index('"traceEvents"')
    i = text.index("[", key) + 1
    decoder = json.JSONDecoder(parse_float=Decimal)
    kept = []
    while True:
        while text[i] in " \t\r\n,":
            i += 1
        if text[i] == "]":
            break
        event, j = decoder.raw_decode(text, i)
        ts = event.get("ts")
        if event.get("ph") == "M" or ts is None or start <= Decimal(str(ts)) <= end:
            kept.append(text[i:j])
        i = j
    write(dst, text[: text.index("[", key) + 1] + "\n" + ",\n".join(kept) + "\n" + text[i:])
    print(f"{dst}: kept {len(kept)} events")


if __name__ == "__main__":
    main()
