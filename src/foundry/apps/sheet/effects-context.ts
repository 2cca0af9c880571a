/**
 * What the Effects tab shows (hero sheet, NPC sheet, item sheets of powers, weapons and armor),
 * as plain data: each Active Effect with where it comes from, whether it applies (on, off, or
 * suppressed because its item is not in use), and its changes in words; and the changes CASE
 * refused, with the reason. Labels are localisation keys; no Foundry globals.
 */
import { effectChangesOf } from "../../core/compat";
import { changeKeyLabel, isCaseChangeKey, modeOf, type EffectProblem } from "../../data/actor/effect-changes";
import { errorFormat } from "../../ui/error-text";

/** The parts of an ActiveEffect the tab reads. */
export interface EffectView {
  readonly id: string | null;
  readonly name: string;
  readonly img: string | null;
  readonly disabled: boolean;
  readonly isSuppressed: boolean;
  readonly changes: readonly { readonly key: string; readonly mode?: unknown; readonly value: unknown }[];
}

/** An effect and the item it lives on (null: on the actor itself). */
export interface EffectSource {
  readonly effect: EffectView;
  readonly item: { readonly id: string | null; readonly name: string } | null;
}

/** One change in words: the score's label (a localisation key; a key CASE does not read is labelled as such, the raw key kept for a tooltip), the mode's key, the value as typed. */
export interface EffectChangeRow {
  readonly label: string;
  readonly text: string | null;
  readonly mode: string;
  readonly value: string;
}

export interface EffectRow {
  readonly id: string;
  /** The item the effect lives on, or "" for the actor's own. */
  readonly itemId: string;
  readonly name: string;
  readonly img: string;
  /** Where it comes from: the item's name, or null (the character itself). */
  readonly origin: string | null;
  /** `CASE.Effects.State.on|off|suppressed` */
  readonly state: "on" | "off" | "suppressed";
  readonly stateLabel: string;
  readonly disabled: boolean;
  readonly changes: readonly EffectChangeRow[];
  /** Refused changes of this effect, with their reasons, the label of the key they name and the rules' reason for a refused value (for `caseFormat`). */
  readonly problems: readonly (Omit<EffectProblem, "detail"> & { readonly keyLabel: string; readonly detail: ReturnType<typeof errorFormat> | null })[];
}

export interface EffectsTabData {
  readonly effects: readonly EffectRow[];
  readonly editable: boolean;
  /** True when some change was refused (a summary is shown above the list). */
  readonly hasProblems: boolean;
}

export const DEFAULT_EFFECT_IMG = "icons/svg/aura.svg";

export { changeKeyLabel };

/** The label key of a Foundry change mode (`CASE.Effects.Mode.*`). */
export function changeModeLabel(mode: unknown): string {
  const found = modeOf(mode);
  if (found) return `CASE.Effects.Mode.${found}`;
  return mode === 1 || mode === "multiply" ? "CASE.Effects.Mode.multiply" : "CASE.Effects.Mode.custom";
}

/** One row of the tab. */
export function effectRow(source: EffectSource, problems: readonly EffectProblem[]): EffectRow | null {
  const { effect, item } = source;
  if (effect.id === null) return null;
  const state = effect.disabled ? "off" : effect.isSuppressed ? "suppressed" : "on";
  return {
    id: effect.id,
    itemId: item?.id ?? "",
    name: effect.name,
    img: effect.img ?? DEFAULT_EFFECT_IMG,
    origin: item?.name ?? null,
    state,
    stateLabel: `CASE.Effects.State.${state}`,
    disabled: effect.disabled,
    changes: effectChangesOf(effect).map((c) => ({
      ...changeKeyLabel(c.key),
      mode: changeModeLabel(c.mode),
      value: typeof c.value === "string" || typeof c.value === "number" ? String(c.value) : "",
    })),
    problems: problems
      .filter((p) => p.effect === effect.name && effectChangesOf(effect).some((c) => c.key === p.key && isCaseChangeKey(c.key)))
      .map((p) => ({ ...p, detail: p.cause ? errorFormat(p.cause) : null, keyLabel: changeKeyLabel(p.key).label })),
  };
}

/** The tab: the effects in the order given (the character's own first, then each item's), and the refused changes. */
export function effectsTabData(sources: Iterable<EffectSource>, problems: readonly EffectProblem[], editable: boolean): EffectsTabData {
  const effects = [...sources].flatMap((s) => {
    const row = effectRow(s, problems);
    return row ? [row] : [];
  });
  return { effects, editable, hasProblems: problems.length > 0 };
}
