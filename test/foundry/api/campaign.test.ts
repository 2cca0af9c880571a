/**
 * The campaign tools on the Foundry side (issue 11 items 3–5): Karma awards and rests through
 * the GM's router (the gm-router test world: payloads through JSON, server-stamped users, the
 * real handlers and data models), the Karma log written with the pool, advancement and rest on
 * the sheet, and the Resources and Popularity FEAT rolls. Expected numbers come from the real
 * rules functions and constants, never copies.
 */
import "../../support/foundry-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The roll path is not under test here (its card is tested in roll-score and action-card tests).
const rolled = vi.hoisted(() => [] as { value: number; karma: number; intensity: number | null; label: string }[]);
/** The next roll's success (its outcome), when a test needs one. */
const nextSuccess = vi.hoisted(() => ({ value: undefined as boolean | undefined }));
vi.mock("../../../src/foundry/dice/case-roll", () => ({
  CaseRoll: {
    fromCheck: (check: { value: number; karma: number; intensity: number | null; label: string }) => {
      rolled.push(check);
      return { evaluate: () => Promise.resolve(), toMessage: () => Promise.resolve(), outcome: nextSuccess.value === undefined ? undefined : { success: nextSuccess.value } };
    },
  },
}));
vi.mock("../../../src/foundry/exchange/make-attack", () => ({ makeAttack: vi.fn() }));
import { ALICE, FakeActor, GM, characterSource, installWorld, type World } from "../../support/exchange-world";
import { awardKarmaQuery, awardKarmaTo, playerCharacterUuids, restQuery, restSelected, type AwardedCharacter, type RestedCharacter } from "../../../src/foundry/api/campaign-api";
import { awardPromptContext, readAwardForm } from "../../../src/foundry/api/campaign-forms";
import { KARMA_LOG_SIZE } from "../../../src/foundry/data/actor/karma-log";
import { actorLock, karmaUpdate, spendKarmaOnce } from "../../../src/foundry/actor-writes";
import { LockScope } from "../../../src/foundry/requests/locks";
import { refusalText } from "../../../src/foundry/ui/error-text";
import { campaignSheetData, readRestForm, restDialogContext } from "../../../src/foundry/apps/sheet/sheet-campaign";
import { onAdvance, onAdvancePower, onLearnTalent, onRest, onRollFeat, onRollUnderworld } from "../../../src/foundry/apps/sheet/sheet-actions";
import { failedResourcesFeats, rollStandingFeat, standingFeatColumn } from "../../../src/foundry/dice/entry-points";
import { RECOVERY_SETTINGS } from "../../../src/foundry/core/settings";
import {
  DAYS_PER_ENDURANCE_RANK,
  DAYS_PER_ENDURANCE_RANK_MEDICAL,
  HEALTH_PER_DAY_ENDURANCE_FACTOR,
  MEDICAL_CARE_HEALTH_FACTOR,
  POPULARITY_FEAT_KARMA_ALLOWED,
  RESOURCES_FEAT_KARMA_ALLOWED,
  RESOURCES_FEAT_RETRY_DAYS,
  TALENT_COST,
  advancementCost,
  effectiveEndurance,
  healthAfterRest,
  lostRanksAfterRest,
  popularityColumnValue,
  replayKarmaLog,
  type KarmaLogEntry,
} from "../../../src/rules/index";
import { foundryDouble } from "../../support/foundry-double";
import { renderTemplate } from "../../support/handlebars";
import { attr, parseHtml, queryAll, text } from "../../support/html";

let world: World;
let hero: FakeActor; // Alice's
let villain: FakeActor; // the GM's

let nextId = 0;
function requestId(): string {
  nextId += 1;
  return `req${String(nextId).padStart(13, "0")}`;
}

function log(actor: FakeActor): KarmaLogEntry[] {
  return (actor.system as unknown as { karmaLog: KarmaLogEntry[] }).karmaLog;
}

function lost(actor: FakeActor): number {
  return (actor.system as unknown as { lostEnduranceRanks: number }).lostEnduranceRanks;
}

/** What a dialog answers next (DialogV2.wait → the form's fields; confirm → true/false). */
let dialogAnswer: unknown = null;
let confirmAnswer = true;
let rendered: { path: string; context: object }[] = [];

beforeEach(() => {
  world = installWorld();
  hero = new FakeActor("hero000000000001", "Kestrel", "hero", { ...characterSource({ endurance: 20 }, 50), karma: { value: 300 } }, [ALICE.id]);
  villain = new FakeActor("villain000000001", "Gravel", "npc", characterSource({ endurance: 40 }, 20), []);
  world.actors.set(hero.id, hero);
  world.actors.set(villain.id, villain);
  for (const [key, spec] of Object.entries(RECOVERY_SETTINGS)) world.settings.set(`case.${key}`, spec.default);
  rendered = [];
  rolled.length = 0;
  vi.stubGlobal("ChatMessage", { getSpeaker: () => ({}) });
  dialogAnswer = null;
  confirmAnswer = true;
  vi.stubGlobal("foundry", {
    ...foundryDouble,
    utils: { randomID: () => requestId() },
    applications: {
      ...foundryDouble.applications,
      api: {
        ...foundryDouble.applications.api,
        DialogV2: { wait: () => Promise.resolve(dialogAnswer), confirm: () => Promise.resolve(confirmAnswer) },
      },
      handlebars: {
        renderTemplate: (path: string, context: object) => {
          rendered.push({ path, context });
          return Promise.resolve(renderTemplate(path.replace(/^systems\/case\//, ""), context));
        },
      },
    },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("karma award", () => {
  const award = (userId: string, payload: Record<string, unknown>) => world.ask(awardKarmaQuery, userId, payload);

  it("the GM awards Karma with a reason: each pool rises and its log gains the entry, in one update", async () => {
    const id = requestId();
    const result = await award(GM.id, { requestId: id, actorUuids: [hero.uuid, villain.uuid], amount: 25, reason: "Saved the bus" });
    expect(result).toMatchObject({ ok: true });
    const value = (result as { value: AwardedCharacter[] }).value;
    expect(value.map((c) => [c.name, c.before, c.after])).toEqual([
      ["Kestrel", 300, 325],
      ["Gravel", 30, 55],
    ]);
    expect(hero.system.karma.value).toBe(325);
    expect(log(hero)).toEqual([expect.objectContaining({ kind: "award", reason: "Saved the bus", amount: 25, balanceAfter: 325 })]);
    expect(replayKarmaLog(300, log(hero))).toBe(325);
    // The pool, the log and the ledger entry are one update.
    expect(hero.updates).toHaveLength(1);
    expect(Object.keys(hero.updates[0] ?? {}).sort()).toEqual(["flags.case.ledger", "system.karma.value", "system.karmaLog"]);
  });

  it("a replayed request id awards nothing twice", async () => {
    const payload = { requestId: requestId(), actorUuids: [hero.uuid], amount: 10, reason: "Session 3" };
    await award(GM.id, payload);
    const again = await award(GM.id, payload);
    expect(again).toMatchObject({ ok: true });
    expect(hero.system.karma.value).toBe(310);
    expect(log(hero)).toHaveLength(1);
    expect(hero.updates).toHaveLength(1);
  });

  it("a player may not award Karma, not even to their own character; nothing changes", async () => {
    const result = await award(ALICE.id, { requestId: requestId(), actorUuids: [hero.uuid], amount: 10, reason: "I deserve it" });
    expect(result).toMatchObject({ ok: false, reason: "forbidden" });
    expect(hero.system.karma.value).toBe(300);
    expect(hero.updates).toHaveLength(0);
  });

  it("refuses a malformed award (no reason, no Karma, no targets, not a UUID)", async () => {
    for (const bad of [
      { actorUuids: [hero.uuid], amount: 10, reason: "  " },
      { actorUuids: [hero.uuid], amount: 0, reason: "x" },
      { actorUuids: [hero.uuid], amount: 1.5, reason: "x" },
      { actorUuids: [], amount: 10, reason: "x" },
      { actorUuids: ["not a uuid!"], amount: 10, reason: "x" },
    ]) {
      expect(await award(GM.id, { requestId: requestId(), ...bad })).toMatchObject({ ok: false, reason: "malformed" });
    }
    expect(hero.updates).toHaveLength(0);
  });

  it("the API refuses a bad award on the caller's side with a notification, asking the GM nothing", async () => {
    expect(await awardKarmaTo([hero.uuid], 0, "x")).toBeNull();
    expect(await awardKarmaTo([hero.uuid], 5, "")).toBeNull();
    expect(world.notifications.error).toHaveBeenCalledTimes(2);
    expect(hero.updates).toHaveLength(0);
  });

  it("'all player characters' are the heroes with a player owner", () => {
    const actors = [
      { type: "hero", hasPlayerOwner: true, uuid: "Actor.a" },
      { type: "hero", hasPlayerOwner: false, uuid: "Actor.b" },
      { type: "npc", hasPlayerOwner: true, uuid: "Actor.c" },
    ];
    vi.stubGlobal("game", { ...(globalThis as unknown as { game: object }).game, actors: { filter: (fn: (a: (typeof actors)[number]) => boolean) => actors.filter(fn) } });
    expect(playerCharacterUuids()).toEqual(["Actor.a"]);
  });

  it("the log keeps the newest KARMA_LOG_SIZE entries", () => {
    const old: KarmaLogEntry[] = Array.from({ length: KARMA_LOG_SIZE }, (_, i) => ({ kind: "award", date: "2026-01-01", reason: `r${i}`, amount: 1, balanceAfter: i + 1 }));
    const actor = { system: { karmaLog: old } };
    const update = karmaUpdate(actor, { kind: "award", date: "2026-01-02", reason: "new", amount: 1, balanceAfter: 201 }) as Record<string, unknown>;
    const next = update["system.karmaLog"] as KarmaLogEntry[];
    expect(next).toHaveLength(KARMA_LOG_SIZE);
    expect(next[0]?.reason).toBe("r1");
    expect(next.at(-1)?.reason).toBe("new");
    expect(update["system.karma.value"]).toBe(201);
  });

  it("the award prompt renders its fields and reads only a whole amount, a reason and the recipients", () => {
    const html = renderTemplate("templates/dialog/karma-award.hbs", awardPromptContext(["Kestrel"], "x"));
    const doc = parseHtml(html);
    expect(queryAll(doc, "input").map((i) => attr(i, "name"))).toEqual(["count", "amount", "reason"]);
    expect(queryAll(doc, "select").map((i) => attr(i, "name"))).toEqual(["category", "to"]);
    expect(queryAll(doc, 'select[name="to"] option').map((o) => [attr(o, "value"), attr(o, "selected") !== undefined])).toEqual([
      ["selected", true],
      ["all", false],
    ]);
    expect(readAwardForm({ amount: "15", reason: " Good work ", to: "all" })).toEqual({ kind: "award", amount: 15, reason: "Good work", to: "all" });
    expect(readAwardForm({ amount: "0", reason: "x", to: "all" })).toBeNull();
    expect(readAwardForm({ amount: "5", reason: "", to: "all" })).toBeNull();
    expect(readAwardForm({ amount: "5", reason: "x", to: "everyone" })).toBeNull();
  });
});

describe("karma spent on a roll is logged", () => {
  it("spendActorKarma lowers the pool and logs a spend in the same update", async () => {
    const { spendActorKarma } = await import("../../../src/foundry/dice/talents");
    expect(await spendActorKarma(hero as never, 20, "Roll: Fighting")).toBe(true);
    expect(hero.system.karma.value).toBe(280);
    expect(hero.updates).toHaveLength(1);
    expect(log(hero)).toEqual([expect.objectContaining({ kind: "spend", reason: "Roll: Fighting", amount: 20, balanceAfter: 280 })]);
  });
});

describe("karma advancement", () => {
  const host = (actor: FakeActor, isEditable = true) => ({ actor: actor as never, isEditable });
  const click = {} as PointerEvent;
  const button = (ability: string, step: string) => ({ dataset: { ability, step } }) as unknown as HTMLElement;

  it("the Karma tab prices each ability's raise from karma.ts and marks what the pool affords", () => {
    const data = campaignSheetData(hero.system);
    const fighting = data.advances.find((a) => a.ability === "fighting");
    const cost = advancementCost({ kind: "ability", from: 30, step: "number" });
    const rank = advancementCost({ kind: "ability", from: 30, step: "rank" });
    expect(fighting?.steps.map((s) => [s.to, s.cost, s.affordable])).toEqual([
      [cost.rank, cost.cost, cost.cost <= 300],
      [rank.rank, rank.cost, rank.cost <= 300],
    ]);
  });

  it("Advance raises the ability, lowers Karma and logs it in one update, once confirmed", async () => {
    const { rank, cost } = advancementCost({ kind: "ability", from: 10, step: "number" });
    await onAdvance.call(host(hero), click, button("reason", "number"));
    expect(hero.updates).toHaveLength(1);
    expect(hero.system.abilities.reason.value).toBe(rank);
    expect(hero.system.karma.value).toBe(300 - cost);
    expect(log(hero)).toEqual([expect.objectContaining({ kind: "advance", amount: cost, balanceAfter: 300 - cost, reason: `Reason 10 → ${String(rank)}` })]);
  });

  it("refuses what the pool cannot afford, spending nothing; a cancelled confirmation changes nothing", async () => {
    const { cost } = advancementCost({ kind: "ability", from: 30, step: "rank" });
    expect(cost).toBeGreaterThan(300);
    await onAdvance.call(host(hero), click, button("fighting", "rank"));
    expect(world.notifications.error).toHaveBeenCalledWith(expect.stringContaining(`costs ${cost} Karma`));
    confirmAnswer = false;
    await onAdvance.call(host(hero), click, button("reason", "number"));
    await onAdvance.call(host(hero, false), click, button("reason", "number"));
    expect(hero.updates).toHaveLength(0);
    await expect(onAdvance.call(host(hero), click, button("karma", "number"))).rejects.toThrow(/no ability/);
  });

  it("rules errors localised: an Advance beyond the Karma pool is refused in en.json's words with its figures, never the rules' English", async () => {
    const { cost } = advancementCost({ kind: "ability", from: 30, step: "rank" });
    const format = game.i18n.format.bind(game.i18n);
    vi.spyOn(game.i18n, "format").mockImplementation((key, data) => (key === "CASE.RulesError.advancementKarmaShort" ? `SHORT ${String(data?.cost)}/${String(data?.left)}` : format(key, data)));
    await onAdvance.call(host(hero), click, button("fighting", "rank"));
    expect(world.notifications.error).toHaveBeenCalledWith(format("CASE.Advance.Refused", { message: `SHORT ${String(cost)}/300` }));
    expect(hero.updates).toHaveLength(0);
  });

  it("rules errors localised: Karma on a roll beyond the pool is refused by the GM by key and values (the player reads it in their own words, not the GM's), nothing written", async () => {
    const context = { scope: new LockScope([actorLock(hero.uuid)]), requestId: requestId() };
    const refusal: unknown = await spendKarmaOnce(hero as unknown as Actor.Implementation, 400, context, "A roll").catch((error: unknown) => error);
    expect(refusal).toMatchObject({ name: "QueryRefusal", reason: "malformed", error: { key: "karmaPoolBelowZero" } });
    expect(hero.updates).toHaveLength(0);
    // The asking player's client, with its own text for the key.
    const format = game.i18n.format.bind(game.i18n);
    vi.spyOn(game.i18n, "format").mockImplementation((key, data) => (key === "CASE.RulesError.karmaPoolBelowZero" ? `SHORT ${String(data?.amount)}/${String(data?.pool)}` : format(key, data)));
    expect(refusalText(refusal)).toBe("SHORT 400/300");
  });

  /** A power owned by the hero: Item#update records its changes and the rank follows (as Foundry's document does). */
  function withPower(actor: FakeActor, rank: number) {
    const power = {
      id: "power00000000001",
      name: "Force Field",
      type: "power",
      system: { rank },
      updates: [] as Record<string, unknown>[],
      update(data: Record<string, unknown>) {
        this.updates.push(structuredClone(data));
        this.system = { rank: Number(data["system.rank"]) };
        return Promise.resolve(this);
      },
    };
    const items = [power];
    Object.assign(actor, { items: Object.assign(items, { get: (id: string) => items.find((i) => i.id === id), contents: items }) });
    return power;
  }
  const powerButton = (itemId: string, step: string) => ({ dataset: { itemId, step }, closest: () => null }) as unknown as HTMLElement;

  it("karma advancement of a power: priced from karma.ts (powers cost more), raised once confirmed, Karma lowered and logged in one update", async () => {
    const power = withPower(hero, 10);
    const data = campaignSheetData(hero.system, [{ id: power.id, name: power.name, rank: 10 }]);
    const { rank, cost } = advancementCost({ kind: "power", from: 10, step: "number" });
    expect(cost).toBeGreaterThan(advancementCost({ kind: "ability", from: 10, step: "number" }).cost);
    expect(data.powerAdvances[0]?.steps.map((s) => [s.to, s.cost, s.affordable])).toEqual([
      [rank, cost, cost <= 300],
      [advancementCost({ kind: "power", from: 10, step: "rank" }).rank, advancementCost({ kind: "power", from: 10, step: "rank" }).cost, advancementCost({ kind: "power", from: 10, step: "rank" }).cost <= 300],
    ]);
    await onAdvancePower.call(host(hero), click, powerButton(power.id, "number"));
    expect(power.updates).toEqual([{ "system.rank": rank }]);
    expect(hero.updates).toHaveLength(1);
    expect(hero.system.karma.value).toBe(300 - cost);
    expect(log(hero)).toEqual([expect.objectContaining({ kind: "advance", amount: cost, balanceAfter: 300 - cost, reason: `Power Force Field 10 → ${String(rank)}` })]);
  });

  it("karma advancement of a power refuses what the pool cannot afford, spending nothing, and a button naming no power", async () => {
    const power = withPower(hero, 40);
    const { cost } = advancementCost({ kind: "power", from: 40, step: "rank" });
    expect(cost).toBeGreaterThan(300);
    await onAdvancePower.call(host(hero), click, powerButton(power.id, "rank"));
    expect(world.notifications.error).toHaveBeenCalledWith(expect.stringContaining(`costs ${cost} Karma`));
    expect(power.updates).toHaveLength(0);
    expect(hero.updates).toHaveLength(0);
    await expect(onAdvancePower.call(host(hero), click, powerButton("nope", "rank"))).rejects.toThrow(/no power/);
  });

  it("karma advancement: learning a talent from the compendium costs TALENT_COST, creates it and logs it; refused below the cost", async () => {
    withPower(hero, 20);
    const created: unknown[][] = [];
    Object.assign(hero, { createEmbeddedDocuments: (name: string, data: unknown[]) => (created.push([name, data]), Promise.resolve(data)) });
    const talents = [{ uuid: "Compendium.case.talents.Item.firstaid00000001", name: "First Aid" }, { uuid: "Compendium.case.talents.Item.marksman00000001", name: "Marksman" }];
    const g = (globalThis as unknown as { game: Record<string, unknown> }).game;
    vi.stubGlobal("game", {
      ...g,
      packs: { get: () => ({ getIndex: () => Promise.resolve(talents.map((t) => ({ uuid: t.uuid, name: t.name }))) }) },
      items: { fromCompendium: (doc: { name: string }) => ({ name: doc.name, type: "talent", system: { covers: [] } }) },
    });
    vi.stubGlobal("fromUuid", (uuid: string) => Promise.resolve(talents.some((t) => t.uuid === uuid) ? { documentName: "Item", name: talents.find((t) => t.uuid === uuid)?.name } : null));
    // Too dear: nothing asked, nothing spent.
    await onLearnTalent.call(host(hero));
    expect(world.notifications.error).toHaveBeenCalledWith(expect.stringContaining(`${String(TALENT_COST)} Karma`));
    expect(created).toHaveLength(0);
    // Rich enough: the player picks Marksman.
    await hero.update({ "system.karma.value": TALENT_COST + 50 });
    hero.updates.length = 0;
    dialogAnswer = { talent: talents[1]?.uuid };
    await onLearnTalent.call(host(hero));
    expect(created).toEqual([["Item", [{ name: "Marksman", type: "talent", system: { covers: [] } }]]]);
    expect(hero.system.karma.value).toBe(50);
    expect(log(hero).at(-1)).toEqual(expect.objectContaining({ kind: "advance", amount: TALENT_COST, balanceAfter: 50, reason: "Talent Marksman" }));
    // A forged answer naming no offered talent spends nothing.
    await hero.update({ "system.karma.value": TALENT_COST });
    dialogAnswer = { talent: "Compendium.case.talents.Item.forged0000000001" };
    await onLearnTalent.call(host(hero));
    expect(hero.system.karma.value).toBe(TALENT_COST);
    expect(world.notifications.error).toHaveBeenLastCalledWith("Choose a talent from the list: nothing was spent.");
  });

  it("the Karma tab lists the log newest first", () => {
    const entries: KarmaLogEntry[] = [
      { kind: "award", date: "2026-11-01T10:00:00Z", reason: "first", amount: 20, balanceAfter: 50 },
      { kind: "spend", date: "2026-11-02", reason: "second", amount: 10, balanceAfter: 40 },
    ];
    const data = campaignSheetData({ abilities: hero.system.abilities, karma: { value: 40 }, karmaLog: entries });
    expect(data.log.map((r) => [r.reason, r.amount, r.balanceAfter])).toEqual([
      ["second", "\u221210", 40],
      ["first", "+20", 50],
    ]);
  });
});

describe("rest and recovery", () => {
  const rest = (userId: string, payload: Record<string, unknown>) => world.ask(restQuery, userId, payload);

  it("the settings default to the rules' constants", () => {
    expect(RECOVERY_SETTINGS.restHealthPerDay.default).toBe(HEALTH_PER_DAY_ENDURANCE_FACTOR);
    expect(RECOVERY_SETTINGS.restMedicalFactor.default).toBe(MEDICAL_CARE_HEALTH_FACTOR);
    expect(RECOVERY_SETTINGS.restDaysPerEnduranceRank.default).toBe(DAYS_PER_ENDURANCE_RANK);
    expect(RECOVERY_SETTINGS.restDaysPerEnduranceRankMedical.default).toBe(DAYS_PER_ENDURANCE_RANK_MEDICAL);
  });

  it("the GM rests the selected characters: Health by the effective Endurance, lost ranks healed, once per request", async () => {
    await hero.update({ "system.lostEnduranceRanks": 2 });
    const max = hero.system.health.max;
    const eff = effectiveEndurance(20, 2).value;
    const payload = { requestId: requestId(), actorUuids: [hero.uuid], days: 7, care: "none" };
    const result = await rest(GM.id, payload);
    expect(result).toMatchObject({ ok: true });
    const [rested] = (result as { value: RestedCharacter[] }).value;
    expect(rested?.health).toEqual({ before: 50, after: healthAfterRest(50, max, eff, 7, "none") });
    expect(hero.system.health.value).toBe(healthAfterRest(50, max, eff, 7, "none"));
    expect(lost(hero)).toBe(lostRanksAfterRest(2, 7, "none"));
    expect(lost(hero)).toBe(1);
    await rest(GM.id, payload);
    expect(hero.updates).toHaveLength(2); // the set-up and one rest
  });

  it("restSelected with no token selected warns and asks the GM nothing", async () => {
    vi.stubGlobal("canvas", { tokens: { controlled: [] } });
    expect(await restSelected(1)).toBeNull();
    expect(world.notifications.warn).toHaveBeenCalledWith("Select the tokens of the characters first.");
  });

  it("follows the world's settings (medical care, a changed rate)", async () => {
    world.settings.set("case.restDaysPerEnduranceRankMedical", 2);
    await hero.update({ "system.lostEnduranceRanks": 3 });
    await rest(GM.id, { requestId: requestId(), actorUuids: [hero.uuid], days: 4, care: "medical" });
    expect(lost(hero)).toBe(1);
  });

  it("a player may not rest characters through the GM; a malformed rest is refused", async () => {
    expect(await rest(ALICE.id, { requestId: requestId(), actorUuids: [hero.uuid], days: 1, care: "none" })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await rest(GM.id, { requestId: requestId(), actorUuids: [hero.uuid], days: 0, care: "none" })).toMatchObject({ ok: false, reason: "malformed" });
    expect(await rest(GM.id, { requestId: requestId(), actorUuids: [hero.uuid], days: 1, care: "spa" })).toMatchObject({ ok: false, reason: "malformed" });
    expect(hero.updates).toHaveLength(0);
  });

  it("the owner's Rest on the sheet asks days and care and writes Health and lost ranks in one update", async () => {
    await hero.update({ "system.lostEnduranceRanks": 1 });
    dialogAnswer = { days: "1", care: "medical" };
    await onRest.call({ actor: hero as never, isEditable: true });
    const eff = effectiveEndurance(20, 1).value;
    expect(hero.system.health.value).toBe(healthAfterRest(50, hero.system.health.max, eff, 1, "medical"));
    expect(lost(hero)).toBe(0);
    expect(hero.updates).toHaveLength(2);
    dialogAnswer = { days: "0", care: "none" };
    await onRest.call({ actor: hero as never, isEditable: true });
    expect(world.notifications.error).toHaveBeenCalledTimes(1);
    expect(hero.updates).toHaveLength(2);
  });

  it("the rest dialog renders its fields; its reader refuses bad days and care", () => {
    const doc = parseHtml(renderTemplate("templates/dialog/rest-dialog.hbs", restDialogContext("r")));
    expect(queryAll(doc, "option").map((o) => text(o))).toEqual(["None", "Medical care (doctor or hospital)"]);
    expect(readRestForm({ days: "3", care: "none" })).toEqual({ days: 3, care: "none" });
    expect(readRestForm({ days: "366", care: "none" })).toBeNull();
    expect(readRestForm({ days: "2.5", care: "none" })).toBeNull();
    expect(readRestForm({ days: "2", care: "spa" })).toBeNull();
  });
});

describe("resources feat", () => {
  it("rolls on the Resources rank, and Karma is refused by the ruling", () => {
    expect(standingFeatColumn("resources", { resources: 20, popularity: 0 })).toEqual({ value: 20, karmaAllowed: RESOURCES_FEAT_KARMA_ALLOWED });
    expect(RESOURCES_FEAT_KARMA_ALLOWED).toBe(false);
  });

  it("the sheet's FEAT asks the intensity, refuses Karma (nothing spent or rolled), and rolls on the Resources column", async () => {
    await hero.update({ "system.resources": 20 });
    dialogAnswer = { cs: "0", karma: "10", intensity: "10" };
    expect(await rollStandingFeat(hero as never, "resources")).toBeNull();
    expect(world.notifications.error).toHaveBeenLastCalledWith("Karma may not be spent on a Resources FEAT: nothing was rolled or spent.");
    dialogAnswer = { cs: "0", karma: "0", intensity: "" };
    expect(await rollStandingFeat(hero as never, "resources")).toBeNull();
    expect(world.notifications.error).toHaveBeenLastCalledWith(expect.stringContaining("needs an intensity"));
    expect(rolled).toHaveLength(0);
    expect(hero.system.karma.value).toBe(300);
    dialogAnswer = { cs: "0", karma: "0", intensity: "10" };
    expect(await rollStandingFeat(hero as never, "resources")).not.toBeNull();
    expect(rolled).toEqual([expect.objectContaining({ value: 20, karma: 0, intensity: 10, label: "CASE.Feat.Resources" })]);
  });
});

describe("resources retry", () => {
  it("resources retry reachable from the sheet: a failed FEAT at a cost is noted; another at that cost within the week is refused (nothing rolled), after it rolls", async () => {
    expect(RESOURCES_FEAT_RETRY_DAYS).toBe(7);
    await hero.update({ "system.resources": 20 });
    Reflect.set(game, "time", { worldTime: 0 });
    nextSuccess.value = false;
    dialogAnswer = { cs: "0", karma: "0", intensity: "30" };
    expect(await rollStandingFeat(hero as never, "resources")).not.toBeNull();
    expect(failedResourcesFeats(hero as never)).toEqual({ "30": 0 });
    Reflect.set(game, "time", { worldTime: 3 * 86_400 });
    expect(await rollStandingFeat(hero as never, "resources")).toBeNull();
    expect(world.notifications.error).toHaveBeenLastCalledWith("A Resources FEAT for that cost failed less than a week ago: 4 more days.");
    // Another cost is another item: it rolls.
    dialogAnswer = { cs: "0", karma: "0", intensity: "10" };
    nextSuccess.value = true;
    expect(await rollStandingFeat(hero as never, "resources")).not.toBeNull();
    Reflect.set(game, "time", { worldTime: 7 * 86_400 });
    dialogAnswer = { cs: "0", karma: "0", intensity: "30" };
    expect(await rollStandingFeat(hero as never, "resources")).not.toBeNull();
    expect(rolled.map((r) => r.intensity)).toEqual([30, 10, 30]);
    nextSuccess.value = undefined;
  });
});

describe("popularity feat", () => {
  it("popularity audience reachable from the sheet: the Karma tab's underworld button reads −30 Popularity as its size (Remarkable, 30), the public as Shift 0", async () => {
    await hero.update({ "system.popularity": -30 });
    dialogAnswer = { cs: "0", karma: "0", intensity: "10" };
    await onRollUnderworld.call({ actor: hero } as never);
    await onRollFeat.call({ actor: hero } as never, new Event("click") as PointerEvent, { dataset: { feat: "popularity" } } as unknown as HTMLElement);
    expect(rolled.map((r) => [r.value, r.label])).toEqual([[30, "CASE.Feat.Underworld"], [0, "CASE.Feat.Popularity"]]);
  });

  it("rolls on the Popularity column; a negative Popularity, asked of the public, rolls on Shift 0", () => {
    expect(standingFeatColumn("popularity", { resources: 6, popularity: 30 })).toEqual({ value: popularityColumnValue(30, "public"), karmaAllowed: POPULARITY_FEAT_KARMA_ALLOWED });
    expect(standingFeatColumn("popularity", { resources: 6, popularity: -30 }).value).toBe(0);
  });

  it("the sheet's FEAT rolls on the Popularity column and may spend Karma (logged)", async () => {
    await hero.update({ "system.popularity": 40 });
    dialogAnswer = { cs: "0", karma: "10", intensity: "20" };
    expect(await rollStandingFeat(hero as never, "popularity")).not.toBeNull();
    expect(rolled).toEqual([expect.objectContaining({ value: popularityColumnValue(40), karma: 10, intensity: 20 })]);
    expect(hero.system.karma.value).toBe(290);
    expect(log(hero)).toEqual([expect.objectContaining({ kind: "spend", amount: 10, reason: "Roll: Popularity FEAT" })]);
  });

  it("the data model keeps a negative Popularity", async () => {
    await hero.update({ "system.popularity": -15 });
    expect(hero.system.popularity).toBe(-15);
  });
});
