/**
 * The Judge's impact prompt (a fall, or a charge at an object): its template data and the
 * reading of what was typed (pure, so the dialog is tested with the real template).
 */
import { DEFAULT_GROUND_MATERIAL_STRENGTH, IMPACT_KINDS, MAX_IMPACT_AREAS, RANKS, isRankNumber, rankOf, type ImpactKind } from "../../rules/index";

/** The impact dialog's template data: the kinds, the standard material strengths, and who is selected. */
export function impactPromptContext(selectedNames: readonly string[], id: string) {
  const chosen = rankOf(DEFAULT_GROUND_MATERIAL_STRENGTH).key;
  return {
    id,
    names: [...selectedNames],
    maxAreas: MAX_IMPACT_AREAS,
    kinds: IMPACT_KINDS.map((value) => ({ value, labelKey: `CASE.Impact.Kind.${value}`, selected: value === "fall" })),
    strengths: RANKS.map((r) => ({ value: r.number, labelKey: `CASE.Rank.${r.key}`, selected: r.key === chosen })),
  };
}

export interface ImpactAnswer {
  readonly kind: ImpactKind;
  readonly areas: number;
  readonly materialStrength: number;
}

function whole(raw: unknown): number {
  const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  return typeof n === "number" && Number.isSafeInteger(n) ? n : Number.NaN;
}

/** Reads the impact dialog's form: a kind, 1…max areas and a rank-number material strength; else null. */
export function readImpactForm(form: Readonly<Record<string, unknown>>): ImpactAnswer | null {
  const kind = form.kind;
  if (kind !== "fall" && kind !== "object") return null;
  const areas = whole(form.areas);
  const materialStrength = whole(form.materialStrength);
  if (!(areas >= 1 && areas <= MAX_IMPACT_AREAS) || !isRankNumber(materialStrength)) return null;
  return { kind, areas, materialStrength };
}
