import { RulesRangeError, RulesTypeError } from "../errors";
import { assertBoolean, show } from "./phases";
import { MAX_ACTIONS_PER_TURN, MIN_ACTIONS_PER_TURN } from "../actions";
import { ATTACK_CODES, type AttackCode } from "../attacks";
import { DEFENCE_CODES, type DefenceCode } from "../defences";

// ── Declarations ──────────────────────────────────────────────────────────────────────────────
/** What a declaration may name besides its free text: an attack, a defence, a move, or something else. */
export const DECLARED_ACTION_KINDS = ["attack", "defence", "move", "other"] as const;

/** One of {@link DECLARED_ACTION_KINDS}. */
export type DeclaredActionKind = (typeof DECLARED_ACTION_KINDS)[number];

/** [RULING] The longest declaration text, in characters (a table-talk sentence, not an essay). */
export const DECLARATION_TEXT_MAX = 500;

/** A combatant's declared action(s) for the turn [001 Step 1]. */
export interface Declaration {
  /** What the character intends, in the player's words (may be empty when a pick says it all). */
  readonly text: string;
  /** An optional pick of what kind of action it is. */
  readonly kind: DeclaredActionKind | null;
  /** With kind "attack": which attack, if chosen. */
  readonly attack: AttackCode | null;
  /** With kind "defence": which defence, if chosen. */
  readonly defence: DefenceCode | null;
  /** How many actions the character intends to take (more than one needs the extra-action roll). */
  readonly actions: number;
  /** Decided by the Judge for an NPC: hidden from the players [001 Step 1]. */
  readonly secret: boolean;
}

/**
 * Reads a declaration from untrusted data (a form, a query payload) and checks it: text a
 * string of at most {@link DECLARATION_TEXT_MAX} characters (trimmed); kind null or one of
 * {@link DECLARED_ACTION_KINDS}; attack only with kind "attack", defence only with kind
 * "defence"; actions a whole number from 1 to {@link MAX_ACTIONS_PER_TURN}; secret a boolean
 * (default false). RangeError/TypeError naming the field otherwise.
 */
export function parseDeclaration(raw: unknown): Declaration {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new RulesTypeError("turnDeclarationNotObject", { got: show(raw) });
  const r = raw as Record<string, unknown>;
  const text = r.text ?? "";
  if (typeof text !== "string") throw new RulesTypeError("turnDeclarationTextBad", { got: show(text) });
  const trimmed = text.trim();
  if (trimmed.length > DECLARATION_TEXT_MAX) {
    throw new RulesRangeError("turnDeclarationTextLong", { max: DECLARATION_TEXT_MAX, got: trimmed.length });
  }
  const kind = r.kind ?? null;
  if (kind !== null && !(typeof kind === "string" && (DECLARED_ACTION_KINDS as readonly string[]).includes(kind))) {
    throw new RulesRangeError("notOneOf", { field: "turnDeclarationKind", allowed: [...DECLARED_ACTION_KINDS, "null"].join(", "), got: show(kind) });
  }
  const attack = r.attack ?? null;
  if (attack !== null) {
    if (!(typeof attack === "string" && (ATTACK_CODES as readonly string[]).includes(attack))) {
      throw new RulesRangeError("turnUnknownAttack", { got: show(attack), allowed: ATTACK_CODES.join(", ") });
    }
    if (kind !== "attack") throw new RulesRangeError("turnAttackNotKind", { attack });
  }
  const defence = r.defence ?? null;
  if (defence !== null) {
    if (!(typeof defence === "string" && (DEFENCE_CODES as readonly string[]).includes(defence))) {
      throw new RulesRangeError("turnUnknownDefence", { got: show(defence), allowed: DEFENCE_CODES.join(", ") });
    }
    if (kind !== "defence") throw new RulesRangeError("turnDefenceNotKind", { defence });
  }
  const actions = r.actions ?? MIN_ACTIONS_PER_TURN;
  if (typeof actions !== "number" || !Number.isInteger(actions) || actions < MIN_ACTIONS_PER_TURN || actions > MAX_ACTIONS_PER_TURN) {
    throw new RulesRangeError("notInRange", { field: "turnActionsDeclared", min: MIN_ACTIONS_PER_TURN, max: MAX_ACTIONS_PER_TURN, got: show(actions) });
  }
  const secret = r.secret ?? false;
  assertBoolean(secret, "turnSecret");
  // A declaration parsed before (each step re-reads the one it is given) is kept, not copied.
  if (hasParsedShape(raw) && r.text === trimmed && r.kind === kind && r.attack === attack && r.defence === defence && r.actions === actions && r.secret === secret) return raw as Declaration;
  return Object.freeze({
    text: trimmed,
    kind: kind as DeclaredActionKind | null,
    attack: attack as AttackCode | null,
    defence: defence as DefenceCode | null,
    actions,
    secret,
  });
}

/** A parsed declaration's fields, in the order {@link parseDeclaration} writes them. */
const DECLARATION_KEYS = ["text", "kind", "attack", "defence", "actions", "secret"] as const satisfies readonly (keyof Declaration)[];

/**
 * True when `raw` is shaped as {@link parseDeclaration} makes a declaration: frozen, a plain
 * object, its own keys {@link DECLARATION_KEYS} in that order (for-in yields own keys before
 * inherited ones, so the last being own makes all own). With the same values, it is then what
 * parsing it would make, in all but identity.
 */
function hasParsedShape(raw: object): boolean {
  if (!Object.isFrozen(raw) || Object.getPrototypeOf(raw) !== Object.prototype) return false;
  let i = 0;
  for (const key in raw) {
    if (key !== DECLARATION_KEYS[i]) return false;
    i++;
  }
  return i === DECLARATION_KEYS.length && Object.prototype.hasOwnProperty.call(raw, "secret");
}

/** True when two declarations say the same thing. */
export function sameDeclaration(a: Declaration | null, b: Declaration | null): boolean {
  if (a === null || b === null) return a === b;
  return a.text === b.text && a.kind === b.kind && a.attack === b.attack && a.defence === b.defence && a.actions === b.actions && a.secret === b.secret;
}

/** An item as {@link declaredAttackItem} reads it: the attack it makes. */
export interface DeclaredAttackItem {
  readonly attack: AttackCode;
}

/**
 * The item that makes the attack a declaration names, of the character's attacking `items` (in
 * the sheet's order): with an attack type picked, the first item of that type; with kind
 * "attack" and no type, the character's only attacking item. Null for every other declaration, or
 * when no item (or more than one, with no type) fits: the tracker then offers no attack button,
 * never a guess.
 */
export function declaredAttackItem<T extends DeclaredAttackItem>(declaration: Declaration | null, items: readonly T[]): T | null {
  if (declaration === null || declaration.kind !== "attack") return null;
  if (declaration.attack === null) return items.length === 1 ? (items[0] as T) : null;
  return items.find((item) => item.attack === declaration.attack) ?? null;
}
