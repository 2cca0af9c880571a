/**
 * The scratch world of a self-test batch, in Foundry: scenes, actors, tokens, combats and chat
 * messages made through the real document classes, each recorded (batches.ts) so the batch's
 * `after` deletes them all, even when a test failed.
 */
import type { MinorFoeRule } from "../../rules/index";
import { SYSTEM_ID } from "../core/constants";
import { isMessageType } from "../core/guards";
import { scratchName, type ScratchRecorder } from "./batches";

/** A document the batches make: every one has a UUID and can be deleted. */
export interface Scratch {
  readonly uuid: string;
  delete(): Promise<unknown>;
}

export type Recorder = ScratchRecorder<Scratch>;

/** Whether a recorded document still exists in the world (a deleted scene takes its tokens along). */
export function stillExists(doc: Scratch): boolean {
  return fromUuidSync(doc.uuid) !== null;
}

/** The user running the batch: the GM, or a player. */
export function currentRunner(): "gm" | "player" {
  return game.user.isGM ? "gm" : "player";
}

/** A scratch character of `type` with `system` (partial source), recorded. */
export async function scratchActor(scratch: Recorder, name: string, system: object = {}, type: "hero" | "npc" = "hero"): Promise<Actor.Implementation> {
  const actor = await Actor.implementation.create({ name: scratchName(name), type, system });
  return scratch.record(actor, `the actor ${name}`);
}

/** A scratch scene (not activated, so nobody is pulled onto it), recorded. */
export async function scratchScene(scratch: Recorder, name: string): Promise<Scene.Implementation> {
  const scene = await Scene.implementation.create({ name: scratchName(name), width: 1000, height: 1000 });
  return scratch.record(scene, `the scene ${name}`);
}

/** A token of each actor on `scene` (unlinked copies are fine: the batches read the tokens' actors), recorded. */
export async function scratchTokens(scratch: Recorder, scene: Scene.Implementation, actors: readonly Actor.Implementation[]): Promise<TokenDocument.Implementation[]> {
  return scratchTokensAt(
    scratch,
    scene,
    actors.map((actor, i) => ({ actor, square: { x: i + 1, y: 1 } })),
  );
}

/** A token of each actor on its grid square of `scene` (linked to its actor unless `linked` is false), recorded. */
export async function scratchTokensAt(
  scratch: Recorder,
  scene: Scene.Implementation,
  placed: readonly { readonly actor: Actor.Implementation; readonly square: { readonly x: number; readonly y: number } }[],
  linked = true,
): Promise<TokenDocument.Implementation[]> {
  const size = scene.grid.size;
  const data = await Promise.all(placed.map(async ({ actor, square }) => (await actor.getTokenDocument({ x: size * square.x, y: size * square.y, actorLink: linked })).toObject()));
  const tokens = await scene.createEmbeddedDocuments("Token", data);
  if (tokens.length !== placed.length) throw new Error("The self-test could not place every token.");
  return scratch.recordAll(tokens);
}

/** Runs `fn` and records every chat message that appeared meanwhile; returns them with fn's value. */
export async function recordingMessages<T>(scratch: Recorder, fn: () => Promise<T>): Promise<{ value: T; messages: ChatMessage.Implementation[] }> {
  const before = new Set(game.messages.contents.map((m) => m.id));
  let value: T;
  try {
    value = await fn();
  } finally {
    scratch.recordAll(game.messages.contents.filter((m) => !before.has(m.id)));
  }
  return { value, messages: game.messages.contents.filter((m) => !before.has(m.id)) };
}

/** Waits `ms` milliseconds (for hooks and renders that follow a write). */
export function settle(ms = 300): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `ready()` holds (a hook, a render or another client's write), at most `ms` milliseconds; whether it held. */
export async function waitFor(ready: () => boolean, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > until) return false;
    await settle(100);
  }
  return true;
}

/**
 * Answers the next confirmation dialog (DialogV2.confirm: buttons with `data-action="yes"` and
 * `"no"`, Foundry's public API) as a user's click would, so a click that asks first (Advance,
 * the builder's Confirm, Clear Chat Log) runs its real path. Call before the click, and call
 * what it returns once the click is done (in a `finally`): a dialog that never came must not
 * leave the answer waiting for the user's next one.
 */
export function answerNextConfirm(yes = true): () => void {
  const id = Hooks.once("renderDialogV2", (app: { element: HTMLElement }) => {
    // After the render's own listeners are in place, as a user's click would be.
    setTimeout(() => app.element.querySelector<HTMLButtonElement>(`button[data-action="${yes ? "yes" : "no"}"]`)?.click(), 0);
  });
  return () => {
    Hooks.off("renderDialogV2", id);
  };
}

/** A world setting a batch changes for its run (each put back afterwards, even after a failure). */
export type SettingChange =
  | { readonly key: "slamMovesTokens"; readonly value: boolean }
  | { readonly key: "minorFoeRule"; readonly value: MinorFoeRule }
  | { readonly key: "karmaPool"; readonly value: boolean }
  | { readonly key: "attacksInTurn"; readonly value: boolean };

/** Sets the setting; returns what puts it back. */
async function swapSetting(change: SettingChange): Promise<() => Promise<unknown>> {
  switch (change.key) {
    case "slamMovesTokens": {
      const before = game.settings.get(SYSTEM_ID, "slamMovesTokens");
      await game.settings.set(SYSTEM_ID, "slamMovesTokens", change.value);
      return () => game.settings.set(SYSTEM_ID, "slamMovesTokens", before);
    }
    case "attacksInTurn": {
      const before = game.settings.get(SYSTEM_ID, "attacksInTurn");
      await game.settings.set(SYSTEM_ID, "attacksInTurn", change.value);
      return () => game.settings.set(SYSTEM_ID, "attacksInTurn", before);
    }
    case "minorFoeRule": {
      const before = game.settings.get(SYSTEM_ID, "minorFoeRule");
      await game.settings.set(SYSTEM_ID, "minorFoeRule", change.value);
      return () => game.settings.set(SYSTEM_ID, "minorFoeRule", before);
    }
    case "karmaPool": {
      const before = game.settings.get(SYSTEM_ID, "karmaPool");
      const state = game.settings.get(SYSTEM_ID, "karmaPoolState");
      await game.settings.set(SYSTEM_ID, "karmaPool", change.value);
      // The pool's own record (its total, who put what in) goes back as it was too.
      return async () => {
        await game.settings.set(SYSTEM_ID, "karmaPoolState", state);
        await game.settings.set(SYSTEM_ID, "karmaPool", before);
      };
    }
  }
}

/** Runs `fn` with a world setting changed, then puts back what was there (also when `fn` fails). */
export async function withSetting<T>(change: SettingChange, fn: () => Promise<T>): Promise<T> {
  const restore = await swapSetting(change);
  try {
    return await fn();
  } finally {
    await restore();
  }
}

/** The id of an attack card's GM record ("" when the message is not an attack card). */
export function recordIdOf(card: ChatMessage.Implementation | undefined): string {
  return card && isMessageType(card, "attack") ? card.system.recordId : "";
}
