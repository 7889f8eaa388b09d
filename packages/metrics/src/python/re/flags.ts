// Python `re` (CPython 3.11) on a linear-time engine, see ../regex.ts. The flags of the `re` port.

// ---------------------------------------------------------------------------------------------------
// Flags (the values of Python's `re` module)

export const IGNORECASE = 2;
export const LOCALE = 4;
export const MULTILINE = 8;
export const DOTALL = 16;
export const UNICODE = 32;
export const VERBOSE = 64;
export const DEBUG = 128;
export const ASCII = 256;
export const TEMPLATE = 1;
export const TYPE_FLAGS = ASCII | LOCALE | UNICODE;
export const GLOBAL_FLAGS = DEBUG | TEMPLATE;
export const FLAG_CHARS: Readonly<Record<string, number>> = {
  i: IGNORECASE,
  L: LOCALE,
  m: MULTILINE,
  s: DOTALL,
  x: VERBOSE,
  a: ASCII,
  t: TEMPLATE,
  u: UNICODE,
};

export const MAXREPEAT = 4294967295;
export const MAXGROUPS = 1073741823;
export const MAX_CP = 0x10ffff;
