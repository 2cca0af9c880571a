#!/usr/bin/env node
// The README's test command: type check, lint and every vitest test (rules, adapters,
// templates, browser). Ends with one plain line "N passed, N failed, N skipped" that CI reads;
// a failed type check or lint counts as one failed test each, so the line never hides them.
//
// Speed (2 cores): vitest runs in its own process (at the lowest priority, so the one-thread
// static stage never waits) while a second process (this file, with CASE_TEST_STAGE=static)
// type checks and lints. That process builds ONE TypeScript program
// and hands it to typescript-eslint, so the type-aware lint reuses the type checker instead
// of building and checking the whole project a second time. Warm runs reuse three caches under
// node_modules/.cache/ (a fresh clone has none; delete them to time a cold run):
//   - when no file either stage reads has changed since a run where both passed, neither runs
//     again: the digest of every TypeScript, JavaScript and JSON file in the checkout (git's
//     list: tracked, and untracked but not ignored; package-lock.json stands for node_modules)
//     is kept after each clean run. Building the program alone took some 6 CPU-seconds;
//   - the type check is incremental by the same digests the lint's cache uses (below): a file
//     whose own text and every project file it imports, directly or not, are unchanged keeps
//     the diagnostics it had; only the others are checked again. (It used TypeScript's
//     tsBuildInfoFile before: with a previous state, TypeScript computes each changed file's
//     declaration output to decide what else to check, and after a commit that moved ~90 files
//     that ran the static stage out of its 4 GB heap. This way a warm run never costs more
//     than a cold one: at worst every file is checked again, as on a fresh clone.)
//   - the lint keeps ESLint's cache (content strategy). A type-aware rule's result can change
//     when a file the linted file imports changes, which ESLint's cache cannot see, so each
//     file's cache key also carries a digest of every project file it imports, directly or
//     not (plus tsconfig.json, package-lock.json and the project's global declarations).
// vitest keeps a fourth there, the modules it transformed (vite.config.ts, fsModuleCache).
// `npm run typecheck` and `npm run lint` still run plain tsc and eslint, without caches.
import { execFileSync, fork, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
const bin = (name) => join("node_modules", ".bin", name);
const CACHE_DIR = join("node_modules", ".cache");
// One file per checkout, so checkouts that share a node_modules do not overwrite each other's.
const TYPECHECK_CACHE = join(CACHE_DIR, "case-typecheck", `diagnostics-${createHash("sha256").update(process.cwd()).digest("hex").slice(0, 8)}.json`);
const ESLINT_CACHE = join(CACHE_DIR, "eslint") + "/";
const STATIC_PASSED = join(CACHE_DIR, "case-static", `passed-${createHash("sha256").update(process.cwd()).digest("hex").slice(0, 8)}.txt`);
const STAGES = ["typecheck", "lint"];
/** In the type check and lint process: each stage's result, as sent to the parent. */
const staticPassed = new Map();

const seconds = (started) => ((Date.now() - started) / 1000).toFixed(1);

if (process.env.CASE_TEST_STAGE === "static") {
  await staticChecks();
} else {
  await main();
}

// ---------------------------------------------------------------------------------------------
// The parent: starts both processes, prints each stage's result, then the totals line.
// ---------------------------------------------------------------------------------------------

async function main() {
  const started = Date.now();
  const reportDir = join("test", "artifacts");
  mkdirSync(reportDir, { recursive: true });
  const reportFile = join(reportDir, "vitest-report.json");
  rmSync(reportFile, { force: true });

  /** @type {Map<string, { ok: boolean, seconds: string }>} */
  const results = new Map();
  const finish = (label, ok, secs) => {
    results.set(label, { ok, seconds: secs });
    console.log(`${ok ? "✔" : "✘"} ${label} (${secs} s)`);
  };

  // Type check and lint: their output is printed whole, as each stage ends, so it never
  // interleaves with vitest's lines.
  console.log(`▶ typecheck and lint (one TypeScript program), beside vitest`);
  const staticDone = new Promise((done) => {
    const child = fork(fileURLToPath(import.meta.url), [], {
      // A larger young generation: TypeScript's checker allocates fast, and with V8's default
      // (16 MB) a fifth of the stage went to the garbage collector.
      execArgv: [...process.execArgv, "--max-semi-space-size=64"],
      env: { ...env, CASE_TEST_STAGE: "static" },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    let stray = "";
    child.stdout.on("data", (chunk) => (stray += String(chunk)));
    child.stderr.on("data", (chunk) => (stray += String(chunk)));
    child.on("message", (message) => {
      const { label, ok, output, secs } = /** @type {{label: string, ok: boolean, output: string, secs: string}} */ (message);
      console.log(`\n▶ ${label}`);
      if (output.trim()) console.log(output.trimEnd());
      finish(label, ok, secs);
    });
    child.on("exit", (code, signal) => {
      if (stray.trim()) console.log(stray.trimEnd());
      for (const label of STAGES) {
        if (!results.has(label)) {
          console.log(`\n▶ ${label}\nThe type check and lint process stopped (${signal ?? `exit code ${String(code)}`}) before ${label} finished.`);
          finish(label, false, seconds(started));
        }
      }
      done();
    });
  });

  const vitestDone = new Promise((done) => {
    const vitestStarted = Date.now();
    console.log(`▶ vitest: ${bin("vitest")} run --reporter=default --reporter=json --outputFile.json=${reportFile}\n`);
    const args = ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${reportFile}`, ...process.argv.slice(2)];
    // vitest at the lowest priority (nice 19, where there is `nice`): the type check and lint
    // are one thread that must not wait, the test workers take every cycle it leaves. On two
    // cores a cold run ended 8 s sooner (the static stage had been the last to finish); alone,
    // as in a warm run, vitest runs as fast as before.
    const [command, commandArgs] = process.platform === "win32" ? [bin("vitest"), args] : ["nice", ["-n", "19", bin("vitest"), ...args]];
    const child = spawn(
      command,
      commandArgs,
      // The same for the test workers (threads share the process's heap settings).
      { stdio: "inherit", env: { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ""} --max-semi-space-size=32`.trim() } },
    );
    child.on("error", (error) => {
      console.log(`vitest could not start: ${String(error)}`);
    });
    child.on("close", (code) => {
      finish("vitest", code === 0, seconds(vitestStarted));
      done();
    });
  });

  await Promise.all([staticDone, vitestDone]);

  let failed = STAGES.filter((label) => !results.get(label)?.ok).length;
  let passed = 0;
  let skipped = 0;
  try {
    const report = JSON.parse(readFileSync(reportFile, "utf8"));
    passed = report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    // A test file that failed to load has no tests in the counts: count it as a failure.
    for (const file of report.testResults ?? []) {
      if (file.status === "failed" && (file.assertionResults ?? []).every((t) => t.status !== "failed")) failed++;
    }
  } catch (error) {
    console.error(`Could not read the vitest report (${String(error)}).`);
    failed++;
  }
  if (!results.get("vitest")?.ok && failed === 0) failed++;

  console.log(`\n${["typecheck", "lint", "vitest"].map((label) => `${results.get(label)?.ok ? "✔" : "✘"} ${label} ${results.get(label)?.seconds ?? "?"} s`).join(" · ")} · total ${seconds(started)} s`);
  console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(failed === 0 ? 0 : 1);
}

// ---------------------------------------------------------------------------------------------
// The child: one TypeScript program for the type check, then the lint on that same program.
// ---------------------------------------------------------------------------------------------

/** Sends one stage's result to the parent. */
function report(label, ok, output, started) {
  staticPassed.set(label, ok);
  process.send?.({ label, ok, output, secs: seconds(started) });
}

async function staticChecks() {
  let started = Date.now();
  const inputs = staticInputs();
  if (inputs !== null && existsSync(STATIC_PASSED) && readFileSync(STATIC_PASSED, "utf8") === inputs) {
    for (const label of STAGES) report(label, true, "(not run again: no file it reads has changed since it last passed)", started);
    return;
  }
  rmSync(STATIC_PASSED, { force: true });

  const { default: ts } = await import("typescript");
  let program;
  let digests;
  try {
    ({ program, digests } = typecheck(ts, started));
  } catch (error) {
    report("typecheck", false, `The type check could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, started);
  }

  started = Date.now();
  try {
    await lint(program, digests, started);
  } catch (error) {
    report("lint", false, `The lint could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, started);
  }

  if (inputs !== null && STAGES.every((label) => staticPassed.get(label) === true)) {
    mkdirSync(join(CACHE_DIR, "case-static"), { recursive: true });
    writeFileSync(STATIC_PASSED, inputs);
  }
}

/**
 * A digest of everything the type check and the lint read from this checkout: every
 * TypeScript, JavaScript and JSON file git lists (tracked, and untracked but not ignored), by
 * path and content. The configurations are among them, and package-lock.json stands for what
 * is installed. Null when git cannot list the files (then both stages always run).
 */
function staticInputs() {
  let listed;
  try {
    listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return null;
  }
  const files = [...new Set(listed.split("\0"))].filter((name) => /\.(?:[cm]?[jt]sx?|json)$/.test(name)).sort();
  const digest = createHash("sha256").update(`node ${process.version}\0`);
  for (const name of files) {
    digest.update(`${name}\0`);
    digest.update(existsSync(name) ? readFileSync(name) : "(deleted)");
    digest.update("\0");
  }
  return digest.digest("hex");
}

/**
 * `tsc --noEmit -p tsconfig.json`, made incremental by the import digests (see the header):
 * returns the program and the digests for the lint.
 */
function typecheck(ts, started) {
  const formatHost = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => "\n",
  };
  let configError;
  const parsed = ts.getParsedCommandLineOfConfigFile("tsconfig.json", undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      configError = diagnostic;
    },
  });
  if (!parsed) {
    report("typecheck", false, configError ? ts.formatDiagnostics([configError], formatHost) : "tsconfig.json could not be read.", started);
    return {};
  }
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
    projectReferences: parsed.projectReferences,
  });
  const digests = importDigests(ts, program);
  // The order tsc reports in: options and syntax first; semantics only when those are clean.
  const early = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(),
  ];
  let output = early.length ? ts.formatDiagnostics(early, formatHost) : "";
  let errors = early.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  let note = "";
  if (early.length === 0) {
    // Each file's semantic diagnostics, as tsc reports them (formatted, and its error count),
    // kept by the file's import digest. A file outside the project (a library's declarations:
    // skipLibCheck) is checked every time, as tsc would.
    /** @type {Record<string, { digest: string, text: string, errors: number }>} */
    let kept = {};
    try {
      kept = JSON.parse(readFileSync(TYPECHECK_CACHE, "utf8"));
    } catch {
      kept = {};
    }
    /** @type {Record<string, { digest: string, text: string, errors: number }>} */
    const next = {};
    let checked = 0;
    for (const sf of program.getSourceFiles()) {
      const digest = digests.get(sf.fileName);
      let entry = digest !== undefined && kept[sf.fileName]?.digest === digest ? kept[sf.fileName] : undefined;
      if (!entry) {
        const diagnostics = program.getSemanticDiagnostics(sf);
        if (digest !== undefined) checked++;
        entry = {
          digest: digest ?? "",
          text: diagnostics.length ? ts.formatDiagnostics(diagnostics, formatHost) : "",
          errors: diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length,
        };
      }
      if (digest !== undefined) next[sf.fileName] = entry;
      output += entry.text;
      errors += entry.errors;
    }
    mkdirSync(join(CACHE_DIR, "case-typecheck"), { recursive: true });
    writeFileSync(TYPECHECK_CACHE, JSON.stringify(next));
    if (checked < digests.size) note = `(${String(checked)} of ${String(digests.size)} project files checked; the others, unchanged with everything they import, kept their diagnostics)`;
  }
  if (output) output += `\nFound ${errors} error${errors === 1 ? "" : "s"}.\n`;
  report("typecheck", errors === 0, output + note, started);
  return { program, digests };
}

/**
 * `eslint --max-warnings=0 .` through ESLint's API: the TypeScript files get the program the
 * type check built (parserOptions.programs) instead of typescript-eslint's project service,
 * and each file's cache key carries the digest of what it imports.
 */
async function lint(program, digests, started) {
  const { ESLint } = await import("eslint");
  /** @type {import("eslint").Linter.Config[]} */
  const overrideConfig = [];
  if (program) {
    // ESLint hashes every file's config for its cache: the program stands in by name.
    const programs = Object.assign([program], { toJSON: () => "case:type-check-program" });
    overrideConfig.push({
      files: ["**/*.ts", "**/*.tsx", "**/*.mts", "**/*.cts"],
      languageOptions: { parserOptions: { projectService: false, project: false, programs } },
    });
    for (const [file, digest] of digests ?? []) {
      overrideConfig.push({ files: [(path) => path === file], settings: { caseImportsDigest: digest } });
    }
  }
  const eslint = new ESLint({
    cache: program !== undefined,
    cacheLocation: ESLINT_CACHE,
    cacheStrategy: "content",
    overrideConfig,
  });
  const results = await eslint.lintFiles(["."]);
  const formatter = await eslint.loadFormatter("stylish");
  const output = await formatter.format(results);
  const errors = results.reduce((sum, r) => sum + r.errorCount + r.fatalErrorCount, 0);
  const warnings = results.reduce((sum, r) => sum + r.warningCount, 0);
  const tooMany = warnings > 0 ? "\nESLint found too many warnings (maximum: 0)." : "";
  const note = program ? "" : "\n(linted without the type check's program: see the type check's error)";
  report("lint", errors === 0 && warnings === 0, `${output}${tooMany}${note}`, started);
}

/**
 * For every project file in the program: a digest of its own text and the text of every
 * project file it imports, directly or through others, plus what every file depends on
 * (tsconfig.json, package-lock.json, global declaration files). Two runs give a file the same
 * digest only when nothing its types can come from has changed.
 */
function importDigests(ts, program) {
  const options = program.getCompilerOptions();
  const root = resolve(".");
  const inProject = (name) => name.startsWith(root + "/") && !name.includes("/node_modules/");
  const files = program.getSourceFiles().filter((sf) => inProject(sf.fileName));
  const textHash = new Map(files.map((sf) => [sf.fileName, createHash("sha256").update(sf.text).digest("hex")]));

  const shared = createHash("sha256");
  for (const name of ["tsconfig.json", "package-lock.json"]) {
    shared.update(`${name}\0${existsSync(name) ? readFileSync(name, "utf8") : "(none)"}\0`);
  }
  shared.update(`typescript ${ts.version}\0`);
  for (const sf of files) {
    const global = sf.isDeclarationFile || (!ts.isExternalModule(sf) && !sf.fileName.endsWith(".json"));
    if (global) shared.update(`${sf.fileName}\0${textHash.get(sf.fileName)}\0`);
  }
  const sharedDigest = shared.digest("hex");

  const cache = ts.createModuleResolutionCache(root, (name) => name, options);
  const imports = new Map();
  for (const sf of files) {
    const info = ts.preProcessFile(sf.text, true, true);
    const targets = new Set();
    for (const ref of [...info.importedFiles, ...info.referencedFiles]) {
      const resolved = ts.resolveModuleName(ref.fileName, sf.fileName, options, ts.sys, cache).resolvedModule?.resolvedFileName;
      const target = resolved ?? resolve(sf.fileName, "..", ref.fileName);
      if (textHash.has(target)) targets.add(target);
    }
    imports.set(sf.fileName, targets);
  }

  const digests = new Map();
  for (const sf of files) {
    const seen = new Set([sf.fileName]);
    const queue = [sf.fileName];
    while (queue.length) {
      for (const next of imports.get(queue.pop()) ?? []) {
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    const digest = createHash("sha256").update(sharedDigest);
    for (const name of [...seen].sort()) digest.update(`${name}\0${textHash.get(name)}\0`);
    digests.set(sf.fileName, digest.digest("hex"));
  }
  return digests;
}
