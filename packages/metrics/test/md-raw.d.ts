// Vite's `?raw` imports (used by the README test) give the file's text.
declare module "*.md?raw" {
  const text: string;
  export default text;
}
