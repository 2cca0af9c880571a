/**
 * Dice So Nice, as a double over the exchange world (exchange-world.ts): every animation it
 * would play, and when.
 *
 * What it models (public sources: Dice So Nice's README and API wiki, gitlab.com/riccisi/foundryvtt-dice-so-nice):
 * - `game.dice3d.showForRoll(roll, user, synchronize, whisper, blind)` animates `roll` (for the
 *   `whisper` users only when given) and returns a Promise that resolves when the animation is
 *   done. Here it resolves when the test calls `land()`.
 * - Dice So Nice also animates the rolls of chat messages on its own: on `createChatMessage` for
 *   a message with rolls, and on `updateChatMessage` for the rolls an update adds (a whispered
 *   message for its recipients). Before each, it calls the `diceSoNiceMessageProcessed` hook with
 *   `(messageId, interception)`; a listener that sets `interception.willTrigger3DRoll = false`
 *   stops that message's animation.
 * The double animates a message's rolls through that path, calling the listeners the test gives
 * it (the world has no `Hooks.on`), so a system that both shows a die and stores it on a message
 * is seen animating it twice.
 */
import { vi } from "vitest";
import { FakeMessage } from "./exchange-world";

export interface Animation {
  /** The roll's JSON formula and total, as `"1d100=66"`. */
  readonly die: string;
  /** `showForRoll`, or the message whose rolls Dice So Nice animated. */
  readonly via: "showForRoll" | "message";
  /** Who sees it: the whispered users, or null for everyone. */
  readonly to: readonly string[] | null;
}

export interface DiceSoNiceDouble {
  readonly animations: Animation[];
  /** `showForRoll` calls not yet landed. */
  readonly rolling: number;
  /** Lands every die still rolling (their `showForRoll` promises resolve). */
  land(): void;
}

type Listener = (messageId: unknown, interception: unknown) => void;

function dieOf(roll: { toJSON(): unknown }): string {
  const json = roll.toJSON() as { formula?: unknown; total?: unknown };
  return `${String(json.formula)}=${String(json.total)}`;
}

/** Installs `game.dice3d` and Dice So Nice's message processing on the installed exchange world; `listeners` are the system's `diceSoNiceMessageProcessed` hooks. */
export function installDiceSoNice(listeners: readonly Listener[]): DiceSoNiceDouble {
  const animations: Animation[] = [];
  const waiting: (() => void)[] = [];
  const g = (globalThis as unknown as { game: Record<string, unknown> }).game;
  g.dice3d = {
    showForRoll(roll: { toJSON(): unknown }, _user: unknown, _synchronize: boolean, whisper: string[] | null): Promise<boolean> {
      animations.push({ die: dieOf(roll), via: "showForRoll", to: whisper });
      return new Promise<boolean>((resolve) => waiting.push(() => { resolve(true); }));
    },
  };
  const processMessage = (message: FakeMessage, rolls: readonly { toJSON(): unknown }[], whisper: readonly string[] | null): void => {
    if (rolls.length === 0) return;
    const interception = { willTrigger3DRoll: true };
    for (const listener of listeners) listener(message.id, interception);
    if (interception.willTrigger3DRoll) for (const roll of rolls) animations.push({ die: dieOf(roll), via: "message", to: whisper });
  };
  const whisperOf = (data: Record<string, unknown>): string[] | null => (Array.isArray(data.whisper) && data.whisper.length > 0 ? (data.whisper as string[]) : null);
  const chatMessage = (globalThis as unknown as { ChatMessage: { implementation: { create(data: Record<string, unknown>): Promise<FakeMessage> } } }).ChatMessage;
  const create = chatMessage.implementation.create.bind(chatMessage.implementation);
  const whispers = new Map<string, string[] | null>();
  chatMessage.implementation.create = async (data) => {
    const message = await create(data);
    whispers.set(message.id, whisperOf(data));
    processMessage(message, message.rolls, whisperOf(data));
    return message;
  };
  const update: (this: FakeMessage, data: Record<string, unknown>) => Promise<FakeMessage> = Reflect.get(FakeMessage.prototype, "update");
  vi.spyOn(FakeMessage.prototype, "update").mockImplementation(async function (this: FakeMessage, data: Record<string, unknown>) {
    const before = this.rolls.length;
    await update.call(this, data);
    if ("rolls" in data) processMessage(this, this.rolls.slice(before), whispers.get(this.id) ?? null);
    return this;
  });
  return {
    animations,
    get rolling() {
      return waiting.length;
    },
    land() {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}
