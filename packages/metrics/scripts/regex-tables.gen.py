"""Regenerates the Unicode tables embedded in src/python/re/unicode.ts (the block between the
`BEGIN GENERATED TABLES` / `END GENERATED TABLES` markers).

Run it with the CPython the goldens were made with (3.11, unicodedata 14.0.0):

    python3 scripts/regex-tables.gen.py > /tmp/tables.ts

The tables are exactly what Python's `re` (the `_sre` module) uses:
  WORD   str.isalnum() or "_"       (SRE_UNI_IS_WORD, regex \\w and \\b)
  DECIMAL str.isdecimal()           (SRE_UNI_IS_DIGIT, regex \\d; also int() digits)
  DIGIT  str.isdigit()              (str.isdigit, used by the BYOB scorers)
  SPACE  str.isspace()              (SRE_UNI_IS_SPACE, regex \\s, str.split/strip)
  LOWER / UPPER  the simple case mappings _PyUnicode_ToLowercase/_ToUppercase (IGNORECASE)
Encoding: comma-separated base-36 numbers; ranges as (gap from previous end, length - 1);
case maps as runs (gap from previous run start, count, step, delta).
"""
import ctypes, sys, unicodedata, _sre

def b36(n):
    s = "-" if n < 0 else ""
    n = abs(n)
    d = "0123456789abcdefghijklmnopqrstuvwxyz"
    o = ""
    while True:
        o = d[n % 36] + o
        n //= 36
        if n == 0:
            break
    return s + o

def ranges(pred):
    out, start = [], None
    for c in range(0x110001):
        ok = c < 0x110000 and pred(c)
        if ok and start is None:
            start = c
        if not ok and start is not None:
            out.append((start, c - 1))
            start = None
    return out

def enc_ranges(rs):
    nums, prev = [], 0
    for a, b in rs:
        nums += [a - prev, b - a]
        prev = b
    return ",".join(b36(x) for x in nums)

def enc_runs(mapping):
    items = sorted(mapping.items())
    out, i = [], 0
    while i < len(items):
        c, l = items[i]
        d, best = l - c, (1, 1)
        for step in (1, 2):
            n = 1
            while i + n < len(items) and items[i + n][0] == c + n * step and items[i + n][1] - items[i + n][0] == d:
                n += 1
            if n > best[0]:
                best = (n, step)
        out.append((c, best[0], best[1], d))
        i += best[0]
    nums, prev = [], 0
    for c, n, s, d in out:
        nums += [c - prev, n, s, d]
        prev = c
    return ",".join(b36(x) for x in nums)

def ts_const(name, val):
    """The TypeScript declaration of one table, as Biome formats it, with no line over 140 characters
    (the repository's limit): a long table is a concatenation of string chunks cut after a comma."""
    one = f'const {name} = "{val}";'
    if len(one) <= 140:
        return one
    chunks, rest = [], val
    while len(rest) > 120:
        cut = rest.rindex(",", 0, 120) + 1
        chunks.append(rest[:cut])
        rest = rest[cut:]
    chunks.append(rest)
    return f"const {name} =\n" + " +\n".join(f'  "{c}"' for c in chunks) + ";"

to_upper = ctypes.pythonapi._PyUnicode_ToUppercase
to_upper.restype, to_upper.argtypes = ctypes.c_uint32, [ctypes.c_uint32]
lower = {c: _sre.unicode_tolower(c) for c in range(0x110000) if _sre.unicode_tolower(c) != c}
upper = {c: to_upper(c) for c in range(0x110000) if to_upper(c) != c}
assert all(_sre.unicode_iscased(c) == (c in lower or c in upper) for c in range(0x110000))

print(f"// BEGIN GENERATED TABLES (scripts/regex-tables.gen.py; CPython {sys.version.split()[0]}, "
      f"unicodedata {unicodedata.unidata_version})")
for key, val in [("WORD", enc_ranges(ranges(lambda c: chr(c).isalnum() or c == 0x5F))),
                 ("DECIMAL", enc_ranges(ranges(lambda c: chr(c).isdecimal()))),
                 ("DIGIT", enc_ranges(ranges(lambda c: chr(c).isdigit()))),
                 ("SPACE", enc_ranges(ranges(lambda c: chr(c).isspace()))),
                 ("LOWER", enc_runs(lower)), ("UPPER", enc_runs(upper))]:
    print(ts_const(f"T_{key}", val))
print("// END GENERATED TABLES")
