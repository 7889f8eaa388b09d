/** Version of @evalkern/harness (kept in step with package.json by the release process). */
export const HARNESS_VERSION = "0.1.0";
