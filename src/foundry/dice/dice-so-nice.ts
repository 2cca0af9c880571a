/**
 * Dice So Nice, when that module is active: its public entry point `game.dice3d.showForRoll`
 * (a module's global, so checked, not assumed). The GM rolls every die of a card on its own
 * client; this shows it to everyone (or, for a secret die, to the GMs).
 */

/** Dice So Nice's entry point (its public API: `game.dice3d.showForRoll`). */
interface DiceSoNice {
  showForRoll(roll: Roll, user: User.Implementation, synchronize: boolean, whisper: string[] | null, blind: boolean): Promise<boolean>;
}

/** Dice So Nice's `game.dice3d`, when that module is active. */
export function diceSoNiceOf(g: object): DiceSoNice | null {
  const dice3d = "dice3d" in g ? g.dice3d : undefined;
  return isDiceSoNice(dice3d) ? dice3d : null;
}

function isDiceSoNice(value: unknown): value is DiceSoNice {
  return typeof value === "object" && value !== null && "showForRoll" in value && typeof value.showForRoll === "function";
}

/** The GMs' user ids (who sees a secret die). */
export function gmIds(): string[] {
  return game.users.filter((u) => u.isGM).map((u) => u.id);
}

/** Shows a roll made on this client with Dice So Nice, when present (a secret one to the GMs only). */
export function showDice(roll: Roll, secret: boolean): void {
  const dice3d = diceSoNiceOf(game);
  if (dice3d) void dice3d.showForRoll(roll, game.user, true, secret ? gmIds() : null, false);
}
