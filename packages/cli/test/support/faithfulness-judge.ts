// A very literal DeepEval Faithfulness judge for the loopback server of the CLI tests: truths, claims (one per
// sentence), verdicts ("no" for a claim that the tower moved to Berlin) and a reason, by structured-output schema.
import { chat, type Request } from "./openai-server.js";

/** Replies by structured-output schema name, derived from the prompt like a (very literal) judge. */
export function judgeReply(req: Request) {
  const name: string = req.body?.response_format?.json_schema?.name ?? "";
  const prompt = String(req.body.messages.at(-1).content);
  const text = (marker: string) =>
    prompt
      .slice(prompt.indexOf(marker) + marker.length)
      .split("\n\n")[0]!
      .trim();
  switch (name) {
    case "truths":
      return chat(JSON.stringify({ truths: [text("\n\n").split("\n")[0]] }));
    case "claims":
      // one claim per sentence of the text
      return chat(
        JSON.stringify({
          claims: text("Text:\n")
            .split(/(?<=\.)\s+/)
            .filter(Boolean),
        }),
      );
    case "verdicts": {
      // the claims are listed as a JSON array after "Claims:"
      const start = prompt.indexOf("[", prompt.indexOf("Claims:"));
      const list = JSON.parse(prompt.slice(start, prompt.indexOf("]", start) + 1)) as string[];
      const verdicts = list.map((c) =>
        /moved to Berlin/.test(c) ? { verdict: "no", reason: "The tower is in Paris." } : { verdict: "yes", reason: null },
      );
      return chat(JSON.stringify({ verdicts }));
    }
    case "reason":
      return chat(JSON.stringify({ reason: "Scored by the test judge." }));
    default:
      throw new Error(`unscripted schema ${JSON.stringify(name)}`);
  }
}
