/**
 * Text for people: the one signed-number formatter, for column shifts and modifiers everywhere
 * a person reads them (cards, sheets, the tracker, announcements), and the shape of a localiser
 * that view models take (Foundry's game.i18n in play, the real en.json in tests).
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

/** Localises a key, filling `{name}` placeholders from `data` (Foundry: game.i18n.format). */
export type Localize = (key: string, data?: Readonly<Record<string, string | number>>) => string;
