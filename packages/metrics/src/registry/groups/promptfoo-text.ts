// Rule group "promptfoo-text" (see ../rules.ts): promptfoo's text assertions and the ones that read the
// row's record (finish reason, logprobs, cost, latency). Nothing heavy.
export {
  containsAny,
  icontainsAny,
  containsAll,
  icontainsAll,
  startsWith,
  wordCount,
  isRefusal,
  finishReason,
  perplexity,
  perplexityScore,
  cost,
  latency,
} from "../../promptfoo/text.js";
