// `ast.literal_eval` (CPython 3.11), see ../literal.ts. `_convert`, from tree to value.
import { PythonCompatError } from "../../errors.js";
import { PyComplex, PyDict, PySet, PyTuple, setOwn, type PyStrDict, type PyValue } from "../equality.js";
import { valueError } from "./common.js";
import type { Node } from "./tree.js";

// ---------------------------------------------------------------------------------------------
// `ast.literal_eval`'s `_convert`

function malformed(what: string): never {
  valueError(`malformed node or string: <ast.${what} object>`);
}

const NODE_NAMES: Record<string, string> = {
  const: "Constant",
  tuple: "Tuple",
  list: "List",
  set: "Set",
  dict: "Dict",
  call: "Call",
  unary: "UnaryOp",
  binop: "BinOp",
  name: "Name",
  starred: "Starred",
};

function nodeName(n: Node | null): string {
  if (n === null) return "None";
  return n.k === "other" ? n.what : (NODE_NAMES[n.k] ?? n.k);
}

function convertNumber(n: Node | null): PyValue {
  if (n === null || n.k !== "const" || (n.pyType !== "int" && n.pyType !== "float" && n.pyType !== "complex")) {
    malformed(nodeName(n));
  }
  return n.value;
}

function negate(value: PyValue): PyValue {
  if (typeof value === "bigint") return -value;
  if (typeof value === "number") return -value;
  const c = value as PyComplex;
  return new PyComplex(-c.real, -c.imag);
}

function convertSignedNumber(n: Node | null): PyValue {
  if (n !== null && n.k === "unary" && (n.op === "+" || n.op === "-")) {
    const operand = convertNumber(n.operand);
    if (n.op === "+") return operand;
    // `-0` is the int 0; `-0.0` is the float -0.0. A const node knows which one it holds.
    if (n.operand.k === "const" && n.operand.pyType === "int" && operand === 0) return 0;
    return negate(operand);
  }
  return convertNumber(n);
}

function toDouble(value: number | bigint): number {
  if (typeof value === "number") return value;
  const double = Number(value);
  if (!Number.isFinite(double)) throw new PythonCompatError("OverflowError", "int too large to convert to float");
  return double;
}

function buildDict(pairs: Array<[PyValue, PyValue]>): PyStrDict | PyDict {
  const dict = new PyDict();
  for (const [key, value] of pairs) dict.set(key, value);
  if (!dict.keys().every((key) => typeof key === "string")) return dict;
  const plain: PyStrDict = {};
  for (const [key, value] of dict.entries()) setOwn(plain, key as string, value);
  return plain;
}

export function convert(n: Node): PyValue {
  switch (n.k) {
    case "const":
      return n.value;
    case "tuple":
      return new PyTuple(n.elts.map(convert));
    case "list":
      return n.elts.map(convert);
    case "set": {
      const set = new PySet();
      for (const elt of n.elts) set.add(convert(elt));
      return set;
    }
    case "call":
      if (n.func.k === "name" && n.func.id === "set" && n.argCount === 0) return new PySet();
      break;
    case "dict": {
      const dict = new PyDict();
      n.keys.forEach((key, index) => {
        const k = key === null ? malformed("None") : convert(key);
        const v = convert(n.values[index] as Node);
        dict.set(k, v);
      });
      return buildDict(dict.entries());
    }
    case "binop":
      if (n.op === "+" || n.op === "-") {
        const left = convertSignedNumber(n.left);
        const right = convertNumber(n.right);
        if ((typeof left === "number" || typeof left === "bigint") && right instanceof PyComplex) {
          const real = toDouble(left);
          return n.op === "+" ? new PyComplex(real + right.real, 0 + right.imag) : new PyComplex(real - right.real, 0 - right.imag);
        }
      }
      break;
    default:
      break;
  }
  return convertSignedNumber(n);
}
