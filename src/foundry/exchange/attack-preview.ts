/**
 * The attack dialog's preview (issue 24: the roll dialog's, per target): for each target, the
 * column the to-hit is read on after the shifts the attacker knows (talents, objects, a charge,
 * the target's own range: rules `attackSetup`, `targetRangeShifts`, and the dialog's shift) and
 * the odds of each colour, named by the attack result it gives. The turn's shifts and the
 * defence are the GM's to add on the card. Rendered with the roll dialog's preview partial.
 */
import { COLORS, attackResult, attackSetup, targetRangeShifts, type AttackCode, type AttackSetupInput } from "../../rules/index";
import { SYSTEM_PATH } from "../core/constants";
import { rollPreviewContext, type RollPreview } from "../dice/roll-dialog";
import { parseAttackInput } from "./attack-input";

export const ATTACK_PREVIEW_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/attack-preview.hbs`;

export interface AttackPreviewSubject {
  readonly attack: AttackCode;
  /** The rank number the attack rolls on. */
  readonly value: number;
  readonly karmaPool: number;
  /** The standing shifts on the to-hit (talents), as the card counts them. */
  readonly shift: number;
  /** The attack's setup before the circumstances the dialog asks. */
  readonly setup: Omit<AttackSetupInput, "distance" | "objects" | "chargeAreas">;
  readonly targets: readonly { readonly uuid: string; readonly name: string }[];
}

/** The dialog's form with each target's distance field (`distance<i>`) gathered by the target's UUID, as `parseAttackInput` reads it. */
export function attackForm(form: Record<string, unknown>, targets: AttackPreviewSubject["targets"]): Record<string, unknown> {
  return { ...form, distances: Object.fromEntries(targets.map((t, i) => [t.uuid, form[`distance${i}`]])) };
}

/** The preview for the dialog's form values: a preview per target, or (with none) the refused entry. */
export function attackPreviewContext(subject: AttackPreviewSubject, form: Record<string, unknown>): { targets: { name: string; preview: RollPreview }[]; error: RollPreview | null } {
  const parsed = parseAttackInput(attackForm(form, subject.targets), subject.karmaPool);
  if (!parsed.ok) return { targets: [], error: { ok: false, errorKey: parsed.errorKey, data: { max: "", min: "", pool: "", ...parsed.data } } };
  const input = parsed.value;
  const setup = attackSetup({ ...subject.setup, distance: 0, objects: input.objects, chargeAreas: input.chargeAreas });
  const ranges = targetRangeShifts(subject.attack, setup.range, subject.targets.map((t) => input.distances[t.uuid] ?? input.distance));
  const base = subject.shift + setup.shifts.reduce((sum, s) => sum + s.cs, 0);
  const results = COLORS.map((color) => `CASE.AttackResult.${attackResult(subject.attack, color)}`);
  const targets = subject.targets.map((t, i) => {
    const preview = rollPreviewContext({ subject: t.name, value: subject.value, karmaPool: subject.karmaPool, talents: [], talentCs: "", talentShift: base + (ranges[i] ?? 0) }, { cs: input.cs, karma: input.karma, intensity: "" });
    return { name: t.name, preview: preview.ok ? { ...preview, odds: preview.odds.map((o, j) => ({ ...o, labelKey: results[j] ?? o.labelKey })) } : preview };
  });
  return { targets, error: null };
}
