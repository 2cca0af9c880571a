/**
 * What the flow batches make and expect, worked out by the rules (pure: no Foundry, no DOM).
 * The Foundry halves (areas.ts, effects.ts, builder.ts, karma.ts, rest.ts, impact.ts,
 * regeneration.ts, first-aid.ts, slam.ts, clear-chat.ts …) create these documents, read what
 * the world did, and compare it here; test/foundry/self-test/self-test.test.ts checks every function.
 */
import {
  advance,
  applyScoreChanges,
  effectiveEndurance,
  healthAfterRest,
  lostRanksAfterRest,
  mayAid,
  parseChangeValue,
  regenerateAtWrapUp,
  resolveImpact,
  applyDamageToHealth,
  type AidVerdict,
  type AreaDefinition,
  type CareLevel,
  type GridPoint,
  type RecoveryRulings,
  type ScoreChangeMode,
  type SlamMove,
} from "../../rules/index";

// ── area attacks ────────────────────────────────────────────────────────────────────────

/**
 * The area batch's board, in grid squares: a burst of radius 1 aimed at (5, 5) covers the
 * squares (4…6, 4…6); two targets stand inside, one outside, the attacker far off.
 */
export const AREA_CASE = {
  area: { shape: "burst", radius: 1, explosive: false } satisfies AreaDefinition,
  attacker: { x: 1, y: 1 },
  aim: { x: 5, y: 5 },
  inside: [
    { x: 5, y: 5 },
    { x: 6, y: 4 },
  ],
  outside: [{ x: 8, y: 5 }],
} as const;

/** What is wrong with an area card's rows (token UUIDs) against who stood inside and outside (empty when right). */
export function areaRowProblems(rows: readonly string[], inside: readonly string[], outside: readonly string[]): string[] {
  const problems: string[] = [];
  for (const uuid of inside) if (!rows.includes(uuid)) problems.push(`${uuid} stood inside and has no row`);
  for (const uuid of outside) if (rows.includes(uuid)) problems.push(`${uuid} stood outside and has a row`);
  if (new Set(rows).size !== rows.length) problems.push("a token has two rows");
  return problems;
}

// ── Active Effects ──────────────────────────────────────────────────────────────────────

/** The effects batch's hero: Good Strength, Excellent Endurance. */
export const EFFECT_HERO = { abilities: { strength: { value: 10 }, endurance: { value: 20 } } } as const;

/** One change, as CASE reads it (the Foundry half turns `mode` into this version's form). */
export interface EffectChangeCase {
  readonly key: string;
  readonly mode: ScoreChangeMode;
  readonly value: string;
}

/** The changes: an ability (an effect on the actor), a protection (on the actor), and `@rank` (on a power). */
export const EFFECT_CHANGES = {
  ability: { key: "system.abilities.strength.value", mode: "add", value: "20" },
  protection: { key: "system.protection.physical", mode: "upgrade", value: "remarkable" },
  rank: { key: "system.abilities.endurance.value", mode: "upgrade", value: "@rank" },
} as const satisfies Record<string, EffectChangeCase>;

/** The rank of the power that carries the `@rank` effect, then the rank it is raised to. */
export const EFFECT_POWER_RANKS = [40, 50] as const;

/** One score after one change, by the rules (`@rank` standing for `ownRank`). */
function changed(base: number, change: EffectChangeCase, ownRank: number | null = null): number {
  return applyScoreChanges(base, [{ mode: change.mode, value: parseChangeValue(change.value, ownRank) }]);
}

/** What the hero reads once the effects apply: Strength, physical protection, and Endurance at each power rank. */
export function expectedEffects(): { strength: number; physical: number; endurance: readonly number[] } {
  return {
    strength: changed(EFFECT_HERO.abilities.strength.value, EFFECT_CHANGES.ability),
    physical: changed(0, EFFECT_CHANGES.protection),
    endurance: EFFECT_POWER_RANKS.map((rank) => changed(EFFECT_HERO.abilities.endurance.value, EFFECT_CHANGES.rank, rank)),
  };
}

// ── the character builder ────────────────────────────────────────────────────────────────

/** What is wrong with a power the builder took from the pack: its rank in the pack, in the build, and on the written item. */
export function builderRankProblems(packRank: number | null, picked: number | null, written: number | null): string[] {
  if (packRank === null) return ["the pack's power has no rank"];
  const problems: string[] = [];
  if (picked !== packRank) problems.push(`the builder offered rank ${String(picked)}, the pack says ${String(packRank)}`);
  if (written !== packRank) problems.push(`the hero's power has rank ${String(written)}, the pack says ${String(packRank)}`);
  return problems;
}

// ── the Karma tab ────────────────────────────────────────────────────────────────────────

/** The award the Karma batch gives (enough for an advance), and what goes into the group pool and back out. */
export const KARMA_CASE = { award: 200, reason: "CASE self-test award", ability: "fighting", from: 10, step: "number", pool: 10 } as const;

/** What an advance of the batch's ability costs and gives, from a Karma balance (rules karma.ts `advance`). */
export function expectedAdvance(balance: number): { rank: number; cost: number; balance: number } {
  const result = advance(balance, { kind: "ability", from: KARMA_CASE.from, step: KARMA_CASE.step }, "2000-01-01T00:00:00Z");
  if (result.rank === null) throw new RangeError("An ability's advance has a rank.");
  return { rank: result.rank, cost: result.cost, balance: result.balance };
}

// ── rest ────────────────────────────────────────────────────────────────────────────────

/** The rest batch's hero: hurt, one Endurance rank lost; a week's rest without care (a lost rank comes back in a week: rules recovery.ts). */
export const REST_CASE = { hero: { abilities: { endurance: { value: 20 } }, health: { value: 5 }, lostEnduranceRanks: 1 }, days: 7, care: "none" } as const satisfies {
  hero: object;
  days: number;
  care: CareLevel;
};

/** Health and lost Endurance ranks after the rest, by the rules and the world's recovery rulings. */
export function expectedRest(
  character: { readonly health: number; readonly max: number; readonly enduranceBeforeLoss: number; readonly lost: number },
  rulings: RecoveryRulings,
): { health: number; lost: number } {
  const endurance = effectiveEndurance(character.enduranceBeforeLoss, character.lost).value;
  const before = Math.min(Math.max(character.health, 0), character.max);
  return {
    health: healthAfterRest(before, character.max, endurance, REST_CASE.days, REST_CASE.care, rulings),
    lost: lostRanksAfterRest(character.lost, REST_CASE.days, REST_CASE.care, rulings),
  };
}

// ── impacts ─────────────────────────────────────────────────────────────────────────────

/** A fall of three areas onto Incredible ground, for a hero of Amazing Endurance and no armor. */
export const IMPACT_CASE = { hero: { abilities: { endurance: { value: 50 } } }, impact: { kind: "fall", areas: 3, materialStrength: 40 } } as const;

/** The rebound and the Health it leaves (rules impacts.ts, no body armor). */
export function expectedImpact(endurance: number, health: number, max: number): { rebound: number; health: number } {
  const outcome = resolveImpact({ ...IMPACT_CASE.impact, endurance, bodyArmor: 0 });
  return { rebound: outcome.rebound, health: applyDamageToHealth(Math.min(health, max), max, outcome.rebound).health };
}

// ── regeneration ─────────────────────────────────────────────────────────────────────────

/** A hurt hero with an Incredible Regeneration power. */
export const REGENERATION_CASE = { health: 10, power: { rank: 40, regeneration: true, active: true } } as const;

/** Health after one wrap-up (rules recovery.ts), by the world's "turns for Regeneration" ruling. */
export function expectedRegeneration(health: number, max: number, regenerationTurns: number): number {
  return regenerateAtWrapUp(health, max, REGENERATION_CASE.power.rank, { regenerationTurns });
}

// ── first aid ───────────────────────────────────────────────────────────────────────────

/** The talent the aider has (rules first-aid.ts FIRST_AID_TALENTS). */
export const FIRST_AID_TALENT = "First Aid";

/** The rules' verdict for the batch's aider (a character who may act, with the talent) on a dying one. */
export function expectedAid(adjacent: boolean): AidVerdict {
  return mayAid({ kind: "character", self: false, canAct: true, hasFirstAid: true, adjacent }, { dying: true, stunned: false, dead: false });
}

// ── slams ───────────────────────────────────────────────────────────────────────────────

/** How many attacks the slam batch makes at most for a slam that moves the token (each one deleted afterwards). */
export const MAX_SLAM_TRIES = 12;

/** What is wrong with a slammed token's move (pixels before and after) against the move the card recorded. */
export function slamMoveProblems(before: GridPoint, after: GridPoint, recorded: SlamMove | null, gridSize: number): string[] {
  if (recorded === null) return ["the card recorded no move"];
  const squares = Math.max(Math.abs(after.x - before.x), Math.abs(after.y - before.y)) / gridSize;
  return squares === recorded.areas ? [] : [`the token went ${String(squares)} squares, the card says ${String(recorded.areas)}`];
}

// ── Clear Chat Log ───────────────────────────────────────────────────────────────────────

/** Why the Clear Chat Log batch will not clear this log: it holds messages the batch did not make (null when it may). */
export function clearChatRefusal(messageIds: readonly string[], made: readonly string[]): string | null {
  const others = messageIds.filter((id) => !made.includes(id)).length;
  return others === 0
    ? null
    : `The chat log holds ${String(others)} message(s) this batch did not make, and Clear Chat Log deletes every one: run this batch in a test world whose chat log is empty.`;
}

/** What the GM's turn record holds for the Clear Chat Log batch: whether the NPC's secret declaration is known, and the steps back. */
export interface TurnRecordView {
  readonly npcDeclared: boolean;
  readonly steps: number;
}

/** What Clear Chat Log lost of the GM's turn record (empty when it all survived or came back). */
export function recordLossAfterClear(before: TurnRecordView, after: TurnRecordView): string[] {
  const problems: string[] = [];
  if (before.npcDeclared && !after.npcDeclared) problems.push("the NPC's secret declaration is gone");
  if (after.steps < before.steps) problems.push(`the back-step history went from ${String(before.steps)} steps to ${String(after.steps)}`);
  return problems;
}
