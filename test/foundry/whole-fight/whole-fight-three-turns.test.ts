/**
 * Issue 21, "three turns": a whole fight on the strict table (test/support/strict-table.ts).
 * Four players (two heroes each, each hero's sheet open on its player's client), a GM and a
 * second GM, eight NPCs; three whole CASE turns through the real tracker queries and the real
 * attack cards, with seeded random declarations, attacks, defences, checks and undos, a GM
 * reload and a GM hand-over (the active GM leaves, the second GM runs the table, the first
 * comes back). After every step the invariants are checked and any breach is recorded with
 * the step that made it; the test reports every breach at the end (one soft expectation per
 * invariant) and prints its figures. The lock timeout is 5 s (Foundry's request wait is 20 s): a
 * stalled click still reads as "timeout", in a quarter of the time.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { StrictTable, TABLE_USERS, USER_ROLES, installTableGlobals, seatCombat, weapon, type StrictClient } from "../../support/strict-table";
import { characterSource } from "../../support/exchange-world";
import { advancePhaseQuery, chooseExtraModeQuery, completeActionQuery, declareActionQuery, declareManyQuery, rollTurnInitiativeQuery } from "../../../src/foundry/combat/queries";
import { turnEngineOf } from "../../../src/foundry/combat/foundry-host";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { applyDamageQuery, consequenceQuery, defendQuery, undoDamageQuery } from "../../../src/foundry/exchange/gm-actions";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import { cardForViewer } from "../../../src/foundry/exchange/card-store";
import { abilityRows, derivedValues } from "../../../src/foundry/apps/sheet/sheet-context";
import { actionShift, targetActions, type CombatantTurn, type ExchangeState, type TurnState } from "../../../src/rules/index";
import type { QueryDefinition, QueryResult } from "../../../src/foundry/requests/router";

afterEach(() => {
  vi.unstubAllGlobals();
});

const COMBAT = "combat0000000001";
const id16 = (prefix: string, n: number): string => `${prefix}${String(n).padStart(16 - prefix.length, "0")}`;
const HEROES = Array.from({ length: 8 }, (_, i) => id16("hero", i + 1));
const NPCS = Array.from({ length: 8 }, (_, i) => id16("npc", i + 1));
const combatantOf = (actorId: string): string => id16("cbt", [...HEROES, ...NPCS].indexOf(actorId));
const HELPLESS = ["case-stunned", "case-unconscious", "case-dying"];

/** Every secret an NPC declaration carries starts with this (no player may ever receive it). */
const SECRET = "SECRET-PLAN";

interface Figures {
  seed: number;
  clicks: number;
  refused: Record<string, number>;
  requests: number;
  reloads: number;
  handOvers: number;
  attacks: number;
  defences: number;
  applied: number;
  checks: number;
  undos: number;
  forcedAdvances: number;
  steps: number;
  walks: string[];
  refusals: string[];
}

type Invariant = "turn shifts on the card" | "helpless roll" | "timeout" | "request handled once" | "health" | "secret to a player";

describe("whole fight", () => {
  it.each([2101, 2102])(
    "three turns (seed %i): four players with two heroes and a sheet open each, two GMs, eight NPCs; three whole CASE turns through the real tracker and cards; a GM reload and a GM hand-over; the invariants hold after every step",
    async (seed) => {
      installTableGlobals();
      const table = new StrictTable({ seed, lockTimeoutMs: 5_000, answerTimeoutMs: 30_000 });
      const rng = table.server.rng;
      const pick = <T,>(list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
      const { gm, gm2, alice, bob } = table.clients;
      const carol = table.join("carol00000000000", "Carol", USER_ROLES.PLAYER);
      const dave = table.join("dave000000000000", "Dave", USER_ROLES.PLAYER);
      const players = [alice, bob, carol, dave];
      const ownerOfHero = (actorId: string): StrictClient => players[Math.floor(HEROES.indexOf(actorId) / 2)] as StrictClient;
      const arms = (actorId: string, rank: number) => [weapon(`${actorId.slice(-6)}punch000`.slice(0, 16), "Haymaker", "BA", rank), weapon(`${actorId.slice(-6)}blast000`.slice(0, 16), "Force Blast", "En", rank + 10)];
      const itemOf = (actorId: string, kind: "punch" | "blast") => `Actor.${actorId}.Item.${`${actorId.slice(-6)}${kind}000`.slice(0, 16)}`;
      HEROES.forEach((id, i) => { table.server.addActor(id, `Hero ${i + 1}`, "hero", characterSource({ fighting: 30 + 10 * (i % 3), agility: 30, strength: 30, endurance: 40 }), [ownerOfHero(id).user.id], arms(id, 40)); });
      NPCS.forEach((id, i) => { table.server.addActor(id, `Villain ${i + 1}`, "npc", characterSource({ fighting: 20 + 10 * (i % 4), agility: 20, strength: 30, endurance: 30 }), [], arms(id, 30 + 10 * (i % 2))); });
      seatCombat(table, COMBAT, [...HEROES, ...NPCS]);
      for (const c of [gm, gm2, ...players]) await c.connect();
      await table.settle();

      const figures: Figures = { seed, clicks: 0, refused: {}, requests: 0, reloads: 0, handOvers: 0, attacks: 0, defences: 0, applied: 0, checks: 0, undos: 0, forcedAdvances: 0, steps: 0, walks: [], refusals: [] };
      const breaches: Record<Invariant, string[]> = { "turn shifts on the card": [], "helpless roll": [], timeout: [], "request handled once": [], health: [], "secret to a player": [] };
      const counts: Record<Invariant, number> = { "turn shifts on the card": 0, "helpless roll": 0, timeout: 0, "request handled once": 0, health: 0, "secret to a player": 0 };
      /** Each distinct breach once (by `key`), the first dozen of each invariant kept for the report. */
      const seen = new Set<string>();
      const breach = (invariant: Invariant, text: string, key: string = text): void => {
        if (seen.has(`${invariant}:${key}`)) return;
        seen.add(`${invariant}:${key}`);
        counts[invariant] += 1;
        if (breaches[invariant].length < 12) breaches[invariant].push(`step ${figures.steps}: ${text}`);
      };
      const startHealth = new Map([...HEROES, ...NPCS].map((a) => [a, table.health(a)]));
      const cards: string[] = [];
      /** The active GM: the one the players' clients and the GMs agree on once the table is quiet. */
      const judge = (): StrictClient => (gm.connected ? gm : gm2);
      const turn = (): TurnState => judge().run(() => turnEngineOf(game.combats.get(COMBAT) as never).state());
      const card = (id: string): ExchangeState => readExchange(table.server.messages.get(id)?.system.exchange);
      /** The whole card as the active GM reads it (the public card joined with the GM's record of its secrets). */
      const gmCard = (id: string): ExchangeState => {
        const judgeClient = judge();
        const message = judgeClient.messages.get(id);
        return message ? judgeClient.run(() => cardForViewer(message as never)) : card(id);
      };
      const helpless = (actorId: string): string | null => {
        const source = table.server.actors.get(actorId);
        const statuses = source?.effects.flatMap((e) => e.statuses) ?? [];
        const status = HELPLESS.find((s) => statuses.includes(s));
        if (status) return status;
        return table.health(actorId) <= 0 ? "0 Health" : null;
      };
      const name = (actorId: string): string => table.server.actors.get(actorId)?.name ?? actorId;

      /** Each player's received documents already checked for secrets. */
      const checkedUpTo = new Map(players.map((p) => [p, 0]));
      /** The invariants that hold after any step. */
      const checkAll = async (): Promise<void> => {
        await table.settle(30_000);
        figures.steps += 1;
        // Each request is handled once: one answer written per request (the server's log of writes:
        // the GM deletes a request once answered, so a request still there is one never answered).
        const answers = new Map<string, number>();
        for (const w of table.server.applied) {
          if (w.write.op !== "update" || w.write.collection !== "ChatMessage" || !("system.answer" in w.write.data)) continue;
          answers.set(w.write.id, (answers.get(w.write.id) ?? 0) + 1);
          const answer = w.write.data["system.answer"] as { reason?: unknown } | null;
          if (answer?.reason === "timeout") breach("timeout", `request ${w.write.id} answered "timeout"`);
        }
        figures.requests = answers.size;
        for (const r of [...table.server.messages.values()].filter((m) => m.type === "request")) breach("request handled once", `request ${r._id} (${JSON.stringify(r.system.query)}) never answered`);
        for (const [id, n] of answers) if (n > 1) breach("request handled once", `message ${id} answered ${n} times`);
        // Health: the start less what the cards applied and did not undo; each open sheet shows it.
        for (const actorId of [...HEROES, ...NPCS]) {
          let taken = 0;
          for (const id of cards) for (const t of gmCard(id).targets) if (t.actorUuid === `Actor.${actorId}` && t.phase === "applied" && t.applied) taken += t.applied.healthBefore - t.applied.healthAfter;
          const expected = (startHealth.get(actorId) ?? 0) - taken;
          if (table.health(actorId) !== expected) breach("health", `${name(actorId)} has ${table.health(actorId)} Health, the cards say ${expected}`);
        }
        for (const player of players) {
          for (const heroId of HEROES.filter((h) => ownerOfHero(h) === player)) {
            const sheet = player.actors.get(heroId);
            if (!sheet) continue;
            // The open sheet re-renders from the player's copy.
            player.run(() => {
              abilityRows(sheet.system);
              derivedValues(sheet.system);
            });
            if (player.connected && sheet.system.health.value !== table.health(heroId)) breach("health", `${player.user.name}'s open sheet of ${name(heroId)} shows ${sheet.system.health.value} Health, the server holds ${table.health(heroId)}`);
          }
          // No player receives a secret: an NPC's declaration, the GM's records.
          const received = player.received;
          for (let i = checkedUpTo.get(player) ?? 0; i < received.length; i++) {
            const json = received[i] ?? "";
            if (json.includes(SECRET)) breach("secret to a player", `${player.user.name} received an NPC's declaration: ${json.slice(0, 120)}`);
            if (/"type":"(attackRecord|turnRecord)"/.test(json)) breach("secret to a player", `${player.user.name} received a GM record: ${json.slice(0, 120)}`);
            // An attack card: an NPC attacker's scores and a sealed (NPC) row's Health are the GM's.
            const doc = JSON.parse(json) as { type?: unknown; system?: { exchange?: unknown } };
            if (doc.type === "attack" && doc.system?.exchange) {
              const state = readExchange(doc.system.exchange);
              const npcAttacker = NPCS.some((n) => state.attacker.uuid.includes(n));
              if (npcAttacker && (state.attacker.value !== 0 || state.attacker.strength !== 0)) breach("secret to a player", `players received ${state.attacker.name}'s scores on an attack card (value ${state.attacker.value}, Strength ${state.attacker.strength})`, `attacker:${state.attacker.uuid}:${JSON.stringify(state.targets.map((t) => t.uuid))}`);
              for (const t of state.targets) {
                if (t.sealed === true && t.applied && (t.applied.healthBefore !== 0 || t.applied.healthAfter !== 0)) breach("secret to a player", `players received ${t.name}'s Health (${t.applied.healthBefore} → ${t.applied.healthAfter}) on an attack card`, `health:${t.name}:${t.applied.healthBefore}`);
              }
            }
          }
          checkedUpTo.set(player, received.length);
        }
      };
      /** A click, counted; a refusal is tallied by reason and a "timeout" is a breach. */
      const click = async <P, R>(by: StrictClient, query: QueryDefinition<P, R>, payload: Record<string, unknown>): Promise<QueryResult<R>> => {
        figures.clicks += 1;
        const result = await by.click(query, payload);
        if (!result.ok) {
          figures.refused[result.reason] = (figures.refused[result.reason] ?? 0) + 1;
          if (result.reason !== "stale" && figures.refusals.length < 20) figures.refusals.push(`step ${figures.steps + 1}: ${by.user.name}'s ${query.name}: ${result.reason}: ${result.message}`);
          if (result.reason === "timeout") breach("timeout", `${by.user.name}'s ${query.name} answered "timeout": ${result.message}`);
        }
        await checkAll();
        return result;
      };
      const ownerOf = (actorId: string): StrictClient => (HEROES.includes(actorId) ? ownerOfHero(actorId) : judge());
      const actorOfCombatant = (combatantId: string): string => [...HEROES, ...NPCS][Number(combatantId.slice(3))] ?? "";

      /** One attack by the acting combatant's owner, its defence, damage, checks and maybe an undo. */
      const attack = async (attackerId: string, tracked: CombatantTurn | undefined): Promise<void> => {
        const foes = (HEROES.includes(attackerId) ? NPCS : HEROES).filter((a) => !table.server.combats.get(COMBAT)?.combatants.find((c) => c.actorId === a)?.defeated);
        if (foes.length === 0) return;
        const target = pick(foes);
        const attackerHelpless = helpless(attackerId);
        const diceBefore = table.rolled.length;
        const result = await click(ownerOf(attackerId), attackQuery, { itemUuid: itemOf(attackerId, pick(["punch", "blast"] as const)), targetUuids: [`Actor.${target}`], input: {} });
        if (attackerHelpless && (result.ok || table.rolled.length > diceBefore)) breach("helpless roll", `${name(attackerId)} (${attackerHelpless}) attacked ${name(target)}${table.rolled.length > diceBefore ? " and dice were rolled" : ""}`);
        if (!result.ok || !result.value) return;
        figures.attacks += 1;
        const id = (result.value).messageId;
        cards.push(id);
        // Every shift the tracker holds for the attacker is on its card.
        if (tracked) {
          const state = card(id);
          const toHit = state.toHitCs.map((r) => r.cs);
          const standing = actionShift(tracked) - tracked.actionCs - tracked.nextActionCs;
          for (const [what, cs] of [["extra actions", tracked.actionCs], ["change of action", tracked.nextActionCs], ["hold or full move", standing]] as const) {
            if (cs !== 0 && !toHit.includes(cs)) breach("turn shifts on the card", `${name(attackerId)}'s tracker holds ${cs} CS (${what}); the card's to-hit shifts are [${toHit.join(", ")}]`, `${id}:${what}`);
          }
          if (tracked.damageCs !== 0 && !JSON.stringify({ ...state, toHitCs: [] }).includes(`"cs":${tracked.damageCs}`)) breach("turn shifts on the card", `${name(attackerId)}'s tracker holds a flurry's +${tracked.damageCs} CS on damage; the card's damage does not show it`, `${id}:damage`);
        }
        // The defence: the target's owner picks one of the offered defences (the GM for an NPC).
        const row = card(id).targets[0];
        if (!row) return;
        const offered = targetActions(card(id), row.key).defend;
        if (offered.length > 0) {
          const targetHelpless = helpless(target);
          const choice = rng() < 0.3 ? "none" : pick([...offered, "none"]);
          const dice = table.rolled.length;
          const defended = await click(ownerOf(target), defendQuery, { messageId: id, targetKey: row.key, defence: choice });
          if (defended.ok) figures.defences += 1;
          const rolledDefence = card(id).targets[0]?.defence;
          if (targetHelpless && choice !== "none" && defended.ok && (rolledDefence?.code ?? "none") !== "none") breach("helpless roll", `${name(target)} (${targetHelpless}) defended with ${choice}${table.rolled.length > dice ? " and dice were rolled" : ""}`);
        }
        // Damage, the checks it calls for, and now and then an undo.
        if (targetActions(card(id), row.key).apply && rng() < 0.9) {
          if ((await click(judge(), applyDamageQuery, { messageId: id, targetKey: row.key })).ok) figures.applied += 1;
          for (const check of targetActions(card(id), row.key).checks) {
            if (rng() < 0.85 && (await click(judge(), consequenceQuery, { messageId: id, targetKey: row.key, check })).ok) figures.checks += 1;
          }
          if (rng() < 0.3 && (await click(judge(), undoDamageQuery, { messageId: id, targetKey: row.key })).ok) figures.undos += 1;
        }
      };

      /** The GM advances one phase (forcing only when the phase waits on something). */
      const advance = async (): Promise<void> => {
        const from = turn().combat.phase;
        const result = await click(judge(), advancePhaseQuery, { combatId: COMBAT, from });
        if (!result.ok && turn().combat.phase === from) {
          figures.forcedAdvances += 1;
          await click(judge(), advancePhaseQuery, { combatId: COMBAT, from, force: true });
        }
      };

      for (let turnNumber = 1; turnNumber <= 3; turnNumber++) {
        // The hand-over: at turn 2 the active GM leaves and the second GM runs the table; at turn 3 the first comes back.
        if (turnNumber === 2) {
          gm.drop();
          figures.handOvers += 1;
          await checkAll();
        }
        if (turnNumber === 3) {
          await gm.connect();
          figures.handOvers += 1;
          await checkAll();
        }
        // Declare: players for their heroes, the GM for the NPCs (secret), in one go.
        for (const heroId of HEROES) {
          const attacking = rng() < 0.75;
          const declaration = attacking ? { text: `${name(heroId)} attacks`, kind: "attack", attack: pick(["BA", "EA"]), actions: rng() < 0.4 ? 2 : 1 } : { text: `${name(heroId)} dodges`, kind: "defence", defence: "dodge", actions: 1 };
          await click(ownerOfHero(heroId), declareActionQuery, { combatId: COMBAT, combatantId: combatantOf(heroId), declaration });
        }
        await click(judge(), declareManyQuery, { combatId: COMBAT, declarations: NPCS.map((npcId, i) => ({ combatantId: combatantOf(npcId), declaration: { text: `${SECRET} ${turnNumber}.${i}: crush ${name(pick(HEROES))}`, kind: "attack", attack: "BA", actions: rng() < 0.25 ? 2 : 1 } })) });
        await advance();
        // Extra actions: whoever passed picks separate or flurry (the GM for an NPC).
        for (const actorId of [...HEROES, ...NPCS]) {
          const extra = turn().combatants.get(combatantOf(actorId))?.extra ?? null;
          if (extra?.success === true && extra.mode === null) await click(ownerOf(actorId), chooseExtraModeQuery, { combatId: COMBAT, combatantId: combatantOf(actorId), mode: pick(["separate", "flurry"]) });
        }
        await advance();
        // Initiative: each player rolls for their two heroes.
        for (const player of players) await click(player, rollTurnInitiativeQuery, { combatId: COMBAT, combatantIds: HEROES.filter((h) => ownerOfHero(h) === player).map(combatantOf) });
        await advance();
        // The GM reloads once, in the first turn's Resolve.
        if (turnNumber === 1) {
          gm.drop();
          await gm.connect();
          figures.reloads += 1;
          await checkAll();
        }
        // Resolve, the extra rounds (when anyone has one) and wrap-up, to the next turn's Declare.
        const walked: string[] = [turn().combat.phase];
        for (let guard = 0; guard < 12 && !(turn().combat.phase === "declare" && turn().combat.number === turnNumber + 1); guard++) {
          const acting = turn().combat.phase;
          for (let actions = 0; actions < 40 && (acting === "resolve" || acting === "extraRounds") && turn().combat.phase === acting; actions++) {
            const state = turn();
            const current = state.combat.order[state.combat.cursor];
            if (current === undefined) break;
            const actorId = actorOfCombatant(current);
            const tracked = state.combatants.get(current);
            if (tracked?.declaration?.kind === "attack" && rng() < 0.8) await attack(actorId, tracked);
            const done = await click(ownerOf(actorId), completeActionQuery, { combatId: COMBAT, combatantId: current, actionIndex: tracked?.actionsUsed ?? 0 });
            if (!done.ok) await click(judge(), completeActionQuery, { combatId: COMBAT, combatantId: current, actionIndex: tracked?.actionsUsed ?? 0 });
            const after = turn();
            if (after.combat.cursor === state.combat.cursor && after.combat.phase === state.combat.phase) break;
          }
          await advance();
          walked.push(turn().combat.phase);
        }
        figures.walks.push(walked.join(">"));
        expect(turn().combat, `turn ${turnNumber} ends in the next turn's Declare (${walked.join(" → ")})`).toMatchObject({ phase: "declare", number: turnNumber + 1 });
      }

      console.info(
        `whole fight, three turns, seed ${figures.seed}: ${figures.steps} steps, ${figures.clicks} clicks (refused: ${JSON.stringify(figures.refused)}), ${figures.requests} requests, ${figures.attacks} attacks, ${figures.defences} defences, ${figures.applied} applied, ${figures.checks} checks, ${figures.undos} undos, ${figures.forcedAdvances} forced advances, ${figures.reloads} GM reload, ${figures.handOvers} GM hand-overs; phases walked ${figures.walks.join(" | ")}; breaches: ${JSON.stringify(counts)}`,
      );
      if (figures.refusals.length > 0) console.info(`refused (other than "already done"):\n  ${figures.refusals.join("\n  ")}`);
      for (const [invariant, list] of Object.entries(breaches)) if (list.length > 0) console.info(`${invariant}:\n  ${list.join("\n  ")}`);
      expect(figures.attacks).toBeGreaterThan(10);
      expect(table.clients.gm.user.id).toBe(TABLE_USERS.gm.id);
      for (const [invariant, list] of Object.entries(breaches)) expect.soft(list, invariant).toEqual([]);
    },
    240_000,
  );
});
