import { defineConfig } from "vite";

// Relative asset URLs (`base: "./"`): the built folder works from any path of any static host.
export default defineConfig({
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    chunkSizeWarningLimit: 4096,
  },
  worker: { format: "es" },
});
