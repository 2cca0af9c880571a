/**
 * The `[[/case]]` link's listeners (enrichers.ts `activateTableLink`, the enricher's `onRender`)
 * on Foundry 13 and 14. v14 calls `onRender(element, { signal })` and aborts the signal when the
 * rendered content goes (v14 API, TextEditorEnricherConfig#onRender); v13 calls it with the
 * element alone. A link rendered again (moved into a pop-out and back) must not answer one click
 * twice. The link here is a small stand-in that records addEventListener's calls; the browser
 * test (test/browser/universal-table.test.ts) clicks a real one.
 */
import "../support/foundry-globals";
import { beforeAll, describe, expect, it } from "vitest";
import { installWorld } from "../support/exchange-world";
import type * as Enrichers from "../../src/foundry/enrichers";

let enrichers: typeof Enrichers;
beforeAll(async () => {
  // The module's imports reach the dice (CaseRoll extends Roll): the world's globals first.
  installWorld();
  enrichers = await import("../../src/foundry/enrichers");
});
const activateTableLink = (...args: Parameters<typeof enrichers.activateTableLink>): void => {
  enrichers.activateTableLink(...args);
};
const LINK_CLASS = "case-table-roll";

/** A link element as far as activateTableLink touches it: its class and its listeners (removed when their signal aborts, as the DOM does). */
function fakeLink(): { element: HTMLElement; live: () => string[] } {
  const added: { type: string; signal: AbortSignal | undefined }[] = [];
  const element = {
    classList: { contains: (c: string) => c === LINK_CLASS },
    querySelector: () => null,
    addEventListener: (type: string, _fn: unknown, options?: { signal?: AbortSignal }) => added.push({ type, signal: options?.signal }),
  } as unknown as HTMLElement;
  return { element, live: () => added.filter((a) => a.signal?.aborted !== true).map((a) => a.type) };
}

describe("[[/case]] links on 13 and 14", () => {
  it("a link rendered twice (v13: no signal) listens once: the first wiring is removed", () => {
    const link = fakeLink();
    activateTableLink(link.element);
    activateTableLink(link.element);
    expect(link.live().sort()).toEqual(["click", "keydown"]);
  });

  it("v14's onRender signal: aborted, the link's listeners go; rendered again with a new signal, it listens once", () => {
    const link = fakeLink();
    const first = new AbortController();
    activateTableLink(link.element, { signal: first.signal });
    expect(link.live().sort()).toEqual(["click", "keydown"]);
    first.abort();
    expect(link.live()).toEqual([]);
    activateTableLink(link.element, { signal: new AbortController().signal });
    expect(link.live().sort()).toEqual(["click", "keydown"]);
  });
});
