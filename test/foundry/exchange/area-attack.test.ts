/**
 * Area attacks in Foundry: the attacker's client places a template on the canvas (a canvas
 * double modelled on Foundry v13's documented API: test/support/template-canvas.ts), the tokens it
 * covers become the user's targets, and the GM (attackQuery, on the exchange test world) reads
 * the template and the scene's tokens itself and writes ONE card with a row for each covered
 * token at its distance from the centre. Then a crowd of minor foes is taken out with it.
 */
import "../../support/foundry-globals";
import "../../support/chat-globals";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, FakeActor, GM, characterSource, installWorld, type FakeMessage, type World } from "../../support/exchange-world";
import { CanvasDouble, GraphicsDouble, SceneDouble } from "../../support/template-canvas";
import { attackQuery, makeAttack } from "../../../src/foundry/exchange/make-attack";
import { applyAllQuery } from "../../../src/foundry/exchange/gm-actions";
import { areaPlacement, areaRegionData, areaTemplateData, areaTemplateFlags, placedAt } from "../../../src/foundry/exchange/area-template";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import { attackCardContext, type Viewer } from "../../../src/foundry/exchange/card-context";
import { lineSquares, type AreaDefinition, type ExchangeState } from "../../../src/rules/index";
import { docRankAt, docRankOf } from "../../support/rules-doc";
import { renderTemplate } from "../../support/handlebars";
import { parseHtml, queryAll, text } from "../../support/html";

let world: World;
let hero: FakeActor;
let scene: SceneDouble;
let author: { id: string };
let thugs: FakeActor[];

const BLAST: AreaDefinition = { shape: "burst", radius: 3, explosive: true };
/** Kestrel's Concussion Blast: a Force attack at Incredible (40), an explosive burst of 3 areas. */
function blastPower(area: AreaDefinition = BLAST): Item.Implementation {
  const system = {
    rank: 40,
    attack: { enabled: true, type: "Fo", range: 10, pullable: true, area: { explosive: false, ...area } },
    protection: { active: false, physical: false, energy: false, against: [], rank: null },
  };
  const made = { type: "power", name: "Concussion Blast", actor: hero, system, uuid: `${hero.uuid}.Item.power00000000001`, documentName: "Item" };
  hero.items.push(made);
  return made as unknown as Item.Implementation;
}

function cards(): FakeMessage[] {
  return [...world.messages.values()].filter((m) => m.type === "attack");
}
function cardState(card: FakeMessage | undefined = cards()[0]): ExchangeState {
  return readExchange(card?.system.exchange);
}

/** A template aimed at square (5, 5), placed on the scene by `author`. */
async function template(power: Item.Implementation, aim = { x: 5, y: 5 }, itemUuid = power.uuid): Promise<string> {
  const [made] = await scene.createEmbeddedDocuments("MeasuredTemplate", [areaTemplateData(BLAST, aim, { x: 4, y: 5 }, scene.grid, areaTemplateFlags(itemUuid))]);
  return made?.uuid ?? "";
}

beforeEach(() => {
  world = installWorld();
  hero = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ agility: 30, strength: 20, endurance: 30 }), [ALICE.id]);
  world.actors.set(hero.id, hero);
  author = ALICE;
  scene = new SceneDouble("scene00000000001", () => author);
  scene.addToken("tokhero000000001", hero, { x: 4, y: 5 }); // inside the blast: the attacker is spared
  // Four thugs (minor foes) at 0, 1, 2 and 3 areas from (5, 5); one beyond; one hidden by the GM.
  thugs = [0, 1, 2, 3, 4, 5].map((i) => new FakeActor(`thug00000000000${i}`, `Gutter Rat ${i + 1} of the Long-Named Harbour Gang`, "npc", { ...characterSource({ fighting: 6, agility: 6, strength: 6, endurance: 6 }), minor: true }, []));
  for (const t of thugs) world.actors.set(t.id, t);
  const squares = [{ x: 5, y: 5 }, { x: 6, y: 4 }, { x: 7, y: 7 }, { x: 2, y: 8 }, { x: 9, y: 5 }, { x: 5, y: 6 }];
  thugs.forEach((t, i) => scene.addToken(`tokthug00000000${i}`, t, squares[i] ?? { x: 0, y: 0 }, { hidden: i === 5 }));
  const actorsOrItems = globalThis.fromUuid as unknown as (uuid: string) => Promise<unknown>;
  vi.stubGlobal("fromUuid", (uuid: string): Promise<unknown> => Promise.resolve(scene.find(uuid) ?? actorsOrItems(uuid)));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("area attack: the GM makes one card from the template", () => {
  it("area attack: one card, a row for every token the template covers at its distance; the asker's own list is not trusted; the attacker and a hidden token are spared", async () => {
    const power = blastPower();
    const uuid = await template(power);
    // Alice names a token far outside the area: the GM reads the template itself.
    const result = await world.ask(attackQuery, ALICE.id, { itemUuid: power.uuid, targetUuids: [scene.tokens[5]?.uuid], input: {}, templateUuid: uuid });
    expect(result).toMatchObject({ ok: true });
    expect(cards()).toHaveLength(1);
    const state = cardState();
    expect(state.area).toEqual(BLAST);
    expect(state.projectile).toBeNull();
    expect(state.targets.map((t) => [t.uuid, t.areaDistance])).toEqual([0, 1, 2, 3].map((i) => [scene.tokens[i + 1]?.uuid, i]));
  });

  it("area lock keys: the GM declares the actors the template covers, never the payload's list", async () => {
    const power = blastPower();
    const uuid = await template(power);
    // Alice names three actors nowhere near the area (to make the GM queue on their locks).
    const strangers = [1, 2, 3].map((i) => new FakeActor(`stranger0000000${i}`, `Stranger ${i}`, "hero", characterSource({}), []));
    for (const a of strangers) world.actors.set(a.id, a);
    const payload = attackQuery.parse({ itemUuid: power.uuid, targetUuids: strangers.map((a) => a.uuid), input: {}, templateUuid: uuid });
    const keys = await attackQuery.lockKeys(payload, world.services);
    const actorKeys = keys.filter((k) => k.startsWith("actor:")).sort();
    expect(actorKeys).toEqual([hero, ...thugs.slice(0, 4)].map((a) => `actor:${a.uuid}`).sort());
    // A template the handler will refuse (another item's) declares no target at all.
    const other = await template(power, { x: 5, y: 5 }, "Actor.other.Item.other");
    const none = await attackQuery.lockKeys(attackQuery.parse({ itemUuid: power.uuid, targetUuids: strangers.map((a) => a.uuid), input: {}, templateUuid: other }), world.services);
    expect(none.filter((k) => k.startsWith("actor:"))).toEqual([`actor:${hero.uuid}`]);
  });

  it("area attack: refused without its template, with another item's or another user's template, or when no one is inside", async () => {
    const power = blastPower();
    const ask = (templateUuid?: string) => world.ask(attackQuery, ALICE.id, { itemUuid: power.uuid, targetUuids: [hero.uuid], input: {}, ...(templateUuid !== undefined ? { templateUuid } : {}) });
    expect(await ask()).toMatchObject({ ok: false, reason: "malformed", message: "This attack has an area: place its template first." });
    expect(await ask(await template(power, { x: 5, y: 5 }, "Actor.other.Item.other"))).toMatchObject({ ok: false, reason: "stale" });
    author = GM;
    expect(await ask(await template(power))).toMatchObject({ ok: false, reason: "stale", message: expect.stringContaining("placed by someone else") as string });
    author = ALICE;
    // Within range (9 areas from Kestrel) and empty; out of range (26 areas), refused as such.
    expect(await ask(await template(power, { x: 4, y: 14 }))).toMatchObject({ ok: false, message: "No one is in the area." });
    expect(await ask(await template(power, { x: 30, y: 30 }))).toMatchObject({ ok: false, reason: "forbidden", message: "Concussion Blast reaches 10 areas; that area is centred 26 areas away. Place it within range." });
    expect(cards()).toHaveLength(0);
  });

  it("area attack: an explosion's damage falls off row by row, and a crowd of minor foes goes down with one Apply all", async () => {
    world.settings.set("case.minorFoeRule", "outOnAnyDamage");
    const power = blastPower();
    world.dice.push(99, 99, 99, 99); // blindsided: the GM rolls each row's to-hit at once
    expect(await world.ask(attackQuery, ALICE.id, { itemUuid: power.uuid, targetUuids: [hero.uuid], input: { blindsided: true }, templateUuid: await template(power) })).toMatchObject({ ok: true });
    const id = cards()[0]?.id ?? "";
    expect(cardState().targets.map((t) => t.damage?.raw)).toEqual([0, 1, 2, 3].map((d) => docRankAt(docRankOf(40).index - d).number));
    expect(await world.ask(applyAllQuery, GM.id, { messageId: id })).toMatchObject({ ok: true });
    expect(cardState().targets.map((t) => t.applied?.out)).toEqual([true, true, true, true]);
    expect(thugs.slice(0, 4).map((t) => t.statuses.has("dead"))).toEqual([true, true, true, true]);
    expect(thugs[4]?.statuses.has("dead")).toBe(false);
  });

  it("area attack: the card notes the area and each row's distance, with four targets and more", async () => {
    const power = blastPower();
    world.dice.push(99, 99, 99, 99);
    await world.ask(attackQuery, ALICE.id, { itemUuid: power.uuid, targetUuids: [hero.uuid], input: { blindsided: true }, templateUuid: await template(power) });
    const gm: Viewer = { isGM: true, owns: () => true, isNpc: () => true };
    const html = parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(cardState(), gm, { hideNpcDefences: false, ownersApplyDamage: false })));
    expect(text(queryAll(html, ".area-tag")[0] ?? html)).toBe("Area: an explosion of radius 3 · targets: 4 (damage falls off)");
    expect(queryAll(html, ".target-row")).toHaveLength(4);
    expect(queryAll(html, ".area-distance").map((e) => text(e))).toEqual(["· areas from the centre: 1", "· areas from the centre: 2", "· areas from the centre: 3"]);
    expect(queryAll(html, "[data-action=\"caseApplyAll\"]")).toHaveLength(1);
  });
});

describe("area attack: placing the template on the canvas", () => {
  let board: CanvasDouble;
  beforeEach(() => {
    board = new CanvasDouble(scene);
    vi.stubGlobal("canvas", board);
    (CONFIG as unknown as { MeasuredTemplate: unknown }).MeasuredTemplate = board.templateClasses;
    (game.users as unknown as { activeGM: unknown }).activeGM = { id: GM.id, isSelf: true };
    author = GM;
  });

  it("area attack: a preview follows the pointer square by square, a left click places it, the covered tokens become the targets, and one card is made", async () => {
    const power = blastPower();
    const made = makeAttack(power, { skipDialog: true });
    await board.listening();
    expect(board.activeLayer).toBe("templates");
    const preview = board.previews[0];
    expect(preview?.drawn).toBe(true);
    board.move({ x: 550, y: 570 }); // square (5, 5)
    expect(preview?.document.data).toMatchObject({ t: "rect", x: 200, y: 200, direction: 45 });
    board.move({ x: 560, y: 520 }); // the same square: nothing to redraw
    expect(preview?.refreshes).toBe(1);
    expect(board.click({ x: 550, y: 570 }).stopped).toBe(true);
    const message = await made;
    expect(scene.templates).toHaveLength(1);
    expect(scene.templates[0]?.flags).toEqual({ case: { areaItem: power.uuid } });
    expect(board.targets).toEqual(["tokthug000000000", "tokthug000000001", "tokthug000000002", "tokthug000000003"]);
    expect(preview?.destroyed).toBe(true);
    expect(board.activeLayer).toBe("tokens");
    expect(message).toBe(cards()[0]);
    expect(cardState().targets).toHaveLength(4);
    expect(board.listeners.get("pointerdown")?.size).toBe(0);
  });

  it("area attack: a right click cancels: no template, no card, the preview removed", async () => {
    const made = makeAttack(blastPower(), { skipDialog: true });
    await board.listening();
    board.click({ x: 550, y: 550 }, 2);
    expect(await made).toBeNull();
    expect(scene.templates).toHaveLength(0);
    expect(cards()).toHaveLength(0);
    expect(board.previewChildren).toHaveLength(0);
  });

  it("area attack: with no scene on the canvas, or a line with no token of the attacker's, the user is told why", async () => {
    board.ready = false;
    expect(await makeAttack(blastPower(), { skipDialog: true })).toBeNull();
    expect(world.notifications.error).toHaveBeenCalledWith("An area attack is placed on a scene: open one first.");
    board.ready = true;
    scene.tokens.splice(0, 1);
    hero.items.length = 0;
    expect(await makeAttack(blastPower({ shape: "line", radius: 4 }), { skipDialog: true })).toBeNull();
    expect(world.notifications.error).toHaveBeenCalledWith("A line starts at the attacker: put the attacker's token on this scene first.");
  });

  it("area attack: property: a placed template gives back the square it was aimed at (a burst's centre; a line's heading)", () => {
    const square = fc.record({ x: fc.integer({ min: 0, max: 60 }), y: fc.integer({ min: 0, max: 60 }) });
    fc.assert(fc.property(square, square, fc.integer({ min: 1, max: 8 }), (aim, origin, radius) => {
      const burst: AreaDefinition = { shape: "burst", radius };
      expect(areaPlacement(burst, areaTemplateData(burst, aim, origin, scene.grid), origin, scene.grid).centre).toEqual(aim);
      if (aim.x === origin.x && aim.y === origin.y) return;
      const line: AreaDefinition = { shape: "line", radius };
      const { centre } = areaPlacement(line, areaTemplateData(line, aim, origin, scene.grid), origin, scene.grid);
      // The line runs from the attacker toward the aimed square: its far end lies on that heading.
      const heading = Math.atan2(aim.y - origin.y, aim.x - origin.x);
      const reached = Math.atan2(centre.y - origin.y, centre.x - origin.x);
      expect(Math.abs(Math.atan2(Math.sin(heading - reached), Math.cos(heading - reached)))).toBeLessThan(Math.PI / 4);
      expect(lineSquares(origin, centre, radius).length).toBe(radius);
    }));
  });
});

describe("area as region: Foundry 14 places a scene Region where 13 places a template", () => {
  let board: CanvasDouble;
  const release = (): { generation: number } => (game as unknown as { release: { generation: number } }).release;
  beforeEach(() => {
    board = new CanvasDouble(scene);
    vi.stubGlobal("canvas", board);
    (CONFIG as unknown as { MeasuredTemplate: unknown }).MeasuredTemplate = board.templateClasses;
    (game.users as unknown as { activeGM: unknown }).activeGM = { id: GM.id, isSelf: true };
    author = GM;
    release().generation = 14;
    vi.stubGlobal("PIXI", { Graphics: GraphicsDouble });
  });

  async function aimAndClick(power: Item.Implementation): Promise<unknown> {
    const made = makeAttack(power, { skipDialog: true });
    await board.listening();
    board.move({ x: 550, y: 570 }); // square (5, 5)
    board.click({ x: 550, y: 570 });
    return made;
  }

  it("area as region: on generation 14 an area attack places a Region (no MeasuredTemplate is created) and the GM posts one card with a row per covered token", async () => {
    const power = blastPower();
    const message = await aimAndClick(power);
    expect(scene.templates).toHaveLength(0);
    expect(scene.deprecations).toEqual([]);
    expect(scene.regions).toHaveLength(1);
    const region = scene.regions[0];
    expect(region?.flags).toEqual({ case: { areaItem: power.uuid } });
    expect(region?.shapes).toEqual([{ type: "rectangle", x: 200, y: 200, width: 700, height: 700, rotation: 0 }]);
    expect(board.targets).toEqual(["tokthug000000000", "tokthug000000001", "tokthug000000002", "tokthug000000003"]);
    expect(message).toBe(cards()[0]);
    expect(cards()).toHaveLength(1);
    expect(cardState().targets.map((t) => [t.uuid, t.areaDistance])).toEqual([0, 1, 2, 3].map((i) => [scene.tokens[i + 1]?.uuid, i]));
  });

  it("area as region: the GM reads a player's Region (its author, its item flag) and refuses another user's, another item's, or a template on 14", async () => {
    const power = blastPower();
    author = ALICE;
    const region = async (itemUuid = power.uuid): Promise<string> => (await scene.createEmbeddedDocuments("Region", [areaRegionData(BLAST, { x: 5, y: 5 }, { x: 4, y: 5 }, scene.grid, areaTemplateFlags(itemUuid), "Area")]))[0]?.uuid ?? "";
    const ask = (templateUuid: string) => world.ask(attackQuery, ALICE.id, { itemUuid: power.uuid, targetUuids: [hero.uuid], input: {}, templateUuid });
    expect(await ask(await template(power))).toMatchObject({ ok: false, reason: "stale" });
    expect(await ask(await region("Actor.other.Item.other"))).toMatchObject({ ok: false, reason: "stale" });
    author = GM;
    expect(await ask(await region())).toMatchObject({ ok: false, reason: "stale", message: expect.stringContaining("placed by someone else") as string });
    author = ALICE;
    expect(cards()).toHaveLength(0);
    expect(await ask(await region())).toMatchObject({ ok: true });
    expect(cardState().targets.map((t) => [t.uuid, t.areaDistance])).toEqual([0, 1, 2, 3].map((i) => [scene.tokens[i + 1]?.uuid, i]));
  });

  it("area preview on 14: aiming and placing an area logs no deprecation (no MeasuredTemplate class or layer touched): an outline on the controls layer follows the pointer square by square, a left click places the Region", async () => {
    board.installTemplateConfig(CONFIG);
    const power = blastPower();
    const made = makeAttack(power, { skipDialog: true });
    await board.listening();
    const outline = board.controlChildren[0];
    expect(outline).toBeInstanceOf(GraphicsDouble);
    if (!(outline instanceof GraphicsDouble)) return;
    expect(board.previews).toHaveLength(0);
    expect(board.activeLayer).toBe("tokens");
    board.move({ x: 550, y: 570 }); // square (5, 5): the burst's 7 × 7 squares round it
    expect(outline.polygons).toEqual([[200, 200, 900, 200, 900, 900, 200, 900].map((n) => expect.closeTo(n, 6) as number)]);
    const draws = outline.draws;
    board.move({ x: 560, y: 520 }); // the same square: nothing redrawn
    expect(outline.draws).toBe(draws);
    board.move({ x: 650, y: 570 }); // square (6, 5)
    expect(outline.polygons[0]?.[0]).toBeCloseTo(300, 6);
    board.move({ x: 550, y: 570 }); // back to (5, 5)
    expect(board.click({ x: 550, y: 570 }).stopped).toBe(true);
    expect(await made).toBe(cards()[0]);
    expect(board.deprecations).toEqual([]);
    expect(scene.deprecations).toEqual([]);
    expect(scene.templates).toHaveLength(0);
    expect(scene.regions[0]?.shapes).toEqual([{ type: "rectangle", x: 200, y: 200, width: 700, height: 700, rotation: 0 }]);
    expect(board.targets).toEqual(["tokthug000000000", "tokthug000000001", "tokthug000000002", "tokthug000000003"]);
    expect(outline.destroyed).toBe(true);
    expect(board.controlChildren).toHaveLength(0);
    expect(board.listeners.get("pointerdown")?.size).toBe(0);
  });

  it("area preview on 14: a line's outline runs from the attacker's square toward the pointer; a right click cancels (no Region, no card, the outline gone)", async () => {
    board.installTemplateConfig(CONFIG);
    const made = makeAttack(blastPower({ shape: "line", radius: 4 }), { skipDialog: true });
    await board.listening();
    const outline = board.controlChildren[0];
    if (!(outline instanceof GraphicsDouble)) throw new Error("no outline on the controls layer");
    board.move({ x: 450, y: 850 }); // square (4, 8): straight south of the attacker at (4, 5)
    // A one-square-wide (x 400 to 500), four-square-long rectangle from the middle of (4, 5) southward.
    expect(outline.polygons).toEqual([[500, 550, 500, 950, 400, 950, 400, 550].map((n) => expect.closeTo(n, 6) as number)]);
    board.click({ x: 450, y: 850 }, 2);
    expect(await made).toBeNull();
    expect(scene.regions).toHaveLength(0);
    expect(cards()).toHaveLength(0);
    expect(board.controlChildren).toHaveLength(0);
    expect(outline.destroyed).toBe(true);
    expect(board.deprecations).toEqual([]);
  });

  it("area preview on 14: on 13 the preview is unchanged (a MeasuredTemplate preview on the template layer, nothing on the controls layer)", async () => {
    release().generation = 13;
    board.installTemplateConfig(CONFIG);
    const power = blastPower();
    const made = makeAttack(power, { skipDialog: true });
    await board.listening();
    expect(board.previews).toHaveLength(1);
    expect(board.previewChildren).toHaveLength(1);
    expect(board.controlChildren).toHaveLength(0);
    expect(board.activeLayer).toBe("templates");
    board.move({ x: 550, y: 570 });
    expect(board.previews[0]?.document.data).toMatchObject({ t: "rect", x: 200, y: 200, direction: 45 });
    board.click({ x: 550, y: 570 });
    await made;
    expect(scene.templates).toHaveLength(1);
    expect(board.previews[0]?.destroyed).toBe(true);
  });

  it("area as region: on 13 the template path is unchanged (a template, no Region)", async () => {
    release().generation = 13;
    const power = blastPower();
    await aimAndClick(power);
    expect(scene.regions).toHaveLength(0);
    expect(scene.templates).toHaveLength(1);
    expect(cardState().targets).toHaveLength(4);
  });

  it("area as region: property: a placed Region gives back the square it was aimed at, as a template does", () => {
    const square = fc.record({ x: fc.integer({ min: 0, max: 60 }), y: fc.integer({ min: 0, max: 60 }) });
    fc.assert(fc.property(square, square, fc.integer({ min: 1, max: 8 }), fc.constantFrom<"burst" | "line">("burst", "line"), (aim, origin, radius, shape) => {
      if (shape === "line" && aim.x === origin.x && aim.y === origin.y) return;
      const area: AreaDefinition = { shape, radius };
      const at = placedAt({ uuid: "", shapes: areaRegionData(area, aim, origin, scene.grid, {}, "Area").shapes });
      expect(at).not.toBeNull();
      if (!at) return;
      expect(areaPlacement(area, at, origin, scene.grid)).toEqual(areaPlacement(area, areaTemplateData(area, aim, origin, scene.grid), origin, scene.grid));
    }));
  });

  it("area on its level: the GM's area reading counts only tokens on the attacker's level (v14 Scene Levels)", async () => {
    const power = blastPower();
    scene.tokens.splice(0, scene.tokens.length);
    scene.addToken("tokhero000000001", hero, { x: 4, y: 5 }, { level: "ground" });
    const squares = [{ x: 5, y: 5 }, { x: 6, y: 4 }, { x: 7, y: 7 }];
    thugs.slice(0, 3).forEach((t, i) => scene.addToken(`tokthug00000000${i}`, t, squares[i] ?? { x: 0, y: 0 }, { level: i === 1 ? "roof" : "ground" }));
    await aimAndClick(power);
    expect(cardState().targets.map((t) => t.uuid)).toEqual([scene.tokens[1]?.uuid, scene.tokens[3]?.uuid]);
  });
});
