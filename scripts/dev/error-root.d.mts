// Types of error-root.mjs (the one-error-root rule).
export declare function exportedErrorClasses(api: Record<string, unknown>): string[];
export declare function errorRootProblems(
  instances: Record<string, () => Error>,
  root: (abstract new (...args: never[]) => Error) & { isInstance(e: unknown): boolean },
  also?: (abstract new (...args: never[]) => Error) & { isInstance(e: unknown): boolean },
): string[];
