/**
 * `CONFIG.CASE.api.applyDamage` (src/foundry/api/damage-api.ts) on the test world: the GM-side
 * query refuses non-owners and malformed requests (changing nothing), clamps Health to
 * [0, max], whispers a summary rendered with the real template, serialises concurrent
 * requests, and is replay-safe: a request id applied once is never applied again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, BOB, FakeActor, GM, TokenDocumentBase, characterSource, installWorld, type World, kestrelAndGravel } from "../../support/exchange-world";
import { applyDamage, applyDamageApiQuery, type DamageSummary } from "../../../src/foundry/api/damage-api";
import { foundryDouble } from "../../support/foundry-double";
import { renderTemplate } from "../../support/handlebars";
import { parseHtml, queryAll, text } from "../../support/html";

/** A token on a scene whose actor is one of the world's (a linked token, or an unlinked one's synthetic actor). */
class FakeToken extends TokenDocumentBase {
  constructor(
    readonly uuid: string,
    readonly actor: FakeActor,
  ) {
    super();
  }
}

let world: World;
let hero: FakeActor; // Alice's: Health max 30+30+20+30 = 110
let villain: FakeActor; // the GM's: max 40+20+40+30 = 130
let tokens: Map<string, FakeToken>;
let created: { content: string; whisper: string[]; speaker: { alias: string } }[];

const HERO_TOKEN = "Scene.scene00000000001.Token.token00000000001";
const VILLAIN_TOKEN = "Scene.scene00000000001.Token.token00000000002";
const HERO_TOKEN_2 = "Scene.scene00000000001.Token.token00000000003";

let nextId = 0;
function requestId(): string {
  nextId += 1;
  return `req${String(nextId).padStart(13, "0")}`;
}

function ask(userId: string, payload: Record<string, unknown>) {
  return world.ask(applyDamageApiQuery, userId, payload);
}

function health(actor: FakeActor): number {
  return actor.system.health.value;
}

beforeEach(() => {
  world = installWorld();
  ({ hero, villain } = kestrelAndGravel(world));
  tokens = new Map([
    [HERO_TOKEN, new FakeToken(HERO_TOKEN, hero)],
    [VILLAIN_TOKEN, new FakeToken(VILLAIN_TOKEN, villain)],
    [HERO_TOKEN_2, new FakeToken(HERO_TOKEN_2, hero)],
  ]);
  const actorOf = (uuid: string) => [...world.actors.values()].find((a) => a.uuid === uuid) ?? tokens.get(uuid) ?? null;
  vi.stubGlobal("fromUuid", (uuid: string) => Promise.resolve(actorOf(uuid)));
  created = [];
  vi.stubGlobal("ChatMessage", {
    getWhisperRecipients: (name: string) => (name === "GM" ? [GM] : []),
    implementation: {
      create: (data: (typeof created)[number]) => {
        created.push(structuredClone(data));
        return Promise.resolve(data);
      },
    },
  });
  vi.stubGlobal("foundry", {
    ...foundryDouble,
    utils: { randomID: () => requestId() },
    applications: { ...foundryDouble.applications, handlebars: { renderTemplate: (path: string, context: object) => Promise.resolve(renderTemplate(path.replace(/^systems\/case\//, ""), context)) } },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function summaryLines(): string[] {
  return queryAll(parseHtml(created[0]?.content ?? ""), ".damage-targets li").map(text);
}

describe("applying damage", () => {
  it("the GM damages tokens' actors: Health down by the amount, and a summary whispered", async () => {
    expect([health(hero), hero.system.health.max, health(villain), villain.system.health.max]).toEqual([110, 110, 130, 130]);
    const result = await ask(GM.id, { requestId: requestId(), tokenUuids: [HERO_TOKEN, VILLAIN_TOKEN], amount: 20 });
    expect(result.ok).toBe(true);
    expect([health(hero), health(villain)]).toEqual([90, 110]);
    // One write per actor: the Health and its ledger entry together.
    expect(hero.updates).toHaveLength(1);
    expect(hero.updates[0]).toMatchObject({ "system.health.value": 90 });
    const summary = (result as { value: DamageSummary }).value;
    expect(summary.targets.map((t) => [t.name, t.before, t.after, t.max, t.lost, t.reachedZero])).toEqual([
      ["Kestrel", 110, 90, 110, 20, false],
      ["Gravel", 130, 110, 130, 20, false],
    ]);
    expect(created).toHaveLength(1);
    expect(created[0]?.whisper).toEqual([GM.id]);
    expect(text(parseHtml(created[0]?.content ?? ""))).toContain("20 damage applied");
    expect(summaryLines()).toEqual(["Kestrel Health 110 → 90 / 110", "Gravel Health 130 → 110 / 130"]);
  });

  it("Health never goes below 0, and a character above its maximum is clamped to it first", async () => {
    const tough = new FakeActor("tough00000000001", "Overflow", "npc", characterSource({}, 500), []);
    world.actors.set(tough.id, tough);
    expect(tough.system.health.max).toBe(120);
    const result = await ask(GM.id, { requestId: requestId(), tokenUuids: [hero.uuid, tough.uuid], amount: 115 });
    expect(result.ok).toBe(true);
    expect(health(hero)).toBe(0);
    expect(health(tough)).toBe(5); // 500 clamped to 120, then −115
    expect(summaryLines()).toEqual(["Kestrel Health 110 → 0 / 110 down to 0 Health", "Overflow Health 120 → 5 / 120"]);
    // Already at 0: stays at 0.
    await ask(GM.id, { requestId: requestId(), tokenUuids: [hero.uuid], amount: 5 });
    expect(health(hero)).toBe(0);
  });

  it("an amount of 0 is refused: it would change nothing but a whisper per request", async () => {
    expect(await ask(GM.id, { requestId: requestId(), tokenUuids: [HERO_TOKEN], amount: 0 })).toMatchObject({ ok: false, reason: "malformed" });
    expect(health(hero)).toBe(110);
    expect(created).toEqual([]);
  });

  it("two tokens of one linked actor damage it once", async () => {
    const result = await ask(GM.id, { requestId: requestId(), tokenUuids: [HERO_TOKEN, HERO_TOKEN_2, hero.uuid], amount: 10 });
    expect((result as { value: DamageSummary }).value.targets).toHaveLength(1);
    expect(health(hero)).toBe(100);
  });
});

describe("who may apply damage", () => {
  it("a player may damage the characters they own; the summary goes to them and the GMs", async () => {
    const result = await ask(ALICE.id, { requestId: requestId(), tokenUuids: [HERO_TOKEN], amount: 7 });
    expect(result.ok).toBe(true);
    expect(health(hero)).toBe(103);
    expect(created[0]?.whisper).toEqual([GM.id, ALICE.id]);
    expect(created[0]?.speaker.alias).toBe("Alice");
  });

  it("a player who does not own a target is refused, and nothing is changed — not even the targets they own", async () => {
    const bob = await ask(BOB.id, { requestId: requestId(), tokenUuids: [HERO_TOKEN], amount: 10 });
    expect(bob).toMatchObject({ ok: false, reason: "forbidden" });
    const alice = await ask(ALICE.id, { requestId: requestId(), tokenUuids: [HERO_TOKEN, VILLAIN_TOKEN], amount: 10 });
    expect(alice).toMatchObject({ ok: false, reason: "forbidden", message: "you do not own Gravel." });
    expect([health(hero), health(villain)]).toEqual([110, 130]);
    expect(hero.updates).toEqual([]);
    expect(villain.updates).toEqual([]);
    expect(created).toEqual([]);
  });

  it("a target that does not exist is refused as stale, and nothing is changed", async () => {
    const result = await ask(GM.id, { requestId: requestId(), tokenUuids: [HERO_TOKEN, "Actor.gone000000000001"], amount: 10 });
    expect(result).toMatchObject({ ok: false, reason: "stale" });
    expect(health(hero)).toBe(110);
  });
});

describe("malformed requests", () => {
  const good = () => ({ requestId: requestId(), tokenUuids: [HERO_TOKEN], amount: 10 });
  it.each([
    ["a negative amount", { amount: -5 }],
    ["a fractional amount", { amount: 2.5 }],
    ["an amount given as text", { amount: "10" }],
    ["NaN", { amount: Number.NaN }],
    ["an infinite amount", { amount: Infinity }],
    ["an absurd amount", { amount: 100_001 }],
    ["no amount", { amount: undefined }],
    ["no request id", { requestId: undefined }],
    ["a bad request id", { requestId: "../x" }],
    ["no targets", { tokenUuids: [] }],
    ["targets that are not a list", { tokenUuids: HERO_TOKEN }],
    ["a target that is not a UUID", { tokenUuids: ["<script>"] }],
    ["a target that is not a string", { tokenUuids: [42] }],
    ["too many targets", { tokenUuids: Array(101).fill(HERO_TOKEN) }],
  ])("%s is refused, and nothing is changed", async (_what, change) => {
    const result = await ask(ALICE.id, { ...good(), ...change });
    expect(result).toMatchObject({ ok: false, reason: "malformed" });
    expect(health(hero)).toBe(110);
    expect(created).toEqual([]);
  });

  it("a payload that is not an object is refused", async () => {
    for (const raw of [null, "damage", [HERO_TOKEN], 10]) {
      await expect(world.ask(applyDamageApiQuery, ALICE.id, raw)).resolves.toMatchObject({ ok: false, reason: "malformed" });
    }
  });
});

describe("replays", () => {
  it("a request replayed with the same id changes nothing and answers with the first summary", async () => {
    const payload = { requestId: requestId(), tokenUuids: [HERO_TOKEN, VILLAIN_TOKEN], amount: 25 };
    const first = await ask(GM.id, payload);
    const second = await ask(GM.id, payload);
    const third = await ask(GM.id, { ...payload, amount: 99 }); // same id, altered: still the first request
    expect([health(hero), health(villain)]).toEqual([85, 105]);
    expect(hero.updates).toHaveLength(1);
    expect(created).toHaveLength(1);
    const a = (first as { value: DamageSummary }).value;
    expect(a.replayed).toBe(false);
    expect(second).toEqual({ ok: true, value: { ...a, replayed: true } });
    // The altered replay is answered with what the first run did to each target.
    expect(third).toMatchObject({ ok: true, value: { targets: a.targets, replayed: true } });
  });

  it("a new id is a new request; two at once are applied one after the other, none lost", async () => {
    const [a, b] = await Promise.all([ask(ALICE.id, { requestId: requestId(), tokenUuids: [HERO_TOKEN], amount: 10 }), ask(GM.id, { requestId: requestId(), tokenUuids: [hero.uuid], amount: 15 })]);
    expect(a.ok && b.ok).toBe(true);
    expect(health(hero)).toBe(85);
    // Each read Health inside the actor's lock: whichever ran first, the second started from its result.
    expect(hero.updates.map((u) => u["system.health.value"])).toHaveLength(2);
    expect(hero.updates.at(-1)?.["system.health.value"]).toBe(85);
  });

  it("each request id belongs to its user: another user's request with the same id is their own", async () => {
    const id = requestId();
    await ask(GM.id, { requestId: id, tokenUuids: [HERO_TOKEN], amount: 10 });
    await ask(ALICE.id, { requestId: id, tokenUuids: [HERO_TOKEN], amount: 10 });
    expect(health(hero)).toBe(90);
  });
});

describe("CONFIG.CASE.api.applyDamage (the asking side)", () => {
  beforeEach(() => {
    // The API asks through this client's router (CONFIG.CASE.router), which reads game.users.activeGM: here, this client.
    (game.users as unknown as { activeGM: unknown }).activeGM = { id: GM.id, isSelf: true };
  });

  it("sends a fresh request id each call, so two calls with the same numbers both apply", async () => {
    const one = await applyDamage([HERO_TOKEN], 10);
    const two = await applyDamage([HERO_TOKEN], 10);
    expect(one?.requestId).not.toBe(two?.requestId);
    expect(health(hero)).toBe(90);
  });

  it("refuses bad input before asking the GM, with a localised error", async () => {
    await expect(applyDamage([], 10)).resolves.toBeNull();
    await expect(applyDamage([HERO_TOKEN], -1)).resolves.toBeNull();
    expect(world.notifications.error).toHaveBeenCalledTimes(2);
    expect(String(world.notifications.error.mock.calls[0]?.[0])).toMatch(/^No damage was applied: /);
    expect(health(hero)).toBe(110);
  });

  it("with no GM connected: the user is told, nothing is changed", async () => {
    (game.users as unknown as { activeGM: unknown }).activeGM = null;
    await expect(applyDamage([HERO_TOKEN], 10)).resolves.toBeNull();
    expect(world.notifications.error).toHaveBeenCalledTimes(1);
    expect(health(hero)).toBe(110);
  });
});
