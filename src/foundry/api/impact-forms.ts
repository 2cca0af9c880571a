/**
 * The Judge's impact prompt (a fall, or a charge at an object): its template data and the
 * reading of what was typed (pure, so the dialog is tested with the real template).
 */
import { DEFAULT_GROUND_MATERIAL_STRENGTH, IMPACT_KINDS, MAX_IMPACT_AREAS, RANKS, isRankNumber, rankOf, type ImpactKind } from "../../rules/index";
import { readWhole } from "../core/format";

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

/** Reads the impact dialog's form: a kind, 1…max areas and a rank-number material strength; else null. */
export function readImpactForm(form: Readonly<Record<string, unknown>>): ImpactAnswer | null {
  const kind = form.kind;
  if (kind !== "fall" && kind !== "object") return null;
  const areas = readWhole(form.areas, { min: 1, max: MAX_IMPACT_AREAS });
  const materialStrength = readWhole(form.materialStrength);
  if (areas === null || !isRankNumber(materialStrength)) return null;
  return { kind, areas, materialStrength };
}
