/**
 * The "other combat results" of [001] the attack card did not yet finish (CASE-RULES §5, §6):
 * Break on a grab, the Damage result of a catch (an object or a person), catching a falling
 * ally, Reversal on an escape, and Mercy Bullets [000]. Pure decisions; the dice come in.
 */
import { isHit, strengthAction, type AttackResult, type AttackRulings, type HoldState, type StrengthContestRoll } from "./attacks";
import { NO_ATTACK_OVERRIDES } from "./attacks/rulings";
import { assertBooleanValue, assertObject, assertOneOfValues } from "./checks";
import { stunResult, stunTurns } from "./consequences";
import { catchResult, escapeResult, type CatchResult, type EscapeResult } from "./defences";
import { resolveAction } from "./actions";
import { impactStrike } from "./impacts";
import type { Mover } from "./collisions";
import type { Color, UniversalTable } from "./universal-table";

// ── Break ─────────────────────────────────────────────────────────────────────────────────────

/** What a Break result does to the grabbed item. */
export interface BreakRoll extends StrengthContestRoll {
  /** The grabber has the item either way ("The grabber grabbed the item in question"). */
  readonly taken: true;
  /** The Strength ACTION succeeded: the item breaks (or goes off, or hampers the grabber, the Judge says how). */
  readonly breaks: boolean;
}

/**
 * The Break result of a grab [001]: "The grabber grabbed the item in question, but he or she
 * must roll a Strength ACTION against the MS of the item. If their Strength overcomes the MS of
 * said object, it may be broken, or may otherwise hamper the grabber's activities." `die` on the
 * grabber's Str (mgt) column against the material strength as intensity.
 */
export function breakRoll(strength: number, materialStrength: number, die: number, table?: UniversalTable): BreakRoll {
  const roll = strengthAction(strength, materialStrength, die, table);
  return { ...roll, taken: true, breaks: roll.success };
}

// ── Catch damage ──────────────────────────────────────────────────────────────────────────────

/** What was caught: an object (its material strength) or a living being. */
export const CAUGHT_KINDS = ["object", "person"] as const;
export type CaughtKind = (typeof CAUGHT_KINDS)[number];

/**
 * [RULING] Whose charge a Damage result on a caught person is. [000]: "Treat the catch as a
 * damage-inflicting attack on the object or character being caught"; [001]: "If catching a
 * living being, this maneuver may instead damage the caught entity, per a charging attack!" So
 * the catcher's catch is the charge: the catcher's Endurance or body armor, +2 per area the
 * caught one fell or flew (the speed they meet at), through the caught one's body armor, by the
 * one impact rule; the caught one's armor rebounds onto the catcher as in every charge. ("caught"
 * would make the caught one the charger instead, as a fall on to the catcher.)
 */
export const CATCH_DAMAGE_CHARGER = "catcher" as "catcher" | "caught";

/** An object caught on a Damage result. */
export interface CaughtObject {
  readonly caught: "object";
  /** The catcher's Str (mgt) rank number. */
  readonly strength: number;
  readonly materialStrength: number;
  /** The d100 of the Strength ACTION. */
  readonly die: number;
  readonly table?: UniversalTable;
}

/** A person caught on a Damage result. */
export interface CaughtPerson {
  readonly caught: "person";
  readonly catcher: Mover;
  /** The caught one's Endurance and body armor. */
  readonly person: Mover;
  /** Whole areas the caught one fell or flew before the catch, at least 1. */
  readonly areas: number;
}

/** The Damage result on an object: the Strength ACTION, and whether the object is damaged. */
export interface ObjectCatchDamage extends StrengthContestRoll {
  readonly caught: "object";
  /** The Strength ACTION succeeded against the material strength: damaged or destroyed (the Judge says which). */
  readonly damaged: boolean;
}

/** The Damage result on a person: the impact's damage and who takes what. */
export interface PersonCatchDamage {
  readonly caught: "person";
  /** The charge's damage (the one impact rule's) of whoever is the charger ({@link CATCH_DAMAGE_CHARGER}). */
  readonly damage: number;
  readonly toCaught: number;
  readonly toCatcher: number;
}

/**
 * The catch "damage" result (a yellow Catch) [001]: "The catching individual must make a Strength
 * ACTION against the MS of the object to determine if it was damaged or destroyed. If catching a
 * living being, this maneuver may instead damage the caught entity, per a charging attack!"
 * ({@link CATCH_DAMAGE_CHARGER}).
 */
export function catchDamage(input: CaughtObject, rulings?: Partial<AttackRulings>): ObjectCatchDamage;
export function catchDamage(input: CaughtPerson, rulings?: Partial<AttackRulings>): PersonCatchDamage;
export function catchDamage(input: CaughtObject | CaughtPerson, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): ObjectCatchDamage | PersonCatchDamage {
  assertObject(input, "catch");
  assertOneOfValues(input.caught, CAUGHT_KINDS, "whatWasCaught");
  if (input.caught === "object") {
    const roll = strengthAction(input.strength, input.materialStrength, input.die, input.table);
    return { ...roll, caught: "object", damaged: roll.success };
  }
  assertObject(input.catcher, { input: "catcher" });
  assertObject(input.person, { input: "caughtPerson" });
  const [charger, struck] = CATCH_DAMAGE_CHARGER === "catcher" ? [input.catcher, input.person] : [input.person, input.catcher];
  const out = impactStrike({ target: "character", areas: input.areas, endurance: charger.endurance, bodyArmor: charger.bodyArmor, targetArmor: struck.bodyArmor }, rulings);
  return CATCH_DAMAGE_CHARGER === "catcher"
    ? { caught: "person", damage: out.damage, toCaught: out.toTarget, toCatcher: out.rebound }
    : { caught: "person", damage: out.damage, toCaught: out.rebound, toCatcher: out.toTarget };
}

// ── Catching a falling ally ───────────────────────────────────────────────────────────────────

/**
 * [RULING] A falling ally who strikes the would-be catcher (a white catch, an auto-hit) stops
 * there: [000] "this is as if the object made a charging attack against the character at the
 * speed of the fall", and the body it struck is what was "under the character" [001], so there
 * is no second impact against the ground.
 */
export const AUTO_HIT_ENDS_FALL = true as boolean;

/** A falling ally, the one trying to catch them, and the ground below. */
export interface FallingAllyInput {
  /** The catcher's Agy (bal) roll colour (a character of every Agility may try to catch a falling character [000]). */
  readonly catchColor: Color;
  /** Whole areas fallen before the catch (or the ground), at least 1. */
  readonly areasFallen: number;
  readonly faller: Mover;
  readonly catcher: Mover;
  /** The ground's material strength, for a missed catch. */
  readonly groundMaterialStrength: number;
}

/** What happens to a falling ally and their catcher. */
export interface FallingAllyOutcome {
  readonly result: CatchResult;
  /** The ally is held and set down (yellow, red). */
  readonly caught: boolean;
  /** Damage to the falling ally, before anything else. */
  readonly toFaller: number;
  /** Damage to the catcher. */
  readonly toCatcher: number;
}

/**
 * Catching a falling ally [000, 001], every branch by the one impact rule: white (auto-hit) the
 * fall is a charge by the faller into the catcher ({@link AUTO_HIT_ENDS_FALL}); green (miss) the
 * ally falls on to the ground (a charge against it); yellow (Damage) caught, with
 * {@link catchDamage} on a person; red (Catch) "it may be safely set down without further risk".
 */
export function catchFallingAlly(input: FallingAllyInput, rulings: Partial<AttackRulings> = NO_ATTACK_OVERRIDES): FallingAllyOutcome {
  assertObject(input, { input: "catchingAFallingAlly" });
  assertObject(input.faller, { input: "fallingAlly" });
  assertObject(input.catcher, { input: "catcher" });
  const result = catchResult(input.catchColor);
  const areas = input.areasFallen;
  switch (result) {
    case "autoHit": {
      const hit = impactStrike({ target: "character", areas, endurance: input.faller.endurance, bodyArmor: input.faller.bodyArmor, targetArmor: input.catcher.bodyArmor }, rulings);
      const ground = AUTO_HIT_ENDS_FALL ? 0 : impactStrike({ target: "ground", areas, ...input.faller, targetArmor: input.groundMaterialStrength }, rulings).rebound;
      return { result, caught: false, toFaller: hit.rebound + ground, toCatcher: hit.toTarget };
    }
    case "miss": {
      const fall = impactStrike({ target: "ground", areas, endurance: input.faller.endurance, bodyArmor: input.faller.bodyArmor, targetArmor: input.groundMaterialStrength }, rulings);
      return { result, caught: false, toFaller: fall.rebound, toCatcher: 0 };
    }
    case "caughtDamaged": {
      const hurt = catchDamage({ caught: "person", catcher: input.catcher, person: input.faller, areas }, rulings);
      return { result, caught: true, toFaller: hurt.toCaught, toCatcher: hurt.toCatcher };
    }
    case "caught":
      return { result, caught: true, toFaller: 0, toCatcher: 0 };
  }
}

// ── Reversal on an escape ─────────────────────────────────────────────────────────────────────

/** What held the escapee: a grapple (a character's hold) or an equivalent power (telekinesis). */
export const HOLD_SOURCES = ["grapple", "power"] as const;
export type HoldSource = (typeof HOLD_SOURCES)[number];

/** The escapee's choice on a red Escape: reverse the hold, or break loose and act. */
export const REVERSAL_CHOICES = ["reverse", "loose"] as const;
export type ReversalChoice = (typeof REVERSAL_CHOICES)[number];

/**
 * [RULING] A reversal puts the former holder in the same hold the escapee was in (a partial
 * hold stays partial, a full hold full): [001] "reverse the hold they were previously held in".
 * Keeping the new hold is the escapee's action this turn; breaking loose instead leaves "one
 * action of their choice during that turn".
 */
export const REVERSAL_KEEPS_HOLD_KIND = true as boolean;

/** An escape roll and the escapee's choice. */
export interface EscapeInput {
  readonly color: Color;
  /** The hold the escapee is in. */
  readonly hold: Exclude<HoldState, "none">;
  readonly source: HoldSource;
  /** On a red result: reverse or break loose. */
  readonly choice: ReversalChoice;
  /** The escapee is "physically able" to hold the other (the Judge's call). */
  readonly ableToHold: boolean;
}

/** What an escape roll leaves. */
export interface EscapeOutcome {
  readonly result: EscapeResult;
  /** The escapee is out of the hold. */
  readonly free: boolean;
  /** The hold the former holder is now in ("none" unless reversed). */
  readonly formerHolderHold: HoldState;
  /** The escapee may still take one action this turn. */
  readonly actsThisTurn: boolean;
}

/**
 * An escape [001], Reversal included: white or green fail; yellow free, "they may not act this
 * turn, but can on the next"; red "a reversal of the hold, and that the escapee is now the
 * grappler, if they so choose" — or "they may simply push or kick themselves loose, and may
 * instead engage in one action of their choice during that turn". Against a power's hold
 * there is no reversal ("save for the application of a reversal"): red breaks loose.
 */
export function escapeOutcome(input: EscapeInput): EscapeOutcome {
  assertObject(input, "escape");
  assertOneOfValues(input.hold, ["partialHold", "fullHold"] as const, "holdEscapedFrom");
  assertOneOfValues(input.source, HOLD_SOURCES, "whatHoldsTheEscapee");
  assertOneOfValues(input.choice, REVERSAL_CHOICES, "reversalChoice");
  assertBooleanValue(input.ableToHold, { input: "ableToHold" });
  const result = escapeResult(input.color);
  if (result === "fail") return { result, free: false, formerHolderHold: "none", actsThisTurn: false };
  if (result === "escape") return { result, free: true, formerHolderHold: "none", actsThisTurn: false };
  const reverses = input.choice === "reverse" && input.ableToHold && input.source === "grapple";
  if (!reverses) return { result, free: true, formerHolderHold: "none", actsThisTurn: true };
  return { result, free: true, formerHolderHold: REVERSAL_KEEPS_HOLD_KIND ? input.hold : "partialHold", actsThisTurn: false };
}

// ── Mercy Bullets ─────────────────────────────────────────────────────────────────────────────

/**
 * [RULING] The Endurance FEAT of Mercy Bullets [000: "Some specialized weapons inflict no damage,
 * but instead call for an Endurance FEAT (Mercy Bullets)"]: the target's End (res) against the
 * weapon's rank as intensity (the classic FASERIP reading); a failure puts the target out as a
 * white Stun? does (1d10 turns), a success shrugs it off. No Slam?, Stun? or Kill? check follows.
 */
export const MERCY_FAILURE_STUN: Color = "white";

/** A Mercy Bullet's hit and the target's FEAT. */
export interface MercyBulletsInput {
  /** The to-hit result against the target. */
  readonly result: AttackResult;
  readonly weaponRank: number;
  /** The target's End (res) rank number. */
  readonly endurance: number;
  /** The d100 of the Endurance FEAT. */
  readonly die: number;
  /** The d10 of the turns out, needed when the FEAT fails. */
  readonly d10?: number;
  readonly table?: UniversalTable;
}

/** What a Mercy Bullet does. */
export interface MercyBullets {
  readonly hit: boolean;
  /** Always 0: "no damage". */
  readonly damage: 0;
  /** The Endurance FEAT's colour, or null on a miss. */
  readonly color: Color | null;
  readonly resisted: boolean;
  /** Turns the target is out (0 when missed or resisted). */
  readonly turnsOut: number;
}

/** Mercy Bullets [000] ({@link MERCY_FAILURE_STUN}). RangeError/TypeError for bad input. */
export function mercyBullets(input: MercyBulletsInput): MercyBullets {
  assertObject(input, { input: "mercyBullets" });
  if (!isHit(input.result)) return { hit: false, damage: 0, color: null, resisted: true, turnsOut: 0 };
  const feat = resolveAction({ value: input.endurance, roll: input.die, intensity: input.weaponRank, ...(input.table ? { table: input.table } : {}) });
  if (feat.success) return { hit: true, damage: 0, color: feat.color, resisted: true, turnsOut: 0 };
  return { hit: true, damage: 0, color: feat.color, resisted: false, turnsOut: stunTurns(stunResult(MERCY_FAILURE_STUN), input.d10) };
}
