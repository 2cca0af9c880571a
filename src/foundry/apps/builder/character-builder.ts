/**
 * The character builder window (issue 11 item 6): a new hero made at random or on points,
 * every step re-rolled or edited, nothing saved until the player confirms. Opened from the
 * hero sheet's header, the Actors sidebar's "Build a hero" button, or
 * `CONFIG.CASE.api.openCharacterBuilder(actorUuid?)`.
 *
 * It builds onto an actor the user owns (a player may build only their own: Foundry lets an
 * owner update their actor and create its items), or, with no actor, makes a new hero when the
 * user may create actors. Confirming writes once: one actor update and one
 * `createEmbeddedDocuments` (or one `Actor.create` with the items for a new hero). What the
 * window shows and does is builder-context.ts (pure, tested); this is the shell. Loaded on
 * first use: everything else opens it through builder-loader.ts, which also reads the catalogue.
 */
import type { AbilityKey, RollFn } from "../../../rules/index";
import { ABILITY_KEYS } from "../../../rules/index";
import { SYSTEM_PATH } from "../../core/constants";
import { isActorDocument, isCharacter } from "../../core/guards";
import {
  addEntry,
  applyEdits,
  builderContext,
  builderWrite,
  mayConfirm,
  removeEntry,
  reroll,
  rollBuild,
  startBuild,
  type BuilderCatalogue,
  type BuilderState,
  type BuilderTarget,
  type BuilderWrite,
  type RerollStep,
} from "./builder-context";
import { loadBuilderCatalogue } from "./builder-loader";
import { systemPath } from "../templates";
import { refusalText } from "../../ui/error-text";
import { QueryRefusal } from "../../requests/router";

export const BUILDER_TEMPLATE = "templates/apps/character-builder.hbs";
export const BUILDER_CONFIRM_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/builder-confirm.hbs`;

/** What the builder's click handlers need of the window. */
export interface BuilderHost {
  build: BuilderState;
  readonly catalogue: BuilderCatalogue;
  readonly roll: RollFn;
  contactName(n: number): string;
  /** Shows the state again. */
  refresh(): Promise<void>;
  /** Asks, then writes the build (resolves true when written). */
  confirmBuild(): Promise<boolean>;
}

const LISTS = ["powers", "talents", "contacts"] as const;
type List = (typeof LISTS)[number];

function listOf(target: HTMLElement): List {
  const list = target.dataset.list;
  const found = LISTS.find((l) => l === list);
  if (!found) throw new RangeError(`The builder button names no list ("${String(list)}").`);
  return found;
}

function indexOf(target: HTMLElement): number {
  const index = Number(target.dataset.index);
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`The builder button names no row ("${String(target.dataset.index)}").`);
  return index;
}

/** The re-roll a button names (`data-step`, `data-key`, `data-index`). */
export function rerollStepOf(target: HTMLElement): RerollStep {
  const step = target.dataset.step;
  switch (step) {
    case "abilities":
    case "resources":
    case "powers":
    case "talents":
    case "contacts":
      return { step };
    case "ability": {
      const key = ABILITY_KEYS.find((k) => k === target.dataset.key);
      if (!key) throw new RangeError(`The builder button names no ability ("${String(target.dataset.key)}").`);
      return { step, key: key satisfies AbilityKey };
    }
    case "power":
    case "powerRank":
    case "talent":
      return { step, index: indexOf(target) };
    default:
      throw new RangeError(`The builder button names no step ("${String(step)}").`);
  }
}

/** The builder's click actions (`data-action` → handler, run with the window as `this`). */
export const BUILDER_ACTIONS = {
  async builderRollAll(this: BuilderHost) {
    this.build = rollBuild(this.roll, this.catalogue, (n) => this.contactName(n), this.build.name);
    await this.refresh();
  },
  async builderReroll(this: BuilderHost, _event: PointerEvent, target: HTMLElement) {
    this.build = reroll(this.build, rerollStepOf(target), this.roll, this.catalogue, (n) => this.contactName(n));
    await this.refresh();
  },
  async builderAdd(this: BuilderHost, _event: PointerEvent, target: HTMLElement) {
    this.build = addEntry(this.build, listOf(target), this.catalogue, (n) => this.contactName(n));
    await this.refresh();
  },
  async builderRemove(this: BuilderHost, _event: PointerEvent, target: HTMLElement) {
    this.build = removeEntry(this.build, listOf(target), indexOf(target));
    await this.refresh();
  },
  async builderConfirm(this: BuilderHost) {
    if (!mayConfirm(this.build)) return;
    await this.confirmBuild();
  },
} as const;

/** The builder's die: Foundry's uniform random source (CONFIG.Dice.randomUniform, the one its dice use). */
export function foundryRoll(sides: number): number {
  return Math.min(sides, Math.floor(CONFIG.Dice.randomUniform() * sides) + 1);
}

/** What an actor has now, as the builder compares it. */
export function builderTargetOf(actor: Actor.Implementation): BuilderTarget | null {
  if (!isCharacter(actor)) return null;
  const s = actor.system;
  return {
    name: actor.name,
    abilities: Object.fromEntries(ABILITY_KEYS.map((k) => [k, s.abilities[k].value])) as Record<AbilityKey, number>,
    resources: s.resources,
    popularity: s.popularity,
    health: s.health.value,
    karma: s.karma.value,
    items: actor.items.contents.map((i) => ({ name: i.name, type: i.type })),
  };
}

/** May this user build onto this actor? Only a character they own. */
export function mayBuild(actor: Actor.Implementation, user: User.Implementation = game.user): boolean {
  return isCharacter(actor) && actor.testUserPermission(user, "OWNER");
}

function notify(error: unknown): void {
  ui.notifications.error(game.i18n.format("CASE.Builder.Failed", { message: refusalText(error) }));
}

/** The item data a write creates, fetched from the compendiums before anything is written. */
async function itemData(write: BuilderWrite): Promise<Item.CreateData[]> {
  const out: Item.CreateData[] = [];
  for (const c of write.create) {
    if (c.type === "contact") {
      out.push({ name: c.name, type: "contact" });
      continue;
    }
    const doc: unknown = await fromUuid(c.uuid);
    if ((doc as { documentName?: unknown } | null)?.documentName !== "Item") throw new QueryRefusal("stale", game.i18n.format("CASE.Builder.ItemGone", { name: c.name }));
    const data = game.items.fromCompendium(doc as Item.Implementation, { clearFolder: true });
    out.push(c.type === "power" ? { ...data, system: { ...data.system, rank: c.rank } } : data);
  }
  return out;
}

/**
 * Writes a confirmed build: onto `actor` (one update, one createEmbeddedDocuments), or as a new
 * hero. Refused, with a message and nothing written, when the user does not own the actor (or
 * may not create one). Resolves to the actor written, or null.
 */
export async function writeBuild(state: BuilderState, actor: Actor.Implementation | null): Promise<Actor.Implementation | null> {
  if (actor ? !mayBuild(actor) : !game.user.can("ACTOR_CREATE")) {
    ui.notifications.error(game.i18n.localize(actor ? "CASE.Builder.NotYours" : "CASE.Builder.MayNotCreate"));
    return null;
  }
  const write = builderWrite(state, actor ? builderTargetOf(actor) : null);
  try {
    const items = await itemData(write);
    if (actor) {
      await actor.update(write.update);
      if (items.length > 0) await actor.createEmbeddedDocuments("Item", items);
      return actor;
    }
    const name = state.name || game.i18n.localize("CASE.Builder.NewHero");
    const created = await Actor.implementation.create({ ...foundry.utils.expandObject({ ...write.update, name, type: "hero" }), items } as Actor.CreateData);
    return created ?? null;
  } catch (error) {
    notify(error);
    return null;
  }
}

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

type RenderOptions = Parameters<InstanceType<typeof ApplicationV2>["_prepareContext"]>[0];

export class CharacterBuilder extends HandlebarsApplicationMixin(ApplicationV2) implements BuilderHost {
  static override DEFAULT_OPTIONS = {
    classes: ["case", "sheet", "case-builder-window"],
    tag: "form",
    window: { title: "CASE.Builder.Title", icon: "fa-solid fa-user-plus", resizable: true },
    position: { width: 720, height: 760 },
    form: { handler: CharacterBuilder.#onChange, submitOnChange: true, closeOnSubmit: false },
    actions: BUILDER_ACTIONS,
  };

  static override PARTS = {
    builder: { template: systemPath(BUILDER_TEMPLATE), scrollable: [""] },
  };

  build: BuilderState;
  readonly catalogue: BuilderCatalogue;
  readonly roll: RollFn = foundryRoll;
  /** The actor built onto, or null for a new hero. */
  readonly target: Actor.Implementation | null;

  constructor(target: Actor.Implementation | null, catalogue: BuilderCatalogue) {
    super({ id: `case-builder-${target?.id ?? "new"}` });
    this.target = target;
    this.catalogue = catalogue;
    this.build = startBuild("random", target ? builderTargetOf(target) : null);
  }

  /** The open builders of this client, one per actor (and one for a new hero): opening again brings it to the front. */
  static readonly #open = new Map<string, CharacterBuilder>();

  /** Opens the builder on `target` (null: a new hero), or brings its open window to the front. */
  static async open(target: Actor.Implementation | null): Promise<CharacterBuilder> {
    const key = target?.uuid ?? "new";
    const open = CharacterBuilder.#open.get(key);
    if (open?.rendered) {
      open.bringToFront();
      return open;
    }
    const app = new CharacterBuilder(target, await loadBuilderCatalogue());
    CharacterBuilder.#open.set(key, app);
    await app.render({ force: true });
    return app;
  }

  protected override _onClose(options: Parameters<InstanceType<typeof ApplicationV2>["_onClose"]>[0]) {
    super._onClose(options);
    const key = this.target?.uuid ?? "new";
    if (CharacterBuilder.#open.get(key) === this) CharacterBuilder.#open.delete(key);
  }

  override get title(): string {
    return this.target ? game.i18n.format("CASE.Builder.TitleFor", { name: this.target.name }) : game.i18n.localize("CASE.Builder.Title");
  }

  contactName(n: number): string {
    return game.i18n.format("CASE.Builder.ContactName", { n: String(n) });
  }

  async refresh(): Promise<void> {
    await this.render();
  }

  protected override async _prepareContext(options: RenderOptions) {
    const base = await super._prepareContext(options);
    return { ...base, ...builderContext(this.build, this.catalogue, this.target ? builderTargetOf(this.target) : null) };
  }

  static async #onChange(this: CharacterBuilder, _event: Event | SubmitEvent, _form: HTMLFormElement, formData: foundry.applications.ux.FormDataExtended): Promise<void> {
    this.build = applyEdits(this.build, formData.object, this.catalogue);
    await this.render();
  }

  async confirmBuild(): Promise<boolean> {
    const context = builderContext(this.build, this.catalogue, this.target ? builderTargetOf(this.target) : null);
    const ok = await foundry.applications.api.DialogV2.confirm({
      window: { title: game.i18n.localize("CASE.Builder.ConfirmTitle") },
      content: await foundry.applications.handlebars.renderTemplate(BUILDER_CONFIRM_TEMPLATE, { ...context }),
      rejectClose: false,
    });
    if (ok !== true) return false;
    const written = await writeBuild(this.build, this.target);
    if (!written) return false;
    ui.notifications.info(game.i18n.format("CASE.Builder.Done", { name: written.name }));
    await this.close();
    const sheet = this.target ? null : written.sheet;
    if (sheet instanceof ApplicationV2) await sheet.render({ force: true });
    return true;
  }
}

/**
 * Opens the character builder on the actor `actorUuid` names (a character the user owns), or,
 * without one, on the user's own character, or for a new hero when the user may create actors.
 * A localised error, and no window, otherwise. Resolves to the window, or null.
 */
export async function openCharacterBuilder(actorUuid?: string): Promise<CharacterBuilder | null> {
  let actor: Actor.Implementation | null = null;
  if (actorUuid !== undefined) {
    const doc = await fromUuid(actorUuid);
    if (!isActorDocument(doc)) {
      ui.notifications.error(game.i18n.format("CASE.Builder.NotFound", { uuid: actorUuid }));
      return null;
    }
    actor = doc;
  } else if (!game.user.can("ACTOR_CREATE")) {
    actor = game.user.character ?? null;
  }
  if (actor ? !mayBuild(actor) : !game.user.can("ACTOR_CREATE")) {
    ui.notifications.error(game.i18n.localize(actor ? "CASE.Builder.NotYours" : "CASE.Builder.MayNotCreate"));
    return null;
  }
  return CharacterBuilder.open(actor);
}
