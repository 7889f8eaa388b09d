// The one-error-root rule, checked by each package's error-root test: every exported error class extends
// EvalkernError (core-wasm's), has its own `name`, and a stable upper-snake `code`, distinct per class.

/** Names of the error classes among a module's exports, sorted. */
export function exportedErrorClasses(api) {
  return Object.entries(api)
    .filter(([, v]) => typeof v === "function" && v.prototype instanceof Error)
    .map(([k]) => k)
    .sort();
}

/**
 * What breaks the rule among `instances` (class name → a function making one): not an instance of `root`
 * (or of `also`, a package's own root such as JudgeError), a `name` other than the class's, a code that is
 * not upper snake case, or a code used twice. Empty when all is well.
 */
export function errorRootProblems(instances, root, also) {
  const problems = [];
  const codes = new Map();
  for (const [name, make] of Object.entries(instances)) {
    const e = make();
    if (!(e instanceof root) || !root.isInstance(e)) problems.push(`${name} is not an ${root.name}`);
    if (also && (!(e instanceof also) || !also.isInstance(e))) problems.push(`${name} is not a ${also.name}`);
    if (e.name !== name) problems.push(`${name} has name ${JSON.stringify(e.name)}`);
    if (typeof e.code !== "string" || !/^[A-Z][A-Z0-9_]*$/.test(e.code)) problems.push(`${name} has code ${JSON.stringify(e.code)}`);
    else if (codes.has(e.code)) problems.push(`${name} and ${codes.get(e.code)} share the code ${e.code}`);
    else codes.set(e.code, name);
  }
  return problems;
}
