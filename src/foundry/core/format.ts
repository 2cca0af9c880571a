/**
 * Text for people: the one signed-number formatter, for column shifts and modifiers everywhere
 * a person reads them (cards, sheets, the tracker, announcements), and the shape of a localiser
 * that view models take (Foundry's game.i18n in play, the real en.json in tests); and the one
 * reader of a whole number a person typed in a form.
 */

/**
 * How zero reads: "0" for a shift of none ("0 CS" on a card), "+0" for a modifier on a sheet
 * (initiative +0), "" where nothing is shown for no shift (a tracker row).
 */
export type ZeroAs = "0" | "+0" | "";

/** 3 → "+3", −2 → "−2" (a typographic minus, as the rules text writes shifts), 0 → `zero`. */
export function formatSigned(n: number, zero: ZeroAs = "0"): string {
  if (n > 0) return `+${String(n)}`;
  if (n < 0) return `\u2212${String(-n)}`;
  return zero;
}

/**
 * The whole number a person typed in a form field (or a number the form already holds): a sign
 * may be "+", "-" or the typographic "−"/"–" {@link formatSigned} writes; spaces around it are
 * ignored. A whole number within `min`…`max`, else null (refused, never rounded or clamped). A
 * blank field is `blank`: null (refused) unless the form says what a blank means.
 */
export function readWhole(raw: unknown, { min = -Number.MAX_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER, blank = null }: { readonly min?: number; readonly max?: number; readonly blank?: number | null } = {}): number | null {
  if (raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "")) return blank;
  const n = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw.trim().replace(/^[\u2212\u2013]/, "-")) : Number.NaN;
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

/** Localises a key, filling `{name}` placeholders from `data` (Foundry: game.i18n.format). */
export type Localize = (key: string, data?: Readonly<Record<string, string | number>>) => string;

/**
 * The key of a count's plural form: the family (ending in ".") and the language's plural
 * category of `count` from Intl.PluralRules ("one", "other"; other languages add "few", "many" …),
 * as dnd5e splits its counted strings into `.one` / `.other` keys. Foundry's localisation has no
 * plurals of its own. `lang` is the client's language (game.i18n.lang); English by default.
 */
export function pluralKey(family: string, count: number, lang = "en"): string {
  if (!family.endsWith(".")) throw new Error(`pluralKey needs a key family ending in ".", got "${family}".`);
  if (!Number.isFinite(count)) throw new Error(`pluralKey needs a number to count, got ${String(count)}.`);
  return `${family}${new Intl.PluralRules(lang).select(count)}`;
}
