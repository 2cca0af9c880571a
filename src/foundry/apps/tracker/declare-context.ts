/**
 * The declare form (templates/combat/declare.hbs): what a combatant intends this turn — free
 * text, an optional pick (an attack, a defence, a move, something else), and how many actions
 * (only the counts its Ftg (off) can try, each with the colour its extra-action roll needs).
 * Also used to change a declared action (then the count is fixed). Plain functions: the
 * context from plain data, and the form's data back into a declaration.
 */
import {
  ATTACK_CODES,
  DECLARED_ACTION_KINDS,
  DEFENCE_CODES,
  actionCountChoices,
  parseDeclaration,
  type Declaration,
} from "../../../rules/index";
import type { Localize } from "../../core/format";

export interface Option {
  readonly value: string;
  readonly label: string;
  readonly selected: boolean;
}

export interface DeclareContext {
  readonly name: string;
  /** Changing a declared action (a yellow Agy (bal) ACTION; the count stays). */
  readonly change: boolean;
  readonly text: string;
  readonly kinds: readonly Option[];
  readonly attacks: readonly Option[];
  readonly defences: readonly Option[];
  readonly counts: readonly Option[];
  /** The declared-dodge rule is on: a declared Dodge is rolled once after initiative. */
  readonly declaredDodge: boolean;
}

export interface DeclareInput {
  readonly name: string;
  /** Ftg (off) rank number: which counts of actions are possible. */
  readonly offence: number;
  readonly current: Declaration | null;
  readonly change: boolean;
  readonly declaredDodge: boolean;
}

/** The form's context. */
export function buildDeclareContext(input: DeclareInput, t: Localize): DeclareContext {
  const current = input.current;
  const options = <T extends string>(values: readonly T[], selected: string | null, label: (v: T) => string): Option[] => [
    { value: "", label: t("CASE.Turn.Declare.None"), selected: selected === null },
    ...values.map((v) => ({ value: v, label: label(v), selected: v === selected })),
  ];
  const counts = actionCountChoices(input.offence).map((c) => ({
    value: String(c.actions),
    label: c.required === null ? t("CASE.Turn.Declare.OneAction") : t("CASE.Turn.Declare.Actions", { actions: c.actions, color: t(`CASE.Color.${c.required}`) }),
    selected: c.actions === (current?.actions ?? 1),
  }));
  return {
    name: input.name,
    change: input.change,
    text: current?.text ?? "",
    kinds: options(DECLARED_ACTION_KINDS, current?.kind ?? null, (k) => t(`CASE.Turn.Kind.${k}`)),
    attacks: options(ATTACK_CODES, current?.attack ?? null, (a) => t(`CASE.Attack.${a}`)),
    defences: options(DEFENCE_CODES, current?.defence ?? null, (d) => t(`CASE.Defence.${d}`)),
    counts: input.change ? counts.filter((c) => c.selected) : counts,
    declaredDodge: input.declaredDodge,
  };
}

/**
 * The form's data as a declaration: an attack or defence pick implies its kind; a pick that
 * does not fit the kind is dropped. RangeError/TypeError (from the rules) for anything else.
 */
export function declarationFromForm(data: Readonly<Record<string, unknown>>): Declaration {
  const str = (key: string): string => {
    const v = data[key];
    return typeof v === "string" ? v : "";
  };
  let kind: string | null = str("kind") || null;
  const attack = str("attack") || null;
  const defence = str("defence") || null;
  if (kind === null && attack !== null) kind = "attack";
  if (kind === null && defence !== null) kind = "defence";
  const rawActions = data.actions;
  const actions = typeof rawActions === "number" ? rawActions : Number.parseInt(typeof rawActions === "string" ? rawActions : "1", 10);
  return parseDeclaration({
    text: str("text"),
    kind,
    attack: kind === "attack" ? attack : null,
    defence: kind === "defence" ? defence : null,
    actions: Number.isNaN(actions) ? 1 : actions,
  });
}

// ── Bulk declare (the Judge, for the NPCs) ─────────────────────────────────────────────────

/** One NPC's line of the bulk-declare form. */
export interface BulkDeclareRow {
  readonly id: string;
  readonly name: string;
  readonly text: string;
  readonly attacks: readonly Option[];
  readonly counts: readonly Option[];
}

/** One NPC as the bulk-declare form takes it. */
export interface BulkDeclareInput {
  readonly id: string;
  readonly name: string;
  readonly offence: number;
  readonly current: Declaration | null;
}

/** The bulk-declare form's context: a line per NPC (templates/combat/declare-many.hbs). */
export function buildBulkDeclareContext(npcs: readonly BulkDeclareInput[], t: Localize): { readonly rows: readonly BulkDeclareRow[] } {
  return {
    rows: npcs.map((npc) => {
      const one = buildDeclareContext({ name: npc.name, offence: npc.offence, current: npc.current, change: false, declaredDodge: false }, t);
      return { id: npc.id, name: npc.name, text: one.text, attacks: one.attacks, counts: one.counts };
    }),
  };
}

/** A bad line of the bulk-declare form: the NPC it declares for, and the rules' refusal (shown through describeError). */
export class DeclarationLineError extends Error {
  constructor(
    readonly npcName: string,
    readonly refusal: unknown,
  ) {
    super(`${npcName}: ${refusal instanceof Error ? refusal.message : String(refusal)}`);
    this.name = "DeclarationLineError";
  }
}

/**
 * The bulk-declare form's data as declarations, in the NPCs' order: a line with neither text nor
 * attack is left out (declared later). A bad line throws a DeclarationLineError naming the NPC.
 */
export function bulkDeclarationsFromForm(data: Readonly<Record<string, unknown>>, npcs: readonly { readonly id: string; readonly name: string }[]): { combatantId: string; declaration: Declaration }[] {
  const out: { combatantId: string; declaration: Declaration }[] = [];
  for (const npc of npcs) {
    const text = data[`text-${npc.id}`];
    const attack = data[`attack-${npc.id}`];
    const blank = (v: unknown): boolean => typeof v !== "string" || v.trim() === "";
    if (blank(text) && blank(attack)) continue;
    try {
      out.push({ combatantId: npc.id, declaration: declarationFromForm({ text, attack, actions: data[`actions-${npc.id}`] }) });
    } catch (error) {
      throw new DeclarationLineError(npc.name, error);
    }
  }
  return out;
}
