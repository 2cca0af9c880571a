/**
 * The one click dispatcher (src/foundry/ui/click-actions.ts) for what is not an application:
 * a click finds the closest [data-action] inside the root and runs that action of the table
 * as ApplicationV2 runs its actions, `(this: owner, event, target)`. The elements are small
 * stand-ins with the DOM members the dispatcher uses (closest, contains, dataset, tagName,
 * disabled, isConnected, addEventListener); the enricher's browser test
 * (test/browser/universal-table.test.ts) runs the same dispatcher on a real page.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { dispatchClick, findAction, listenForActions, type ClickActions } from "../../../src/foundry/ui/click-actions";
import { RulesRangeError } from "../../../src/rules/errors";
import { QueryRefusal } from "../../../src/foundry/requests/router";
import { stubI18nOverriding } from "../../support/foundry-stubs";

/** A stand-in element: a tree with parents, a dataset, and the DOM members the dispatcher reads. */
class Node {
  disabled = false;
  isConnected = true;
  readonly listeners = new Map<string, ((event: unknown) => void)[]>();
  constructor(
    readonly tagName: string,
    readonly dataset: Record<string, string> = {},
    readonly parent: Node | null = null,
  ) {}
  child(tagName: string, dataset: Record<string, string> = {}): Node {
    return new Node(tagName, dataset, this);
  }
  closest(selector: string): Node | null {
    if (selector !== "[data-action]") throw new Error(`The stand-in knows only [data-action], not ${selector}`);
    if (this.dataset.action !== undefined) return this;
    return this.parent ? this.parent.closest(selector) : null;
  }
  contains(other: Node): boolean {
    for (let node: Node | null = other; node; node = node.parent) if (node === this) return true;
    return false;
  }
  addEventListener(type: string, listener: (event: unknown) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  get element(): HTMLElement {
    return this as unknown as HTMLElement;
  }
}

interface Click {
  readonly event: PointerEvent;
  readonly preventDefault: ReturnType<typeof vi.fn>;
  readonly stopPropagation: ReturnType<typeof vi.fn>;
}

function clickOn(target: Node | null): Click {
  const preventDefault = vi.fn();
  const stopPropagation = vi.fn();
  return { event: { target, preventDefault, stopPropagation } as unknown as PointerEvent, preventDefault, stopPropagation };
}

interface Owner {
  readonly messageId: string;
}

/** A table whose actions record what they were called with. */
function recordingActions() {
  const calls: { name: string; owner: Owner; event: PointerEvent; target: HTMLElement }[] = [];
  const actions: ClickActions<Owner> = {
    caseDefend(event, target) {
      calls.push({ name: "caseDefend", owner: this, event, target });
    },
    caseApply(event, target) {
      calls.push({ name: "caseApply", owner: this, event, target });
    },
  };
  return { actions, calls };
}

const OWNER: Owner = { messageId: "msg1" };

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the click dispatcher", () => {
  it("dispatches by data-action: the owner as `this`, the click, and the element that carries the data-action", async () => {
    const root = new Node("DIV");
    const row = root.child("LI", { targetKey: "t1" });
    const dodge = row.child("BUTTON", { action: "caseDefend", targetKey: "t1", defence: "dodge" });
    const icon = dodge.child("I");
    root.child("BUTTON", { action: "caseApply" });
    const { actions, calls } = recordingActions();
    const click = clickOn(icon);

    await expect(dispatchClick(root.element, click.event, actions, OWNER)).resolves.toBe(true);

    expect(calls).toHaveLength(1);
    expect(calls[0]?.name).toBe("caseDefend");
    expect(calls[0]?.owner).toBe(OWNER);
    expect(calls[0]?.event).toBe(click.event);
    expect(calls[0]?.target).toBe(dodge.element);
    expect(calls[0]?.target.dataset).toEqual({ action: "caseDefend", targetKey: "t1", defence: "dodge" });
    expect(click.preventDefault).toHaveBeenCalledTimes(1);
    expect(click.stopPropagation).not.toHaveBeenCalled();
  });

  it("the root itself may carry the data-action (an enriched link listens on itself)", async () => {
    const link = new Node("A", { action: "caseApply" });
    const { actions, calls } = recordingActions();
    await expect(dispatchClick(link.element, clickOn(link.child("I")).event, actions, OWNER)).resolves.toBe(true);
    expect(calls.map((c) => [c.name, c.target])).toEqual([["caseApply", link.element]]);
  });

  it("ignores a click outside the root: a data-action around the root is not the root's", async () => {
    const outer = new Node("SECTION", { action: "caseDefend" });
    const root = outer.child("DIV");
    const text = root.child("P");
    const { actions, calls } = recordingActions();
    const click = clickOn(text);
    await expect(dispatchClick(root.element, click.event, actions, OWNER)).resolves.toBe(false);
    expect(findAction(root.element, click.event, actions)).toBeNull();
    expect(calls).toEqual([]);
    expect(click.preventDefault).not.toHaveBeenCalled();
  });

  it("ignores a click on no action, on an action the table lacks, and on names every object inherits", async () => {
    const root = new Node("DIV");
    const { actions, calls } = recordingActions();
    for (const target of [root.child("P"), root.child("BUTTON", { action: "caseUnknown" }), root.child("BUTTON", { action: "toString" }), root.child("BUTTON", { action: "constructor" }), null]) {
      const click = clickOn(target);
      await expect(dispatchClick(root.element, click.event, actions, OWNER)).resolves.toBe(false);
      expect(click.preventDefault).not.toHaveBeenCalled();
    }
    expect(calls).toEqual([]);
  });

  it("disables a button while its action runs (a double click asks once) and enables it after", async () => {
    const root = new Node("DIV");
    const button = root.child("BUTTON", { action: "caseApply" });
    let finish: () => void = () => undefined;
    const seen: boolean[] = [];
    const actions: ClickActions<Owner> = {
      caseApply: () =>
        new Promise<void>((resolve) => {
          seen.push(button.disabled);
          finish = resolve;
        }),
    };
    const running = dispatchClick(root.element, clickOn(button).event, actions, OWNER);
    expect(button.disabled).toBe(true);
    finish();
    await running;
    expect(seen).toEqual([true]);
    expect(button.disabled).toBe(false);
  });

  it("leaves a link (not a button) enabled, and a button re-rendered away alone", async () => {
    const root = new Node("DIV");
    const link = root.child("A", { action: "caseApply" });
    const button = root.child("BUTTON", { action: "caseDefend" });
    const actions: ClickActions<Owner> = {
      caseApply: () => {
        expect(link.disabled).toBe(false);
      },
      caseDefend: () => {
        button.isConnected = false;
      },
    };
    await dispatchClick(root.element, clickOn(link).event, actions, OWNER);
    await dispatchClick(root.element, clickOn(button).event, actions, OWNER);
    expect(button.disabled).toBe(true);
  });

  it("reports a failed action (never throws) and enables its button again", async () => {
    const root = new Node("DIV");
    const button = root.child("BUTTON", { action: "caseApply" });
    const onError = vi.fn();
    const failure = new Error("No GM is connected.");
    const actions: ClickActions<Owner> = { caseApply: () => Promise.reject(failure) };
    await expect(dispatchClick(root.element, clickOn(button).event, actions, OWNER, { onError })).resolves.toBe(true);
    expect(onError).toHaveBeenCalledWith(failure, "caseApply");
    expect(button.disabled).toBe(false);
  });

  it("rules errors localised: by default a failure is logged and the user reads a rules error in en.json's words, a refusal as it was written, anything else as 'unexpected'", async () => {
    const { error } = stubI18nOverriding({ "CASE.RulesError.karmaShort": "KARMA {amount} > {left}", "CASE.RulesError.notWholeAtLeast": "{field}: {got} < {min}", "CASE.RulesField.karmaSpent": "SPENT", "CASE.RulesError.unexpected": "OOPS" });
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const root = new Node("DIV");
    const failures: unknown[] = [new RulesRangeError("karmaShort", { amount: 30, left: 12 }), new RulesRangeError("notWholeAtLeast", { field: "karmaSpent", min: 0, got: "-4" }), new QueryRefusal("stale", "The card moved on."), new Error("The card is stale.")];
    const actions: ClickActions<Owner> = {
      caseApply: () => {
        throw failures.shift();
      },
    };
    for (let i = 0; i < 4; i++) await dispatchClick(root.element, clickOn(root.child("BUTTON", { action: "caseApply" })).event, actions, OWNER);
    expect(error.mock.calls.map((c) => String(c[0]))).toEqual(["KARMA 30 > 12", "SPENT: -4 < 0", "The card moved on.", "OOPS"]);
    expect(String(log.mock.calls[0]?.[0])).toContain("caseApply");
    expect(log.mock.calls[0]?.[1]).toBeInstanceOf(RulesRangeError);
  });

  it("stops the click at the root when asked (a link inside another application's window)", async () => {
    const link = new Node("A", { action: "caseApply" });
    const { actions } = recordingActions();
    const click = clickOn(link);
    await dispatchClick(link.element, click.event, actions, OWNER, { stopPropagation: true });
    expect(click.stopPropagation).toHaveBeenCalledTimes(1);
    expect(click.preventDefault).toHaveBeenCalledTimes(1);
  });

  it("listenForActions wires one click listener on the root that dispatches on the owner", async () => {
    const root = new Node("DIV");
    const button = root.child("BUTTON", { action: "caseDefend" });
    const { actions, calls } = recordingActions();
    listenForActions(root.element, actions, OWNER);
    expect([...root.listeners.keys()]).toEqual(["click"]);
    const listeners = root.listeners.get("click") ?? [];
    expect(listeners).toHaveLength(1);
    const click = clickOn(button);
    listeners[0]?.(click.event);
    await vi.waitFor(() => {
      expect(calls.map((c) => [c.name, c.owner, c.target])).toEqual([["caseDefend", OWNER, button.element]]);
    });
    expect(click.preventDefault).toHaveBeenCalledTimes(1);
  });
});
