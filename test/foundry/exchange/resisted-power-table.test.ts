/**
 * A resisted power across users, on the strict table (test/support/strict-table.ts): Doctor
 * Gravel's Mind Control (Excellent, resisted by Psyche) at Alice's Kestrel (Psyche Good, Karma 30).
 * Good is one rank below Excellent, so the resistance needs red (§2); the Good column is red from
 * 98 (§1). Everything crosses as JSON; who asks is the request's server-stamped author.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, StrictTable, installTableGlobals, seatCast } from "../../support/strict-table";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { applyResistedQuery, resistQuery, undoResistedQuery } from "../../../src/foundry/exchange/resist-steps";
import { applyDamageQuery, consequenceQuery, defendQuery } from "../../../src/foundry/exchange/gm-actions";
import { buyOffDeathQuery } from "../../../src/foundry/exchange/death-steps";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import { attackCardContext, type Viewer } from "../../../src/foundry/exchange/card-context";
import { ledgerOf } from "../../../src/foundry/actor-writes";
import { renderTemplate } from "../../support/handlebars";
import { parseHtml, queryAll, text } from "../../support/html";
import { resistanceOf, type ExchangeState } from "../../../src/rules/index";

let table: StrictTable;
const POWER = "mindcontrol00001";

/** Gravel's Mind Control: an Energy attack of Excellent rank that Psyche resists; a failure is 10 turns of Mind-controlled, or `effect`. */
function mindControl(effect: "condition" | "fullHold" = "condition") {
  return {
    _id: POWER,
    name: "Puppet Strings",
    type: "power",
    system: {
      category: "mental",
      rank: 20,
      duration: "",
      active: true,
      regeneration: false,
      protection: { active: true, physical: false, energy: false, against: [], rank: null },
      attack: { enabled: true, type: "En", range: 3, pullable: false, area: { shape: "none", radius: 1, explosive: false } },
      resisted: { by: "psyche", effect, condition: "Mind-controlled", turns: 10 },
      stunts: [],
    },
  };
}

async function seat(effect: "condition" | "fullHold" = "condition"): Promise<void> {
  installTableGlobals();
  table = new StrictTable({ seed: 23 });
  seatCast(table);
  table.server.actors.get(CAST.gravel)?.items.push(mindControl(effect));
  await table.connectAll();
}
afterEach(() => {
  vi.unstubAllGlobals();
});

function card(id: string): ExchangeState {
  const source = table.server.messages.get(id);
  if (!source) throw new Error(`No card ${id}.`);
  return readExchange(source.system.exchange);
}

async function controlKestrel(): Promise<string> {
  const result = await table.clients.gm.click(attackQuery, { itemUuid: `Actor.${CAST.gravel}.Item.${POWER}`, targetUuids: [`Actor.${CAST.kestrel}`], input: {} });
  if (!result.ok || !result.value) throw new Error(`The attack was refused: ${JSON.stringify(result)}`);
  await table.settle();
  return result.value.messageId;
}

const kestrel = () => table.server.actors.get(CAST.kestrel);

describe("resisted power on the strict table", () => {
  beforeEach(() => seat());

  it("resisted power: Alice's card offers Resist (Psyche), no defence; Bob's forged Resist for Kestrel is refused and rolls nothing", async () => {
    const id = await controlKestrel();
    const viewer: Viewer = { isGM: false, owns: (uuid) => uuid === `Actor.${CAST.kestrel}`, isNpc: () => false };
    const html = parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(card(id), viewer, { hideNpcDefences: false, ownersApplyDamage: false, karmaOnChecks: true })));
    expect(text(html)).toContain("Resist (Psyche)");
    expect(queryAll(html, "[data-action=\"caseDefend\"]")).toHaveLength(0);
    expect(queryAll(html, "[data-action=\"caseResist\"]")).toHaveLength(1);
    // A defence on a resisted power is not offered, even asked for directly.
    expect(await table.clients.alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" })).toMatchObject({ ok: false, reason: "malformed" });
    // Bob does not own Kestrel: the server-stamped author decides, whatever the payload says.
    const forged = await table.clients.bob.click(resistQuery, { messageId: id, targetKey: "0", karma: 0, userId: table.clients.alice.user.id });
    expect(forged).toMatchObject({ ok: false, reason: "forbidden" });
    expect(forged.ok ? "" : forged.message).toMatch(/Only the GM or Kestrel.*'s owners can resist for Kestrel/);
    await table.settle();
    expect(card(id).targets[0]?.phase).toBe("awaitingDefence");
  });

  it("resisted power: a failed resistance (50, green, red needed) puts Mind-controlled for 10 turns on Kestrel when the GM applies it; Undo takes it off, once", async () => {
    const id = await controlKestrel();
    table.dice.push(50);
    expect(await table.clients.alice.click(resistQuery, { messageId: id, targetKey: "0" })).toEqual({ ok: true, value: null });
    await table.settle();
    expect(resistanceOf(card(id).targets[0] as never)).toMatchObject({ die: 50, color: "green", required: "red", resisted: false });
    // The damage rule is the world's (the GM applies): Alice may not apply it herself.
    expect(await table.clients.alice.click(applyResistedQuery, { messageId: id, targetKey: "0" })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await table.clients.gm.click(applyResistedQuery, { messageId: id, targetKey: "0" })).toEqual({ ok: true, value: null });
    await table.settle();
    const effects = () => (kestrel()?.effects ?? []).filter((e) => e.name === "Mind-controlled");
    expect(effects()).toHaveLength(1);
    expect(effects()[0]?.duration).toEqual({ rounds: 10 });
    expect(await table.clients.gm.click(applyResistedQuery, { messageId: id, targetKey: "0" })).toMatchObject({ ok: false, reason: "stale" });
    expect(effects()).toHaveLength(1);
    expect(await table.clients.gm.click(undoResistedQuery, { messageId: id, targetKey: "0" })).toEqual({ ok: true, value: null });
    await table.settle();
    expect(effects()).toHaveLength(0);
    expect(card(id).targets[0]?.phase).toBe("undone");
  });

  it("resisted power: Karma on the resistance: 78 + 20 Karma is 98, red, resisted; the 20 are spent once, ledgered; refused when the world forbids Karma on checks", async () => {
    const id = await controlKestrel();
    table.dice.push(78);
    expect(await table.clients.alice.click(resistQuery, { messageId: id, targetKey: "0", karma: 20 })).toEqual({ ok: true, value: null });
    await table.settle();
    expect(resistanceOf(card(id).targets[0] as never)).toMatchObject({ die: 78, karma: 20, total: 98, color: "red", resisted: true, effect: null });
    expect((kestrel()?.system as { karma: { value: number } }).karma.value).toBe(10);
    expect(ledgerOf({ flags: kestrel()?.flags ?? {} }).filter((e) => e.field === "system.karma.value")).toHaveLength(1);
    // Nothing to apply on a resisted row.
    expect(await table.clients.gm.click(applyResistedQuery, { messageId: id, targetKey: "0" })).toMatchObject({ ok: false, reason: "stale" });

    table.server.settings.set("case.karmaOnChecks", false);
    const second = await controlKestrel();
    const refused = await table.clients.alice.click(resistQuery, { messageId: second, targetKey: "0", karma: 10 });
    expect(refused).toMatchObject({ ok: false, reason: "forbidden" });
    expect(refused.ok ? "" : refused.message).toMatch(/world's ruling/);
    await table.settle();
    expect((kestrel()?.system as { karma: { value: number } }).karma.value).toBe(10);
    expect(card(second).targets[0]?.phase).toBe("awaitingDefence");
  });
});

describe("resisted power: a snare's hold", () => {
  beforeEach(() => seat("fullHold"));

  it("resisted power: a snare that is not resisted holds Kestrel (Full Hold, this card's); Undo frees it", async () => {
    const id = await controlKestrel();
    table.dice.push(10);
    await table.clients.alice.click(resistQuery, { messageId: id, targetKey: "0" });
    await table.clients.gm.click(applyResistedQuery, { messageId: id, targetKey: "0" });
    await table.settle();
    expect(kestrel()?.effects.some((e) => e.statuses.includes("case.fullHold") || e.statuses.some((s) => s.endsWith("fullHold")))).toBe(true);
    await table.clients.gm.click(undoResistedQuery, { messageId: id, targetKey: "0" });
    await table.settle();
    expect(kestrel()?.effects.some((e) => e.statuses.some((s) => s.endsWith("fullHold")))).toBe(false);
  });
});

describe("karma on defence on the strict table", () => {
  beforeEach(() => seat());

  it("karma on defence: Alice adds 20 Karma to Kestrel's Dodge (Remarkable): 50 + 20 is 70, yellow; spent once, ledgered; refused, nothing rolled, when the world forbids it", async () => {
    const blast = async () => {
      const result = await table.clients.gm.click(attackQuery, { itemUuid: `Actor.${CAST.gravel}.Item.blast0000000003`, targetUuids: [`Actor.${CAST.kestrel}`], input: {} });
      if (!result.ok || !result.value) throw new Error(`The attack was refused: ${JSON.stringify(result)}`);
      await table.settle();
      return result.value.messageId;
    };
    const id = await blast();
    table.dice.push(50, 10);
    expect(await table.clients.alice.click(defendQuery, { messageId: id, targetKey: "0", defence: "dodge", karma: 20 })).toEqual({ ok: true, value: null });
    await table.settle();
    expect(card(id).targets[0]?.defence).toMatchObject({ die: 50, karma: 20, color: "yellow" });
    expect((kestrel()?.system as { karma: { value: number } }).karma.value).toBe(10);
    expect(ledgerOf({ flags: kestrel()?.flags ?? {} }).filter((e) => e.field === "system.karma.value")).toHaveLength(1);

    table.server.settings.set("case.karmaOnDefence", false);
    const second = await blast();
    const refused = await table.clients.alice.click(defendQuery, { messageId: second, targetKey: "0", defence: "dodge", karma: 10 });
    expect(refused).toMatchObject({ ok: false, reason: "forbidden" });
    await table.settle();
    expect(card(second).targets[0]?.phase).toBe("awaitingDefence");
    expect((kestrel()?.system as { karma: { value: number } }).karma.value).toBe(10);
  });
});

describe("karma against death on the strict table", () => {
  beforeEach(async () => {
    installTableGlobals();
    table = new StrictTable({ seed: 29 });
    seatCast(table);
    // Kestrel at Shift 0 Endurance: the next Kill? loss kills (§8).
    const source = table.server.actors.get(CAST.kestrel);
    if (source) (source.system as { abilities: { endurance: { value: number } } }).abilities.endurance.value = 0;
    await table.connectAll();
  });

  it("karma against death: a Kill? that kills Kestrel offers Alice the buy-off; its 10 Karma on the Kill? and then all 20 left are spent, the rank and the defeated mark come back off, once; Bob may not", async () => {
    table.dice.push(100);
    const attack = await table.clients.gm.click(attackQuery, { itemUuid: `Actor.${CAST.gravel}.Item.blast0000000003`, targetUuids: [`Actor.${CAST.kestrel}`], input: { blindsided: true } });
    if (!attack.ok || !attack.value) throw new Error(JSON.stringify(attack));
    const id = attack.value.messageId;
    await table.settle();
    expect(await table.clients.gm.click(applyDamageQuery, { messageId: id, targetKey: "0" })).toEqual({ ok: true, value: null });
    await table.settle();
    // Karma on checks: Alice adds 10 Karma to Kestrel's Kill? (1 + 10 is still white on Shift 0): spent, and still a Kill.
    table.dice.push(1);
    expect(await table.clients.alice.click(consequenceQuery, { messageId: id, targetKey: "0", check: "kill", karma: 10 })).toEqual({ ok: true, value: null });
    await table.settle();
    expect(card(id).targets[0]?.consequences[0]).toMatchObject({ die: 1, karma: 10, color: "white", outcome: { check: "kill", dead: true } });
    expect((kestrel()?.system as { karma: { value: number } }).karma.value).toBe(20);
    const lostAfterKill = (kestrel()?.system as { lostEnduranceRanks: number }).lostEnduranceRanks;
    expect(kestrel()?.effects.some((e) => e.statuses.includes("dead"))).toBe(true);
    const viewer: Viewer = { isGM: false, owns: (uuid) => uuid === `Actor.${CAST.kestrel}`, isNpc: () => false };
    const html = parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(card(id), viewer, { hideNpcDefences: false, ownersApplyDamage: false, karmaAgainstDeath: true })));
    expect(queryAll(html, "[data-action=\"caseBuyOffDeath\"]")).toHaveLength(1);

    expect(await table.clients.bob.click(buyOffDeathQuery, { messageId: id, targetKey: "0" })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await table.clients.alice.click(buyOffDeathQuery, { messageId: id, targetKey: "0" })).toEqual({ ok: true, value: null });
    await table.settle();
    expect(card(id).targets[0]?.consequences[0]?.outcome).toMatchObject({ check: "kill", dead: false, endurance: 0, karmaAgainstDeath: 20 });
    expect((kestrel()?.system as { karma: { value: number } }).karma.value).toBe(0);
    expect((kestrel()?.system as { lostEnduranceRanks: number }).lostEnduranceRanks).toBe(lostAfterKill - 1);
    expect(kestrel()?.effects.some((e) => e.statuses.includes("dead"))).toBe(false);
    expect(await table.clients.alice.click(buyOffDeathQuery, { messageId: id, targetKey: "0" })).toMatchObject({ ok: false, reason: "stale" });
  });

  it("karma against death: the Judge's tab closing right after the Karma is spent; the next GM finishes the buy-off with the Karma spent once, the rank given back once", async () => {
    table.dice.push(100);
    const attack = await table.clients.gm.click(attackQuery, { itemUuid: `Actor.${CAST.gravel}.Item.blast0000000003`, targetUuids: [`Actor.${CAST.kestrel}`], input: { blindsided: true } });
    if (!attack.ok || !attack.value) throw new Error(JSON.stringify(attack));
    const id = attack.value.messageId;
    await table.settle();
    expect(await table.clients.gm.click(applyDamageQuery, { messageId: id, targetKey: "0" })).toEqual({ ok: true, value: null });
    await table.settle();
    table.dice.push(1);
    expect(await table.clients.alice.click(consequenceQuery, { messageId: id, targetKey: "0", check: "kill" })).toEqual({ ok: true, value: null });
    await table.settle();
    const lostAfterKill = (kestrel()?.system as { lostEnduranceRanks: number }).lostEnduranceRanks;
    expect((kestrel()?.system as { karma: { value: number } }).karma.value).toBe(30);
    // The GM's notes and the Karma spend are written, then the tab closes (the old code then found 0 Karma to buy off with).
    table.clients.gm.dropAfterWrites(3);
    await table.clients.alice.click(buyOffDeathQuery, { messageId: id, targetKey: "0" });
    await table.settle();
    expect(card(id).targets[0]?.consequences[0]?.outcome).toMatchObject({ check: "kill", dead: false, karmaAgainstDeath: 30 });
    expect((kestrel()?.system as { karma: { value: number } }).karma.value).toBe(0);
    expect((kestrel()?.system as { lostEnduranceRanks: number }).lostEnduranceRanks).toBe(lostAfterKill - 1);
  });
});
