// NLTK's Porter stemmer (nltk.stem.porter.PorterStemmer, mode NLTK_EXTENSIONS, the default) over ASCII
// bytes. The word is stemmed in place in a byte buffer; every step takes the current length and
// returns the new one. No step ever makes the word longer than the input, so a buffer of the input's
// length suffices (the `e` appended in step 1b always replaces a removed `ed`/`ing`).
//
// The NLTK-specific behaviour reproduced here (beyond Martin Porter's published algorithm):
//  - the irregular-forms pool (sky/skies -> sky, dying -> die, lying -> lie, tying -> tie, news,
//    inning(s), outing(s), canning(s), howe, proceed, exceed, succeed), looked up before stemming;
//  - words of at most 2 chars are returned unchanged;
//  - step 1a: a 4-letter word ending in "ies" becomes "...ie" (dies -> die);
//  - step 1b: "ied" -> "ie" for 4-letter words, else "i" (died -> die, spied -> spi), before "eed";
//  - *o (ends cvc) is also true for a 2-letter stem vowel+consonant;
//  - step 1c: y -> i when the letter before y is a consonant and the stem is longer than 1 char;
//  - step 2: "alli" -> "al" is tried first and, when it applies, step 2 runs again; "bli" -> "ble"
//    (instead of "abli"); extra rules "fulli" -> "ful" and "logi" -> "log" (the measure is taken
//    with the "l" kept in the stem);
//  - step 5b measures the word minus one "l".
//
// Rule lists keep NLTK's `_apply_rule_list` semantics: the first rule whose suffix matches decides; if
// its condition fails the word is returned unchanged (no later rule is tried).

// @ts-ignore: decorator
@inline function ch(b: usize, i: i32): u32 {
  return <u32>load<u8>(b + <usize>i);
}

// @ts-ignore: decorator
@inline function isVowelChar(c: u32): bool {
  return c == 0x61 || c == 0x65 || c == 0x69 || c == 0x6f || c == 0x75; // a e i o u
}

/** NLTK `_is_consonant(word, i)`: a, e, i, o, u are vowels; y is a consonant at 0 or after a vowel. */
function isConsSlow(b: usize, i: i32): bool {
  const c = ch(b, i);
  if (isVowelChar(c)) return false;
  if (c != 0x79) return true;
  if (i == 0) return true;
  return !isConsSlow(b, i - 1);
}

// For words of at most 64 chars the consonant flags live in a bit mask (bit i = b[i] is a consonant),
// valid for positions [0, cValid). A flag depends only on the chars up to its position, so shortening
// the word keeps the mask valid; writing chars at position j invalidates it from j on (`touched`).
// @ts-ignore: decorator
@lazy let cMask: u64 = 0;
// @ts-ignore: decorator
@lazy let cValid: i32 = 0;

// @ts-ignore: decorator
@inline function touched(j: i32): void {
  if (j < cValid) cValid = j;
}

/** Makes the mask valid for positions [0, n) (n <= 64). */
function ensureMask(b: usize, n: i32): void {
  let i = cValid;
  if (i >= n) return;
  let m = cMask & (i == 0 ? 0 : (<u64>-1 >> <u64>(64 - i)));
  let prev: bool = i == 0 ? false : ((m >> <u64>(i - 1)) & 1) != 0;
  for (; i < n; i++) {
    const c = ch(b, i);
    let cons: bool;
    if (isVowelChar(c)) cons = false;
    else if (c == 0x79) cons = i == 0 ? true : !prev;
    else cons = true;
    if (cons) m |= <u64>1 << <u64>i;
    prev = cons;
  }
  cMask = m;
  cValid = n;
}

// @ts-ignore: decorator
@inline function lowBits(n: i32): u64 {
  return n >= 64 ? <u64>-1 : (<u64>1 << <u64>n) - 1;
}

function isCons(b: usize, i: i32): bool {
  if (i < 64) {
    ensureMask(b, i + 1);
    return ((cMask >> <u64>i) & 1) != 0;
  }
  return isConsSlow(b, i);
}

/** NLTK `_measure(word[:n])`: the number of "vc" transitions. */
function measure(b: usize, n: i32): i32 {
  if (n <= 64) {
    if (n <= 0) return 0;
    ensureMask(b, n);
    const c = cMask & lowBits(n);
    return <i32>popcnt((~c << 1) & c & lowBits(n));
  }
  let m = 0;
  let prevCons = true; // anything before position 0 counts as "not a vowel"
  for (let i = 0; i < n; i++) {
    const cons = isConsSlow(b, i);
    if (cons && !prevCons) m++;
    prevCons = cons;
  }
  return m;
}

/** NLTK `_contains_vowel(word[:n])`. */
function containsVowel(b: usize, n: i32): bool {
  // scanning left to right, every char before the first vowel is a consonant, so a y at i > 0 reached
  // here follows a consonant and is itself a vowel
  for (let i = 0; i < n; i++) {
    const c = ch(b, i);
    if (isVowelChar(c)) return true;
    if (c == 0x79 && i > 0) return true;
  }
  return false;
}

/** NLTK `_ends_double_consonant(word[:n])`. */
function endsDoubleCons(b: usize, n: i32): bool {
  return n >= 2 && ch(b, n - 1) == ch(b, n - 2) && isCons(b, n - 1);
}

/** NLTK `_ends_cvc(word[:n])` in NLTK_EXTENSIONS mode. */
function endsCvc(b: usize, n: i32): bool {
  if (n >= 3) {
    const c = ch(b, n - 1);
    if (isCons(b, n - 3) && !isCons(b, n - 2) && isCons(b, n - 1) && c != 0x77 && c != 0x78 && c != 0x79) return true;
  }
  return n == 2 && !isCons(b, 0) && isCons(b, 1);
}

/** word[:n].endswith(s) */
function ends(b: usize, n: i32, s: string): bool {
  const l = s.length;
  if (l > n) return false;
  // from the last char backwards: most calls fail there
  const o = b + <usize>(n - l);
  const sp = changetype<usize>(s);
  for (let i = l - 1; i >= 0; i--) {
    if (<u32>load<u8>(o + <usize>i) != <u32>load<u16>(sp + (<usize>i << 1))) return false;
  }
  return true;
}

/** Writes `s` at position `at`; returns at + len(s). */
function put(b: usize, at: i32, s: string): i32 {
  const l = s.length;
  touched(at);
  for (let i = 0; i < l; i++) store<u8>(b + <usize>(at + i), <u8>s.charCodeAt(i));
  return at + l;
}

// Result holder for a rule-list pass: `matched` says whether some rule's suffix matched (which ends
// the list whatever the condition gave).
// @ts-ignore: decorator
@lazy let matched: bool = false;

/** One (suffix, replacement, m > minM) rule: returns the new length, or n when the condition fails. */
function rule(b: usize, n: i32, suffix: string, repl: string, minM: i32): i32 {
  if (!ends(b, n, suffix)) {
    matched = false;
    return n;
  }
  matched = true;
  const stem = n - suffix.length;
  if (measure(b, stem) > minM) return put(b, stem, repl);
  return n;
}

function step1a(b: usize, n: i32): i32 {
  if (n < 1 || ch(b, n - 1) != 0x73) return n; // every rule ends in "s"
  if (n == 4 && ends(b, n, "ies")) return n - 1; // NLTK: ies -> ie for 4-letter words
  if (ends(b, n, "sses")) return n - 2;
  if (ends(b, n, "ies")) return n - 2;
  if (ends(b, n, "ss")) return n;
  if (ends(b, n, "s")) return n - 1;
  return n;
}

function step1b(b: usize, n: i32): i32 {
  if (n < 2) return n;
  const last = ch(b, n - 1);
  if (last != 0x64 && last != 0x67) return n; // every rule ends in "d" or "g"
  if (ends(b, n, "ied")) {
    // NLTK: "ied" -> "ie" for 4-letter words, else "i"
    return n == 4 ? n - 1 : n - 2;
  }
  if (ends(b, n, "eed")) {
    return measure(b, n - 3) > 0 ? n - 1 : n;
  }
  let s = -1;
  if (ends(b, n, "ed")) {
    if (containsVowel(b, n - 2)) s = n - 2;
  } else if (ends(b, n, "ing")) {
    if (containsVowel(b, n - 3)) s = n - 3;
  }
  if (s < 0) return n;
  // rules on the intermediate stem b[0..s)
  if (ends(b, s, "at") || ends(b, s, "bl") || ends(b, s, "iz")) {
    store<u8>(b + <usize>s, 0x65); // + "e"
    touched(s);
    return s + 1;
  }
  if (endsDoubleCons(b, s)) {
    const last = ch(b, s - 1);
    if (last != 0x6c && last != 0x73 && last != 0x7a) return s - 1; // not l, s, z: drop one
    return s;
  }
  if (measure(b, s) == 1 && endsCvc(b, s)) {
    store<u8>(b + <usize>s, 0x65);
    touched(s);
    return s + 1;
  }
  return s;
}

function step1c(b: usize, n: i32): i32 {
  if (n >= 1 && ch(b, n - 1) == 0x79 && n - 1 > 1 && isCons(b, n - 2)) {
    store<u8>(b + <usize>(n - 1), 0x69); // y -> i
    touched(n - 1);
  }
  return n;
}

// Steps 2-4 dispatch on one char (as Porter's C code does) before trying NLTK's rule list. Two rules can
// both match a word only if one suffix is a suffix of the other, and then they share that char, so the
// first matching rule of each group is the first matching rule of NLTK's whole list.

function step2(b: usize, n: i32): i32 {
  // NLTK: "alli" -> "al" first, then step 2 again
  while (ends(b, n, "alli") && measure(b, n - 4) > 0) n -= 2;
  if (n < 2) return n;
  let r: i32;
  switch (ch(b, n - 2)) {
    case 0x61: // a
      r = rule(b, n, "ational", "ate", 0); if (matched) return r;
      return rule(b, n, "tional", "tion", 0);
    case 0x63: // c
      r = rule(b, n, "enci", "ence", 0); if (matched) return r;
      return rule(b, n, "anci", "ance", 0);
    case 0x65: // e
      return rule(b, n, "izer", "ize", 0);
    case 0x6c: // l
      r = rule(b, n, "bli", "ble", 0); if (matched) return r;
      r = rule(b, n, "alli", "al", 0); if (matched) return r;
      r = rule(b, n, "entli", "ent", 0); if (matched) return r;
      r = rule(b, n, "eli", "e", 0); if (matched) return r;
      r = rule(b, n, "ousli", "ous", 0); if (matched) return r;
      return rule(b, n, "fulli", "ful", 0); // NLTK
    case 0x6f: // o
      r = rule(b, n, "ization", "ize", 0); if (matched) return r;
      r = rule(b, n, "ation", "ate", 0); if (matched) return r;
      return rule(b, n, "ator", "ate", 0);
    case 0x73: // s
      r = rule(b, n, "alism", "al", 0); if (matched) return r;
      r = rule(b, n, "iveness", "ive", 0); if (matched) return r;
      r = rule(b, n, "fulness", "ful", 0); if (matched) return r;
      return rule(b, n, "ousness", "ous", 0);
    case 0x74: // t
      r = rule(b, n, "aliti", "al", 0); if (matched) return r;
      r = rule(b, n, "iviti", "ive", 0); if (matched) return r;
      return rule(b, n, "biliti", "ble", 0);
    case 0x67: // g
      // NLTK: "logi" -> "log", measured on the word minus "ogi" (the "l" stays with the stem)
      if (ends(b, n, "logi")) return measure(b, n - 3) > 0 ? n - 1 : n;
      return n;
    default:
      return n;
  }
}

function step3(b: usize, n: i32): i32 {
  if (n < 1) return n;
  let r: i32;
  switch (ch(b, n - 1)) {
    case 0x65: // e
      r = rule(b, n, "icate", "ic", 0); if (matched) return r;
      r = rule(b, n, "ative", "", 0); if (matched) return r;
      return rule(b, n, "alize", "al", 0);
    case 0x69: // i
      return rule(b, n, "iciti", "ic", 0);
    case 0x6c: // l
      r = rule(b, n, "ical", "ic", 0); if (matched) return r;
      return rule(b, n, "ful", "", 0);
    case 0x73: // s
      return rule(b, n, "ness", "", 0);
    default:
      return n;
  }
}

function step4(b: usize, n: i32): i32 {
  if (n < 2) return n;
  let r: i32;
  switch (ch(b, n - 2)) {
    case 0x61: // a
      return rule(b, n, "al", "", 1);
    case 0x63: // c
      r = rule(b, n, "ance", "", 1); if (matched) return r;
      return rule(b, n, "ence", "", 1);
    case 0x65: // e
      return rule(b, n, "er", "", 1);
    case 0x69: // i
      return rule(b, n, "ic", "", 1);
    case 0x6c: // l
      r = rule(b, n, "able", "", 1); if (matched) return r;
      return rule(b, n, "ible", "", 1);
    case 0x6e: // n
      r = rule(b, n, "ant", "", 1); if (matched) return r;
      r = rule(b, n, "ement", "", 1); if (matched) return r;
      r = rule(b, n, "ment", "", 1); if (matched) return r;
      return rule(b, n, "ent", "", 1);
    case 0x6f: // o
      if (ends(b, n, "ion")) {
        // (m > 1 and (*S or *T)) ION ->
        const s = n - 3;
        if (measure(b, s) > 1) {
          const last = ch(b, s - 1);
          if (last == 0x73 || last == 0x74) return s;
        }
        return n;
      }
      return rule(b, n, "ou", "", 1);
    case 0x73: // s
      return rule(b, n, "ism", "", 1);
    case 0x74: // t
      r = rule(b, n, "ate", "", 1); if (matched) return r;
      return rule(b, n, "iti", "", 1);
    case 0x75: // u
      return rule(b, n, "ous", "", 1);
    case 0x76: // v
      return rule(b, n, "ive", "", 1);
    case 0x7a: // z
      return rule(b, n, "ize", "", 1);
    default:
      return n;
  }
}

function step5a(b: usize, n: i32): i32 {
  if (ends(b, n, "e")) {
    const s = n - 1;
    const m = measure(b, s);
    if (m > 1) return s;
    if (m == 1 && !endsCvc(b, s)) return s;
  }
  return n;
}

function step5b(b: usize, n: i32): i32 {
  if (ends(b, n, "ll") && measure(b, n - 1) > 1) return n - 1;
  return n;
}

/** The irregular-forms pool: writes the paradigm form into b and returns its length, or -1. */
function pool(b: usize, n: i32): i32 {
  if (n < 4 || n > 8) {
    if (n == 3 && ends(b, n, "sky")) return 3;
    return -1;
  }
  const c0 = ch(b, 0);
  if (n == 4) {
    if (ends(b, n, "news")) return 4;
    if (ends(b, n, "howe")) return 4;
    return -1;
  }
  if (n == 5) {
    if (c0 == 0x73 && ends(b, n, "skies")) return put(b, 0, "sky");
    if (c0 == 0x64 && ends(b, n, "dying")) return put(b, 0, "die");
    if (c0 == 0x6c && ends(b, n, "lying")) return put(b, 0, "lie");
    if (c0 == 0x74 && ends(b, n, "tying")) return put(b, 0, "tie");
    return -1;
  }
  if (n == 6) {
    if (c0 == 0x69 && ends(b, n, "inning")) return 6;
    if (c0 == 0x6f && ends(b, n, "outing")) return 6;
    if (c0 == 0x65 && ends(b, n, "exceed")) return 6;
    return -1;
  }
  if (n == 7) {
    if (c0 == 0x69 && ends(b, n, "innings")) return 6;
    if (c0 == 0x6f && ends(b, n, "outings")) return 6;
    if (c0 == 0x63 && ends(b, n, "canning")) return 7;
    if (c0 == 0x70 && ends(b, n, "proceed")) return 7;
    if (c0 == 0x73 && ends(b, n, "succeed")) return 7;
    return -1;
  }
  // n == 8
  if (c0 == 0x63 && ends(b, n, "cannings")) return 7;
  return -1;
}

/**
 * Stem the lowercase ASCII word b[0..n) in place; returns the stem's length (the stem is b[0..len)).
 * The caller must give a buffer of at least n bytes (and at least 3 for the pool's "sky"/"die").
 */
export function porterStem(b: usize, n: i32): i32 {
  cValid = 0;
  const p = pool(b, n);
  if (p >= 0) return p;
  if (n <= 2) return n;
  n = step1a(b, n);
  n = step1b(b, n);
  n = step1c(b, n);
  n = step2(b, n);
  n = step3(b, n);
  n = step4(b, n);
  n = step5a(b, n);
  n = step5b(b, n);
  return n;
}
