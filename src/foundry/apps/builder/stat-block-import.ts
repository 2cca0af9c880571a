/**
 * Stat-block import (issue 23 item 6): the Judge pastes a FASERIP-style block (the Actors
 * directory's *Import stat block*, or `CONFIG.CASE.api.importStatBlock()`), sees what the reader
 * (rules stat-block.ts) made of it, with each line it did not understand named, and only on
 * *Create NPC* is anything written: one `Actor.create` of an NPC with its powers.
 */
import { ABILITY_KEYS, STAT_BLOCK_MAX_LENGTH, readStatBlock, rankOf, statBlockNpc, type StatBlockNpc, type StatBlockReading } from "../../../rules/index";
import { SYSTEM_PATH } from "../../core/constants";
import { describeError } from "../../core/describe-error";
import { askForm } from "../../ui/dialogs";

export const STAT_BLOCK_PASTE_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/stat-block-paste.hbs`;
export const STAT_BLOCK_PREVIEW_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/stat-block-preview.hbs`;

/** The paste dialog's template data (`text`: what was pasted before, when going back). */
export function statBlockPasteContext(id: string, text = "") {
  return { id, text, maxLength: STAT_BLOCK_MAX_LENGTH };
}

/** The preview's template data: what the NPC will be, what is missing, and every line not read. */
export function statBlockPreviewContext(reading: StatBlockReading) {
  let npc: StatBlockNpc | null = null;
  let problem: string | null = null;
  try {
    npc = statBlockNpc(reading);
  } catch (error) {
    problem = describeError(error);
  }
  const { block } = reading;
  return {
    name: block.name,
    complete: npc !== null,
    problem,
    abilities: ABILITY_KEYS.map((key) => {
      const value = block.abilities[key];
      return { key, labelKey: `CASE.Ability.${key}`, value: value ?? null, rankKey: value === undefined ? null : `CASE.Rank.${rankOf(value).key}` };
    }),
    health: npc?.health ?? null,
    karma: npc?.karma ?? null,
    healthCapped: npc !== null && npc.health.given !== null && npc.health.given > npc.health.max,
    karmaCapped: npc !== null && npc.karma.given !== null && npc.karma.given > npc.karma.max,
    resources: block.resources === null ? null : { value: block.resources, rankKey: `CASE.Rank.${rankOf(block.resources).key}` },
    popularity: block.popularity,
    powers: block.powers.map((p) => ({ name: p.name, rank: p.rank, rankKey: `CASE.Rank.${rankOf(p.rank).key}` })),
    unread: reading.unread.map((u) => ({ line: u.line, text: u.text, reasonKey: `CASE.StatBlock.Unread.${u.reason}` })),
  };
}

/** The NPC's creation data: its abilities, pools and powers, in one document. */
export function npcCreateData(npc: StatBlockNpc) {
  const abilities = Object.fromEntries(ABILITY_KEYS.map((k) => [k, { value: npc.abilities[k] }]));
  return {
    name: npc.name,
    type: "npc" as const,
    system: {
      abilities,
      health: { value: npc.health.value },
      karma: { value: npc.karma.value },
      ...(npc.resources === null ? {} : { resources: npc.resources }),
      ...(npc.popularity === null ? {} : { popularity: npc.popularity }),
    },
    items: npc.powers.map((p) => ({ name: p.name, type: "power" as const, system: { rank: p.rank } })),
  };
}

/**
 * The import: paste, preview, confirm. Resolves to the new NPC, or null when cancelled, when
 * the block is not complete (the user is told what it lacks; nothing is written) or when the
 * user may not create actors.
 */
export async function importStatBlock(text = ""): Promise<Actor.Implementation | null> {
  if (!game.user.can("ACTOR_CREATE")) {
    ui.notifications.error(game.i18n.localize("CASE.StatBlock.NoPermission"));
    return null;
  }
  const render = foundry.applications.handlebars.renderTemplate;
  const pasted = await askForm(game.i18n.localize("CASE.StatBlock.Title"), await render(STAT_BLOCK_PASTE_TEMPLATE, statBlockPasteContext(foundry.utils.randomID(), text)), "CASE.StatBlock.Preview", "fa-solid fa-eye");
  if (!pasted) return null;
  const source = typeof pasted.text === "string" ? pasted.text : "";
  let reading: StatBlockReading;
  try {
    reading = readStatBlock(source);
  } catch (error) {
    ui.notifications.error(game.i18n.format("CASE.Campaign.Invalid", { message: describeError(error) }));
    return null;
  }
  const preview = statBlockPreviewContext(reading);
  const confirmed = await askForm(game.i18n.localize("CASE.StatBlock.PreviewTitle"), await render(STAT_BLOCK_PREVIEW_TEMPLATE, preview), "CASE.StatBlock.Create", "fa-solid fa-user-plus");
  if (!confirmed) return null;
  if (!preview.complete) {
    ui.notifications.error(game.i18n.format("CASE.StatBlock.Incomplete", { problem: preview.problem ?? "" }));
    return null;
  }
  const created = await Actor.implementation.create(npcCreateData(statBlockNpc(reading)));
  if (created) ui.notifications.info(game.i18n.format("CASE.StatBlock.Created", { name: created.name }));
  return created ?? null;
}
