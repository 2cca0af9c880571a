/**
 * Foundry's side of the CASE turn: reads a combat into the engine's plain shapes, writes the
 * engine's changes back (combat, combatants, characters' Endurance and status effects), rolls
 * dice, posts the turn's chat cards; the query directory; and the bridge the attack exchange
 * uses (the root, ../register.ts, hands both to the request router). Everything here touches
 * Foundry globals and is checked by tsc only; the logic it calls is tested in plain vitest.
 */
import { isActorType, isCharacter, isItemType } from "../core/guards";
import { SYSTEM_ID, SYSTEM_PATH } from "../core/constants";
import type { CombatBridge } from "./bridge";
import { clearStatus, isUnconscious, setStatus, statusDetails, statusId, syncUnconscious } from "../status-effects";
import { userOwns } from "../requests/gm";
import type { AskingUser } from "../requests/router";
import { actionsLeft, bestRegenerationRank, declaredDodgeShift, defenceRefusal, hasActedThisTurn, isActingPhase, isFirstAidTalent, minorFoeGroups, withinReach, type DefenceCode, type HoldState, type RegeneratingPower } from "../../rules/index";
import { TurnEngine } from "./engine";
import { combatLock, type Announcement, type TurnDie, type TurnHost, type TurnSnapshot, type WriteScope } from "./turn-host";
import type { TurnDirectory } from "./queries";
import { publicDeclaration, recordCombatants, recordSecrets, statsFromCharacter, withSecretDeclaration, type CombatantInput, type RecordedCombatant, type SecretDeclarations, type StoredTurnStep, type TurnSettingsInput, type TurnWrite } from "./state";
import { actorLock, loseEnduranceRank, regenerate } from "../actor-writes";
import { announcementLines } from "./announce";
import { gridPlace } from "../ui/board";
import { markCombatant } from "./marks";
import { messageUpdate, type MessageSystem } from "../data/system-data";
import { caseFlag } from "../core/flags";

/** The chat card of the turn's announcements. */
export const TURN_CARD_TEMPLATE = `${SYSTEM_PATH}/templates/combat/chat-card.hbs`;

/** True when this client writes the turn: the active GM. */
export function isTurnWriter(): boolean {
  return game.users.activeGM?.isSelf === true;
}

/** The world settings the turn follows. */
export function readTurnSettings(): TurnSettingsInput {
  return {
    initiativeMode: game.settings.get(SYSTEM_ID, "initiativeMode"),
    teamInitiative: game.settings.get(SYSTEM_ID, "teamInitiative"),
    declaredDodge: game.settings.get(SYSTEM_ID, "declaredDodge"),
    killLossAtOwnWrapUp: game.settings.get(SYSTEM_ID, "killLossAtOwnWrapUp"),
    regenerationTurns: game.settings.get(SYSTEM_ID, "regenerationTurns"),
  };
}

/** The rank the character regenerates at (rules `bestRegenerationRank`; 0 for none): what it heals at each wrap-up. */
export function regenerationRank(actor: Actor.Implementation): number {
  const powers: RegeneratingPower[] = [];
  for (const item of actor.items) if (isItemType(item, "power")) powers.push({ regeneration: item.system.regeneration, rank: item.system.rank });
  return bestRegenerationRank(powers);
}

function holdOf(actor: Actor.Implementation): HoldState {
  if (actor.statuses.has(statusId("fullHold"))) return "fullHold";
  if (actor.statuses.has(statusId("partialHold"))) return "partialHold";
  return "none";
}

/** The defence keys a combatant remembers (`flags.case.defenceKeys`; anything else is ignored). */
function defenceKeysOf(combatant: Combatant.Implementation): string[] {
  return [...(caseFlag(combatant.flags, "defenceKeys") ?? [])];
}

/** The combat's groups of minor foes (rules `minorFoeGroups`: NPC minor foes of one base actor), by combatant id. */
export function minorGroupsOf(combat: Combat.Implementation): ReadonlyMap<string, string> {
  return minorFoeGroups(
    combat.combatants.contents.map((c) => {
      const actor = c.actor;
      return { id: c.id ?? "", minor: actor !== null && isActorType(actor, "npc") && actor.system.minor, playerOwned: c.hasPlayerOwner, baseActorId: c.actorId ?? null };
    }),
  );
}

/**
 * One combatant in the engine's shape (with its secret declaration, where this client holds the
 * record, and its minor-foe group). With `recorded`, the GM's record's copy of its turn state
 * (its whole system and its defence keys) stands for the combatant's own, which its owner may write.
 */
export function combatantInput(combatant: Combatant.Implementation, secrets: SecretDeclarations = [], groups: ReadonlyMap<string, string> = new Map(), recorded?: RecordedCombatant): CombatantInput {
  const actor = combatant.actor;
  return {
    minorGroup: groups.get(combatant.id ?? "") ?? null,
    id: combatant.id ?? "",
    system: recorded ? recorded.system : withSecretDeclaration(combatant.system, combatant.id ?? "", secrets),
    stats: actor && isCharacter(actor) ? { ...statsFromCharacter(actor.system.stats), regeneration: regenerationRank(actor) } : null,
    playerOwned: combatant.hasPlayerOwner,
    defenceKeys: recorded ? [...recorded.defenceKeys] : defenceKeysOf(combatant),
    defeated: combatant.isDefeated,
    hidden: combatant.hidden,
    conditions: actor
      ? { dying: actor.statuses.has(statusId("dying")), aided: statusDetails(actor, "dying")?.aided === true, dyingFresh: statusDetails(actor, "dying")?.fresh === true, hold: holdOf(actor), unconscious: isUnconscious(actor) }
      : null,
  };
}

/**
 * The combatants in tracker order: by CASE order while resolving, else by Foundry's initiative
 * value (highest first; the Judge's own numbers in fixed order), then name, then id.
 */
export function trackerOrder(combat: Combat.Implementation): Combatant.Implementation[] {
  const system = combat.system;
  const order = new Map(system.order.map((id, i) => [id, i]));
  const resolving = isActingPhase(system.phase);
  return [...combat.combatants.contents].sort((a, b) => compareCombatants(a, b, resolving ? order : null));
}

/** The sort of {@link trackerOrder}; also CaseCombat's `_sortCombatants`. */
export function compareCombatants(a: Combatant.Implementation, b: Combatant.Implementation, order: ReadonlyMap<string, number> | null): number {
  if (order) {
    const ia = order.get(a.id ?? "") ?? Number.POSITIVE_INFINITY;
    const ib = order.get(b.id ?? "") ?? Number.POSITIVE_INFINITY;
    if (ia !== ib) return ia < ib ? -1 : 1;
  }
  const na = typeof a.initiative === "number" ? a.initiative : Number.NEGATIVE_INFINITY;
  const nb = typeof b.initiative === "number" ? b.initiative : Number.NEGATIVE_INFINITY;
  if (na !== nb) return nb > na ? 1 : -1;
  return (a.name ?? "").localeCompare(b.name ?? "") || ((a.id ?? "") > (b.id ?? "") ? 1 : -1);
}

/** A combat read and written for the engine. */
export class FoundryTurnHost implements TurnHost {
  constructor(
    private readonly combat: Combat.Implementation,
    /** The locks of the request writing (the engine checks the combat's; this host, each actor's it writes). */
    private readonly scope: WriteScope | null = null,
  ) {}

  /** Checks that the writing request holds `actor`'s lock (the request declared it; nothing here takes a lock). */
  private holds(actor: Actor.Implementation): WriteScope {
    if (!this.scope) throw new Error(`The turn of combat ${this.combat.id ?? ""} is written only inside a request.`);
    this.scope.require(actorLock(actor.uuid));
    return this.scope;
  }

  /**
   * The active GM writes the turn; so does a GM finishing a request it claimed while it was the
   * active GM (it holds the request's locks: the claim makes it the one writer of that request,
   * even when another GM became the active one meanwhile).
   */
  isWriter(): boolean {
    return isTurnWriter() || this.scope !== null;
  }

  snapshot(): TurnSnapshot {
    const record = turnRecordOf(this.combat.id ?? "");
    const secrets = record?.declarations ?? [];
    const groups = minorGroupsOf(this.combat);
    // The GM's record holds each written combatant's turn state; the document's (its owner may write it) only for one the GM never wrote.
    const recorded = new Map((record?.combatants ?? []).map((e) => [e.id, e]));
    return {
      combat: this.combat.system,
      combatants: trackerOrder(this.combat).map((c) => combatantInput(c, secrets, groups, recorded.get(c.id ?? ""))),
      settings: readTurnSettings(),
      history: record?.history ?? [],
    };
  }

  async write(write: TurnWrite, sync: { readonly round: number; readonly currentId: string | null }): Promise<void> {
    const combat = this.combat;
    if (write.combatants.length > 0 || write.history !== undefined) {
      // Secret declarations, the combatants' whole turn state and the history go to the GM's record first (one update); the combatants every player receives get the rest.
      await writeTurnRecord(combat, write.combatants, write.history);
    }
    if (write.combatants.length > 0) {
      await combat.updateEmbeddedDocuments(
        "Combatant",
        write.combatants.map((c) => ({ ...c, system: { ...c.system, declaration: publicDeclaration(c.system.declaration) } })),
      );
    }
    // Endurance and conditions are written under each actor's lock, which the request holds (shared with the cards and the damage API).
    for (const loss of write.endurance) {
      const actor = combat.combatants.get(loss.combatantId)?.actor;
      // Once per combat, turn and combatant (actor-writes.ts loseEnduranceRank).
      if (actor && isCharacter(actor)) {
        await loseEnduranceRank(this.holds(actor), actor, `dying:${combat.id ?? ""}:${sync.round}:${loss.combatantId}`, loss);
      }
    }
    // Regeneration: Health added under the actor's lock with a ledger entry per combat and turn (a replay adds nothing).
    for (const h of write.health ?? []) {
      const actor = combat.combatants.get(h.combatantId)?.actor;
      if (actor && isCharacter(actor)) {
        await syncUnconscious(actor, await regenerate(this.holds(actor), actor, `regen:${combat.id ?? ""}:${sync.round}:${h.combatantId}`, h.amount));
      }
    }
    for (const c of write.conditions) {
      const actor = combat.combatants.get(c.combatantId)?.actor;
      if (actor) this.holds(actor);
      await this.applyConditions(c);
    }
    const update: Record<string, unknown> = {};
    // Each changed field by its own dotted key: Foundry merges either form, and a key per field cannot drop the fields not written.
    for (const [key, value] of Object.entries(write.combat)) update[`system.${key}`] = value;
    // Foundry's round and turn follow the CASE turn once the combat has begun.
    if (combat.started) {
      if (combat.round !== sync.round) update.round = sync.round;
      const turn = this.turnIndex(write, sync.currentId);
      if (combat.turn !== turn) update.turn = turn;
    }
    if (Object.keys(update).length > 0) await combat.update(update);
  }

  /** The index Foundry's `turn` takes for `currentId`, sorting by the order about to be written. */
  private turnIndex(write: TurnWrite, currentId: string | null): number | null {
    if (currentId === null) return null;
    const system = this.combat.system;
    const order = write.combat.order ?? system.order;
    const map = new Map(order.map((id, i) => [id, i]));
    const sorted = [...this.combat.combatants.contents].sort((a, b) => compareCombatants(a, b, map));
    const index = sorted.findIndex((c) => c.id === currentId);
    return index < 0 ? null : index;
  }

  private async applyConditions(c: TurnWrite["conditions"][number]): Promise<void> {
    const combatant = this.combat.combatants.get(c.combatantId);
    const actor = combatant?.actor;
    if (!combatant || !actor) return;
    if (c.stunned !== undefined) {
      if (c.stunned === null) await clearStatus(actor, "stunned");
      else await setStatus(actor, "stunned", { turns: c.stunned.turns, startsNextTurn: c.stunned.startsNextTurn });
    }
    if (c.dying !== undefined) {
      if (c.dying === null) await clearStatus(actor, "dying");
      else await setStatus(actor, "dying", { aided: c.dying.aided, fresh: c.dying.fresh });
    }
    if (c.hold !== undefined) {
      if (c.hold !== "fullHold") await clearStatus(actor, "fullHold");
      if (c.hold !== "partialHold") await clearStatus(actor, "partialHold");
      if (c.hold !== "none") await setStatus(actor, c.hold);
    }
    if (c.dead) {
      await combatant.update({ defeated: true });
      await actor.toggleStatusEffect(CONFIG.specialStatusEffects.DEFEATED, { active: true, overlay: true });
    }
  }

  /** The Rolls behind the dice this host handed the engine, for the card that announces each. */
  private readonly rolls = new WeakMap<TurnDie, Roll>();

  async roll(formula: "1d10" | "1d100", count: number): Promise<TurnDie[]> {
    const dice: TurnDie[] = [];
    for (let i = 0; i < count; i++) {
      const roll = await new Roll(formula).evaluate();
      const die: TurnDie = { formula, total: roll.total };
      this.rolls.set(die, roll);
      dice.push(die);
    }
    return dice;
  }

  /**
   * Posts an announcement as a tracker card: the lines for everyone on one message, the secret
   * ones (an NPC's roll that reveals its declaration, a hidden combatant's) on another
   * whispered to the GMs; each die on the message of its line as a Roll in the message's
   * `rolls` (stored as JSON, as the attack cards keep theirs), so tooltips, Dice So Nice and
   * modules reading `message.rolls` see it once, and a whispered Roll reaches the GMs only
   * (Foundry delivers a whisper to its author and recipients; Dice So Nice animates a new
   * message's rolls for those who receive it: its public API, game.dice3d).
   */
  async announce(announcement: Announcement): Promise<void> {
    const t = (key: string, data?: Readonly<Record<string, string | number>>): string =>
      data ? game.i18n.format(key, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]))) : game.i18n.localize(key);
    const { open, secret, openDice, secretDice } = announcementLines(announcement, t);
    const title = t(announcement.title);
    const speaker = { alias: game.i18n.localize("CASE.Turn.ChatSpeaker") };
    const post = async (lines: readonly string[], dice: readonly TurnDie[], whisper: string[] | null): Promise<void> => {
      const rolls = dice.map((d) => this.rolls.get(d)).filter((r): r is Roll => r !== undefined);
      const content = await foundry.applications.handlebars.renderTemplate(TURN_CARD_TEMPLATE, { title, lines, dice: dice.map((d) => ({ formula: d.formula, total: d.total })) });
      await ChatMessage.implementation.create({ content, speaker, rolls: rolls.map((r) => JSON.stringify(r.toJSON())), ...(whisper ? { whisper } : {}) });
    };
    if (open.length > 0) await post(open, openDice, null);
    if (secret.length > 0) await post(secret, secretDice, game.users.filter((u) => u.isGM).map((u) => u.id));
  }

  nameOf(combatantId: string): string {
    return this.combat.combatants.get(combatantId)?.name ?? combatantId;
  }
}

/** The GM's record of a combat's secret declarations: a `turnRecord` message whispered to the GMs. */
function turnRecordMessage(combatId: string): ChatMessage.Implementation | undefined {
  return game.messages.find((m) => m.type === "turnRecord" && m.author?.isGM === true && (m.system as Partial<MessageSystem<"turnRecord">>).combatId === combatId);
}

/** What this client holds of a combat's record (nothing on a player's client: the record never reaches it). */
export interface TurnRecordView {
  readonly declarations: SecretDeclarations;
  readonly history: readonly StoredTurnStep[];
  /** The authoritative turn state of each combatant the GM has written. */
  readonly combatants: readonly RecordedCombatant[];
}

/** The secret declarations, the turn's history and the combatants' turn state this client holds for a combat (none on a player's client). */
export function turnRecordOf(combatId: string): TurnRecordView | null {
  const message = turnRecordMessage(combatId);
  if (!message) return null;
  const system = message.system as Partial<MessageSystem<"turnRecord">>;
  return { declarations: system.declarations ?? [], history: system.history ?? [], combatants: system.combatants ?? [] };
}

async function writeTurnRecord(combat: Combat.Implementation, combatants: TurnWrite["combatants"], history: readonly StoredTurnStep[] | undefined): Promise<void> {
  const combatId = combat.id ?? "";
  const message = turnRecordMessage(combatId);
  const record = turnRecordOf(combatId);
  const before = record?.declarations ?? [];
  const after = recordSecrets(before, combatants);
  const declarationsChanged = JSON.stringify(after) !== JSON.stringify(before);
  const recordedBefore = record?.combatants ?? [];
  // A combatant written without new keys keeps those the engine read: the record's, or (never written by the GM) its own.
  const keysBefore = (id: string): readonly string[] => {
    const entry = recordedBefore.find((e) => e.id === id);
    if (entry) return entry.defenceKeys;
    const doc = combat.combatants.get(id);
    return doc ? defenceKeysOf(doc) : [];
  };
  const recorded = combatants.length > 0 ? recordCombatants(recordedBefore, combatants, keysBefore) : null;
  if (!declarationsChanged && history === undefined && recorded === null) return;
  if (message) {
    await message.update(messageUpdate("turnRecord", {
      ...(declarationsChanged ? { "system.declarations": after } : {}),
      ...(recorded ? { "system.combatants": recorded } : {}),
      ...(history === undefined ? {} : { "system.history": [...history] }),
    }));
  }
  else {
    const whisper = game.users.filter((u) => u.isGM).map((u) => u.id);
    await ChatMessage.implementation.create({ type: "turnRecord", whisper, content: "", system: { combatId, declarations: after, combatants: recorded ?? [], history: history ?? [] } });
  }
}

/** The engine of a combat: to read it, or, with the request's `scope`, to write it. */
export function turnEngineOf(combat: Combat.Implementation, scope: WriteScope | null = null): TurnEngine {
  return new TurnEngine(new FoundryTurnHost(combat, scope), combat.id ?? "", scope);
}

/** The actor locks of a combat's combatants (what a turn step may write besides the combat). */
export function combatantActorLocks(combat: Combat.Implementation): string[] {
  return combat.combatants.contents.flatMap((c) => (c.actor ? [actorLock(c.actor.uuid)] : []));
}

/** The query handlers' view of the world's combats. */
export const foundryTurnDirectory: TurnDirectory = {
  engine(combatId, scope) {
    const combat = game.combats.get(combatId);
    return combat ? turnEngineOf(combat, scope) : null;
  },
  actorLocks(combatId) {
    const combat = game.combats.get(combatId);
    return combat ? combatantActorLocks(combat) : [];
  },
  owns(user: AskingUser, combatId, combatantId) {
    const combatant = game.combats.get(combatId)?.combatants.get(combatantId);
    if (!combatant) return null;
    return userOwns(user, combatant.actor ?? combatant);
  },
  nameOf(combatId, combatantId) {
    return game.combats.get(combatId)?.combatants.get(combatantId)?.name ?? combatantId;
  },
  aidFacts(combatId, aiderId, targetId) {
    const combatants = game.combats.get(combatId)?.combatants;
    const aider = combatants?.get(aiderId);
    const target = combatants?.get(targetId);
    if (!aider || !target) return null;
    const hasFirstAid = aider.actor?.items.some((i) => i.type === "talent" && isFirstAidTalent(i.name)) ?? false;
    const a = gridPlace(aider.token);
    const b = gridPlace(target.token);
    return { hasFirstAid, adjacent: a !== null && b !== null && aider.sceneId === target.sceneId && withinReach(a, b) };
  },
  mark: markCombatant,
};

/** Every started combat a character takes part in: the combats a card request on it declares. */
function startedCombatsOf(actor: Actor.Implementation): Combat.Implementation[] {
  const found: Combat.Implementation[] = [];
  for (const combat of game.combats) if (combat.started && combat.combatants.find((c) => c.actor === actor || (c.actor !== null && c.actor.uuid === actor.uuid))) found.push(combat);
  return found;
}

/** The started combats a character takes part in, and its combatant there (the viewed combat first). */
function combatantOfActor(actor: Actor.Implementation): { combat: Combat.Implementation; combatant: Combatant.Implementation } | null {
  const viewed = game.combat;
  const combats: Combat.Implementation[] = viewed ? [viewed] : [];
  for (const c of game.combats) if (c !== viewed) combats.push(c);
  for (const combat of combats) {
    if (!combat.started) continue;
    const combatant = combat.combatants.find((c) => c.actor === actor || (c.actor !== null && c.actor.uuid === actor.uuid));
    if (combatant) return { combat, combatant };
  }
  return null;
}

/**
 * The bridge the attack exchange (src/foundry/exchange) uses: defences used this turn, recording
 * one, whether the character has acted (for when a stun starts), recording a stun, and the
 * declared dodge's shift. It runs where the exchange's handlers run: on the active GM.
 */
export const turnCombatBridge: CombatBridge = {
  defencesUsed(actor) {
    // Read through the engine's state (on the GM, the record's copy), never the combatant its owner may write.
    const found = combatantOfActor(actor);
    const c = found ? turnEngineOf(found.combat).state().combatants.get(found.combatant.id ?? "") : undefined;
    return Promise.resolve(c ? c.defencesUsed : 0);
  },
  async recordDefence(scope, actor, defence?: DefenceCode, key?: string) {
    const found = combatantOfActor(actor);
    if (!found) return;
    const system = found.combat.system;
    if (!isActingPhase(system.phase)) return;
    await turnEngineOf(found.combat, scope).recordDefence(found.combatant.id ?? "", defence, key);
  },
  async forgetDefence(scope, actor, defence, key, countedIn) {
    const found = combatantOfActor(actor);
    if (found) await turnEngineOf(found.combat, scope).forgetDefence(found.combatant.id ?? "", defence, key, countedIn);
  },
  defenceRefusal(actor, defence) {
    const found = combatantOfActor(actor);
    if (!found) return Promise.resolve(null);
    return Promise.resolve(defenceRefusal(turnEngineOf(found.combat).state(), found.combatant.id ?? "", defence, { attacksInTurn: game.settings.get(SYSTEM_ID, "attacksInTurn") }));
  },
  hasActed(actor) {
    const found = combatantOfActor(actor);
    if (!found) return Promise.resolve(false);
    const c = turnEngineOf(found.combat).state().combatants.get(found.combatant.id ?? "");
    return Promise.resolve(c ? hasActedThisTurn(found.combat.system.phase, c) : false);
  },
  async recordStun(scope, actor, turns) {
    const found = combatantOfActor(actor);
    if (!found || turns < 1) return;
    await turnEngineOf(found.combat, scope).applyStun(found.combatant.id ?? "", turns);
  },
  stunOf(actor) {
    const found = combatantOfActor(actor);
    const c = found ? turnEngineOf(found.combat).state().combatants.get(found.combatant.id ?? "") : undefined;
    return Promise.resolve(c ? { turns: c.stunTurns, pending: c.stunPending } : null);
  },
  async restoreStun(scope, actor, before) {
    const found = combatantOfActor(actor);
    if (!found) return;
    await turnEngineOf(found.combat, scope).restoreStun(found.combatant.id ?? "", before.turns, before.pending);
  },
  turn(actor) {
    const found = combatantOfActor(actor);
    return Promise.resolve(found ? found.combat.round : null);
  },
  async markDefeated(scope, actor, defeated) {
    const found = combatantOfActor(actor);
    if (!found || found.combatant.defeated === defeated) return;
    scope.require(combatLock(found.combat.id ?? ""));
    await found.combatant.update({ defeated });
  },
  combatLocks(actor) {
    return startedCombatsOf(actor).map((combat) => combatLock(combat.id ?? ""));
  },
  declaration(actor) {
    const found = combatantOfActor(actor);
    if (!found) return Promise.resolve(null);
    return Promise.resolve(turnEngineOf(found.combat).state().combatants.get(found.combatant.id ?? "")?.declaration ?? null);
  },
  declaredDodgeShift(actor) {
    const found = combatantOfActor(actor);
    if (!found) return Promise.resolve(0);
    const engine = turnEngineOf(found.combat);
    const c = engine.state().combatants.get(found.combatant.id ?? "");
    return Promise.resolve(c ? declaredDodgeShift(c) : 0);
  },
  standing(actor) {
    const found = combatantOfActor(actor);
    if (!found) return Promise.resolve(null);
    const combatantId = found.combatant.id ?? "";
    const state = turnEngineOf(found.combat).state();
    const combatant = state.combatants.get(combatantId);
    return Promise.resolve(combatant ? { combatId: found.combat.id ?? "", combatantId, state, combatant } : null);
  },
  async spendAction(scope, combatId, combatantId, actionIndex) {
    const combat = game.combats.get(combatId);
    if (!combat) return;
    await turnEngineOf(combat, scope).completeAction(combatantId, actionIndex);
  },
};

/** Actions the character has left this turn (for sheets and macros); null outside a combat. */
export function actionsLeftOf(actor: Actor.Implementation): number | null {
  const found = combatantOfActor(actor);
  if (!found) return null;
  const c = turnEngineOf(found.combat).state().combatants.get(found.combatant.id ?? "");
  return c ? actionsLeft(c) : null;
}
