/**
 * The card and the board across users, on the strict table (test/support/strict-table.ts, with
 * a square-grid scene of tokens): *Apply to selected tokens* and a slam that moves the token.
 * Everything crosses as JSON, the server checks who may write what, and the active GM writes
 * every card, actor and token.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, CAST_SCENE, CAST_TOKENS, installTableGlobals, itemUuid, placeCast, seatCast, type StrictClient, StrictTable, TABLE_USERS } from "../../support/strict-table";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { applyDamageQuery, consequenceQuery } from "../../../src/foundry/exchange/gm-actions";
import { applyToSelectedQuery } from "../../../src/foundry/exchange/apply-to-selected";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import { attackCardContext, type Viewer } from "../../../src/foundry/exchange/card-context";
import { ledgerOf } from "../../../src/foundry/actor-writes";
import { docRankOf, docRollFor } from "../../support/rules-doc";
import { renderTemplate } from "../../support/handlebars";
import { parseHtml, text } from "../../support/html";
import type { ExchangeState } from "../../../src/rules/index";

const SCENE = CAST_SCENE;
const TOKEN = CAST_TOKENS;
const tokenUuid = (id: string) => `Scene.${SCENE}.Token.${id}`;
let table: StrictTable;

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 11 });
  seatCast(table);
  // A 20 × 7 square scene: Gravel at (2, 5), Kestrel at (4, 5) one square from the south edge, Wren and Shade to the north.
  placeCast(table, { gravel: [2, 5], kestrel: [4, 5], wren: [4, 2], shade: [6, 2] });
  await table.connectAll();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function card(id: string): ExchangeState {
  const source = table.server.messages.get(id);
  if (!source) throw new Error(`No card ${id}.`);
  return readExchange(source.system.exchange);
}

/** Gravel's Haymaker (Blunt Attack, 20 damage) on a token, the target unaware: the GM rolls a yellow (a Slam result) at once. */
async function slamHit(on: string): Promise<string> {
  const yellow = docRollFor(docRankOf(40).index, "yellow");
  table.dice.push(yellow);
  const result = await table.clients.gm.click(attackQuery, { itemUuid: itemUuid(CAST.gravel, "punch"), targetUuids: [tokenUuid(on)], input: { blindsided: true } });
  if (!result.ok || !result.value) throw new Error(`The attack was refused: ${JSON.stringify(result)}`);
  await table.settle();
  return result.value.messageId;
}

const tokenAt = (id: string) => {
  const t = table.server.scenes.get(SCENE)?.tokens.find((x) => x._id === id);
  return t ? { x: t.x / 100, y: t.y / 100 } : null;
};

function renderedFor(client: StrictClient, id: string): string {
  const viewer: Viewer = { isGM: client.user.isGM, owns: () => client.user.isGM, isNpc: () => false };
  return text(parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(client.run(() => readExchange(client.messages.get(id)?.system.exchange)), viewer, { hideNpcDefences: false, ownersApplyDamage: false }))));
}

describe("apply to selected: a row's damage to the selected tokens instead, on the strict table", () => {
  it("apply to selected: the GM puts the row's damage on two selected tokens; the target is untouched; each write once, ledgered; players see it", async () => {
    const id = await slamHit(TOKEN.kestrel);
    expect(card(id).targets[0]?.phase).toBe("resolved");
    expect(card(id).targets[0]?.damage?.dealt).toBe(20);
    const before = { kestrel: table.health(CAST.kestrel), wren: table.health(CAST.wren), shade: table.health(CAST.shade) };
    const result = await table.clients.gm.click(applyToSelectedQuery, { messageId: id, targetKey: "0", tokenUuids: [tokenUuid(TOKEN.wren), tokenUuid(TOKEN.shade)] });
    await table.settle();
    expect(result).toEqual({ ok: true, value: null });
    expect(table.health(CAST.kestrel)).toBe(before.kestrel);
    expect(table.health(CAST.wren)).toBe(before.wren - 20);
    expect(table.health(CAST.shade)).toBe(before.shade - 20);
    // One ledger entry per actor, naming the step.
    for (const actorId of [CAST.wren, CAST.shade]) {
      const ledger = ledgerOf({ flags: table.server.actors.get(actorId)?.flags ?? {} });
      expect(ledger.filter((e) => e.id.startsWith(`${id}:`) && e.id.endsWith(":0:selected"))).toHaveLength(1);
    }
    const row = card(id).targets[0];
    expect(row?.phase).toBe("applied");
    expect(row?.applied?.others?.map((o) => [o.name, o.before - o.after])).toEqual([
      ["Wren", 20],
      ["Shade", 20],
    ]);
    // The row is done: a second request (a double click) is refused and writes nothing.
    expect(await table.clients.gm.click(applyToSelectedQuery, { messageId: id, targetKey: "0", tokenUuids: [tokenUuid(TOKEN.wren)] })).toMatchObject({ ok: false, reason: "stale" });
    expect(await table.clients.gm.click(applyDamageQuery, { messageId: id, targetKey: "0" })).toMatchObject({ ok: false, reason: "stale" });
    expect(table.health(CAST.wren)).toBe(before.wren - 20);
    // Bob's client, through JSON, reads where the damage went.
    expect(renderedFor(table.clients.bob, id)).toContain("Applied instead to: Wren");
  });

  it("apply to selected: a GM cut between the Health writes is finished by the next GM on the same tokens, and the row is never applied a second time", async () => {
    const id = await slamHit(TOKEN.kestrel);
    const before = { kestrel: table.health(CAST.kestrel), wren: table.health(CAST.wren), shade: table.health(CAST.shade) };
    const { gm, gm2 } = table.clients;
    // The Judge's tab closes right after the mark on Kestrel and Wren's Health: Shade's write and the card's never happen.
    gm.dropAfterWrites(2);
    const cut = await gm.click(applyToSelectedQuery, { messageId: id, targetKey: "0", tokenUuids: [tokenUuid(TOKEN.wren), tokenUuid(TOKEN.shade)] });
    expect(cut.ok).toBe(false);
    // The co-Judge, now the active GM, finishes the cut step on taking over: Shade takes it, Wren not twice.
    await table.settle();
    expect(table.health(CAST.wren)).toBe(before.wren - 20);
    expect(table.health(CAST.shade)).toBe(before.shade - 20);
    expect(card(id).targets[0]?.applied?.others?.map((o) => [o.name, o.before, o.after])).toEqual([
      ["Wren", before.wren, before.wren - 20],
      ["Shade", before.shade, before.shade - 20],
    ]);
    // Apply on the row, or Apply to selected with other tokens, now finds nothing to apply: Kestrel is never hit.
    expect(await gm2.click(applyDamageQuery, { messageId: id, targetKey: "0" })).toMatchObject({ ok: false, reason: "stale" });
    expect(await gm2.click(applyToSelectedQuery, { messageId: id, targetKey: "0", tokenUuids: [tokenUuid(TOKEN.gravel)] })).toMatchObject({ ok: false, reason: "stale" });
    await table.settle();
    expect(table.health(CAST.kestrel)).toBe(before.kestrel);
    expect(table.health(CAST.wren)).toBe(before.wren - 20);
  });

  it("apply to selected: a player may not, unless damage is applied by owners, and then only a row whose target they own, onto tokens they own", async () => {
    const id = await slamHit(TOKEN.kestrel);
    const onWren = await slamHit(TOKEN.wren);
    const { alice } = table.clients;
    const kestrelHealth = table.health(CAST.kestrel);
    const wrenHealth = table.health(CAST.wren);
    expect(await alice.click(applyToSelectedQuery, { messageId: id, targetKey: "0", tokenUuids: [tokenUuid(TOKEN.kestrel)] })).toMatchObject({ ok: false, reason: "forbidden" });
    table.server.settings.set("case.damageAppliedBy", "owners");
    // Wren's row is Bob's to apply: Alice may not move its damage, not even onto her own token.
    expect(await alice.click(applyToSelectedQuery, { messageId: onWren, targetKey: "0", tokenUuids: [tokenUuid(TOKEN.kestrel)] })).toMatchObject({ ok: false, reason: "forbidden" });
    // Shade is the GM's: refused, and nothing is written on anyone.
    expect(await alice.click(applyToSelectedQuery, { messageId: id, targetKey: "0", tokenUuids: [tokenUuid(TOKEN.kestrel), tokenUuid(TOKEN.shade)] })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(table.health(CAST.kestrel)).toBe(kestrelHealth);
    expect(table.health(CAST.wren)).toBe(wrenHealth);
    // Her own row, onto her own token: accepted.
    expect(await alice.click(applyToSelectedQuery, { messageId: id, targetKey: "0", tokenUuids: [tokenUuid(TOKEN.kestrel)] })).toEqual({ ok: true, value: null });
    await table.settle();
    expect(table.health(CAST.kestrel)).toBe(kestrelHealth - 20);
    // Hostile payloads on a row still to apply (Wren's): no tokens, a malformed UUID, a token that is no character.
    for (const tokenUuids of [[], ["Scene.x.Token.<script>"]]) {
      expect(await table.clients.gm.click(applyToSelectedQuery, { messageId: onWren, targetKey: "0", tokenUuids })).toMatchObject({ ok: false, reason: "malformed" });
    }
    expect(await table.clients.gm.click(applyToSelectedQuery, { messageId: onWren, targetKey: "0", tokenUuids: [tokenUuid("missing000000001")] })).toMatchObject({ ok: false, reason: "stale" });
    await table.settle();
    expect(table.health(CAST.wren)).toBe(wrenHealth);
    expect(card(onWren).targets[0]?.applied ?? null).toBeNull();
  });
});

describe("slam moves: a slammed token goes the areas rolled, on the strict table", () => {
  /** Applies the row's damage, then Alice (Kestrel's owner) rolls the Slam?: End (res) Unearthly, `color`, then the d10. */
  async function rollSlam(id: string, color: "white" | "green", d10: number): Promise<void> {
    expect(await table.clients.gm.click(applyDamageQuery, { messageId: id, targetKey: "0" })).toEqual({ ok: true, value: null });
    await table.settle();
    table.dice.push(docRollFor(docRankOf(100).index, color), d10);
    expect(await table.clients.alice.click(consequenceQuery, { messageId: id, targetKey: "0", check: "slam" })).toEqual({ ok: true, value: null });
    await table.settle();
  }

  it("slam moves: with the setting off (the default) the token stays", async () => {
    const id = await slamHit(TOKEN.kestrel);
    await rollSlam(id, "green", 7);
    expect(card(id).targets[0]?.consequences[0]?.outcome).toMatchObject({ result: "oneArea", direction: "back" });
    expect(tokenAt(TOKEN.kestrel)).toEqual({ x: 4, y: 5 });
    expect(card(id).targets[0]?.consequences[0]?.moved ?? null).toBeNull();
  });

  it("slam moves: a player's Slam? roll, and the GM moves the token one area away from the attacker, once; the card says where", async () => {
    table.server.settings.set("case.slamMovesTokens", true);
    const id = await slamHit(TOKEN.kestrel);
    await rollSlam(id, "green", 7);
    expect(tokenAt(TOKEN.kestrel)).toEqual({ x: 5, y: 5 });
    expect(card(id).targets[0]?.consequences[0]?.moved).toEqual({ heading: "away", to: { x: 5, y: 5 }, areas: 1, edge: false });
    // The GM wrote the token, not the player (who owns Kestrel and could have).
    const moves = table.server.applied.filter((w) => w.write.collection === "Token");
    expect(moves.map((w) => w.user)).toEqual([TABLE_USERS.gm.id]);
    // Alice's client holds the moved token and reads the card's line.
    expect(table.clients.alice.scenes.get(SCENE)?.tokens.get(TOKEN.kestrel)?.x).toBe(500);
    expect(renderedFor(table.clients.alice, id)).toContain("Token moved 1 area away from the attacker.");
    // Once: a second Slam? is stale, and the token stays where it went.
    expect(await table.clients.alice.click(consequenceQuery, { messageId: id, targetKey: "0", check: "slam" })).toMatchObject({ ok: false, reason: "stale" });
    expect(tokenAt(TOKEN.kestrel)).toEqual({ x: 5, y: 5 });
    expect(table.server.applied.filter((w) => w.write.collection === "Token")).toHaveLength(1);
  });

  it("slam moves: a move Alice writes on her own token for the coming Slam? does not stand for the GM's: the token moves and the card says where", async () => {
    table.server.settings.set("case.slamMovesTokens", true);
    const id = await slamHit(TOKEN.kestrel);
    expect(await table.clients.gm.click(applyDamageQuery, { messageId: id, targetKey: "0" })).toEqual({ ok: true, value: null });
    await table.settle();
    // The Slam? step's id is the card, its revision, the row and the check: Alice can tell it, and writes a move of her own.
    const revision = Number(table.server.messages.get(id)?.system.revision);
    const fake = { heading: "away", to: { x: 19, y: 0 }, areas: 9, edge: false };
    const token = table.clients.alice.scenes.get(SCENE)?.tokens.get(TOKEN.kestrel);
    await table.clients.alice.run(() => token?.update({ "flags.case.slamMove": { id: `${id}:${String(revision)}:0:slam`, move: fake } }));
    await table.settle();
    table.dice.push(docRollFor(docRankOf(100).index, "green"), 7);
    expect(await table.clients.alice.click(consequenceQuery, { messageId: id, targetKey: "0", check: "slam" })).toEqual({ ok: true, value: null });
    await table.settle();
    expect(tokenAt(TOKEN.kestrel)).toEqual({ x: 5, y: 5 });
    expect(card(id).targets[0]?.consequences[0]?.moved).toEqual({ heading: "away", to: { x: 5, y: 5 }, areas: 1, edge: false });
  });

  it("slam moves: a token slammed to the right goes square to the attacker's line; the scene's edge stops it and the card says so", async () => {
    table.server.settings.set("case.slamMovesTokens", true);
    const id = await slamHit(TOKEN.kestrel);
    // A grand slam (white): thrown as by Strength = damage (Table 24), more than the one square south of Kestrel.
    await rollSlam(id, "white", 5);
    const outcome = card(id).targets[0]?.consequences[0];
    expect(outcome?.outcome).toMatchObject({ result: "grandSlam", direction: "right" });
    const rolled = outcome?.outcome?.check === "slam" ? outcome.outcome.areas : null;
    expect(typeof rolled === "number" && rolled > 1).toBe(true);
    // Looking east from Gravel, right is south: Kestrel stops in the bottom row.
    expect(tokenAt(TOKEN.kestrel)).toEqual({ x: 4, y: 6 });
    expect(outcome?.moved).toEqual({ heading: "right", to: { x: 4, y: 6 }, areas: 1, edge: true });
    expect(renderedFor(table.clients.bob, id)).toContain("Token moved 1 area to the attacker's right, stopped by the scene's edge.");
  });
});
