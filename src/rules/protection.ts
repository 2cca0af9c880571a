/**
 * Protection from armor AND protective powers (CASE-RULES §5, Errata: "protective powers count
 * as body armor"). A source declares rank numbers against physical attacks, against energy, and
 * optionally against listed attack types (a Force Field that stops only Fo and Sh, an Energy
 * Resistance against En only, a power that turns blades: EA, ET). For one attack type the best
 * source counts; sources do not add up ({@link PROTECTION_SOURCES_STACK}, the same ruling as
 * {@link ARMOR_STACKS}). Block/Brace protection then combines with it by the existing buddy rule
 * ({@link combineProtection}); charges are absorbed and rebound by body protection
 * ({@link chargeReboundDamage}).
 */
import { ARMOR_STACKS } from "./attack-setup";
import { assertAttackCode, chargeReboundDamage, type AttackCode, type AttackRulings } from "./attacks";
import { armorApplies, damageAfterProtection } from "./damage";
import { combineProtection, type DefenceRulings } from "./defences";
import { assertRankNumber } from "./ranks";
import { assertArray, assertObject, assertOneOfValues, assertText } from "./checks";
import { RulesTypeError } from "./errors";

/** Where a protection comes from: a worn armor item, a power, or Active Effects on the character. The rules treat all alike [Errata]. */
export const PROTECTION_ORIGINS = ["armor", "power", "effect"] as const;
export type ProtectionOrigin = (typeof PROTECTION_ORIGINS)[number];

/** One source of protection as the rules need it. */
export interface ProtectionSource {
  /** Shown on the card ("Kevlar vest", "Force Field"). */
  readonly name: string;
  readonly origin: ProtectionOrigin;
  /** Rank number against the attacks body armor absorbs (BA, EA, BT, ET, Fo, Sh, Ch); 0 for none. */
  readonly physical: number;
  /** Rank number against Energy attacks (En); 0 for none. */
  readonly energy: number;
  /**
   * Rank numbers against listed attack types, on top of the two above: the source counts for
   * that attack type with the better of this and its physical/energy rank.
   */
  readonly against?: Readonly<Partial<Record<AttackCode, number>>>;
}

/**
 * [RULING] Protection sources do not stack: for each attack type the best one counts. Kept equal
 * to {@link ARMOR_STACKS} (several armor items do not stack), and powers count as armor [Errata].
 */
export const PROTECTION_SOURCES_STACK: boolean = ARMOR_STACKS;

/** Throws unless `source` is a well-formed {@link ProtectionSource} (naming the source and field). */
export function assertProtectionSource(source: unknown): asserts source is ProtectionSource {
  assertObject(source, { input: "protectionSource" });
  assertText(source["name"], "protectionSourceName");
  assertOneOfValues(source["origin"], PROTECTION_ORIGINS, "protectionOrigin");
  assertRankNumber(source["physical"] as number, "protectionPhysical");
  assertRankNumber(source["energy"] as number, "protectionEnergy");
  const against = source["against"];
  if (against === undefined) return;
  assertObject(against, { input: "protectionAgainst" });
  for (const [code, value] of Object.entries(against)) {
    assertAttackCode(code);
    assertRankNumber(value as number, "protectionAgainstRank");
  }
}

/** The rank number one source gives against `attack` (0 when it does not protect against it). */
export function sourceProtectionAgainst(source: ProtectionSource, attack: AttackCode): number {
  assertProtectionSource(source);
  assertAttackCode(attack);
  let value = source.against?.[attack] ?? 0;
  if (armorApplies(attack, "body")) value = Math.max(value, source.physical);
  if (armorApplies(attack, "energy")) value = Math.max(value, source.energy);
  return value;
}

/** The protection that counts against one attack type, and which source gave it. */
export interface BestProtection {
  /** Rank number of protection (0 for none). */
  readonly value: number;
  /** Names of the sources that count: the best one, or every protecting one when sources stack. */
  readonly sources: readonly string[];
}

/**
 * The protection against `attack` from `sources` [§5, Errata]: the best source (ties: the first
 * listed), or the sum when `stacks` ({@link PROTECTION_SOURCES_STACK}).
 */
export function bestProtection(sources: readonly ProtectionSource[], attack: AttackCode, stacks: boolean = PROTECTION_SOURCES_STACK): BestProtection {
  assertArray(sources, { input: "protectionSources" });
  assertAttackCode(attack);
  if (typeof stacks !== "boolean") throw new RulesTypeError("inputNotBoolean", { name: "stacks", got: String(stacks) });
  let value = 0;
  const names: string[] = [];
  let bestName: string | null = null;
  for (const source of sources) {
    const v = sourceProtectionAgainst(source, attack);
    if (v === 0) continue;
    if (stacks) {
      value += v;
      names.push(source.name);
    } else if (v > value) {
      value = v;
      bestName = source.name;
    }
  }
  if (!stacks && bestName !== null) names.push(bestName);
  return { value, sources: names };
}

/** The protection a target has against an attack once a Block/Brace is added. */
export interface ProtectionAgainstAttack extends BestProtection {
  /** Protection of a Block/Brace (0 when none was made). */
  readonly defence: number;
  /** What counts: {@link combineProtection} of the sources' value and the Block/Brace [§6 buddy]. */
  readonly total: number;
}

/**
 * The protection that counts against `attack` [§5, §6]: the best source, combined with a
 * Block/Brace protection (`defenceProtection`, 0 for none) by the buddy rule of
 * {@link combineProtection}. Whether the Block/Brace may be made against this attack is the
 * defence rules' decision (defencesAgainst), not this one's.
 */
export function protectionAgainst(
  sources: readonly ProtectionSource[],
  attack: AttackCode,
  defenceProtection = 0,
  rulings: Partial<DefenceRulings> & { readonly stacks?: boolean } = {},
): ProtectionAgainstAttack {
  const best = bestProtection(sources, attack, rulings.stacks ?? PROTECTION_SOURCES_STACK);
  assertRankNumber(defenceProtection, "blockBraceProtection");
  return { ...best, defence: defenceProtection, total: combineProtection(best.value, defenceProtection, rulings) };
}

/** Damage that gets through the target's protection against `attack` [§5, §7]. */
export function damageThroughProtection(
  damage: number,
  sources: readonly ProtectionSource[],
  attack: AttackCode,
  defenceProtection = 0,
  rulings: Partial<DefenceRulings> & { readonly stacks?: boolean } = {},
): number {
  assertRankNumber(damage, "damage");
  return damageAfterProtection(damage, protectionAgainst(sources, attack, defenceProtection, rulings).total);
}

/**
 * The body protection a character charges with [001]: Charging damage is based on "the
 * Endurance or body armor of the attacker, whichever is higher", and protective powers count
 * as body armor [Errata]: the best source against Ch.
 */
export function chargerBodyArmor(sources: readonly ProtectionSource[], stacks: boolean = PROTECTION_SOURCES_STACK): number {
  return bestProtection(sources, "Ch", stacks).value;
}

/** What one charge does once protection is counted. */
export interface ChargeThroughProtection {
  /** Damage the target takes: the charge less the target's protection (and Block) against Ch. */
  readonly toTarget: number;
  /** The target's protection against Ch that counted. */
  readonly targetProtection: number;
  /** Damage rebounding onto the charger [001]: the target's body protection, less the charger's own by ruling. */
  readonly toCharger: number;
}

/**
 * A charge against protection [001, Errata]: the target's body armor or protective power
 * absorbs the charge and rebounds onto the charger ({@link chargeReboundDamage}, whose ruling on
 * the charger's own armor applies). A Block's protection helps the target against the damage
 * but does not rebound [RULING: 001 rebounds "said armor score" only].
 */
export function chargeThroughProtection(
  chargeDamage: number,
  targetSources: readonly ProtectionSource[],
  chargerSources: readonly ProtectionSource[],
  targetDefenceProtection = 0,
  rulings: Partial<DefenceRulings> & Partial<AttackRulings> & { readonly stacks?: boolean } = {},
): ChargeThroughProtection {
  const target = protectionAgainst(targetSources, "Ch", targetDefenceProtection, rulings);
  const charger = chargerBodyArmor(chargerSources, rulings.stacks ?? PROTECTION_SOURCES_STACK);
  return {
    toTarget: damageAfterProtection(chargeDamage, target.total),
    targetProtection: target.total,
    toCharger: chargeReboundDamage(target.value, charger, rulings),
  };
}
