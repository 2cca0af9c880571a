/**
 * Per-test stand-ins for the few Foundry globals the sheets' handlers and hooks touch:
 * `game.i18n` (backed by the real lang/en.json), `ui.notifications` (recorded), and plain
 * fakes of actors and items with only the members our code reads. Installed with
 * vi.stubGlobal, removed with vi.unstubAllGlobals.
 */
import { vi } from "vitest";
import { ApplicationV2 } from "./foundry-double";
import { localize } from "./handlebars";

export interface Notifications {
  info: ReturnType<typeof vi.fn>;
  warn: ReturnType<typeof vi.fn>;
  error: ReturnType<typeof vi.fn>;
}

/** Installs game.i18n (real en.json strings) and ui.notifications; returns the notifications. */
export function stubI18nAndNotifications(extraGame: Record<string, unknown> = {}): Notifications {
  const notifications: Notifications = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  vi.stubGlobal("ui", { notifications });
  vi.stubGlobal("game", {
    i18n: {
      localize: (key: string) => localize(key),
      format: (key: string, data: Record<string, unknown>) => localize(key, data),
    },
    ...extraGame,
  });
  return notifications;
}

/**
 * As {@link stubI18nAndNotifications}, with `texts` read before en.json: a test gives a key a
 * text of its own, so what a user reads can only have come from the localisation (a rules
 * error's English could not produce it). Placeholders are filled as Foundry's format fills them.
 */
export function stubI18nOverriding(texts: Readonly<Record<string, string>>, extraGame: Record<string, unknown> = {}): Notifications {
  const notifications = stubI18nAndNotifications(extraGame);
  const fill = (text: string, data: Record<string, unknown>) => text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in data ? String(data[name]) : whole));
  vi.stubGlobal("game", {
    ...(globalThis as unknown as { game: Record<string, unknown> }).game,
    i18n: {
      localize: (key: string) => texts[key] ?? localize(key),
      format: (key: string, data: Record<string, unknown>) => (key in texts ? fill(texts[key] as string, data) : localize(key, data)),
    },
  });
  return notifications;
}

export interface FakeItem {
  readonly documentName: "Item";
  readonly id: string;
  readonly uuid: string;
  readonly name: string;
  readonly img: string;
  readonly type: string;
  readonly isAttack: boolean;
  readonly isOwner: boolean;
  actor: FakeActor | null;
  parent: FakeActor | null;
  readonly sheet: { render: ReturnType<typeof vi.fn> };
  readonly deleteDialog: ReturnType<typeof vi.fn>;
}

export interface FakeActor {
  readonly documentName: "Actor";
  readonly uuid: string;
  readonly name: string;
  readonly items: Map<string, FakeItem>;
}

export function fakeActor(id = "kestrel", name = "Kestrel"): FakeActor {
  return { documentName: "Actor", uuid: `Actor.${id}`, name, items: new Map() };
}

export function fakeItem(actor: FakeActor | null, id: string, options: { type?: string; isAttack?: boolean; isOwner?: boolean; name?: string } = {}): FakeItem {
  const item: FakeItem = {
    documentName: "Item",
    id,
    uuid: actor ? `${actor.uuid}.Item.${id}` : `Item.${id}`,
    name: options.name ?? id,
    img: `icons/${id}.webp`,
    type: options.type ?? "power",
    isAttack: options.isAttack ?? false,
    isOwner: options.isOwner ?? true,
    actor,
    parent: actor,
    // The item's sheet is an ApplicationV2 (the double's class), as CASE's item sheet is.
    sheet: Object.assign(new ApplicationV2(), { render: vi.fn() }),
    deleteDialog: vi.fn(() => Promise.resolve(true)),
  };
  actor?.items.set(id, item);
  return item;
}

/** A clicked element as an action handler sees it: its dataset, and its row (via closest). */
export function fakeTarget(dataset: Record<string, string>, row: Record<string, string> | null = null): HTMLElement {
  return {
    dataset,
    closest: (selector: string) => (row && selector === "[data-item-id]" ? { dataset: row } : null),
  } as unknown as HTMLElement;
}

export function fakeClick(shiftKey = false): PointerEvent {
  return { shiftKey } as PointerEvent;
}

/** Waits for promises a synchronous hook handler started. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
