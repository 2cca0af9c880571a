/**
 * Small helpers that write pack text from the rules engine's own data, so descriptions quote
 * the same names, numbers and results the engine uses.
 */
import { ATTACKS, COLORS, RANGE_CS_PER_AREA, formatSubScoreRef, pullRule, rankByKey, type AttackCode, type AttackResult, type PullRule, type RankKey } from "../../../src/rules/index";

/** English names of attack results, as the rules text writes them. */
export const RESULT_NAMES: Readonly<Record<AttackResult, string>> = {
  miss: "Miss",
  hit: "Hit",
  slam: "Slam",
  stun: "Stun",
  kill: "Kill",
  bullseye: "Bullseye",
  take: "Take",
  grab: "Grab",
  break: "Break",
  partialHold: "Partial Hold",
  fullHold: "Full Hold",
};

/** What a pull rule allows, in words. */
export const PULL_TEXT: Readonly<Record<PullRule, string>> = {
  damageOrColor: "damage or colour",
  damage: "damage only",
  color: "colour only",
  none: "no",
};

/** A signed number with a real minus sign: "+2", "−3", "0". */
export function signed(n: number): string {
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${-n}`;
  return "0";
}

/** A column shift in words: "+1 CS", "−2 CS". */
export function cs(n: number): string {
  return `${signed(n)} CS`;
}

/** "Remarkable (30)". */
export function rankLabel(key: RankKey): string {
  const rank = rankByKey(key);
  return `${rank.name} (${rank.number})`;
}

/** The standard rank number of a rank key. */
export function rank(key: RankKey): number {
  return rankByKey(key).number;
}

/** "1 area", "3 areas". */
export function areas(n: number): string {
  return n === 1 ? "1 area" : `${n} areas`;
}

/** A rank-guidance list: what the power or item does at a few ranks. */
export function guidanceList(entries: readonly (readonly [RankKey, string])[]): string {
  const items = entries.map(([key, text]) => `<li><strong>${rankLabel(key)}</strong>: ${text}</li>`).join("");
  return `<h3>Rank guidance</h3><ul>${items}</ul>`;
}

/** One paragraph on how an attack of this type resolves, from the engine's attack table. */
export function attackNote(type: AttackCode, range: number): string {
  const def = ATTACKS[type];
  const results = COLORS.map((c) => `${c} ${RESULT_NAMES[def.results[c]]}`).join(", ");
  const reach = range === 0 ? "touch or melee" : `range ${areas(range)} (${cs(RANGE_CS_PER_AREA)} per area beyond)`;
  const pull = pullRule(type);
  const pulling = pull === "none" ? "It cannot be pulled." : `It may be pulled (${PULL_TEXT[pull]}).`;
  return `<p><strong>Attack:</strong> ${def.name} (${type}), ${reach}. To hit, roll ${formatSubScoreRef(def.rollsOn)}: ${results}. ${pulling}</p>`;
}

/** Whether the attack type lets its wielder pull it at all (the item's `pullable` flag follows this). */
export function pullableFor(type: AttackCode): boolean {
  return pullRule(type) !== "none";
}

/** The area note of an attack that covers an area (rules/areas.ts), or "" for one on chosen targets. */
export function areaNote(area: { readonly shape: "burst" | "line"; readonly radius: number; readonly explosive?: boolean } | undefined): string {
  if (!area) return "";
  const shape = area.shape === "burst" ? `a burst of ${areas(area.radius)} round the aimed square` : `a line ${areas(area.radius)} long from the attacker`;
  const falloff = area.explosive === true ? " It explodes: its damage falls one rank for every area from the centre." : " Everyone in it takes the same damage.";
  return `<p><strong>Area:</strong> ${shape}. Place its template; every token in it is a target, each rolled and defended apart.${falloff}</p>`;
}

/** The `system.attack.area` of a pack power or weapon: none unless it covers an area. */
export function areaSource(area: { readonly shape: "burst" | "line"; readonly radius: number; readonly explosive?: boolean } | undefined): { shape: string; radius: number; explosive: boolean } {
  return area ? { shape: area.shape, radius: area.radius, explosive: area.explosive === true } : { shape: "none", radius: 1, explosive: false };
}
