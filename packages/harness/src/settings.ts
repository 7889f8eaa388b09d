// DSPy-style settings (`dspy.configure`, `dspy.context`) are one store for the whole stack, owned by
// @evalkern/judge (the lowest layer that reads it: judge metrics take their default judge from it).
// The harness re-exports the same functions, so `configure({ judge })` imported from either package
// reaches the judge metrics, and gives the store its runtime's async context: every concurrent worker
// started inside `context({...}, fn)` then sees the same values (DSPy copies its thread-local overrides
// into each worker thread; here AsyncLocalStorage does it).
import { setSettingsScope, type Settings } from "@evalkern/judge";
import { hasAsyncContext, onRuntimeChange, runtime } from "./runtime/runtime.js";

export { configure, context, settings, resetSettings, type Settings } from "@evalkern/judge";

// Without a real async context (the fallback runtime), the judge's own scope is kept: its layers last
// until the promise of `fn` settles, where the fallback's would end at the first await.
function installScope(): void {
  const current = runtime();
  setSettingsScope(hasAsyncContext(current) ? current.createAsyncContext<Settings>() : null);
}

installScope();
onRuntimeChange(installScope);
