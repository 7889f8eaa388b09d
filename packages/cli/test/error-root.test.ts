// One error root: the CLI's error class extends EvalkernError (from @evalkern/metrics) and has a stable string `code`.
import { EvalkernError } from "@evalkern/metrics";
import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";
import { CliError, EXIT, inputError, usageError } from "../src/errors.js";

describe("error root", () => {
  it("CliError is the only exported error class, and an EvalkernError with a code per exit code", () => {
    const exported = Object.entries(api)
      .filter(([, v]) => typeof v === "function" && (v as { prototype?: unknown }).prototype instanceof Error)
      .map(([k]) => k);
    expect(exported).toEqual(["CliError"]);
    for (const [e, code, exit] of [
      [new CliError("m"), "CLI_FAILURE", EXIT.failure],
      [usageError("m"), "CLI_USAGE", EXIT.usage],
      [inputError("m"), "CLI_INPUT", EXIT.input],
    ] as const) {
      expect(e).toBeInstanceOf(EvalkernError);
      expect(EvalkernError.isInstance(e)).toBe(true);
      expect(CliError.isInstance(e)).toBe(true);
      expect(e.name).toBe("CliError");
      expect(e.code).toBe(code);
      expect(e.exitCode).toBe(exit);
      expect(e.message).toBe("m");
    }
  });
});
