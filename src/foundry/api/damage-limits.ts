/** Limits of `CONFIG.CASE.api.applyDamage` requests (shared by the API and its dialog). */

/** The most damage one request may apply (far above every rank number in play). */
export const MAX_DAMAGE = 100_000;
/** The most targets one request may name. */
export const MAX_TARGETS = 100;

/** The most Karma one award gives each character (a guard against a typo). */
export const MAX_KARMA_AWARD_AMOUNT = 100_000;
