"""Regenerates test/python/emulation.fixture.json: CPython 3.11 answers for the Python emulation suites
(test/python/emulation.test.ts): `re.search` on random patterns/strings (spans in UTF-16 units, or the
exception type), `round(x, n)`, `repr(float)` and `str(value)`.

    python3 test/python/emulation.fixture.gen.py > test/python/emulation.fixture.json
"""
import json, math, random, re, struct, sys, warnings

warnings.simplefilter("ignore")

random.seed(20260521)
ATOMS = ["a", "b", "A", "B", "é", "É", "ı", "İ", "i", "I", "s", "ſ", "k", "K", "ß", "ẞ", "σ", "ς", "Σ", "µ", "μ",
         "𐐀", "𐐨", "_", "1", "٣", "²", " ", "\n", "-", ".", "\\w", "\\W", "\\d", "\\D", "\\s", "\\S", "\\b", "\\B",
         "^", "$", "\\A", "\\Z", "[a-c]", "[^a]", "[A-Z]", "[é-ë]", "[\\w-]", "[𐐀-𐐏]", "[𐐀a]", "[^\\s]", "[ıi]",
         "(?:ab)", "\\x41", "\\u00e9", "\\N{EM DASH}", "[[:alpha:]]", "a{,2}", "\\.", "\\-", "[.]", "[]a]", "[^]a]",
         "a{", "{1}"]
# atoms Python rejects (or that turn a later atom into an error), drawn less often
BAD = ["\\8", "\\1", "[z-a]", "(?<x>a)", "\\p{L}", "(?L)", "*", "a**", "(?P<1>a)", "\\z", "[a-\\d]", "(?i)", "x{3,2}"]
QUANT = ["", "", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{1,3}", "{,2}", "*+", "++", "?+", "{2,}"]

def atom(depth):
    r = random.random()
    if depth < 3 and r < 0.15:
        inner = seq(depth + 1)
        kind = random.choice(["(%s)", "(?:%s)", "(?P<g%d>%%s)" % random.randint(0, 99), "(?>%s)", "(?=%s)", "(?!%s)",
                              "(?i:%s)", "(?-i:%s)", "(?a:%s)", "(?s:%s)", "(?m:%s)"])
        return kind % inner
    if depth < 3 and r < 0.2:
        return "(?:%s|%s)" % (seq(depth + 1), seq(depth + 1))
    if r < 0.23:
        return random.choice(["(?<=a)", "(?<!a)", "(?<=ab)", "(?<!\\w)", "(?<=\\b.)", "(?<=a+)"])
    if r < 0.26:
        return random.choice(["(a)\\1", "(?P<x>a|b)(?P=x)", "(a)?(?(1)b|c)", "(?(1)a|b)"])
    if r < 0.27:
        return random.choice(BAD)
    return random.choice(ATOMS) + random.choice(QUANT)

def seq(depth=0):
    return "".join(atom(depth) for _ in range(random.randint(1, 4)))

CH = "aAbBéÉıİiIsſkKßẞσςΣµμ𐐀𐐨_1٣² \n-.—x"
def u16(s, i):
    return len(s[:i].encode("utf-16-le")) // 2

regex = []
seen = set()
while len(regex) < 1200:
    p = seq()
    flags = random.choice([0, re.I, re.I | re.M, re.S, re.A | re.I, re.M])
    if (p, flags) in seen:
        continue
    seen.add((p, flags))
    try:
        c = re.compile(p, flags)
    except Exception as e:
        regex.append({"p": p, "f": int(flags), "err": "re.error" if isinstance(e, re.error) else type(e).__name__})
        continue
    s = "".join(random.choice(CH) for _ in range(random.randint(0, 12)))
    m = c.search(s)
    res = None if m is None else [[u16(s, m.start(g)), u16(s, m.end(g))] if m.start(g) >= 0 else [-1, -1]
                                  for g in range(c.groups + 1)]
    regex.append({"p": p, "f": int(flags), "s": s, "m": res})

# syntax-heavy patterns: escapes, classes, flags, group names, conditionals, lookbehind widths
SYNTAX = ["a", "b", "\\0", "\\012", "\\1", "\\11", "\\01", "[\\b]", "[\\x41-\\x5a]", "[\\s\\S]", "x{,}", "x{}", "x{1,2}?",
          "x{2,1}", "(?s:.)", ".", "\\t", "\\n", "[\\n]", "[^\\n]", "[\\d\\s]", "[\\W\\d]", "[^\\W\\d]", "\\#", "#", " ", "\\ ",
          "[ ]", "(?#x)", "[-a]", "[a-]", "[\\-]", "[]-a]", "[^-]", "[\\^a]", "\\^", "\\$", "[$]", "[a\\]b]",
          "\\N{LATIN SMALL LETTER A}", "\\N{NBSP}", "\\u0041", "\\U00000041", "\\x4g", "\\u12", "\\U0011ffff", "\\777",
          "\\400", "\\c", "\\Q", "[\\z]", "[\\A]", "\\Z", "\\A", "(?u:a)", "(?a:\\w)", "(?x: a b )", "(?-x:a b)", "(?L:a)",
          "(?-a:a)", "(?i-i:a)", "(?im-s:a)", "(?t:a)", "(?:)", "()", "(|)", "(?P<a>x)(?P=a)", "(?P<a>x)(?P<a>y)", "(?P=zz)",
          "(?P<9>x)", "(?P<é>x)", "(?(a)x|y)", "(?(0)x)", "(?(-1)x)", "(?(1)x|y|z)", "(?<=x|yz)", "(?<=x|y)", "(?<!x{2})",
          "(?<=\\d+)", "a(?=b)", "(?!a)", "(?>ab|a)", "ab??", "a*?b", "(a|ab)(c|bcd)(d*)", "(a*)*", "(a*)+b", "(?:a?)*?c"]
SCH = "abxyzABXYZ0123 \t\n\x08é\u00a0-#$^]"
while len(regex) < 2000:
    p = random.choice(["(?x)", "(?i)", "(?m)", "(?s)", "(?a)", "(?u)", "(?au)", "(?L)", "(?imsx)", ""]) + "".join(
        random.choice(SYNTAX) + random.choice(["", "", "*", "+", "?", "{2}"]) for _ in range(random.randint(1, 3)))
    flags = random.choice([0, re.I, re.X, re.M | re.S, re.I | re.X, re.A])
    if (p, flags) in seen:
        continue
    seen.add((p, flags))
    try:
        c = re.compile(p, flags)
    except Exception as e:
        regex.append({"p": p, "f": int(flags), "err": "re.error" if isinstance(e, re.error) else type(e).__name__})
        continue
    s = "".join(random.choice(SCH) for _ in range(random.randint(0, 10)))
    m = c.search(s)
    res = None if m is None else [[u16(s, m.start(g)), u16(s, m.end(g))] if m.start(g) >= 0 else [-1, -1]
                                  for g in range(c.groups + 1)]
    regex.append({"p": p, "f": int(flags), "s": s, "m": res})

def rnd_float():
    k = random.random()
    if k < 0.3:
        return round(random.uniform(-10, 10), random.randint(1, 5)) + random.choice([0, 5e-6, -5e-6, 5e-5])
    if k < 0.5:
        return random.randint(-1000, 1000) / random.choice([8, 16, 40, 200, 1000, 20000])
    if k < 0.7:
        return struct.unpack("<d", struct.pack("<Q", random.getrandbits(62)))[0] * random.choice([1, -1])
    return random.uniform(-1, 1) * 10 ** random.randint(-12, 22)

rounds = []
while len(rounds) < 600:
    x = rnd_float()
    if not math.isfinite(x):
        continue
    n = random.choice([0, 1, 2, 3, 4, 4, 4, 5, 8, -1, -2])
    try:
        rounds.append({"x": x.hex(), "n": n, "r": round(x, n).hex()})
    except OverflowError:
        rounds.append({"x": x.hex(), "n": n, "err": "OverflowError"})

reprs = []
for _ in range(400):
    x = rnd_float()
    reprs.append({"x": x.hex(), "repr": repr(x)})
for x in [0.0, -0.0, 1e16, 1e15, 1e-4, 1e-5, 0.0001, 123456789012345678.0, 1.5e300, 5e-324, float("inf"), float("-inf"), 42.0, -7.0, 0.1, 2.5e-5]:
    reprs.append({"x": x.hex(), "repr": repr(x)})

print(json.dumps({"python": sys.version.split()[0], "regex": regex, "round": rounds, "repr": reprs}, ensure_ascii=False, separators=(",", ":")))
