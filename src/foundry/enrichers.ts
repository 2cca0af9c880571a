/**
 * The `[[/case …]]` text enricher: in every enriched text (journals, item descriptions, chat),
 *
 *   [[/case remarkable]]                 a clickable roll on the Remarkable column
 *   [[/case 30]]                          the same, by rank number
 *   [[/case attack BA incredible]]        a Blunt Attack's to-hit roll on Incredible (the card
 *                                         shows the attack's result: Miss / Hit / Slam / Stun)
 *   [[/case check endurance incredible]] a request for an Endurance roll against Incredible: the
 *                                         GM's click asks the selected tokens' owners (a roll
 *                                         request card); a player's rolls it for their character
 *   [[/case remarkable]]{Leap the chasm}  each of these with a label of its own
 *
 * Text that does not parse (an unknown column, an unknown attack) becomes a visible, localised
 * error in the text, never a roll on a guessed column. The grammar is table-command.ts (pure,
 * tested). Each link gets its own click and key listeners when it is rendered (the enricher's
 * `onRender`, in v13 and v14), so links also work in a window v14 pops out into a browser
 * window of its own, where listeners on the main page's document never hear them.
 */
import { rollColumn } from "./column-roll";
import { rollCheckLink } from "./roll-requests/request-card";
import { listenForActions, type ClickActions } from "./ui/click-actions";
import {
  TABLE_COMMAND_PATTERN,
  checkFromDataset,
  checkLinkView,
  commandFromDataset,
  isCheckCommand,
  parseCheckCommand,
  parseTableCommand,
  tableLinkView,
  type TableCommandError,
} from "./table-command";

/** The class of an enriched roll link. */
export const LINK_CLASS = "case-table-roll";
/** The `data-action` of an enriched roll link (see TABLE_LINK_ACTIONS). */
export const LINK_ACTION = "caseTableRoll";
/** The `data-action` of an enriched check link (`[[/case check …]]`). */
export const CHECK_ACTION = "caseCheckRoll";
/** The class of an enricher error. */
export const ERROR_CLASS = "case-enricher-error";

const format = (key: string, data?: Record<string, string>): string => (data ? game.i18n.format(key, data) : game.i18n.localize(key));

function errorElement(source: string, error: TableCommandError): HTMLElement {
  const span = document.createElement("span");
  span.className = ERROR_CLASS;
  const icon = document.createElement("i");
  icon.className = "fa-solid fa-triangle-exclamation";
  icon.setAttribute("inert", "");
  span.append(icon, " ", format(error.key, { ...error.data }));
  // The text as written, as a plain-text title (never data-tooltip, which may be read as HTML).
  span.title = source;
  return span;
}

/** The link element: a role="button" anchor with an icon, its text, tooltip and data. */
function linkElement(action: string, text: string, tooltip: string, data: Readonly<Record<string, string>>): HTMLElement {
  const link = document.createElement("a");
  link.className = LINK_CLASS;
  link.setAttribute("role", "button");
  link.tabIndex = 0;
  link.dataset.action = action;
  link.dataset.tooltip = tooltip;
  for (const [key, value] of Object.entries(data)) link.dataset[key] = value;
  const icon = document.createElement("i");
  icon.className = "fa-solid fa-dice-d20";
  icon.setAttribute("inert", "");
  link.append(icon, " ", text);
  return link;
}

/** The element for one `[[/case check …]]`: a check link, or an error. */
function enrichCheck(match: RegExpMatchArray): HTMLElement {
  const parsed = parseCheckCommand(match[1] ?? "", match[2] ?? null);
  if (!parsed.ok) return errorElement(match[0], parsed.error);
  const view = checkLinkView(parsed.value, format);
  return linkElement(CHECK_ACTION, view.text, view.tooltip, view.data);
}

/** The element for one `[[/case …]]` match: a roll link, or an error. */
export function enrichTableCommand(match: RegExpMatchArray): Promise<HTMLElement> {
  if (isCheckCommand(match[1] ?? "")) return Promise.resolve(enrichCheck(match));
  const parsed = parseTableCommand(match[1] ?? "", match[2] ?? null);
  if (!parsed.ok) return Promise.resolve(errorElement(match[0], parsed.error));
  const view = tableLinkView(parsed.value, format);
  return Promise.resolve(linkElement(LINK_ACTION, view.text, view.tooltip, view.data));
}

/** Rolls what a clicked link asks for. */
async function rollLink(link: HTMLElement): Promise<void> {
  const parsed = commandFromDataset(link.dataset);
  if (!parsed.ok) {
    ui.notifications.error(format(parsed.error.key, { ...parsed.error.data }));
    return;
  }
  const { column, attack, label } = parsed.value;
  await rollColumn(column.value, { attack, label });
}

/** Asks for (the GM) or rolls (a player) what a clicked check link names. */
async function checkLink(link: HTMLElement): Promise<void> {
  const parsed = checkFromDataset(link.dataset);
  if (!parsed.ok) {
    ui.notifications.error(format(parsed.error.key, { ...parsed.error.data }));
    return;
  }
  const { score, intensity, label } = parsed.value;
  await rollCheckLink(score, intensity?.value ?? null, label);
}

/** The links' actions, ApplicationV2-shaped, run by the system's click dispatcher (ui/click-actions.ts). */
export const TABLE_LINK_ACTIONS: ClickActions<undefined> = {
  [LINK_ACTION]: (_event, target) => rollLink(target),
  [CHECK_ACTION]: (_event, target) => checkLink(target),
};

/** Enter or Space on a focused link acts as a click does (the link is a role="button"). */
function onKeyDown(this: HTMLElement, event: KeyboardEvent): void {
  if (event.key !== "Enter" && event.key !== " ") return;
  event.preventDefault();
  void (this.dataset.action === CHECK_ACTION ? checkLink(this) : rollLink(this));
}

/**
 * Wires a rendered roll link (the enricher's `onRender`): `element` is the element Foundry
 * wraps the enriched content in; the link inside gets its own listeners, wherever its window
 * lives. Its click stops at the link, so the window around it (a journal, the chat log) does
 * not also act on the link's `data-action`.
 */
export function activateTableLink(element: HTMLElement, options: { readonly signal?: AbortSignal } = {}): void {
  const link = element.classList.contains(LINK_CLASS) ? element : element.querySelector<HTMLElement>(`a.${LINK_CLASS}`);
  if (!link) return;
  const signal = linkWiring(link, options.signal);
  listenForActions(link, TABLE_LINK_ACTIONS, undefined, { stopPropagation: true, signal });
  link.addEventListener("keydown", onKeyDown, { signal });
}

/** Each link's current listeners, removed by aborting. */
const WIRING = new WeakMap<HTMLElement, AbortController>();

/**
 * The signal a link's listeners are added with: a second `onRender` of the same link (a window
 * popped out and back) first removes the listeners of the first, so one click is one roll; and
 * v14's own `signal` (its `onRender(element, { signal })`), when aborted, removes them too.
 */
function linkWiring(link: HTMLElement, given: AbortSignal | undefined): AbortSignal {
  WIRING.get(link)?.abort();
  const own = new AbortController();
  WIRING.set(link, own);
  if (given) {
    if (given.aborted) own.abort();
    else given.addEventListener("abort", () => { own.abort(); }, { once: true });
  }
  return own.signal;
}

/** The enricher's id: Foundry calls `onRender` only for an enricher with an id (TextEditorEnricherConfig, v13 and v14). */
export const ENRICHER_ID = "case.tableRoll";

/** The enricher config with the `id` the v13 type package leaves out (Draw Steel's v13 enrichers set it too). */
type EnricherWithId = (typeof CONFIG.TextEditor.enrichers)[number] & { readonly id: string };

/** Registers the enricher (call in init). */
export function registerEnrichers(): void {
  const config: EnricherWithId = { id: ENRICHER_ID, pattern: TABLE_COMMAND_PATTERN, enricher: enrichTableCommand, onRender: activateTableLink };
  CONFIG.TextEditor.enrichers.push(config);
}
