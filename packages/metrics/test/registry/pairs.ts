// A few (hypothesis, references) pairs with the cases the kernels special-case: empty strings, several
// references, punctuation, non-ASCII, yes/no answers.
export const PAIRS: readonly (readonly [string, string[]])[] = [
  ["the cat sat on the mat", ["the cat sat on a mat", "a cat was sitting on the mat"]],
  ["Paris", ["paris, France", "Paris"]],
  ["yes", ["no"]],
  ["", ["something"]],
  ["Die Katze saß auf der Matte.", ["Die Katze sitzt auf der Matte."]],
  ["東京は日本の首都です", ["日本の首都は東京です"]],
  ["running runners ran quickly", ["the runner runs quick"]],
  ["42", ["42.0", "forty-two"]],
];
