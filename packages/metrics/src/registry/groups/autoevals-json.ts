// Rule group "autoevals-json" (see ../rules.ts): autoevals' ExactMatch and ValidJSON against the references.
// A group of its own: ValidJSON's schema check loads ajv, which the light autoevals group does not need.
import { ExactMatch } from "../../common/exact-match.js";
import { validJson as commonValidJson } from "../../common/valid-json.js";
import { InvalidArgumentError } from "../../errors.js";

type Options = Readonly<Record<string, unknown>>;

/** autoevals `ExactMatch` of the hypothesis against each reference (1 when any is the same text). */
export function autoevalsExactMatch(hypothesis: string, references: readonly string[]): number {
  let best = 0;
  for (const r of references) best = Math.max(best, ExactMatch({ output: hypothesis, expected: r }).score ?? 0);
  return best;
}

const parsedSchemas = new Map<string, unknown>();

/** The `schema` option (JSON text of a JSON Schema), parsed once per distinct text. */
function schemaOption(text: unknown): unknown {
  if (text === undefined) return undefined;
  const key = String(text);
  if (!parsedSchemas.has(key)) {
    try {
      parsedSchemas.set(key, JSON.parse(key));
    } catch (error) {
      throw new InvalidArgumentError(`valid-json: the schema option is not JSON text: ${(error as Error).message}`, { argument: "schema" });
    }
  }
  return parsedSchemas.get(key);
}

/** autoevals `ValidJSON` of the hypothesis (references unused), with an optional JSON Schema given as JSON text. */
export function validJson(hypothesis: string, _references: readonly string[], options: Options = {}): number {
  return commonValidJson(hypothesis, schemaOption(options.schema));
}
