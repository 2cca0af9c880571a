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

/** The longest the GM waits for Dice So Nice's dice to land before writing the card anyway. */
export const DICE_LANDING_LIMIT_MS = 8_000;

/**
 * Shows a roll made on this client with Dice So Nice, when present (a secret one to the GMs
 * only). Resolves when the dice have landed (Dice So Nice's `showForRoll` resolves then), at
 * once without the module, and at the latest after {@link DICE_LANDING_LIMIT_MS}: the card
 * that shows the result is written after it, so no one reads the result while the dice roll.
 */
export function showDice(roll: Roll, secret: boolean, limitMs: number = DICE_LANDING_LIMIT_MS): Promise<void> {
  const dice3d = diceSoNiceOf(game);
  if (!dice3d) return Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, limitMs);
  });
  const shown = dice3d.showForRoll(roll, game.user, true, secret ? gmIds() : null, false).then(
    () => undefined,
    () => undefined,
  );
  return Promise.race([shown, limit]).finally(() => { clearTimeout(timer); });
}

/** The chat messages whose dice the GM has already shown with `showForRoll` (cards and the GM's records). */
export const SHOWN_DICE_MESSAGE_TYPES: ReadonlySet<string> = new Set(["attack", "attackRecord", "rollRequest"]);

/**
 * Dice So Nice's `diceSoNiceMessageProcessed(messageId, interception)` hook (its public API):
 * setting `interception.willTrigger3DRoll` to false keeps it from animating a message's rolls.
 * A card's or a record's rolls were shown once already, as they were rolled: without this every
 * die would roll a second time when the message is created or updated with it, and the GMs
 * would see secret dice again from the whispered record.
 */
export function skipShownDice(messageId: unknown, interception: unknown): void {
  if (typeof messageId !== "string") return;
  const message = game.messages.get(messageId);
  if (!message || !SHOWN_DICE_MESSAGE_TYPES.has(message.type)) return;
  if (typeof interception === "object" && interception !== null && "willTrigger3DRoll" in interception) interception.willTrigger3DRoll = false;
}

/** Registers {@link skipShownDice} (a hook no one fires without Dice So Nice). */
export function registerDiceSoNiceHooks(): void {
  // Dice So Nice's hook is not one of core's, so the v13 types do not list it: a narrow signature here.
  const on: (this: typeof Hooks, hook: string, fn: (messageId: unknown, interception: unknown) => void) => number = Reflect.get(Hooks, "on");
  on.call(Hooks, "diceSoNiceMessageProcessed", skipShownDice);
}
