/**
 * The setup file of the "shared-worker" test project (vite.config.ts). Its files run one after
 * another in workers that stay up: starting a worker and loading vitest, Handlebars, Playwright
 * and the rest again for every file was most of these files' CPU time. This file makes each
 * test file start and end as it would in a worker of its own:
 *
 * - before the file: a fresh copy of every module of the project (vi.resetModules), so no
 *   module state carries over; the packages in node_modules stay loaded;
 * - after it: the globals it stubbed (vi.unstubAllGlobals) or that the support modules install
 *   by assignment removed, real timers back, and every timer it left pending cleared. A worker's
 *   end dropped those timers; one firing in the next file would run the old file's code against
 *   the next file's globals (a request's answer timeout calling `Hooks.off`, say).
 *
 * A file's module mocks (vi.mock) end with it: vitest 4 does not carry them into the worker's
 * next file, and the fresh copy of the modules here drops the mocked instances.
 */
import { afterAll, vi } from "vitest";

/** Globals the support modules install by assignment: foundry-globals.ts and chat-globals.ts. */
const ASSIGNED_GLOBALS = ["foundry", "ChatMessage"];

vi.resetModules();

type Timer = Parameters<typeof clearTimeout>[0];
type Schedule = (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => Timer;

const pending = new Set<Timer>();
const real = { setTimeout: globalThis.setTimeout, setInterval: globalThis.setInterval };

/** `schedule`, recording every timer it starts; its own properties (util.promisify's) kept. */
function tracked(schedule: Schedule): Schedule {
  const wrapper: Schedule = (...args) => {
    const timer = schedule(...args);
    pending.add(timer);
    return timer;
  };
  return Object.defineProperties(wrapper, Object.getOwnPropertyDescriptors(schedule));
}

globalThis.setTimeout = tracked(real.setTimeout as Schedule) as unknown as typeof setTimeout;
globalThis.setInterval = tracked(real.setInterval as Schedule) as unknown as typeof setInterval;

afterAll(() => {
  vi.useRealTimers();
  globalThis.setTimeout = real.setTimeout;
  globalThis.setInterval = real.setInterval;
  for (const timer of pending) clearTimeout(timer);
  pending.clear();
  vi.unstubAllGlobals();
  for (const name of ASSIGNED_GLOBALS) Reflect.deleteProperty(globalThis, name);
});
