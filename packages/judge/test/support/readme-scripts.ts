// The scripted judge replies of the examples in README.md and README-deepeval.md, keyed by the example's
// "### " title, then by the JSON schema name the judge sends (a FIFO queue per name). Shared by
// test/readme.test.ts, test/deepeval/readme.test.ts (in process, output checked line by line) and the
// workspace's README-block test (packages/cli/test/readme-blocks.test.ts, each block as its own ES module).
import { chatJson, chatText, embeddings, moderation, textLogprobs, type RecordedRequest, type ScriptedReply } from "./server.js";

/** Replies of one example: schema name → queue (a value is sent as a JSON chat reply; a function builds the reply). */
export type Script = Record<string, (unknown | ((request: RecordedRequest) => ScriptedReply))[]>;

const bad = { explanation: "unsure", score: "maybe" };

const promptText = (request: RecordedRequest): string => request.body.messages.map((m: { content: string }) => m.content).join("\n");

/** The verdicts of the conversational RAG example, by metric (told apart by their prompts) and window. */
function turnRagVerdicts(request: RecordedRequest): ScriptedReply {
  const prompt = promptText(request);
  const secondWindow = prompt.includes("top floor") || prompt.includes("Tickets");
  if (prompt.includes("Claims:"))
    return chatJson({ verdicts: secondWindow ? [v("yes"), v("no", "The café is on the ground floor.")] : [v("yes")] });
  if (prompt.includes("retriever returned the"))
    return chatJson({ verdicts: secondWindow ? [v("yes", "café"), v("no", "tickets")] : [v("yes", "9am")] });
  if (prompt.includes("Split the expected outcome"))
    return chatJson({ verdicts: secondWindow ? [v("no", "-"), v("yes", "1st node")] : [v("yes", "1st node"), v("no", "-")] });
  const tickets = prompt.includes("Context:\nTickets");
  return chatJson({
    verdicts: [
      {
        statement: tickets ? "Tickets cost 12 euros." : "A relevant fact.",
        verdict: tickets ? "no" : "yes",
        reason: tickets ? "Not asked." : null,
      },
    ],
  });
}

/** The scripted judge replies of each example, keyed by title, then by schema name. */
export const README_SCRIPTS: Record<string, Script> = {
  "The judge client": {
    verdict: [
      () =>
        chatJson({ reason: "Paris is the capital of France.", verdict: "yes" }, { usage: { prompt_tokens: 40, completion_tokens: 12 } }),
    ],
  },
  "DSPy: SemanticF1 and CompleteAndGrounded": {
    decompositional_semantic_recall_precision: Array.from({ length: 2 }, () => ({
      reasoning: "Both name Rayleigh scattering.",
      ground_truth_key_ideas: "1. air scatters light 2. short wavelengths more 3. blue 4. Rayleigh scattering",
      system_response_key_ideas: "1. Rayleigh scattering 2. blue scattered more than red",
      discussion: "Three of four ideas are present; 'sunlight' is implicit.",
      recall: 0.75,
      precision: 1,
    })),
    answer_completeness: [
      {
        reasoning: "r",
        ground_truth_key_ideas: "scattering; short wavelengths; blue; Rayleigh",
        system_response_key_ideas: "Rayleigh; blue more than red",
        discussion: "Misses why short wavelengths scatter more.",
        completeness: 0.5,
      },
    ],
    answer_groundedness: [
      {
        reasoning: "r",
        system_response_claims: "Rayleigh scattering makes the sky blue.",
        discussion: "Passage 1 supports it.",
        groundedness: 1,
      },
    ],
  },
  "evalwire: makeLlmJudgeEvaluator": {
    correctness: [{ explanation: "Paris is expected.", score: true }, { explanation: "Lyon is not Paris.", score: false }, bad, bad, bad],
  },
  "dsrs: LlmJudgeMetric and Semantic DiffMetric": {
    judge_verdict: [
      { reason: "max() raises on an empty list.", score: 0.6 },
      { reason: "Handles the empty list.", score: 0.9 },
    ],
    semantic_equivalence: [{ reason: "Same sum; names differ and addition commutes.", equivalent: true, similarity: 1 }],
  },
  "autoevals scorers": {
    select_choice: [
      { reasons: "The submission says what the expert says and adds that Jupiter is a gas giant.", choice: "B" },
      { choice: "Yes" },
      { reasons: "7 is a prime number.", choice: "Y" },
    ],
    rubric_verdict: [{ reason: "A French greeting.", pass: true, score: 0.9 }],
  },
  "Judges by name, a default judge, prices and DeepEval's rubric form": {
    reason_score: [
      () => chatJson({ reason: "Both say Paris.", score: 9 }, { usage: { prompt_tokens: 1000, completion_tokens: 100 } }),
      () => chatJson({ reason: "Both say Paris.", score: 8 }, { usage: { prompt_tokens: 1000, completion_tokens: 100 } }),
      () => chatJson({ reason: "Both say Paris.", score: 8 }, { usage: { prompt_tokens: 1000, completion_tokens: 100 } }),
    ],
    semantic_recall_precision: [
      { reasoning: "Same city.", recall: 1, precision: 1 },
      { reasoning: "Adds the country.", recall: 1, precision: 0.5 },
    ],
  },
  // the AI SDK example judges with the SDK's mock model: no request reaches the scripted server
  "Any model provider: the AI SDK adapter": {},
  "autoevals and RAGAS: embeddings, moderation and AnswerCorrectness": {
    classification: [{ TP: ["Paris is the capital of France"], FP: [], FN: ["France's capital is a city"] }],
  },
};

/**
 * The embedding vectors of the README examples (cosine 0.8 between the two sentences); any other text
 * gets [1, 0]. Served by `readmeEmbeddings` on `/v1/embeddings`.
 */
export const README_VECTORS: Readonly<Record<string, readonly number[]>> = {
  "Paris is the capital of France.": [1, 0],
  "The capital of France is Paris.": [0.8, 0.6],
};

/** `/v1/embeddings` for the README examples. */
export function readmeEmbeddings(request: RecordedRequest): ScriptedReply {
  const input: unknown = request.body?.input;
  const texts = typeof input === "string" ? [input] : Array.isArray(input) ? (input as string[]) : [];
  return embeddings(texts.map((t) => README_VECTORS[t] ?? [1, 0]));
}

/** `/v1/moderations` for the README examples: nothing flagged. */
export function readmeModeration(): ScriptedReply {
  return moderation({ flagged: false, scores: { violence: 0.01, harassment: 0.02 } });
}

const v = (verdict: string, reason: string | null = null) => ({ verdict, reason });

/** The scripted judge replies of each example, keyed by example title. */
export const DEEPEVAL_README_SCRIPTS: Record<string, Script> = {
  "RAG and answer metrics": {
    statements: [{ statements: ["The museum opens at 9am.", "Tickets cost 12 euros."] }],
    truths: [{ truths: ["Opening hours are 9am-6pm.", "It is open Tuesday to Sunday.", "The café serves lunch."] }],
    claims: [{ claims: ["The museum opens at 9am.", "Tickets cost 12 euros."] }],
    verdicts: [
      { verdicts: [v("yes"), v("idk", "Ticket prices help a visit but do not say when it opens.")] },
      { verdicts: [v("yes"), v("idk", "The context does not mention ticket prices.")] },
      { verdicts: [v("yes", "'Opening hours: 9am-6pm' gives the answer."), v("no", "'The café serves lunch' is unrelated.")] },
      { verdicts: [v("yes", "1st node: 'Opening hours: 9am-6pm, Tuesday to Sunday'.")] },
      {
        verdicts: [
          { statement: "Opening hours are 9am-6pm.", ...v("yes") },
          { statement: "Open Tuesday to Sunday.", ...v("yes") },
        ],
      },
      { verdicts: [{ statement: "The café serves lunch.", ...v("no", "Lunch is unrelated to opening hours.") }] },
      { verdicts: [v("yes", "Both say 9am."), v("no", "The context says admission is free; the answer says 12 euros.")] },
    ],
    reason: Array.from({ length: 6 }, () => ({ reason: "The score is as it is because of the verdicts." })),
  },
  "Bias, toxicity and PII leakage": {
    opinions: [
      { opinions: ["People who can't read a manual are hopeless."] },
      { opinions: ["People who can't read a manual are hopeless."] },
    ],
    verdicts: [
      { verdicts: [v("no")] },
      { verdicts: [v("yes", "Dismissive and insulting; say 'The manual covers this step.' instead.")] },
      { verdicts: [v("yes", "A named person's phone number.")] },
    ],
    extracted_pii: [{ extracted_pii: ["Call Jane Doe on +1 555 0100."] }],
    reason: Array.from({ length: 3 }, () => ({ reason: "The score is as it is because of the verdicts." })),
  },
  Summarization: {
    truths: [{ truths: ["The library is open 9-5 on weekdays.", "Members can borrow 10 books.", "Late returns cost 50 cents a day."] }],
    claims: [{ claims: ["The library opens weekdays 9-5.", "Members can borrow 10 books."] }],
    answers: [{ answers: ["yes", "yes", "yes"] }, { answers: ["yes", "yes", "no"] }],
    verdicts: [{ verdicts: [v("yes"), v("yes")] }],
    reason: [{ reason: "The score is 0.67 because the summary leaves out the late fees." }],
  },
  "G-Eval and Arena G-Eval": {
    steps: [
      { steps: ["Compare the facts in the actual output with the expected output.", "Penalise contradictions, not extra detail."] },
      { steps: ["Check whether each answer gives opening days and hours.", "Prefer the most specific answer."] },
    ],
    reason_score: [
      () => {
        const content = '{"reason":"Correct, with a useful qualification.","score":8}';
        return chatText(content, {
          logprobs: textLogprobs(content, (t) => (t === "8" ? { "8": Math.log(0.7), "9": Math.log(0.2), "7": Math.log(0.1) } : undefined)),
        });
      },
    ],
    winner: [
      (request: RecordedRequest) => {
        const prompt: string = request.body.messages[0].content;
        const shown = JSON.parse(prompt.slice(prompt.indexOf("Task and contestants:\n") + 22, prompt.indexOf("\n\nReply with"))) as {
          contestants: { name: string; actual_output: string }[];
        };
        const best = shown.contestants.find((c) => c.actual_output.includes("9am"))!.name;
        const other = shown.contestants.find((c) => c.name !== best)!.name;
        return chatJson({ winner: `$${best}$`, reason: `$${best}$ gives the exact hours and days; $${other}$ is vague.` });
      },
    ],
  },
  DAG: {
    task_output: [{ output: ["Decisions", "Next steps"] }],
    binary_verdict: [{ verdict: true, reason: "Both headings are present." }],
    non_binary_verdict: [{ verdict: "Professional", reason: "Neutral, businesslike wording." }],
    reason: [{ reason: "The score is 1 because both headings are present and the tone is professional." }],
  },
  "Agents (needs a trace for plan adherence and step efficiency)": {
    task_outcome: [
      { task: "Book a table for two at 8pm tonight.", outcome: "The agent searched twice and booked Chez Nous for two at 20:00." },
    ],
    task_completion_verdict: [{ verdict: 1, reason: "The table was booked as asked." }],
    task: [{ task: "Book a table for two at 8pm tonight." }, { task: "Book a table for two at 8pm tonight." }],
    plan: [{ plan: ["Search restaurants", "Book one"] }],
    score_reason: [
      { score: 1, reason: "Searched, then booked, as planned." },
      { score: 0.75, reason: "The identical search ran twice." },
    ],
  },
  Conversations: {
    knowledge: [
      {
        data: [
          { key: "name", value: "Sam" },
          { key: "departure city", value: "Lisbon" },
        ],
      },
      {
        data: [
          { key: "destination", value: "Rome" },
          { key: "needs", value: ["flight", "hotel"] },
        ],
      },
    ],
    knowledge_retention_verdict: [v("no"), v("yes", "Asked again for the departure city (Lisbon).")],
    intentions: [{ intentions: ["Book a flight from Lisbon to Rome", "Book a hotel in Rome"] }],
    intention_verdict: [v("no", "No flight was booked."), v("no", "No hotel was offered.")],
    out_of_character: [{ verdicts: [] }],
    reason: Array.from({ length: 3 }, () => ({ reason: "The score is as it is because of the verdicts." })),
  },
  "Prompt alignment, turn relevancy and conversational G-Eval": {
    verdicts: [{ verdicts: [v("no", "Two sentences: 'It opens at 9am. Tickets are 12 euros.'"), v("yes")] }],
    turn_verdict: [v("yes"), v("no", "'Our museum was founded in 1901.' does not say whether there is a café.")],
    reason_score: [{ reason: "The opening hours are given, but the café question is ignored.", score: 7 }],
    reason: Array.from({ length: 2 }, () => ({ reason: "The score is as it is because of the verdicts." })),
  },
  // Windows are judged concurrently, so the replies are routed by what each prompt shows.
  "Conversational RAG and conversational DAG": {
    truths: Array.from(
      { length: 2 },
      () => (request: RecordedRequest) =>
        chatJson({
          truths: promptText(request).includes("ground floor") ? ["The café is on the ground floor."] : ["The museum opens at 9am."],
        }),
    ),
    claims: Array.from(
      { length: 2 },
      () => (request: RecordedRequest) =>
        chatJson({
          claims: promptText(request).includes("top floor")
            ? ["There is a café.", "The café is on the top floor."]
            : ["The museum opens at 9am."],
        }),
    ),
    verdicts: Array.from({ length: 9 }, () => turnRagVerdicts),
    reason: Array.from({ length: 13 }, () => ({ reason: "The score is as it is because of the verdicts." })),
    binary_verdict: [{ verdict: true, reason: "Both questions get an answer." }],
  },
  "Image metrics": {
    semantic_consistency: [{ score: [8], reasoning: "A red bicycle stands by a lake." }],
    perceptual_quality: [{ score: [9, 6], reasoning: "The spokes are blurred." }],
    image_score: [{ score: 8, reasoning: "The leaf diagram matches both sentences." }],
  },
  "Non-advice, misuse and role violation": {
    advices: [{ advices: ["I'd put everything into ACME shares.", "Your card's daily limit is 500 euros."] }],
    misuses: [{ misuses: ["help me pick stocks", "I'd put everything into ACME shares."] }],
    role_violations: [{ role_violations: ["As a human adviser"] }],
    verdicts: [
      { verdicts: [v("yes", "A specific investment recommendation."), v("no", "Account information, not advice.")] },
      { verdicts: [v("yes", "Stock picking is not card support."), v("yes", "Investment advice is outside banking support.")] },
      { verdicts: [v("yes", "Claims to be a human adviser.")] },
    ],
    reason: Array.from({ length: 3 }, () => ({ reason: "The score is as it is because of the verdicts." })),
  },
  "Plan quality and argument correctness": {
    task: [{ task: "Find the hottest day in Paris in 2023." }],
    plan: [{ plan: ["Fetch the 2023 daily maxima for Paris", "Take the largest"] }],
    plan_quality: [{ score: 0.75, reason: "The plan does not say which weather source to trust." }],
    verdicts: [{ verdicts: [v("yes"), v("no", "A movie search does not help find a temperature.")] }],
    reason: [{ reason: "The score is 0.50 because the movie search does not help find a temperature." }],
  },
  "Agents in conversations: topic adherence, tool use and goal accuracy": {
    qa_pairs: [
      {
        qa_pairs: [
          { question: "Book a table for two tonight.", response: "Booked Chez Nous for two at 8pm." },
          { question: "What's the capital of Peru?", response: "I can only help with restaurant bookings." },
        ],
      },
    ],
    // the two verdicts are asked concurrently: answer by the question in the prompt
    topic_verdict: Array.from({ length: 2 }, () => (request: RecordedRequest) => {
      const prompt: string = request.body.messages.map((m: { content: string }) => m.content).join("\n");
      return prompt.includes("Peru")
        ? chatJson({ verdict: "TN", reason: "Off topic and declined." })
        : chatJson({ verdict: "TP", reason: "On topic and answered." });
    }),
    tool_selection: [{ score: 1, reason: "book was the right tool." }],
    tool_arguments: [{ score: 0.75, reason: "No date was passed for tonight." }],
    goal_score: [{ score: 0.5, reason: "The capital question was declined." }],
    plan_score: [{ score: 1, reason: "Booked directly, as planned." }],
    reason: Array.from({ length: 4 }, () => ({ reason: "The score is as it is because of the judgements." })),
  },
  "MCP: tool use and task completion over MCP servers": {
    mcp_primitives_score: [{ score: 1, reason: "The forecast tool answers a weather question." }],
    mcp_args_score: [{ score: 0.8, reason: "The city is right; no unit was asked for." }],
    mcp_task_score: [{ score: 1, reason: "The forecast was fetched and reported." }],
    reason: [{ reason: "The score is 1 because the one task was completed with the forecast tool." }],
  },
};
