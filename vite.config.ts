import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { cp, mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import type { Plugin } from "vite";
import { transform as transformCss } from "lightningcss";
import { minifyTemplate } from "./scripts/minify-template.js";

/** Browsers the minified CSS must keep working in (Chrome 111, Firefox 113, Safari 16.4: 2023's). */
const CSS_TARGETS = { chrome: 111 << 16, firefox: 113 << 16, safari: (16 << 16) | (4 << 8) };

/**
 * Copies the static parts of the system next to the bundle, so dist/ is installable as-is:
 * system.json as it is, the icons, the templates without their comments and indentation
 * (scripts/minify-template.ts), the stylesheets minified, the languages without whitespace.
 * (`npm run build` then prints the weight: scripts/build-size.ts.)
 */
function copySystemFiles(): Plugin {
  let out = resolve(import.meta.dirname, "dist");
  const from = (...parts: string[]): string => resolve(import.meta.dirname, ...parts);
  return {
    name: "case-copy-system-files",
    apply: "build",
    configResolved(config) {
      out = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await mkdir(out, { recursive: true });
      await cp(from("system.json"), resolve(out, "system.json"));
      await cp(from("icons"), resolve(out, "icons"), { recursive: true });
      await cp(from("templates"), resolve(out, "templates"), { recursive: true });
      for (const name of await readdir(from("templates"), { recursive: true })) {
        if (!name.endsWith(".hbs")) continue;
        await writeFile(resolve(out, "templates", name), minifyTemplate(await readFile(from("templates", name), "utf8"), `templates/${name}`));
      }
      await mkdir(resolve(out, "styles"), { recursive: true });
      for (const name of await readdir(from("styles"))) {
        const filename = from("styles", name);
        if (!name.endsWith(".css")) {
          await cp(filename, resolve(out, "styles", name), { recursive: true });
          continue;
        }
        const { code } = transformCss({ filename, code: await readFile(filename), minify: true, targets: CSS_TARGETS });
        await writeFile(resolve(out, "styles", name), code);
      }
      await mkdir(resolve(out, "lang"), { recursive: true });
      for (const name of await readdir(from("lang"))) {
        const filename = from("lang", name);
        const text = await readFile(filename, "utf8");
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (error) {
          throw new Error(`${filename}: not valid JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
        }
        await writeFile(resolve(out, "lang", name), JSON.stringify(parsed));
      }
    },
  };
}

/**
 * vitest's on-disk module cache (`test.experimental.fsModuleCache`) keys a file by its text, the
 * vite config and the lockfile, but not by tsconfig.json, which vite's TypeScript transform reads
 * (useDefineForClassFields, say): a warm run after tsconfig.json changed, by an edit or a branch
 * switch, would run code transformed for the old one. Nor by where the files are: a file whose
 * text did not change keeps the paths its imports resolved to (vitest issue #11246), so after a
 * move a warm run looked for modules that were gone. The key carries tsconfig.json's text and
 * the list of the code files under src/ and test/ (their names only): a move transforms afresh.
 */
function moduleCacheKeyedByTsconfig(): Plugin {
  return {
    name: "case-module-cache-tsconfig",
    configureVitest({ experimental_defineCacheKeyGenerator }) {
      const tsconfig = readFileSync(resolve(import.meta.dirname, "tsconfig.json"), "utf8");
      const files = ["src", "test"]
        .flatMap((dir) => readdirSync(resolve(import.meta.dirname, dir), { recursive: true, encoding: "utf8" }).map((name) => `${dir}/${name.replaceAll("\\", "/")}`))
        .filter((name) => /\.(?:[cm]?[jt]s|json)$/.test(name) && !name.startsWith("test/artifacts/"));
      const key = createHash("sha256").update(`${tsconfig}\0${files.sort().join("\0")}`).digest("hex");
      experimental_defineCacheKeyGenerator(() => key);
    },
  };
}

/** The system's entry module: case.mjs holds it (its init and ready hooks) and imports the rest. */
const ENTRY = resolve(import.meta.dirname, "src/case.ts");

/** Test files that share one module graph (see `test.projects`). */
const PURE_TESTS = [
  "test/rules/**/*.test.ts",
  "test/lang.test.ts",
  "test/house.test.ts",
  ...["pack-build", "pack-content", "pack-sources", "rules-journal"].map((name) => `test/packs/${name}.test.ts`),
];
export default defineConfig({
  publicDir: false,
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Minified with the class names kept (see rolldownOptions.output), plus source maps.
    minify: true,
    sourcemap: true,
    target: "es2022",
    lib: {
      entry: ENTRY,
      formats: ["es"],
      fileName: () => "case.mjs",
    },
    rolldownOptions: {
      output: {
        // The parts a session may never use (the character builder's window, the Quench
        // self-test) are `import()`ed, and ship as chunks loaded on first use. Everything the
        // system loads at once goes in one chunk, chunks/core.mjs, which case.mjs (the entry
        // module: its hooks) imports: one file compresses better than the pieces rolldown would
        // otherwise share out among the chunks, and no chunk imports case.mjs itself (so the
        // system runs once, whatever URL Foundry loads case.mjs by). scripts/build-size.ts
        // counts every chunk, at load and on first use; test/build.test.ts checks the split.
        // The core chunk has a fixed name, chunks/core.mjs, and case.mjs imports it for its
        // effect alone (src/case.ts): a browser that kept an earlier version's case.mjs asks for
        // a file that is always there and binds no export by name, so the system still loads
        // after an update. The chunks loaded on first use keep their hashes (the core names them).
        chunkFileNames: (chunk) => (chunk.name === "core" ? "chunks/core.mjs" : "chunks/[name]-[hash].mjs"),
        codeSplitting: { groups: [{ name: "core", tags: ["$initial"], test: (id) => id !== ENTRY }] },
        // Roll.fromData, CONFIG.Dice.rolls and Foundry's sheet and data-model registries find
        // classes by name: every class keeps its own (test/build.test.ts runs the bundle and
        // checks). The minifier's keepNames stops it from mangling class bindings. The
        // bundler renames a top-level name that clashes with another module's (Foo$1); its
        // keepNames would put each renamed name back at run time, functions' too, with a
        // helper call apiece: instead no class may clash (the build test refuses a class
        // named Foo$1: rename one of the two). Function names are not looked up, so they are
        // mangled. Vite's library mode would otherwise keep the whitespace (codegen: false);
        // a system is loaded as is, so it goes too.
        keepNames: false,
        minify: {
          compress: { keepNames: { function: false, class: true } },
          mangle: { toplevel: true, keepNames: { function: false, class: true } },
          codegen: { removeWhitespace: true },
        },
      },
    },
  },
  plugins: [copySystemFiles(), moduleCacheKeyedByTsconfig()],
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
    // Worker threads start faster than forked processes.
    pool: "threads",
    // Much of the suite waits (Chromium, the strict table's seeded delays): two files at a
    // time keep both cores busy even on a two-core machine (vitest's default there is one).
    maxWorkers: 2,
    // The browser tests' Chromium, unpacked once before any worker starts (several workers
    // unpacking it at once on a fresh machine started a half-written binary: ETXTBSY).
    globalSetup: ["test/support/chromium-global-setup.ts"],
    // Transformed modules are kept on disk between runs (keyed by each file's content, this
    // config, tsconfig.json, the lockfile and the code files' names: see
    // moduleCacheKeyedByTsconfig), so a warm run does not transform the project again in the
    // main thread, where every worker's imports wait for it. Under node_modules/.cache like the
    // other caches: delete it to time a cold run.
    experimental: { fsModuleCache: true, fsModuleCachePath: "node_modules/.cache/vitest-modules" },
    projects: [
      {
        // The rules engine's tests, and those that only read the repository's files (house
        // rules, language, pack sources), are pure (no globals, no mocks, no module state but
        // read-only caches of the rules text): they share one module graph instead of a fresh
        // one each.
        extends: true,
        test: { name: "pure", include: PURE_TESTS, isolate: false },
      },
      {
        // Everything that installs Foundry doubles as globals or drives Chromium: in workers
        // that stay up, each file with a fresh module graph, and its globals and pending
        // timers removed when it ends (test/support/fresh-file.ts).
        extends: true,
        test: { name: "shared-worker", include: ["test/**/*.test.ts"], exclude: [...PURE_TESTS], isolate: false, setupFiles: ["test/support/fresh-file.ts"] },
      },
    ],
  },
});
