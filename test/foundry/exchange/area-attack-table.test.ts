/**
 * Area attacks and the minor foe rule across users, on the strict table (test/support/strict-table.ts):
 * Alice's client places the template on her copy of the scene (the server stamps her as its
 * author), her request reaches the active GM, who reads the template and the tokens from its own
 * copy and writes one card; then the Judge's *Apply all* takes a crowd of minor foes out of the
 * fight, marking each one's combatant defeated on the server.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, StrictTable, TABLE_USERS, installTableGlobals, seatCast, seatCombat, seatScene } from "../../support/strict-table";
import { characterSource } from "../../support/exchange-world";
import { CanvasDouble } from "../../support/template-canvas";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { applyAllQuery } from "../../../src/foundry/exchange/gm-actions";
import { areaRegionData, areaTemplateData, areaTemplateFlags, placeArea, type PlacedArea } from "../../../src/foundry/exchange/area-template";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import type { AreaDefinition } from "../../../src/rules/index";

const SCENE = "scene00000000001";
const GRENADE_ID = "grenade000000001";
const GRENADE = `Actor.${CAST.kestrel}.Item.${GRENADE_ID}`;
const AREA: AreaDefinition = { shape: "burst", radius: 2, explosive: true };
const THUGS = ["thug000000000001", "thug000000000002", "thug000000000003", "thug000000000004", "thug000000000005", "thug000000000006"];
let table: StrictTable;

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 11 });
  seatCast(table);
  table.server.actors.get(CAST.kestrel)?.items.push({
    _id: GRENADE_ID,
    name: "Concussion Grenade",
    type: "weapon",
    system: { attack: { enabled: true, type: "Fo", range: 2, pullable: true, area: AREA }, damage: { mode: "rank", rank: 20 }, materialStrength: 4, ammunition: { tracked: false, value: 0, max: 0 }, equipped: true },
  });
  THUGS.forEach((id, i) => { table.server.addActor(id, `Dock Thug ${i + 1}`, "npc", { ...characterSource({ fighting: 6, agility: 6, strength: 6, endurance: 6 }), minor: true }, []); });
  // Four thugs within 2 areas of (5, 5); one beyond; one the GM keeps hidden. Kestrel stands in it too.
  const at = [{ x: 5, y: 5 }, { x: 6, y: 6 }, { x: 7, y: 5 }, { x: 3, y: 3 }, { x: 9, y: 5 }, { x: 5, y: 4 }];
  seatScene(table, SCENE, [{ actorId: CAST.kestrel, x: 4, y: 5 }, ...THUGS.map((actorId, i) => ({ actorId, x: at[i]?.x ?? 0, y: at[i]?.y ?? 0, hidden: i === 5 }))]);
  seatCombat(table, "combat0000000001", [CAST.kestrel, ...THUGS]);
  // The combat is here for its combatants' defeated marks; it stays in Declare, where an attack is
  // out of turn: this world lets it through (flagged), as before attacks were part of the turn.
  table.server.settings.set("case.attacksInTurn", false);
  await table.connectAll();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("area attack across users (strict table)", () => {
  it("area attack: Alice places the template, the GM makes one card from its own copy; minor foe rule: Apply all takes the crowd out and marks their combatants", async () => {
    const { gm, alice } = table.clients;
    const scene = alice.scenes.get(SCENE);
    if (!scene) throw new Error("Alice's client holds no scene.");
    const board = new CanvasDouble(scene);
    const placed = await alice.run(async (): Promise<PlacedArea | null> => {
      const placing = placeArea(board, AREA, `Actor.${CAST.kestrel}`, GRENADE);
      await board.listening();
      board.move({ x: 550, y: 550 });
      board.click({ x: 550, y: 550 });
      return placing;
    });
    expect(placed?.targets.map((t) => t.distance)).toEqual([0, 1, 2, 2]);
    const template = table.server.scenes.get(SCENE)?.templates[0];
    expect(template).toMatchObject({ author: TABLE_USERS.alice.id, t: "rect", flags: { case: { areaItem: GRENADE } } });

    table.dice.push(99, 99, 99, 99); // blindsided: the GM rolls each row's to-hit
    const result = await alice.click(attackQuery, { itemUuid: GRENADE, targetUuids: placed?.targets.map((t) => t.uuid), input: { blindsided: true }, templateUuid: placed?.templateUuid });
    expect(result).toMatchObject({ ok: true });
    await table.settle();
    const cards = [...table.server.messages.values()].filter((m) => m.type === "attack");
    expect(cards).toHaveLength(1);
    const id = cards[0]?._id ?? "";
    const state = readExchange(cards[0]?.system.exchange);
    expect(cards[0]?.author).toBe(TABLE_USERS.gm.id);
    expect(state.area).toEqual(AREA);
    expect(state.targets.map((t) => t.name)).toEqual(["Dock Thug 1", "Dock Thug 2", "Dock Thug 3", "Dock Thug 4"]);

    table.server.settings.set("case.minorFoeRule", "outOnAnyDamage");
    expect(await gm.click(applyAllQuery, { messageId: id })).toMatchObject({ ok: true });
    await table.settle();
    const server = table.server;
    expect(THUGS.map((t) => server.actors.get(t)?.effects.some((e) => e.statuses.includes("dead")))).toEqual([true, true, true, true, false, false]);
    expect(server.combats.get("combat0000000001")?.combatants.map((c) => c.defeated)).toEqual([false, true, true, true, true, false, false]);
    // Alice's copy of the card says who is out.
    const seen = readExchange(alice.messages.get(id)?.system.exchange);
    expect(seen.targets.map((t) => t.applied?.out)).toEqual([true, true, true, true]);
  });

  it("area attack: a template is its author's: Bob cannot place one as Alice, and Alice cannot attack through a template Bob placed", async () => {
    const { alice, bob } = table.clients;
    const data = areaTemplateData(AREA, { x: 5, y: 5 }, { x: 4, y: 5 }, { size: 100, distance: 1 }, areaTemplateFlags(GRENADE));
    const bobScene = bob.scenes.get(SCENE);
    await expect(bob.run(() => bobScene?.createEmbeddedDocuments("MeasuredTemplate", [{ ...data, author: TABLE_USERS.alice.id }]))).rejects.toThrow(/may not place a template as/);
    const [bobs] = (await bob.run(() => bobScene?.createEmbeddedDocuments("MeasuredTemplate", [data]))) ?? [];
    await table.settle();
    const result = await alice.click(attackQuery, { itemUuid: GRENADE, targetUuids: [`Scene.${SCENE}.Token.tok0000000000001`], input: {}, templateUuid: bobs?.uuid });
    expect(result).toMatchObject({ ok: false, reason: "stale" });
    expect([...table.server.messages.values()].filter((m) => m.type === "attack")).toHaveLength(0);
  });

  it("template range: a range-2 grenade's burst centred 24 squares away is refused, naming the range, and nothing is written; within range it is made", async () => {
    const { alice } = table.clients;
    const aliceScene = alice.scenes.get(SCENE);
    // Kestrel stands at (4, 5): a burst centred on (28, 5) is 24 areas away; on (6, 5), 2.
    const far = areaTemplateData(AREA, { x: 28, y: 5 }, { x: 4, y: 5 }, { size: 100, distance: 1 }, areaTemplateFlags(GRENADE));
    const near = areaTemplateData(AREA, { x: 6, y: 5 }, { x: 4, y: 5 }, { size: 100, distance: 1 }, areaTemplateFlags(GRENADE));
    const [farTemplate, nearTemplate] = (await alice.run(() => aliceScene?.createEmbeddedDocuments("MeasuredTemplate", [far, near]))) ?? [];
    await table.settle();
    const writes = table.server.applied.length;
    const refused = await alice.click(attackQuery, { itemUuid: GRENADE, targetUuids: [`Scene.${SCENE}.Token.tok0000000000001`], input: { blindsided: true }, templateUuid: farTemplate?.uuid });
    expect(refused).toMatchObject({ ok: false, reason: "forbidden" });
    expect(JSON.stringify(refused)).toContain("Concussion Grenade reaches 2 areas; that area is centred 24 areas away");
    await table.settle();
    expect([...table.server.messages.values()].filter((m) => m.type === "attack")).toHaveLength(0);
    // Only Alice's request, the GM's claim on it (requests/gm.ts) and the answer: no actor, item or record written.
    const isClaim = (w: (typeof table.server.applied)[number]) => w.write.op === "create" && w.write.data.type === "requestClaim";
    expect(table.server.applied.slice(writes).filter((w) => !isClaim(w) && (w.write.collection !== "ChatMessage" || (w.write.op === "create" && w.user !== TABLE_USERS.alice.id)))).toHaveLength(0);
    table.dice.push(99, 99, 99, 99, 99);
    expect(await alice.click(attackQuery, { itemUuid: GRENADE, targetUuids: [`Scene.${SCENE}.Token.tok0000000000001`], input: { blindsided: true }, templateUuid: nearTemplate?.uuid })).toMatchObject({ ok: true });
  });
});

describe("area as region across users (strict table, Foundry 14)", () => {
  it("area as region: on 14 Alice's click places a Region she authors (no MeasuredTemplate), the GM reads it from its own copy and posts one card with a row per covered token; Bob's Region is refused", async () => {
    vi.unstubAllGlobals();
    installTableGlobals();
    table = new StrictTable({ seed: 11, generation: 14 });
    seatCast(table);
    table.server.actors.get(CAST.kestrel)?.items.push({
      _id: GRENADE_ID,
      name: "Concussion Grenade",
      type: "weapon",
      system: { attack: { enabled: true, type: "Fo", range: 2, pullable: true, area: AREA }, damage: { mode: "rank", rank: 20 }, materialStrength: 4, ammunition: { tracked: false, value: 0, max: 0 }, equipped: true },
    });
    THUGS.slice(0, 2).forEach((id, i) => { table.server.addActor(id, `Dock Thug ${i + 1}`, "npc", { ...characterSource({ fighting: 6, agility: 6, strength: 6, endurance: 6 }), minor: true }, []); });
    seatScene(table, SCENE, [{ actorId: CAST.kestrel, x: 4, y: 5 }, { actorId: THUGS[0] ?? "", x: 5, y: 5 }, { actorId: THUGS[1] ?? "", x: 9, y: 5 }]);
    table.server.settings.set("case.attacksInTurn", false);
    await table.connectAll();
    const { alice, bob } = table.clients;
    const scene = alice.scenes.get(SCENE);
    if (!scene) throw new Error("Alice's client holds no scene.");
    const board = new CanvasDouble(scene);
    const placed = await alice.run(async (): Promise<PlacedArea | null> => {
      const placing = placeArea(board, AREA, `Actor.${CAST.kestrel}`, GRENADE);
      await board.listening();
      board.move({ x: 550, y: 550 });
      board.click({ x: 550, y: 550 });
      return placing;
    });
    const server = table.server.scenes.get(SCENE);
    expect(server?.templates).toHaveLength(0);
    expect(table.server.deprecations).toEqual([]);
    expect(server?.regions?.[0]).toMatchObject({ author: TABLE_USERS.alice.id, flags: { case: { areaItem: GRENADE } } });
    expect(placed?.templateUuid).toMatch(/\.Region\./);
    table.dice.push(99);
    expect(placed?.targets.map((t) => t.distance)).toEqual([0]);
    expect(await alice.click(attackQuery, { itemUuid: GRENADE, targetUuids: placed?.targets.map((t) => t.uuid), input: { blindsided: true }, templateUuid: placed?.templateUuid })).toMatchObject({ ok: true });
    await table.settle();
    const cards = [...table.server.messages.values()].filter((m) => m.type === "attack");
    expect(cards).toHaveLength(1);
    expect(readExchange(cards[0]?.system.exchange).targets.map((t) => t.name)).toEqual(["Dock Thug 1"]);
    const bobScene = bob.scenes.get(SCENE);
    const [bobs] = (await bob.run(() => bobScene?.createEmbeddedDocuments("Region", [areaRegionData(AREA, { x: 5, y: 5 }, { x: 4, y: 5 }, { size: 100, distance: 1 }, areaTemplateFlags(GRENADE), "Area")]))) ?? [];
    await table.settle();
    expect(await alice.click(attackQuery, { itemUuid: GRENADE, targetUuids: placed?.targets.map((t) => t.uuid), input: {}, templateUuid: bobs?.uuid })).toMatchObject({ ok: false, reason: "stale" });
  });
});
