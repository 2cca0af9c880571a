/**
 * One way to handle a click, ApplicationV2's: an element carries `data-action="name"`, a table
 * maps each name to an action, and the action is called as ApplicationV2 calls an entry of
 * `DEFAULT_OPTIONS.actions`: `this` is the owner, then the click and the element that carries
 * the `data-action` (`(this, event, target)`).
 *
 * Applications get this from Foundry (sheets, the combat tracker, the Universal Table window).
 * What is not an application (the attack card in a chat message, a `[[/case …]]` link in
 * enriched text) gets it here, from `listenForActions`, so every button of the system is
 * written the same way and reads its data from `target.dataset`.
 */
import { refusalText } from "./error-text";

/** An action, shaped as ApplicationV2's: `this` the owner, the click, the element with the `data-action`. */
export type ClickAction<Owner> = (this: Owner, event: PointerEvent, target: HTMLElement) => unknown;

/** Action name (the `data-action` value) → action: one table, like an application's `DEFAULT_OPTIONS.actions`. */
export type ClickActions<Owner> = Readonly<Record<string, ClickAction<Owner>>>;

/** The action a click asks for, and the element that asks. */
export interface FoundAction<Owner> {
  readonly name: string;
  readonly target: HTMLElement;
  readonly action: ClickAction<Owner>;
}

export interface ListenOptions {
  /**
   * Stop the click at `root`: for an element inside another application's window (an enriched
   * link in a journal or a chat message), so that window's own click handling does not act too.
   */
  readonly stopPropagation?: boolean;
  /** How a failed action is reported; by default it is logged and shown to the user. */
  readonly onError?: (error: unknown, name: string) => void;
  /** Removes the listener when aborted (addEventListener's `signal`). */
  readonly signal?: AbortSignal;
}

/** The element a click started on, when it is an element. */
function elementOf(origin: EventTarget | null): Element | null {
  return origin !== null && "closest" in origin && typeof origin.closest === "function" ? (origin as Element) : null;
}

/**
 * The action a click inside `root` asks for: the closest `[data-action]` from where the click
 * started, when it is inside `root` (or is `root`) and its name is an action of the table.
 * Null for anything else: a click on no action, on an action outside `root`, or on a name the
 * table does not have (inherited names such as "toString" are not actions).
 */
export function findAction<Owner>(root: Element, event: Event, actions: ClickActions<Owner>): FoundAction<Owner> | null {
  const target = elementOf(event.target)?.closest<HTMLElement>("[data-action]") ?? null;
  if (target === null || !root.contains(target)) return null;
  const name = target.dataset.action ?? "";
  const action = Object.hasOwn(actions, name) ? actions[name] : undefined;
  return action ? { name, target, action } : null;
}

/** The default report of a failed action: the console, and a notification of what the user can act on (refusalText). */
function reportError(error: unknown, name: string): void {
  console.error(`case | the action "${name}" failed`, error);
  ui.notifications.error(refusalText(error));
}

/**
 * Runs the action a click inside `root` asks for, on `owner`. The click's default is
 * prevented; a button is disabled while its action runs (so a double click asks once) and
 * enabled again after; a failure is reported (see `ListenOptions.onError`), never thrown.
 * Resolves to whether the click asked for an action of the table.
 */
export async function dispatchClick<Owner>(root: Element, event: PointerEvent, actions: ClickActions<Owner>, owner: Owner, options: ListenOptions = {}): Promise<boolean> {
  const found = findAction(root, event, actions);
  if (!found) return false;
  event.preventDefault();
  if (options.stopPropagation === true) event.stopPropagation();
  const button = found.target.tagName === "BUTTON" ? (found.target as HTMLButtonElement) : null;
  if (button) button.disabled = true;
  try {
    await found.action.call(owner, event, found.target);
  } catch (error) {
    (options.onError ?? reportError)(error, found.name);
  } finally {
    if (button?.isConnected === true) button.disabled = false;
  }
  return true;
}

/** Wires `root`: each click on one of its `data-action` elements runs that action of the table, on `owner`. */
export function listenForActions<Owner>(root: HTMLElement, actions: ClickActions<Owner>, owner: Owner, options: ListenOptions = {}): void {
  root.addEventListener(
    "click",
    (event) => {
      void dispatchClick(root, event, actions, owner, options);
    },
    options.signal ? { signal: options.signal } : undefined,
  );
}
