/**
 * The project's modules one strict-table client runs (./strict-table.ts), loaded afresh for
 * each client and on each (re)connect: a browser tab evaluates the system's modules once, for
 * itself, so nothing a module of src/foundry keeps (the turn engine's lock map, the router,
 * the cards' "told already" set, caches) is shared by two users' clients, and a reload starts
 * with none of it.
 *
 * How: the module runner's registry forgets every module under src/foundry (and the entry
 * below), so the dynamic import evaluates them again; the modules already loaded stay alive
 * for whoever holds them (the test file's own imports, the other clients' copies). This is
 * `vi.resetModules()` (vitest's `resetModules`: each forgotten node's promise, exports,
 * evaluated flag and importers cleared), narrowed to src/foundry when the worker's registry can
 * be reached, and all of it otherwise.
 *
 * src/rules is evaluated once and shared: it is pure TypeScript with no module state (the house
 * test "no module state in rules"; its caches are WeakMaps and WeakSets keyed by the data they
 * cache), so sharing it cannot make a race appear or vanish. Re-evaluating
 * src/rules for every client was two thirds of a load (about 45 of 70 ms on this machine).
 */
import { vi } from "vitest";
import type * as Entry from "./strict-client-entry";

export type ClientModules = typeof Entry;

interface ModuleNode {
  promise: unknown;
  exports: unknown;
  evaluated: boolean;
  importers: Set<string>;
}

/** The worker's module registry (vitest's worker state), when this vitest exposes it. */
function registry(): Map<string, ModuleNode> | null {
  const state: unknown = Reflect.get(globalThis, "__vitest_worker__");
  const modules: unknown = typeof state === "object" && state !== null ? Reflect.get(state, "evaluatedModules") : undefined;
  const map: unknown = typeof modules === "object" && modules !== null ? Reflect.get(modules, "idToModuleMap") : undefined;
  return map instanceof Map ? (map as Map<string, ModuleNode>) : null;
}

/** Paths a client loads for itself. */
const PER_CLIENT = /\/src\/foundry\/|\/test\/support\/strict-client-entry\.ts/;

function forgetClientModules(): void {
  const map = registry();
  if (!map) {
    vi.resetModules();
    return;
  }
  for (const [path, node] of map) {
    if (!PER_CLIENT.test(path)) continue;
    node.promise = undefined;
    node.exports = undefined;
    node.evaluated = false;
    node.importers.clear();
  }
}

let loading: Promise<unknown> = Promise.resolve();

/** Every load's time in ms, in this worker (for the figures a test prints). */
export const moduleLoadTimes: number[] = [];

/** A fresh copy of the client's modules. One load at a time: a reset in the middle of another client's load would mix the two copies. */
export function loadClientModules(): Promise<ClientModules> {
  const load = loading.then(async () => {
    const started = performance.now();
    forgetClientModules();
    const modules = await import("./strict-client-entry");
    moduleLoadTimes.push(performance.now() - started);
    return modules;
  });
  loading = load.catch(() => undefined);
  return load;
}
