/**
 * The click actions of the character sheets (`data-action` → handler). Each handler runs with
 * the sheet as `this` (ApplicationV2 calls it so) and goes through the system's entry points,
 * so a sheet button, a macro and a canvas drop make the same roll.
 */
import { ABILITY_KEYS, advance, advancementCost, type AbilityKey } from "../../../rules/index";
import { isScoreRef } from "../../../rules/index";
import { isStandingFeat, rollItem, rollScore, rollStandingFeat } from "../../dice/entry-points";
import { askStunt } from "../../dice/stunt";
import { SYSTEM_PATH } from "../../core/constants";
import { fieldOf, isCharacter, isItemType } from "../../core/guards";
import { karmaPoolEnabled, karmaPoolState, recoveryRulings } from "../../core/settings";
import { contributeToGroupPool, drawFromGroupPool } from "../../karma-pool";
import { MAX_REST_DAYS, karmaUpdate, logDate, restOutcome } from "../../actor-writes";
import { karmaPoolDialogContext, learnTalentContext, learnableTalents, readKarmaPoolForm, readLearnTalentForm, readRestForm, restDialogContext } from "./sheet-campaign";
import { makeAttack } from "../../exchange/make-attack";
import { reloadWeapon } from "../../exchange/ammunition";
import { isCharacterItemType, itemRow } from "./item-rows";
import { rowMenuEntries, setSectionFolded, setSummaryOpen, toggleCollapsed, type RowMenuEntry } from "./item-lists";
import { describeError } from "../../core/describe-error";
import { askForm } from "../../ui/dialogs";
import { EFFECT_ACTIONS } from "./effect-actions";
import { loadBuilderCatalogue, openCharacterBuilder } from "../builder/builder-loader";

/** What a handler needs of the sheet it runs on. */
export interface CharacterSheetHost {
  readonly actor: Actor.Implementation;
  readonly isEditable: boolean;
  /** The items whose summary is open in this window (kept across re-renders), when the sheet keeps them. */
  readonly expandedItems?: Set<string>;
}

/** The owned item a button belongs to: its own `data-item-id` or its row's. */
export function itemOfTarget(actor: Actor.Implementation, target: HTMLElement): Item.Implementation | undefined {
  const id = target.dataset.itemId ?? target.closest<HTMLElement>("[data-item-id]")?.dataset.itemId;
  return id === undefined ? undefined : actor.items.get(id);
}

/** `data-action="rollScore" data-score="fighting.off"`: a FEAT on an ability or sub-score. Shift-click skips the dialog. */
export async function onRollScore(this: CharacterSheetHost, event: PointerEvent, target: HTMLElement): Promise<void> {
  const ref = target.dataset.score;
  if (!isScoreRef(ref)) throw new RangeError(`The roll button names no ability or sub-score ("${String(ref)}").`);
  await rollScore(this.actor, ref, { skipDialog: event.shiftKey });
}

/** `data-action="rollItem"`: a FEAT on a power's rank. */
export async function onRollItem(this: CharacterSheetHost, event: PointerEvent, target: HTMLElement): Promise<void> {
  const item = itemOfTarget(this.actor, target);
  if (!item) return;
  await rollItem(item, { skipDialog: event.shiftKey });
}

/** `data-action="stunt"`: a power stunt with this power (dice/stunt.ts). */
export async function onStunt(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  const item = itemOfTarget(this.actor, target);
  if (item) await askStunt(item);
}

/** `data-action="attack"`: an attack with a power or weapon, against the user's targets. */
export async function onAttack(this: CharacterSheetHost, event: PointerEvent, target: HTMLElement): Promise<void> {
  const item = itemOfTarget(this.actor, target);
  if (!item?.isAttack) return;
  await makeAttack(item, { skipDialog: event.shiftKey });
}

/** `data-action="reload"`: reloads a weapon that counts ammunition to its full load (the owner's own update). */
export async function onReload(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  const item = itemOfTarget(this.actor, target);
  if (!item) return;
  await reloadWeapon(item);
}

/** `data-action="editItem"`: opens the item's sheet (ours is an ApplicationV2; a module's may be older). */
export async function onEditItem(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  const sheet = itemOfTarget(this.actor, target)?.sheet;
  if (sheet instanceof foundry.applications.api.ApplicationV2) await sheet.render({ force: true });
  else sheet?.render(true);
}

/** `data-action="deleteItem"`: deletes the item after Foundry's confirmation dialog. */
export async function onDeleteItem(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  if (!this.isEditable) return;
  const item = itemOfTarget(this.actor, target);
  await item?.deleteDialog();
}

/** `data-action="createItem" data-type="power"`: a new item of that type, its sheet opened. */
export async function onCreateItem(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  if (!this.isEditable) return;
  const type = target.dataset.type;
  if (!isCharacterItemType(type)) throw new RangeError(`Cannot create an item of type "${String(type)}".`);
  const cls = Item.implementation;
  await cls.create({ name: cls.defaultName({ type, parent: this.actor }), type }, { parent: this.actor, renderSheet: true });
}

/** `data-action="toggleSection" data-section="power"`: folds or unfolds an item list; this client remembers it. */
export async function onToggleSection(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  const folded = await toggleCollapsed(target.dataset.section ?? "");
  const section = target.closest(".case-item-section");
  if (section) setSectionFolded(section, folded);
}

/** `data-action="toggleSummary"`: opens or closes a row's summary (its key numbers, description and actions). */
export function onToggleSummary(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  const row = target.closest<HTMLElement>("li[data-item-id]");
  const id = row?.dataset.itemId;
  if (row && id !== undefined) {
    const open = setSummaryOpen(row, !row.classList.contains("expanded"));
    if (open) this.expandedItems?.add(id);
    else this.expandedItems?.delete(id);
  }
  return Promise.resolve();
}

/**
 * `data-action="toggleItem" data-field="system.equipped"`: flips a weapon's or armor's
 * Equipped, or a protective power's protection (up or dropped). The field must be the one
 * the item's type has: anything else is refused, nothing written.
 */
export async function onToggleItem(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  if (!this.isEditable) return;
  const item = itemOfTarget(this.actor, target);
  if (!item) return;
  const field = target.dataset.field;
  if ((isItemType(item, "weapon") || isItemType(item, "armor")) && field === "system.equipped") {
    await item.update({ "system.equipped": !item.system.equipped } as Item.UpdateData);
  } else if (isItemType(item, "power") && field === "system.protection.active") {
    await item.update({ "system.protection.active": !item.system.protection.active } as Item.UpdateData);
  } else {
    throw new RangeError(`A ${item.type} has no switch "${String(field)}".`);
  }
}

export const ITEM_CARD_TEMPLATE = `${SYSTEM_PATH}/templates/chat/item-card.hbs`;

/** An item's description, or "" for an item without one. */
function descriptionText(system: unknown): string {
  const description = fieldOf(system, "description");
  return typeof description === "string" ? description : "";
}

/** `data-action="postItem"`: posts the item to chat as a card (its facts and enriched description), as the actor. */
export async function onPostItem(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  const item = itemOfTarget(this.actor, target);
  if (!item) return;
  const description = await foundry.applications.ux.TextEditor.implementation.enrichHTML(
    descriptionText(item.system),
    { relativeTo: item, secrets: false },
  );
  const row = itemRow({ id: item.id, uuid: item.uuid, name: item.name, img: item.img, type: item.type, sort: item.sort, system: item.system }, { description });
  if (!row) return;
  const content = await foundry.applications.handlebars.renderTemplate(ITEM_CARD_TEMPLATE, { actor: this.actor.name, item: row });
  await ChatMessage.implementation.create({ content, speaker: ChatMessage.getSpeaker({ actor: this.actor }) });
}

/** `data-action="duplicateItem"`: a copy of the item on the same character, named as a copy. */
export async function onDuplicateItem(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  if (!this.isEditable) return;
  const item = itemOfTarget(this.actor, target);
  if (!item) return;
  await item.clone({ name: game.i18n.format("CASE.ItemList.CopyOf", { name: item.name }) }, { save: true });
}

export const ADVANCE_CONFIRM_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/advance-confirm.hbs`;
export const REST_DIALOG_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/rest-dialog.hbs`;

/** `data-action="rollFeat" data-feat="resources|popularity"`: a Resources or Popularity FEAT (rules feats.ts). */
export async function onRollFeat(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  const feat = target.dataset.feat;
  if (!isStandingFeat(feat)) throw new RangeError(`The FEAT button names no Resources or Popularity ("${String(feat)}").`);
  await rollStandingFeat(this.actor, feat);
}

/** `data-action="rollUnderworld"` (the Karma tab): a Popularity FEAT asked of the underworld (rules feats.ts `popularityColumnValue`). */
export async function onRollUnderworld(this: CharacterSheetHost): Promise<void> {
  await rollStandingFeat(this.actor, "popularity", "underworld");
}

function isAbilityKey(value: unknown): value is AbilityKey {
  return typeof value === "string" && (ABILITY_KEYS as readonly string[]).includes(value);
}

/**
 * `data-action="advance" data-ability="fighting" data-step="number|rank"`: the owner spends
 * Karma to raise an ability (rules karma.ts `advance`): refused, with nothing spent, when the
 * pool cannot afford it; otherwise, once confirmed, one update raises the ability, lowers the
 * pool and logs it.
 */
export async function onAdvance(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  if (!this.isEditable) return;
  const actor = this.actor;
  const { ability, step } = target.dataset;
  if (!isAbilityKey(ability) || (step !== "number" && step !== "rank")) throw new RangeError(`The advance button names no ability and step ("${String(ability)}", "${String(step)}").`);
  if (!isCharacter(actor)) return;
  // Advancement raises the stored ability, never what effects or lost ranks make of it.
  const from = actor.system.baseAbilities[ability].value ?? actor.system.abilities[ability].value;
  const name = game.i18n.localize(`CASE.Ability.${ability}`);
  const result = await confirmedAdvance(actor.system.karma.value, { kind: "ability", from, step }, name);
  if (!result) return;
  const reason = game.i18n.format("CASE.Advance.Reason", { ability: name, from: String(from), to: String(result.rank) });
  await actor.update(karmaUpdate(actor, { ...result.entry, reason }, { [`system.abilities.${ability}.value`]: result.rank }));
}

/**
 * An advancement priced by the rules and confirmed by the owner: the rules' result, or null when
 * the rules refuse it (the owner is told why, in their language, and nothing is spent) or the
 * owner declines.
 */
async function confirmedAdvance(karma: number, what: Extract<Parameters<typeof advance>[1], { from: number }>, name: string): Promise<ReturnType<typeof advance> | null> {
  let result: ReturnType<typeof advance>;
  try {
    result = advance(karma, what, logDate());
  } catch (error) {
    refused(describeError(error));
    return null;
  }
  const ok = await foundry.applications.api.DialogV2.confirm({
    window: { title: game.i18n.localize("CASE.Advance.Title") },
    content: await foundry.applications.handlebars.renderTemplate(ADVANCE_CONFIRM_TEMPLATE, { ability: name, from: what.from, to: String(result.rank), cost: result.cost }),
    rejectClose: false,
  });
  return ok === true ? result : null;
}

/** Shows why an advancement was refused (`message` in the reader's language). */
function refused(message: string): void {
  ui.notifications.error(game.i18n.format("CASE.Advance.Refused", { message }));
}

/**
 * `data-action="advancePower" data-item-id data-step="number|rank"`: the owner spends Karma to
 * raise a power's rank (rules karma.ts `advance`, the power costs): refused, nothing spent,
 * when the pool cannot afford it; once confirmed, the power's rank is raised, then one actor
 * update lowers the pool and logs it.
 */
export async function onAdvancePower(this: CharacterSheetHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  if (!this.isEditable) return;
  const actor = this.actor;
  const step = target.dataset.step;
  const item = itemOfTarget(actor, target);
  if (!item || !isItemType(item, "power") || (step !== "number" && step !== "rank")) throw new RangeError(`The advance button names no power and step ("${String(target.dataset.itemId)}", "${String(step)}").`);
  if (!isCharacter(actor)) return;
  const from = item.system.rank;
  const result = await confirmedAdvance(actor.system.karma.value, { kind: "power", from, step }, item.name);
  if (!result) return;
  await item.update({ "system.rank": result.rank } as Item.UpdateData);
  await actor.update(karmaUpdate(actor, { ...result.entry, reason: game.i18n.format("CASE.Advance.PowerReason", { name: item.name, from: String(from), to: String(result.rank) }) }));
}

export const LEARN_TALENT_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/learn-talent.hbs`;

/**
 * `data-action="learnTalent"`: the owner spends Karma on a new talent from the Talents
 * compendium (rules karma.ts `advance`, the talent cost): refused, nothing spent, when the
 * pool cannot afford it; otherwise asks which, creates it, then one actor update lowers the
 * pool and logs it.
 */
export async function onLearnTalent(this: CharacterSheetHost): Promise<void> {
  if (!this.isEditable) return;
  const actor = this.actor;
  if (!isCharacter(actor)) return;
  const pool = actor.system.karma.value;
  const cost = advancementCost({ kind: "talent", name: "talent" }).cost;
  if (cost > pool) {
    refused(game.i18n.format("CASE.Advance.TooDear", { cost: String(cost), pool: String(pool) }));
    return;
  }
  const talents = learnableTalents((await loadBuilderCatalogue()).talents, actor.items.contents.filter((i) => i.type === "talent").map((i) => i.name));
  if (talents.length === 0) {
    ui.notifications.warn(game.i18n.localize("CASE.Advance.NoTalentLeft"));
    return;
  }
  const content = await foundry.applications.handlebars.renderTemplate(LEARN_TALENT_TEMPLATE, learnTalentContext(foundry.utils.randomID(), talents, cost, pool));
  const form = await askForm(game.i18n.localize("CASE.Advance.LearnTitle"), content, "CASE.Advance.Learn", "fa-solid fa-graduation-cap");
  if (!form) return;
  const talent = readLearnTalentForm(form, talents);
  if (!talent) {
    ui.notifications.error(game.i18n.localize("CASE.Advance.LearnInvalid"));
    return;
  }
  let result: ReturnType<typeof advance>;
  try {
    result = advance(actor.system.karma.value, { kind: "talent", name: talent.name }, logDate());
  } catch (error) {
    refused(describeError(error));
    return;
  }
  const doc: unknown = await fromUuid(talent.uuid);
  if ((doc as { documentName?: unknown } | null)?.documentName !== "Item") {
    refused(game.i18n.format("CASE.Builder.ItemGone", { name: talent.name }));
    return;
  }
  await actor.createEmbeddedDocuments("Item", [game.items.fromCompendium(doc as Item.Implementation, { clearFolder: true })]);
  await actor.update(karmaUpdate(actor, { ...result.entry, reason: game.i18n.format("CASE.Advance.LearnReason", { name: talent.name }) }));
}

export const KARMA_POOL_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/karma-pool.hbs`;

/** Asks how much Karma to move, then moves it through the GM (karma-pool.ts). */
async function poolAction(host: CharacterSheetHost, action: "contribute" | "draw"): Promise<void> {
  if (!host.isEditable) return;
  const actor = host.actor;
  if (!isCharacter(actor)) return;
  if (!karmaPoolEnabled()) {
    ui.notifications.warn(game.i18n.localize("CASE.KarmaPool.Off"));
    return;
  }
  const total = karmaPoolState().total;
  const content = await foundry.applications.handlebars.renderTemplate(KARMA_POOL_TEMPLATE, karmaPoolDialogContext(foundry.utils.randomID(), actor.name, actor.system.karma.value, total));
  const title = game.i18n.format(action === "contribute" ? "CASE.KarmaPool.ContributeTitle" : "CASE.KarmaPool.DrawTitle", { name: actor.name });
  const form = await askForm(title, content, action === "contribute" ? "CASE.KarmaPool.Contribute" : "CASE.KarmaPool.Draw");
  if (!form) return;
  const amount = readKarmaPoolForm(form);
  if (amount === null) {
    ui.notifications.error(game.i18n.localize("CASE.KarmaPool.InvalidAmount"));
    return;
  }
  await (action === "contribute" ? contributeToGroupPool(actor.uuid, amount) : drawFromGroupPool(actor.uuid, amount));
}

/** `data-action="poolContribute"`: puts some of the hero's Karma into the group pool (through the GM). */
export async function onPoolContribute(this: CharacterSheetHost): Promise<void> {
  await poolAction(this, "contribute");
}

/** `data-action="poolDraw"`: draws Karma from the group pool for the hero (through the GM; the world's draw limit applies). */
export async function onPoolDraw(this: CharacterSheetHost): Promise<void> {
  await poolAction(this, "draw");
}

/**
 * `data-action="rest"`: the owner's rest (rules recovery.ts, by the world's recovery
 * settings): asks the days and the care, then one update of Health and lost Endurance ranks.
 */
export async function onRest(this: CharacterSheetHost): Promise<void> {
  if (!this.isEditable) return;
  const actor = this.actor;
  if (!isCharacter(actor)) return;
  const content = await foundry.applications.handlebars.renderTemplate(REST_DIALOG_TEMPLATE, restDialogContext(foundry.utils.randomID()));
  const form = await askForm(game.i18n.format("CASE.Rest.Title", { name: actor.name }), content, "CASE.Rest.Rest", "fa-solid fa-bed");
  if (!form) return;
  const answer = readRestForm(form);
  if (!answer) {
    ui.notifications.error(game.i18n.format("CASE.Rest.Invalid", { max: String(MAX_REST_DAYS) }));
    return;
  }
  const outcome = restOutcome(actor.system, answer.days, answer.care, recoveryRulings());
  await actor.update({ "system.health.value": outcome.health.after, "system.lostEnduranceRanks": outcome.lostEnduranceRanks.after } as Actor.UpdateData);
  ui.notifications.info(
    game.i18n.format("CASE.Rest.Done", {
      name: actor.name,
      health: String(outcome.health.after - outcome.health.before),
      ranks: String(outcome.lostEnduranceRanks.before - outcome.lostEnduranceRanks.after),
    }),
  );
}

/** `data-action="openBuilder"`: the character builder on this hero (its owner only; character-builder.ts). */
export async function onOpenBuilder(this: CharacterSheetHost): Promise<void> {
  if (!this.isEditable) return;
  await openCharacterBuilder(this.actor.uuid);
}

/** The actions every character sheet declares. */
export const CHARACTER_SHEET_ACTIONS = {
  rollScore: onRollScore,
  rollItem: onRollItem,
  stunt: onStunt,
  attack: onAttack,
  reload: onReload,
  editItem: onEditItem,
  deleteItem: onDeleteItem,
  createItem: onCreateItem,
  toggleSection: onToggleSection,
  toggleSummary: onToggleSummary,
  toggleItem: onToggleItem,
  postItem: onPostItem,
  duplicateItem: onDuplicateItem,
  rollFeat: onRollFeat,
  rollUnderworld: onRollUnderworld,
  advance: onAdvance,
  rest: onRest,
  ...EFFECT_ACTIONS,
  openBuilder: onOpenBuilder,
  advancePower: onAdvancePower,
  learnTalent: onLearnTalent,
  poolContribute: onPoolContribute,
  poolDraw: onPoolDraw,
} as const;

/**
 * The rows' right-click menu on a sheet: each entry runs this table's handler for the summary
 * button of the same action, on the right-clicked row (ContextMenu hands the entry the row).
 */
export function itemRowMenu(host: CharacterSheetHost): RowMenuEntry[] {
  return rowMenuEntries(
    (action) => (row) => CHARACTER_SHEET_ACTIONS[action].call(host, new PointerEvent("contextmenu"), row),
    () => host.isEditable,
  );
}
