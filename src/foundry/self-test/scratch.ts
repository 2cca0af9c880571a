/**
 * The scratch world of a self-test batch, in Foundry: scenes, actors, tokens, combats and chat
 * messages made through the real document classes, each recorded (batches.ts) so the batch's
 * `after` deletes them all, even when a test failed.
 */
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
  const size = scene.grid.size;
  const data = await Promise.all(actors.map(async (actor, i) => (await actor.getTokenDocument({ x: size * (i + 1), y: size, actorLink: true })).toObject()));
  const tokens = await scene.createEmbeddedDocuments("Token", data);
  if (tokens.length !== actors.length) throw new Error("The self-test could not place every token.");
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
