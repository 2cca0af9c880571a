/**
 * What the GM reads of a target when an attack is made: its protection sources (armor, protective
 * powers, Active Effects), the armor its exchange row carries against the attack, its snapshot
 * (the scores the defences roll on), and the foe bonus its owner's flag claims (display only).
 */
import { armorApplies, bestProtection, chargerBodyArmor, type ArmorPiece, type AttackCode, type ProtectionSource, type TargetInput } from "../../rules/index";
import { actorFromUuid, isCharacter, isItemType } from "../core/guards";
import { foeBonusFlag } from "./foe-bonus";

/**
 * Every source of protection an actor has (CASE-RULES §5, Errata: protective powers count as
 * body armor): its equipped armor items and its powers whose protection is up and gives some,
 * at the protection's own rank or else the power's; and the protection its Active Effects give
 * (`system.effectProtection`, data/actor/character.ts), as one more source.
 * Which of them counts against an attack is the rules' decision (rules/protection.ts).
 */
export function protectionSources(actor: Actor.Implementation): ProtectionSource[] {
  const sources: ProtectionSource[] = [];
  for (const item of actor.items) {
    if (isItemType(item, "armor") && item.system.equipped) {
      sources.push({ name: item.name, origin: "armor", physical: item.system.physical, energy: item.system.energy });
    } else if (isItemType(item, "power")) {
      const p = item.system.protection;
      if (!p.active || (!p.physical && !p.energy && p.against.length === 0)) continue;
      const rank = p.rank ?? item.system.rank;
      const against = Object.fromEntries(p.against.map((code) => [code, rank])) as Partial<Record<AttackCode, number>>;
      sources.push({ name: item.name, origin: "power", physical: p.physical ? rank : 0, energy: p.energy ? rank : 0, against });
    }
  }
  if (isCharacter(actor)) {
    const { physical, energy } = actor.system.effectProtection;
    if (physical > 0 || energy > 0) sources.push({ name: game.i18n.localize("CASE.Effects.ProtectionSource"), origin: "effect", physical, energy });
  }
  return sources;
}

/**
 * The armor an exchange row carries for an attack of type `attack`, from the target's
 * protection sources: against the armor kind that absorbs this attack, the best source against
 * this very attack type (so a Force Field listed against Fo counts for Fo); otherwise the
 * body protection (the best against Ch, the rules' {@link chargerBodyArmor}: what a Full Hold
 * must overcome) and the best energy protection. The exchange then reads the armor kind the
 * attack calls for, exactly as it read worn armor.
 */
export function protectionAgainstAttack(sources: readonly ProtectionSource[], attack: AttackCode): ArmorPiece {
  return {
    body: armorApplies(attack, "body") ? bestProtection(sources, attack).value : chargerBodyArmor(sources),
    energy: armorApplies(attack, "energy") ? bestProtection(sources, attack).value : bestProtection(sources, "En").value,
  };
}

/** The body protection an actor charges with and that soaks a rebound (the best source against Ch). */
export function bodyProtection(actor: Actor.Implementation): number {
  return chargerBodyArmor(protectionSources(actor));
}

/**
 * The bonus `actor`'s flag claims against the foe with this UUID (0 if none): a cache for
 * display, on a document its owner may write. What an attack counts is only what the GM's own
 * note backs (foe-bonus.ts `grantedFoeBonus`).
 */
export function foeBonus(actor: Actor.Implementation, foeUuid: string): number {
  const flag = foeBonusFlag(actor, foeUuid);
  const value = typeof flag === "object" && flag !== null ? (flag as { bonus?: unknown }).bonus : flag;
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : 0;
}

/** A target's snapshot against an attack of type `attack`, or null when the UUID is not a character. */
export async function snapshotTarget(uuid: string, attack: AttackCode): Promise<TargetInput | null> {
  const actor = await actorFromUuid(uuid);
  if (!actor || !isCharacter(actor)) return null;
  const s = actor.system;
  return {
    uuid,
    actorUuid: actor.uuid,
    name: actor.name,
    scores: { "agility.bal": s.score("agility.bal"), "fighting.def": s.score("fighting.def"), "strength.mgt": s.score("strength.mgt"), "endurance.res": s.score("endurance.res") },
    armor: protectionAgainstAttack(protectionSources(actor), attack),
  };
}
