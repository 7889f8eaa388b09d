"""Writes literal-cases.json: sources and what CPython 3.11's ast.literal_eval does with
them, for test/evalwire.literal.test.ts.

    python3 test/evalwire/literal-cases.gen.py > test/evalwire/literal-cases.json

Each case is {"src", "kind", "value"?}: kind "ok" with the value encoded below, "kept" for the
ValueError/SyntaxError that evalwire's _parse_expected catches (the text is kept as a string), or
the name of any other exception (TypeError, MemoryError, ...). Values: ["int", hex], ["float",
IEEE bits hex], ["complex", bits, bits], ["str", [code points]], ["bytes", hex], ["bool", b],
["None"], ["ellipsis"], ["tuple"|"list", [...]], ["set"|"dict", sorted [...]].
"""
import ast
import json
import struct
import sys
import warnings

assert sys.version_info[:2] == (3, 11), sys.version
warnings.simplefilter("ignore")


def enc(v):
    if v is None:
        return ["None"]
    if v is True or v is False:
        return ["bool", v]
    if type(v) is int:
        return ["int", format(v, "x")]
    if type(v) is float:
        return ["float", struct.pack(">d", v).hex()]
    if type(v) is complex:
        return ["complex", struct.pack(">d", v.real).hex(), struct.pack(">d", v.imag).hex()]
    if type(v) is str:
        return ["str", [ord(c) for c in v]]
    if type(v) is bytes:
        return ["bytes", v.hex()]
    if v is Ellipsis:
        return ["ellipsis"]
    if type(v) in (tuple, list):
        return [type(v).__name__, [enc(x) for x in v]]
    if type(v) is set:
        return ["set", sorted((enc(x) for x in v), key=json.dumps)]
    if type(v) is dict:
        return ["dict", sorted(([enc(k), enc(x)] for k, x in v.items()), key=json.dumps)]
    raise TypeError(type(v))


SOURCES = [
    # numbers
    "0", "00", "0_0", "01", "0_7", "09", "09.5", "09j", "1_000", "1__0", "1_", "_1", "0x1F", "0X_1", "0x_", "0xg", "0o17", "0o8",
    "0b101", "0b12", "0b", "1" + "0" * 30, "-" + "9" * 25, "1" + "0" * 4299, "1" + "0" * 4300, "0x" + "f" * 300,
    "1.5", "1.", ".5", "5.j", "1.e5", "1e3", "1E-3", "1e", "1e+", "1e_1", "1e1_0", "1.5_5", "1._5", "1e400", "-1e400", "2e-324",
    "4.9e-324", "1.7976931348623159e308", "9007199254740993", "-0", "-0.0", "+0.0", "- 7", "-(1)", "(-1)", "-(-1)", "--5", "+-1",
    "~1", "-True", "+True", "-'a'", "1j", "-1j", "+1j", "1e400j", "1+2j", "1-2j", "-1+2j", "1-0j", "(1)+2j", "2j-1", "1+-2j",
    "1+2j+3j", "True+1j", "1e400-1e400j", "1" + "0" * 400 + "+1j", "1+2", "1if 1else 2", "1else", "1or 2", "0xfor", "0x1for x in y",
    "1abc", "1.real", "1 .real", "0x1g",
    # strings and bytes
    "'a'", '"b"', "'''t\nq'''", "'a\nb'", "'abc", "'''abc''", "'it''s'", "'a' 'b'", "'a' u'b' r'c' R'd'", "'a' b'b'", "'a' f'b'",
    "'\\n\\t\\\\\\''", "'\\x41'", "'\\x4'", "'\\xg0'", "'\\u00e9'", "'\\u12'", "'\\U0001F600'", "'\\U00110000'", "'\\777'",
    "'\\0\\00\\000\\0000'", "'\\8'", "'\\d'", "'\\N{EM DASH}'", "'\\N{em dash}'", "'\\N{BOM}'", "'\\N{LATIN CAPITAL LETTER GHA}'",
    "'\\N{HANGUL SYLLABLE GAG}'", "'\\N{hangul syllable gag}'", "'\\N{CJK UNIFIED IDEOGRAPH-4E00}'",
    "'\\N{CJK UNIFIED IDEOGRAPH-4e00}'", "'\\N{CJK COMPATIBILITY IDEOGRAPH-F900}'", "'\\N{TANGUT IDEOGRAPH-17000}'", "'\\N{DASH}'",
    "'\\N{}'", "'\\N'", "'a\\\nb'", "r'\\d'", "r'\\''", "r'\\'", "rb'\\x'", "Rb'x'", "bR'x'", "ur'x'", "u'x'", "U'x'", "b'x'",
    "b'\\xff'", "b'\\777'", "b'é'", "b'\\u1234'", "b'\\N{EM DASH}'", "b'\\x'", "'é'", "'日本'", "'🙂'", "'\\ud800'", "'\\ud83d\\ude00'",
    "f'x'", "F'{1}'", "f'{'", "f'}'", "f'}}'", "f'{{'", "f'{}'", "f'{a b}'", "f'{a!r}'", "f'{a!x}'", "f'{a=}'", "f'{x:{y}}'",
    "f'{1:{2:{3}}}'", "f'{#}'", "f'{lambda x:1}'", "f'{(lambda x:1)}'", "f'{1}' f'{'", "f'\\N{EM DASH}{1}'",
    # constants and names
    "True", "False", "None", "...", "Ellipsis", "a", "true", "null", "nan", "inf", "é", "🙂", "print", "set()", "set( )", "set(())",
    "frozenset()", "x()", "a.b", "a[0]",
    # containers
    "[]", "()", "{}", "[1]", "(1)", "(1,)", "1,", "1,2", ",", "(,)", "[1,,2]", "[1,]", "{1: 2,}", "{1, 2,}", "{,}", "{'a','b'}",
    "{1, True, 1.0}", "{1: 'a', True: 'b', 1.0: 'c'}", "{0: 'a', -0.0: 'b', False: 'c', 0j: 'd'}", "{'a': 1, 'a': 2}",
    "{(1, 2): 3}", "{(): ()}", "{(1, [2]): 3}", "{[1]: 2}", "{{}}", "{[1]: a}", "{[1]: 2, a: 3}", "{a: 1, [1]: 2}",
    "[{[1]:2}, 1 if x else 2]", "{[1], a}", "{a, [1]}", "({[1]: 2}, a)", "(a, {[1]: 2})", "{**a}", "{**a, 'b': 1}", "[*a]",
    "(*a, b)", "(*a)", "{*a}", "[1, {2: [3, {4}]}]", "{b'a', 'a'}", "[b'x', -2]", "(1e3, b'x', 1_0, 3.5)", "[{},0x1F,...,True]",
    "['a', a, true]", "{'a': 1}", '{"a": 1}', '{"a": true}', "[\n1,\n2\n]", "(\n)", "[1] # x\n\n",
    "[" * 200 + "]" * 200, "[" * 201 + "]" * 201, "(" * 199 + "1" + ")" * 199,
    # other expressions (ValueError) and invalid syntax (SyntaxError)
    "lambda: 1", "lambda *: 0", "lambda x=1, y: 0", "lambda x, /, y=1, *a, z, **k: 0", "x if y else z", "a if b", "[x for x in y]",
    "[x for 1 in y]", "[x for x.y in z]", "(x for x in y)", "{x: y for x in z}", "f(a for a in b)", "f(a for a in b, c)",
    "f(x=1, y)", "f(**k, *a)", "f(*a, x=1, *b)", "f(a=1, a=2)", "a[1:2, ::3]", "a[*b]", "a[]", "not 1", "not", "a not in b",
    "a is not b", "a < b < c", "a @ b", "@a", "*a", "a := 1", "(a := 1)", "[a := 1]", "(yield)", "yield", "await x", "1;2",
    "1 2", "(1 2)", "x.if", "True = 1", "import x", "1 # comment", "'a' \\\n 'b'", "\\\n1", "1\\\n", "1\\", "\\",
    # whitespace and layout
    " 1", "\t1", "\n1", "\n\n1\n\n", "\n  1", "1\n  ", "1\n  # c", "  \n1", "#c\n1", "\f1", "\f 1", "1\f", "\v1", "1\v",
    "\x1c1", "\u30001", "1\u3000", "\u00a01", "\ufeff1", "1\r\n", "1\r2", "'a\rb'", "'''a\rb'''", "1\x00",
]


def outcome(s):
    try:
        return {"kind": "ok", "value": enc(ast.literal_eval(s))}
    except (ValueError, SyntaxError):
        return {"kind": "kept"}
    except Exception as e:  # noqa: BLE001 - record whatever escapes literal_eval
        return {"kind": type(e).__name__}


cases = [{"src": s, **outcome(s)} for s in SOURCES]
sys.stdout.write("[\n" + ",\n".join(json.dumps(case, separators=(",", ":")) for case in cases) + "\n]\n")
