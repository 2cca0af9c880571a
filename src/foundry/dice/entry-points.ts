/**
 * What the rest of the system calls to make a roll or an attack: sheet buttons, hotbar
 * macros, canvas drops and enrichers all come through here, so there is one path to test.
 *
 * (First version: a plain chat line. The Universal Table card, the roll dialog and the
 * attack exchange replace these bodies; the signatures stay.)
 */
import type { ScoreRef } from "../../rules/index";

export interface RollOptions {
  /** Skip the dialog (shift-click): roll with no shifts, no Karma, no intensity. */
  skipDialog?: boolean;
}

export interface AttackOptions extends RollOptions {
  /** Targets as document UUIDs (tokens or actors). Defaults to the user's current targets. */
  targetUuids?: string[];
}

/** A FEAT/ACTION roll on an ability or sub-score of `actor`. */
export async function rollScore(actor: Actor.Implementation, score: ScoreRef, _options: RollOptions = {}): Promise<void> {
  await ChatMessage.create({
    speaker: ChatMessage.getSpeaker({ actor }),
    content: game.i18n.format("CASE.Roll.Pending", { score: game.i18n.localize(`CASE.Score.${score}`) }),
  });
}

/** A FEAT/ACTION roll on a power's rank. */
export async function rollItem(item: Item.Implementation, _options: RollOptions = {}): Promise<void> {
  await ChatMessage.create({
    speaker: ChatMessage.getSpeaker({ actor: item.actor }),
    content: game.i18n.format("CASE.Roll.Pending", { score: item.name }),
  });
}

/** An attack with a power or weapon against targets. */
export async function makeAttack(item: Item.Implementation, options: AttackOptions = {}): Promise<void> {
  const targets = options.targetUuids ?? [...game.user.targets].map((t) => t.document.uuid);
  await ChatMessage.create({
    speaker: ChatMessage.getSpeaker({ actor: item.actor }),
    content: game.i18n.format("CASE.AttackMessage.Pending", { item: item.name, count: String(targets.length) }),
  });
}
