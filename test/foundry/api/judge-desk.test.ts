/**
 * The Judge's desk (issue 23 item 1): the Actors directory's Award Karma, Heal and Rest buttons,
 * the award categories (the rules' FASERIP presets and the kill ruling), and Heal through the
 * GM's router, the actor locks and the ledger: a number of points, the FASERIP Recovery and
 * waking from 0 Health. Requests run through the gm-router test world (payloads through JSON,
 * server-stamped users, the real handlers and data models). Expected numbers come from the real
 * rules functions and constants.
 */
import "../../support/foundry-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, BOB, FakeActor, GM, characterSource, installWorld, type World } from "../../support/exchange-world";
import { gmRouter } from "../../support/gm-router";
import { awardKarmaQuery, promptAwardKarma, type AwardedCharacter } from "../../../src/foundry/api/campaign-api";
import { awardPromptContext, readAwardForm } from "../../../src/foundry/api/campaign-forms";
import { healQuery, promptHeal, type HealedCharacter } from "../../../src/foundry/api/heal-api";
import { healDialogContext, readHealForm } from "../../../src/foundry/api/heal-forms";
import { applyDamageApiQuery } from "../../../src/foundry/api/damage-api";
import { JUDGE_DESK_BUTTONS, addJudgeDeskButtons } from "../../../src/foundry/hooks/judge-desk";
import { actorLock, ledgerOf } from "../../../src/foundry/actor-writes";
import { RECOVERY_SETTINGS } from "../../../src/foundry/core/settings";
import { MACROS } from "../../../scripts/packs/content/macros";
import {
  KARMA_AWARD_CATEGORIES,
  KARMA_AWARD_CATEGORY_IDS,
  KARMA_AWARD_RESCUE,
  RECOVERY_AFTER_TURNS,
  applyHealing,
  effectiveEndurance,
  healthAfterRest,
  resolveAction,
  shortRestRecovery,
  wakeFromZeroHealth,
  type KarmaLogEntry,
} from "../../../src/rules/index";
import { foundryDouble } from "../../support/foundry-double";
import { renderTemplate } from "../../support/handlebars";
import { attr, parseHtml, queryAll, text } from "../../support/html";

let world: World;
let hero: FakeActor; // Alice's: Endurance 20, Health 50 of 110
let villain: FakeActor; // the GM's

let nextId = 0;
function requestId(): string {
  nextId += 1;
  return `req${String(nextId).padStart(13, "0")}`;
}

function log(actor: FakeActor): KarmaLogEntry[] {
  return (actor.system as unknown as { karmaLog: KarmaLogEntry[] }).karmaLog;
}

let dialogAnswer: unknown = null;

function stubGame(extra: Record<string, unknown>): void {
  vi.stubGlobal("game", { ...(globalThis as unknown as { game: object }).game, ...extra });
}

beforeEach(() => {
  world = installWorld();
  hero = new FakeActor("hero000000000001", "Kestrel", "hero", { ...characterSource({ endurance: 20 }, 50), karma: { value: 300 } }, [ALICE.id]);
  villain = new FakeActor("villain000000001", "Gravel", "npc", characterSource({ endurance: 40 }, 20), []);
  world.actors.set(hero.id, hero);
  world.actors.set(villain.id, villain);
  for (const [key, spec] of Object.entries(RECOVERY_SETTINGS)) world.settings.set(`case.${key}`, spec.default);
  world.settings.set("case.karmaLostForKill", "all");
  dialogAnswer = null;
  stubGame({ user: GM, time: { worldTime: 0 } });
  // This client is the active GM: its own requests run in place.
  (game.users as unknown as { activeGM: unknown }).activeGM = { id: GM.id, isSelf: true };
  // The damage API whispers its summary to the GMs.
  vi.stubGlobal("ChatMessage", { ...(globalThis as unknown as { ChatMessage: object }).ChatMessage, getWhisperRecipients: () => [GM] });
  vi.stubGlobal("canvas", { tokens: { controlled: [{ name: "Kestrel", actor: hero }] } });
  vi.stubGlobal("foundry", {
    ...foundryDouble,
    utils: { randomID: () => requestId() },
    applications: {
      ...foundryDouble.applications,
      api: { ...foundryDouble.applications.api, DialogV2: { wait: () => Promise.resolve(dialogAnswer), confirm: () => Promise.resolve(true) } },
      handlebars: { renderTemplate: (path: string, context: object) => Promise.resolve(renderTemplate(path.replace(/^systems\/case\//, ""), context)) },
    },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/**
 * The least of the DOM the desk's buttons touch (no DOM in these tests; the directory itself is
 * Foundry's): elements with a class list, a dataset, children and click listeners.
 */
class FakeElement {
  type = "";
  className = "";
  inert = false;
  readonly dataset: Record<string, string> = {};
  readonly children: (FakeElement | string)[] = [];
  readonly #listeners: (() => void)[] = [];
  constructor(readonly tagName: string) {}
  append(...nodes: (FakeElement | string)[]): void {
    this.children.push(...nodes);
  }
  addEventListener(_type: "click", listener: () => void): void {
    this.#listeners.push(listener);
  }
  click(): void {
    for (const l of this.#listeners) l();
  }
  get textContent(): string {
    return this.children.map((c) => (typeof c === "string" ? c : c.textContent)).join("");
  }
  all(): FakeElement[] {
    return this.children.flatMap((c) => (typeof c === "string" ? [] : [c, ...c.all()]));
  }
  querySelector(selector: string): FakeElement | null {
    const cls = selector.replace(/^\./, "");
    return this.all().find((e) => e.className.split(" ").includes(cls)) ?? null;
  }
  querySelectorAll(selector: string): FakeElement[] {
    const cls = selector.replace(/^\./, "");
    return this.all().filter((e) => e.className.split(" ").includes(cls));
  }
}

describe("award button", () => {
  function directory(): FakeElement {
    vi.stubGlobal("document", { createElement: (tag: string) => new FakeElement(tag) });
    const root = new FakeElement("section");
    const actions = new FakeElement("div");
    actions.className = "header-actions";
    root.append(actions);
    return root;
  }
  const add = (element: FakeElement) => { addJudgeDeskButtons(element as unknown as HTMLElement); };

  it("award button: the GM's Actors directory gains Award Karma, Heal, Rest and Import stat block, once per render; a player's gains none", () => {
    const element = directory();
    add(element);
    add(element);
    const buttons = element.querySelectorAll(".case-judge-desk");
    expect(buttons.map((b) => [b.dataset.caseAction, b.textContent.trim()])).toEqual([
      ["award", "Award Karma"],
      ["heal", "Heal"],
      ["rest", "Rest"],
      ["import", "Import stat block"],
      ["fightLog", "Fight log"],
    ]);
    expect(buttons.every((b) => b.type === "button")).toBe(true);
    stubGame({ user: ALICE });
    const theirs = directory();
    add(theirs);
    expect(theirs.querySelectorAll(".case-judge-desk")).toHaveLength(0);
  });

  it("award button: a click opens the award dialog, and a preset awards its Karma with the reason, logged", async () => {
    const award = JUDGE_DESK_BUTTONS.find((b) => b.action === "award");
    expect(award?.run).toBe(promptAwardKarma);
    dialogAnswer = { category: "rescue", count: "2", amount: "", reason: "the ferry", to: "selected" };
    const element = directory();
    add(element);
    element.querySelector(".case-judge-award")?.click();
    await vi.waitFor(() => { expect(hero.system.karma.value).toBe(300 + 2 * KARMA_AWARD_RESCUE); });
    expect(log(hero).at(-1)).toMatchObject({ kind: "award", amount: 2 * KARMA_AWARD_RESCUE, reason: "Rescue ×2: the ferry" });
  });

  it("award button: Rest rests the selected tokens' characters for the days and care asked", async () => {
    dialogAnswer = { days: "1", care: "none" };
    const element = directory();
    add(element);
    element.querySelector(".case-judge-rest")?.click();
    await vi.waitFor(() => { expect(hero.system.health.value).toBe(healthAfterRest(50, hero.system.health.max, 20, 1, "none")); });
  });

  it("award button: the compendium has Award Karma, Heal and Rest macros that call the stable API", () => {
    const commands = new Map(MACROS.map((m) => [m.name, m.command]));
    expect(commands.get("Award Karma")).toBe("await CONFIG.CASE.api.promptAwardKarma();");
    expect(commands.get("Heal selected tokens")).toBe("await CONFIG.CASE.api.promptHeal();");
    expect(commands.get("Rest selected tokens")).toBe("await CONFIG.CASE.api.promptRestSelected();");
  });

  it("award button: a player's prompt is refused before any dialog", async () => {
    stubGame({ user: ALICE });
    expect(await promptAwardKarma()).toBeNull();
    expect(world.notifications.error).toHaveBeenCalledWith("Only a GM may do this.");
  });
});

describe("award categories", () => {
  const award = (userId: string, payload: Record<string, unknown>) => world.ask(awardKarmaQuery, userId, payload);

  it("award categories: the dialog offers each FASERIP preset with its Karma, a custom amount, and a kill only when the ruling takes Karma", () => {
    const doc = parseHtml(renderTemplate("templates/dialog/karma-award.hbs", awardPromptContext(["Kestrel"], "x", "all")));
    const options = queryAll(doc, 'select[name="category"] option');
    expect(options.map((o) => attr(o, "value"))).toEqual(["custom", ...KARMA_AWARD_CATEGORY_IDS, "kill"]);
    expect(options.map((o) => text(o))[1]).toBe(`Stopped a violent crime (+${KARMA_AWARD_CATEGORIES.stopViolentCrime})`);
    expect(queryAll(doc, "input").map((i) => attr(i, "name"))).toEqual(["count", "amount", "reason"]);
    const none = parseHtml(renderTemplate("templates/dialog/karma-award.hbs", awardPromptContext([], "x", "none")));
    expect(queryAll(none, 'select[name="category"] option').map((o) => attr(o, "value"))).not.toContain("kill");
  });

  it("award categories: the form reads a preset times its count, a custom amount, or a kill; anything else is refused", () => {
    const label = (c: string) => `<${c}>`;
    expect(readAwardForm({ category: "foeBeaten", count: "3", reason: "", to: "all" }, label)).toEqual({ kind: "award", amount: 3 * KARMA_AWARD_CATEGORIES.foeBeaten, reason: "<foeBeaten> ×3", to: "all" });
    expect(readAwardForm({ category: "stopTheft", count: "", reason: "the jewels", to: "selected" }, label)).toEqual({ kind: "award", amount: KARMA_AWARD_CATEGORIES.stopTheft, reason: "<stopTheft>: the jewels", to: "selected" });
    expect(readAwardForm({ category: "custom", amount: "15", reason: " Good work ", to: "all" }, label)).toEqual({ kind: "award", amount: 15, reason: "Good work", to: "all" });
    expect(readAwardForm({ category: "kill", reason: "Gravel", to: "selected" }, label)).toEqual({ kind: "kill", amount: 0, reason: "<kill>: Gravel", to: "selected" });
    expect(readAwardForm({ category: "custom", amount: "15", reason: "", to: "all" }, label)).toBeNull();
    expect(readAwardForm({ category: "rescue", count: "0", reason: "", to: "all" }, label)).toBeNull();
    expect(readAwardForm({ category: "bribe", reason: "x", to: "all" }, label)).toBeNull();
  });

  it("award categories: a kill takes all the hero's Karma by the world's ruling, logged with the ledger, once per request", async () => {
    const payload = { requestId: requestId(), actorUuids: [hero.uuid], kind: "kill", reason: "Killed someone: Gravel" };
    const result = await award(GM.id, payload);
    expect(result).toMatchObject({ ok: true });
    expect((result as { value: AwardedCharacter[] }).value).toEqual([{ uuid: hero.uuid, name: "Kestrel", before: 300, after: 0 }]);
    expect(hero.system.karma.value).toBe(0);
    expect(log(hero)).toEqual([expect.objectContaining({ kind: "spend", amount: 300, balanceAfter: 0, reason: "Killed someone: Gravel" })]);
    await award(GM.id, payload);
    expect(hero.updates).toHaveLength(1);
  });

  it("award categories: under the ruling 'none' the GM refuses a kill's loss and nothing changes; a player may not ask it", async () => {
    world.settings.set("case.karmaLostForKill", "none");
    expect(await award(GM.id, { requestId: requestId(), actorUuids: [hero.uuid], kind: "kill", reason: "x" })).toMatchObject({ ok: false, reason: "forbidden" });
    world.settings.set("case.karmaLostForKill", "all");
    expect(await award(ALICE.id, { requestId: requestId(), actorUuids: [hero.uuid], kind: "kill", reason: "x" })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await award(GM.id, { requestId: requestId(), actorUuids: [hero.uuid], kind: "steal", reason: "x" })).toMatchObject({ ok: false, reason: "malformed" });
    expect(hero.updates).toHaveLength(0);
  });
});

describe("heal through the lock", () => {
  it("heal through the lock: the heal waits for the actor's lock, then writes Health with its ledger entry, once per request", async () => {
    const gm = gmRouter(GM, world.users);
    let release: () => void = () => undefined;
    const held = gm.router.locks.run([actorLock(hero.uuid)], () => new Promise<void>((resolve) => (release = resolve)));
    const id = requestId();
    const asked = gm.ask(healQuery, GM.id, { requestId: "heal000000000001", actorUuids: [hero.uuid], mode: "amount", amount: 25 }, id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(hero.updates).toHaveLength(0);
    release();
    await held;
    const result = await asked;
    expect(result).toMatchObject({ ok: true });
    expect((result as { value: HealedCharacter[] }).value).toEqual([{ uuid: hero.uuid, name: "Kestrel", before: 50, after: 75, outcome: "healed" }]);
    expect(hero.system.health.value).toBe(applyHealing(50, hero.system.health.max, 25));
    expect(ledgerOf(hero)).toEqual([{ id: `heal:${GM.id}:heal000000000001`, field: "system.health.value", before: 50, after: 75 }]);
    await gm.ask(healQuery, GM.id, { requestId: "heal000000000001", actorUuids: [hero.uuid], mode: "amount", amount: 25 }, id);
    expect(hero.system.health.value).toBe(75);
    expect(hero.updates).toHaveLength(1);
  });

  it("heal through the lock: a heal and damage at once both land; Health never goes above its maximum", async () => {
    const max = hero.system.health.max;
    await Promise.all([
      world.ask(healQuery, GM.id, { requestId: requestId(), actorUuids: [hero.uuid], mode: "amount", amount: 30 }),
      world.ask(applyDamageApiQuery, GM.id, { requestId: requestId(), tokenUuids: [hero.uuid], amount: 10 }),
    ]);
    expect(hero.system.health.value).toBe(70);
    await world.ask(healQuery, GM.id, { requestId: requestId(), actorUuids: [hero.uuid], mode: "amount", amount: 100_000 });
    expect(hero.system.health.value).toBe(max);
  });

  it("heal through the lock: a player heals their own character, never another's; a malformed heal is refused", async () => {
    expect(await world.ask(healQuery, ALICE.id, { requestId: requestId(), actorUuids: [hero.uuid], mode: "amount", amount: 5 })).toMatchObject({ ok: true });
    expect(await world.ask(healQuery, BOB.id, { requestId: requestId(), actorUuids: [hero.uuid], mode: "amount", amount: 5 })).toMatchObject({ ok: false, reason: "forbidden" });
    expect(await world.ask(healQuery, ALICE.id, { requestId: requestId(), actorUuids: [hero.uuid, villain.uuid], mode: "amount", amount: 5 })).toMatchObject({ ok: false, reason: "forbidden" });
    for (const bad of [{ mode: "amount", amount: 0 }, { mode: "amount" }, { mode: "recovery" }, { mode: "pray" }]) {
      expect(await world.ask(healQuery, GM.id, { requestId: requestId(), actorUuids: [hero.uuid], ...bad })).toMatchObject({ ok: false, reason: "malformed" });
    }
    expect(hero.system.health.value).toBe(55);
    expect(villain.updates).toHaveLength(0);
  });

  it("heal through the lock: the Heal dialog renders its modes; its reader takes only a mode with its number", async () => {
    const doc = parseHtml(renderTemplate("templates/dialog/heal-dialog.hbs", healDialogContext(["Kestrel"], "h")));
    expect(queryAll(doc, "option").map((o) => attr(o, "value"))).toEqual(["amount", "recovery", "wake"]);
    expect(queryAll(doc, 'input[name="turns"]').map((i) => attr(i, "value"))).toEqual([String(RECOVERY_AFTER_TURNS)]);
    expect(readHealForm({ mode: "amount", amount: "12" })).toEqual({ mode: "amount", amount: 12 });
    expect(readHealForm({ mode: "recovery", turns: "10" })).toEqual({ mode: "recovery", turns: 10 });
    expect(readHealForm({ mode: "wake" })).toEqual({ mode: "wake" });
    expect(readHealForm({ mode: "amount", amount: "1.5" })).toBeNull();
    expect(readHealForm({ mode: "recovery", turns: "-1" })).toBeNull();
    dialogAnswer = { mode: "amount", amount: "12", turns: "10" };
    await promptHeal();
    expect(hero.system.health.value).toBe(62);
    expect(world.notifications.info).toHaveBeenCalledWith("Kestrel: Health 50 → 62.");
  });
});

describe("faserip recovery", () => {
  const recover = (turns: number) => world.ask(healQuery, GM.id, { requestId: requestId(), actorUuids: [hero.uuid], mode: "recovery", turns });

  it("faserip recovery: after RECOVERY_AFTER_TURNS without damage a conscious character regains its Endurance rank number, once a game day", async () => {
    const endurance = effectiveEndurance(20, 0).value;
    const expected = shortRestRecovery({ health: 50, max: hero.system.health.max, endurance, turnsSinceDamage: RECOVERY_AFTER_TURNS, recoveredToday: false, unconscious: false });
    expect(expected).toBe(70); // 50 + Endurance 20
    const first = await recover(RECOVERY_AFTER_TURNS);
    expect((first as { value: HealedCharacter[] }).value[0]).toMatchObject({ before: 50, after: 70, outcome: "healed" });
    expect(hero.system.health.value).toBe(expected);
    // The same game day: no second Recovery.
    stubGame({ time: { worldTime: 86_399 } });
    expect(((await recover(RECOVERY_AFTER_TURNS)) as { value: HealedCharacter[] }).value[0]?.outcome).toBe("recoveredAlready");
    expect(hero.system.health.value).toBe(70);
    // The next day: again.
    stubGame({ time: { worldTime: 86_400 } });
    await recover(RECOVERY_AFTER_TURNS);
    expect(hero.system.health.value).toBe(90);
  });

  it("faserip recovery: too few turns since the damage, or an unconscious character, recovers nothing (and uses up no day)", async () => {
    expect(((await recover(RECOVERY_AFTER_TURNS - 1)) as { value: HealedCharacter[] }).value[0]?.outcome).toBe("notDue");
    await hero.update({ "system.health.value": 0 });
    expect(((await recover(RECOVERY_AFTER_TURNS)) as { value: HealedCharacter[] }).value[0]?.outcome).toBe("notDue");
    expect(hero.system.health.value).toBe(0);
    await hero.update({ "system.health.value": 50 });
    await recover(RECOVERY_AFTER_TURNS);
    expect(hero.system.health.value).toBe(70);
  });

  it("faserip recovery: lost Endurance ranks lower what Recovery gives back", async () => {
    await hero.update({ "system.lostEnduranceRanks": 1 });
    const endurance = effectiveEndurance(20, 1).value;
    await recover(RECOVERY_AFTER_TURNS);
    expect(hero.system.health.value).toBe(50 + endurance);
    expect(endurance).toBeLessThan(20);
  });
});

describe("wake from zero", () => {
  const wake = (id = requestId()) => world.ask(healQuery, GM.id, { requestId: id, actorUuids: [hero.uuid], mode: "wake" });

  it("wake from zero: the GM rolls an Endurance FEAT; success wakes the character with Health equal to its Endurance rank number", async () => {
    await hero.update({ "system.health.value": 0 });
    const roll = 80;
    expect(resolveAction({ value: 20, roll }).success).toBe(true);
    world.dice.push(roll);
    const [woke] = ((await wake()) as { value: HealedCharacter[] }).value;
    expect(woke).toMatchObject({ before: 0, after: wakeFromZeroHealth(true, 20, hero.system.health.max), outcome: "woke", roll });
    expect(hero.system.health.value).toBe(20);
  });

  it("wake from zero: a failed FEAT leaves the character out, recorded so a replay rolls no second FEAT", async () => {
    await hero.update({ "system.health.value": 0 });
    const roll = 3;
    expect(resolveAction({ value: 20, roll }).success).toBe(false);
    world.dice.push(roll);
    const id = requestId();
    const [out] = ((await wake(id)) as { value: HealedCharacter[] }).value;
    expect(out).toMatchObject({ before: 0, after: 0, outcome: "stillOut", roll });
    // The replay finds its ledger entry: no die is queued, and none is asked for.
    const again = await world.ask(healQuery, GM.id, { requestId: id, actorUuids: [hero.uuid], mode: "wake" }, undefined);
    expect(again).toMatchObject({ ok: true });
    expect(hero.system.health.value).toBe(0);
  });

  it("wake from zero: a character above 0 Health is not out; nothing is rolled or written", async () => {
    const [notOut] = ((await wake()) as { value: HealedCharacter[] }).value;
    expect(notOut?.outcome).toBe("notOut");
    expect(hero.updates).toHaveLength(0);
  });
});
