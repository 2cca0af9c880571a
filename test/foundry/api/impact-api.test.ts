/**
 * The Judge's impacts (src/foundry/api/impact-api.ts) on the test world: a fall or a charge at an
 * object of a chosen material strength, resolved by the GM's handler for the named characters
 * (material strength as body armor, the rebound on the charger), Health written under each
 * actor's lock with a ledger entry, a chat card rendered with the real template; refused for a
 * player and for malformed input; a replay changes nothing. The dialog's template and reader too.
 * Expected numbers come from the rules' own functions.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, FakeMessage, GM, installWorld, kestrelAndGravel, type FakeActor, type World } from "../../support/exchange-world";
import { impactQuery } from "../../../src/foundry/api/impact-api";
import { impactPromptContext, readImpactForm } from "../../../src/foundry/api/impact-forms";
import { statusId } from "../../../src/foundry/status-effects";
import { DEFAULT_GROUND_MATERIAL_STRENGTH } from "../../../src/rules/index";
import { MACROS } from "../../../scripts/packs/content/macros";
import { foundryDouble } from "../../support/foundry-double";
import { renderTemplate } from "../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../support/html";

let world: World;
let hero: FakeActor; // Alice's: End 30, Health 110
let villain: FakeActor; // the GM's
let created: { type: string; system: Record<string, unknown>; whisper?: string[] }[];
/** The next card the GM posts fails (its tab closes first), once. */
let cutBeforeCard = false;

let nextId = 0;
function requestId(): string {
  nextId += 1;
  return `imp${String(nextId).padStart(13, "0")}`;
}

beforeEach(() => {
  world = installWorld();
  ({ hero, villain } = kestrelAndGravel(world));
  created = [];
  cutBeforeCard = false;
  vi.stubGlobal("fromUuid", (uuid: string) => Promise.resolve([...world.actors.values()].find((a) => a.uuid === uuid) ?? null));
  vi.stubGlobal("ChatMessage", {
    getWhisperRecipients: () => [GM],
    implementation: {
      create: (data: { type: string; system: Record<string, unknown>; whisper?: string[] }) => {
        if (cutBeforeCard) {
          cutBeforeCard = false;
          return Promise.reject(new Error("The GM's tab closed."));
        }
        created.push(structuredClone(data));
        // The message is in the chat log, as the server would broadcast it: an impact card the GM wrote.
        const message = new FakeMessage(`msgimpact${String(created.length).padStart(7, "0")}`, null, data.type, GM, data.system);
        world.messages.set(message.id, message);
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

/** The posted card `index` as every client renders it: its model's template with its model's context. */
async function cardHtml(index = 0) {
  const data = created[index];
  if (!data) throw new Error(`No card ${String(index)} was posted.`);
  const { ImpactCardData } = await import("../../../src/foundry/api/impact-card");
  const model = new ImpactCardData(data.system as never, { parent: { author: GM } as never });
  return parseHtml(renderTemplate(model.template.replace(/^systems\/case\//, ""), await model.context()));
}

function payload(extra: Record<string, unknown> = {}) {
  return JSON.parse(JSON.stringify({ requestId: requestId(), actorUuids: [hero.uuid], kind: "object", areas: 3, materialStrength: 20, ...extra })) as Record<string, unknown>;
}

describe("charging an object and falling (the Judge's impact tool)", () => {
  it("a charge at an Excellent (20) wall: the GM takes the rebound off Health with a ledger entry and posts the card", async () => {
    // Worked by hand (§5): End (res) 30 +2 per area over 3 areas = 36 charge damage; the wall's
    // Excellent 20 stops 20 of it (16 gets through) and rebounds 20 onto Kestrel (no body armor).
    const before = hero.system.health.value;
    const answer = await world.ask(impactQuery, GM.id, payload());
    expect(answer).toMatchObject({ ok: true, value: { replayed: false, targets: [{ name: "Kestrel", damage: 36, rebound: 20, breaks: true, before, after: before - 20, killCheck: false }] } });
    expect(hero.system.health.value).toBe(before - 20);
    expect(hero.updates).toHaveLength(1);
    expect(JSON.stringify(hero.flags)).toContain("impact:");
    expect(created[0]?.type).toBe("impact");
    expect(created[0]?.system).toMatchObject({ requestId: answer.ok ? answer.value?.requestId : "", by: GM.name });
    const card = await cardHtml();
    expect(text(queryOne(card, ".card-title"))).toBe("A charge at an object");
    expect(text(queryOne(card, ".impact-what"))).toBe("Areas: 3, into Excellent material (20)");
    expect(text(queryOne(card, ".impact-targets li"))).toMatch(/Kestrel\s+Charge damage 36\s+16 get through: it breaks, or is barrelled through\s+20 rebounds onto the character\s+Health 110 → 90 \/ 110/);
  });

  it("a fall onto the ground: the faller takes the ground's material strength; one falling to 0 Health is Unconscious", async () => {
    await hero.update({ "system.health.value": 5 });
    const answer = await world.ask(impactQuery, GM.id, payload({ kind: "fall", areas: 10, materialStrength: DEFAULT_GROUND_MATERIAL_STRENGTH }));
    expect(answer).toMatchObject({ ok: true, value: { targets: [{ rebound: DEFAULT_GROUND_MATERIAL_STRENGTH, after: 0, reachedZero: true, killCheck: true }] } });
    expect(text(queryOne(await cardHtml(), ".impact-kill"))).toBe("Kill? check due: roll End (res)");
    expect(hero.statuses.has(statusId("unconscious"))).toBe(true);
    expect(text(queryOne(await cardHtml(), ".card-title"))).toBe("A fall");
  });

  it("falling ally reachable from the impact prompt: a targeted catcher rolls Agy (bal); red sets the faller down, white takes the faller's charge (End 30 + 2 × 3 areas = 36)", async () => {
    const before = { kestrel: hero.system.health.value, gravel: villain.system.health.value };
    // Gravel's Agility 20 (Excellent): 99 is red, caught cleanly: nobody is hurt.
    world.dice.push(99);
    const clean = await world.ask(impactQuery, GM.id, payload({ kind: "fall", areas: 3, materialStrength: 10, catcherUuid: villain.uuid }));
    expect(clean).toMatchObject({ ok: true, value: { caught: { name: "Gravel", die: 99, color: "red", result: "caught", damage: 0 }, targets: [{ rebound: 0, after: before.kestrel }] } });
    // 10 is white: Kestrel falls into Gravel, a charge (36 against Gravel's armor 0), nothing back (Gravel wears none).
    world.dice.push(10);
    const hit = await world.ask(impactQuery, GM.id, payload({ kind: "fall", areas: 3, materialStrength: 10, catcherUuid: villain.uuid }));
    expect(hit).toMatchObject({ ok: true, value: { caught: { result: "autoHit", damage: 36 }, targets: [{ rebound: 0 }] } });
    expect([hero.system.health.value, villain.system.health.value]).toEqual([before.kestrel, before.gravel - 36]);
    expect(text(queryOne(await cardHtml(1), ".impact-caught"))).toBe("Gravel tries to catch: 10, White: missed the catch and was hit (36)");
    // Gravel is an NPC: his roll and the damage he took name his numbers, so only the GMs get the card.
    expect(created[1]?.whisper?.length).toBeGreaterThan(0);
  });

  it("a replayed impact request changes nothing and posts no second card", async () => {
    const p = payload({ actorUuids: [hero.uuid, villain.uuid] });
    await world.ask(impactQuery, GM.id, p);
    const after = [hero.system.health.value, villain.system.health.value];
    expect(await world.ask(impactQuery, GM.id, p)).toMatchObject({ ok: true, value: { replayed: true } });
    expect([hero.system.health.value, villain.system.health.value]).toEqual(after);
    expect(created).toHaveLength(1);
    // Gravel is an NPC: the card, which gives away Endurance and armor, goes to the GMs only.
    expect(created[0]?.whisper).toEqual([GM.id]);
  });

  it("an impact cut after its Health writes and before its card: the retry writes nothing twice and posts the card once", async () => {
    const before = hero.system.health.value;
    const p = payload();
    cutBeforeCard = true;
    expect((await world.ask(impactQuery, GM.id, p)).ok).toBe(false);
    const after = hero.system.health.value;
    expect(after).toBeLessThan(before);
    expect(created).toHaveLength(0);
    expect(await world.ask(impactQuery, GM.id, p)).toMatchObject({ ok: true, value: { replayed: true } });
    expect(hero.system.health.value).toBe(after);
    expect(created).toHaveLength(1);
    // And a third time: the card is there, nothing more is posted.
    expect(await world.ask(impactQuery, GM.id, p)).toMatchObject({ ok: true, value: { replayed: true } });
    expect(created).toHaveLength(1);
  });

  it("an impact on heroes only is a public card", async () => {
    await world.ask(impactQuery, GM.id, payload());
    expect(created[0]?.whisper).toEqual([]);
  });

  it("an impact is refused for a player, and for malformed input, changing nothing", async () => {
    const before = hero.system.health.value;
    expect(await world.ask(impactQuery, ALICE.id, payload())).toMatchObject({ ok: false, reason: "forbidden" });
    for (const bad of [{ kind: "jump" }, { areas: 0 }, { materialStrength: -1 }, { actorUuids: [] }, { requestId: "x" }]) {
      expect(await world.ask(impactQuery, GM.id, payload(bad))).toMatchObject({ ok: false, reason: "malformed" });
    }
    expect(hero.system.health.value).toBe(before);
    expect(created).toHaveLength(0);
  });

  it("the impact dialog renders every kind and material strength (Good ground first) and reads its form strictly", () => {
    const doc = parseHtml(renderTemplate("templates/dialog/impact-prompt.hbs", impactPromptContext(["Kestrel", "Gravel"], "imp1")));
    expect(queryAll(doc, 'select[name="kind"] option').map((o) => attr(o, "value"))).toEqual(["fall", "object"]);
    expect(text(queryOne(doc, 'select[name="materialStrength"] option[selected]'))).toBe("Good (10)");
    expect(text(queryOne(doc, ".impact-prompt-targets"))).toBe("Selected: Kestrel, Gravel");
    expect(readImpactForm({ kind: "fall", areas: "4", materialStrength: "20" })).toEqual({ kind: "fall", areas: 4, materialStrength: 20 });
    expect(readImpactForm({ kind: "fall", areas: "0", materialStrength: "20" })).toBeNull();
    expect(readImpactForm({ kind: "dive", areas: "2", materialStrength: "20" })).toBeNull();
    expect(readImpactForm({ kind: "object", areas: "2", materialStrength: "-3" })).toBeNull();
  });

  it("the Macros pack has the impact macro, calling the API only", () => {
    expect(MACROS.find((m) => m.command.includes("promptImpact"))?.command).toBe("await CONFIG.CASE.api.promptImpact();");
  });
});
