/**
 * The "Macros" compendium: one-line script macros that call the system's stable API
 * (CONFIG.CASE.api, src/foundry/api/ and reference-api.ts) and nothing else, so they keep
 * working however the system's internals change. Drag one to the hotbar to use it.
 */
import { stableId, stats, type DocumentSource } from "../documents";

export const MACROS_PACK = "macros";

export interface MacroDef {
  readonly name: string;
  readonly img: string;
  /** The script: calls of CONFIG.CASE.api.* only (test/packs checks this). */
  readonly command: string;
}

export const MACROS: readonly MacroDef[] = [
  { name: "Universal Table roll", img: "icons/svg/dice-target.svg", command: "await CONFIG.CASE.api.promptColumnRoll();" },
  { name: "Open the Universal Table", img: "icons/svg/eye.svg", command: "await CONFIG.CASE.api.openUniversalTable();" },
  { name: "Apply damage to selected tokens", img: "icons/svg/blood.svg", command: "await CONFIG.CASE.api.promptDamageToControlled();" },
  { name: "Start a CASE turn", img: "icons/svg/combat.svg", command: "await CONFIG.CASE.api.startCombatTurn();" },
  { name: "Ask the selected tokens for a roll", img: "icons/svg/d20-grey.svg", command: "await CONFIG.CASE.api.promptRollRequest();" },
  { name: "Fall or charge an object (selected tokens)", img: "icons/svg/falling.svg", command: "await CONFIG.CASE.api.promptImpact();" },
  { name: "Award Karma", img: "icons/svg/sun.svg", command: "await CONFIG.CASE.api.promptAwardKarma();" },
  { name: "Heal selected tokens", img: "icons/svg/regen.svg", command: "await CONFIG.CASE.api.promptHeal();" },
  { name: "Rest selected tokens", img: "icons/svg/sleep.svg", command: "await CONFIG.CASE.api.promptRestSelected();" },
  { name: "Import a stat block", img: "icons/svg/book.svg", command: "await CONFIG.CASE.api.importStatBlock();" },
];

/** A script Macro of pack `pack`. */
export function macroDocument(pack: string, def: MacroDef, sort: number): DocumentSource {
  const id = stableId(`${pack}.Macro.${def.name}`);
  return {
    _id: id,
    _key: `!macros!${id}`,
    name: def.name,
    type: "script",
    author: null,
    img: def.img,
    scope: "global",
    command: def.command,
    folder: null,
    sort,
    ownership: { default: 0 },
    flags: {},
    _stats: stats(),
  };
}
