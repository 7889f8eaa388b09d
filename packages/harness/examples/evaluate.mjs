// Evaluate: DSPy's harness over any async program.
import { Evaluate, Example, Prediction, context, settings } from "@evalkern/harness";

const devset = [
  Example.from({ question: "2+2?", answer: "4" }).withInputs("question"),
  Example.from({ question: "Capital of France?", answer: "Paris" }).withInputs("question"),
  Example.from({ question: "3+3?", answer: "6" }).withInputs("question"),
];

// a "program": in real use an LLM pipeline; settings() sees the enclosing context()
const program = async ({ question }) => {
  const lm = settings().lm; // "demo-model" in every concurrent call
  const answers = { "2+2?": "4", "Capital of France?": "Lyon", "3+3?": "6" };
  return Prediction.from({ answer: answers[question], lm });
};
const exactMatch = (example, prediction) => example.answer === prediction.answer;

const evaluate = new Evaluate({ devset, metric: exactMatch, numThreads: 4, displayProgress: true, displayTable: true, maxErrors: 5 });
const result = await context({ lm: "demo-model" }, () => evaluate.call(program));
console.log(result.score); // 66.67
console.log(result.results.map(([example, prediction, score]) => [example.question, prediction.answer, score]));
