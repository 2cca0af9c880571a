import { cp, mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import type { Plugin } from "vite";

/** Copies the static parts of the system next to the bundle, so dist/ is installable as-is. */
function copySystemFiles(): Plugin {
  let out = resolve(import.meta.dirname, "dist");
  return {
    name: "case-copy-system-files",
    apply: "build",
    configResolved(config) {
      out = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await mkdir(out, { recursive: true });
      await cp(resolve(import.meta.dirname, "system.json"), resolve(out, "system.json"));
      for (const dir of ["templates", "lang", "styles"]) {
        await cp(resolve(import.meta.dirname, dir), resolve(out, dir), { recursive: true });
      }
    },
  };
}

/** Test files that share one module graph (see `test.projects`). */
const PURE_TESTS = ["test/rules/**/*.test.ts", "test/lang.test.ts"];

export default defineConfig({
  publicDir: false,
  build: {
    outDir: "dist",
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
    target: "es2022",
    lib: {
      entry: resolve(import.meta.dirname, "src/case.ts"),
      formats: ["es"],
      fileName: () => "case.mjs",
    },
    rollupOptions: {
      output: {
        // Roll.fromData and document classes are looked up by class name: never mangle them.
        keepNames: true,
      },
    },
  },
  plugins: [copySystemFiles()],
  server: {
    port: 30001,
    proxy: {
      "^(?!/systems/case)": "http://localhost:30000/",
      "/socket.io": { target: "ws://localhost:30000", ws: true },
    },
  },
  test: {
    environment: "node",
    testTimeout: 30_000,
    // Much of the suite waits (Chromium, the strict table's seeded delays): two files at a
    // time keep both cores busy even on a two-core machine (vitest's default there is one).
    maxWorkers: 2,
    projects: [
      {
        // The rules engine's tests are pure (no globals, no mocks, no module state but read-only
        // caches of the rules text): they share one module graph instead of a fresh one each.
        extends: true,
        test: { name: "pure", include: PURE_TESTS, isolate: false },
      },
      {
        // Everything that installs Foundry doubles as globals, mocks modules, or drives
        // Chromium gets a fresh module graph per file.
        extends: true,
        test: { name: "isolated", include: ["test/**/*.test.ts"], exclude: PURE_TESTS },
      },
    ],
  },
});
