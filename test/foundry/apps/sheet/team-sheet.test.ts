/**
 * The team sheet (issue 23 item 3): a group actor whose members are heroes, their Health, Karma,
 * conditions and Resources at a glance (the real template), the group Karma pool, and rest, heal
 * and award for all members through the GM-only requests (the gm-router test world). Only a GM
 * changes the team; a player sees it and gets no buttons.
 */
import "../../../support/foundry-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, BOB, FakeActor, GM, characterSource, installWorld, type World } from "../../../support/exchange-world";
import { RECOVERY_SETTINGS } from "../../../../src/foundry/core/settings";
import { teamSheetContext, type TeamMemberInput } from "../../../../src/foundry/apps/sheet/team-context";
import { TeamSheet, addTeamMember, resolveMembers, teamMemberUuids } from "../../../../src/foundry/apps/sheet/team-sheet";
import { KARMA_AWARD_FOE_BEATEN, healthAfterRest } from "../../../../src/rules/index";
import { awardPromptContext } from "../../../../src/foundry/api/campaign-forms";
import { promptAwardKarma, promptRestSelected } from "../../../../src/foundry/api/campaign-api";
import { promptHeal } from "../../../../src/foundry/api/heal-api";
import { foundryDouble } from "../../../support/foundry-double";
import { renderTemplate } from "../../../support/handlebars";
import { attr, parseHtml, queryAll, text } from "../../../support/html";

let world: World;
let kestrel: FakeActor; // Alice's
let wren: FakeActor; // Bob's
let gravel: FakeActor; // an NPC
interface TeamDouble {
  readonly uuid: string;
  readonly system: { members: string[] };
  readonly ownership: Record<string, number>;
}
let team: TeamDouble;
let stored: { members: string[] };
let dialogAnswer: unknown = null;

function stubGame(extra: Record<string, unknown>): void {
  vi.stubGlobal("game", { ...(globalThis as unknown as { game: object }).game, ...extra });
}

/** Foundry's documented ownership levels (CONST.DOCUMENT_OWNERSHIP_LEVELS). */
const LEVELS = { NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 };

beforeEach(() => {
  world = installWorld();
  kestrel = new FakeActor("hero000000000001", "Kestrel", "hero", { ...characterSource({ endurance: 20 }, 50), karma: { value: 30 } }, [ALICE.id]);
  wren = new FakeActor("hero000000000002", "Wren", "hero", { ...characterSource({ endurance: 30 }, 60), karma: { value: 10 } }, [BOB.id]);
  gravel = new FakeActor("villain000000001", "Gravel", "npc", characterSource({}, 20), []);
  for (const a of [kestrel, wren, gravel]) world.actors.set(a.id, a);
  for (const [key, spec] of Object.entries(RECOVERY_SETTINGS)) world.settings.set(`case.${key}`, spec.default);
  world.settings.set("case.karmaLostForKill", "all");
  // The team: an actor whose stored data is its members' UUIDs.
  stored = { members: [kestrel.uuid, wren.uuid, "Actor.gone0000000000"] };
  const ownership: Record<string, number> = { default: 0 };
  const updates: Record<string, unknown>[] = [];
  const double = {
    id: "team000000000001",
    uuid: "Actor.team000000000001",
    name: "The Sentinels",
    type: "team",
    system: stored,
    ownership,
    updates,
    update(data: Record<string, unknown>) {
      updates.push(data);
      for (const [k, v] of Object.entries(data)) {
        if (k === "system.members") stored.members = v as string[];
        else if (k.startsWith("ownership.")) ownership[k.slice("ownership.".length)] = v as number;
      }
      return Promise.resolve(this);
    },
  };
  team = double;
  for (const a of [kestrel, wren]) Object.assign(a, { ownership: { default: 0, [a === kestrel ? ALICE.id : BOB.id]: LEVELS.OWNER } });
  vi.stubGlobal("CONST", { DOCUMENT_OWNERSHIP_LEVELS: LEVELS });
  vi.stubGlobal("Actor", FakeActor);
  stubGame({ user: GM });
  (game.users as unknown as { activeGM: unknown }).activeGM = { id: GM.id, isSelf: true };
  vi.stubGlobal("canvas", { tokens: { controlled: [] } });
  // The sheet acts through the stable API, as macros do.
  (CONFIG.CASE as { api: unknown }).api = { promptAwardKarma, promptHeal, promptRestSelected };
  dialogAnswer = null;
  vi.stubGlobal("foundry", {
    ...foundryDouble,
    utils: { randomID: () => `rq${Math.random().toString(36).slice(2, 16).padEnd(14, "0")}` },
    applications: {
      ...foundryDouble.applications,
      api: { ...foundryDouble.applications.api, DialogV2: { wait: () => Promise.resolve(dialogAnswer) } },
      handlebars: { renderTemplate: (path: string, context: object) => Promise.resolve(renderTemplate(path.replace(/^systems\/case\//, ""), context)) },
    },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function member(a: FakeActor, statuses: string[] = []): TeamMemberInput {
  const system = a.system as unknown as Pick<TeamMemberInput, "health" | "karma" | "resources">;
  return { uuid: a.uuid, name: a.name, img: null, health: system.health, karma: system.karma, resources: system.resources, statuses };
}

describe("team sheet", () => {
  it("team sheet: the members are the heroes its UUIDs name; a gone or non-hero member is counted as missing", () => {
    stored.members.push(gravel.uuid);
    const { members, missing } = resolveMembers(teamMemberUuids(team as never));
    expect(members.map((m) => m.name)).toEqual(["Kestrel", "Wren"]);
    expect(missing).toEqual(["Actor.gone0000000000", gravel.uuid]);
  });

  it("team sheet: each member's Health, Karma, conditions and Resources at a glance, the pool, and the Judge's buttons", () => {
    const context = teamSheetContext({ members: [member(kestrel, ["case-stunned"]), member(wren)], missing: ["Actor.gone0000000000"], pool: 40, isGM: true }, (id) => (id === "case-stunned" ? "Stunned" : id));
    const doc = parseHtml(renderTemplate("templates/actor/team-sheet.hbs", { actor: { name: "The Sentinels" }, team: context }));
    const [k, w] = [member(kestrel), member(wren)];
    const rows = queryAll(doc, "tbody tr").map((r) => [...queryAll(r, "th"), ...queryAll(r, "td")].map((c) => text(c).replace(/\s+/g, " ").trim()));
    expect(rows).toEqual([
      ["Kestrel", `50 / ${String(k.health.max)}`, `30 / ${String(k.karma.max)}`, "Stunned", `Typical (${String(k.resources)})`, "Remove"],
      ["Wren", `60 / ${String(w.health.max)}`, `10 / ${String(w.karma.max)}`, "none", `Typical (${String(w.resources)})`, "Remove"],
    ]);
    expect(text(queryAll(doc, ".case-team-pool")[0] ?? doc)).toBe("Group Karma pool: 40");
    expect(queryAll(doc, ".case-team-actions button").map((b) => attr(b, "data-action"))).toEqual(["restTeam", "healTeam", "awardTeam"]);
    expect(text(queryAll(doc, "p.hint")[0] ?? doc)).toContain("1 member(s) no longer found");
    // A player (a member's owner) sees the team, with no button that changes it.
    const theirs = parseHtml(renderTemplate("templates/actor/team-sheet.hbs", { actor: { name: "The Sentinels" }, team: { ...context, isGM: false } }));
    expect([...queryAll(theirs, ".case-team-actions"), ...queryAll(theirs, ".case-team-remove")]).toEqual([]);
    expect(Object.keys(TeamSheet.DEFAULT_OPTIONS.actions ?? {})).toEqual(["restTeam", "healTeam", "awardTeam", "removeMember", "openMember"]);
  });

  it("team sheet: a GM adds a hero (its owners may then see the team); an NPC, a second copy, or a player's drop changes nothing", async () => {
    stored.members = [];
    expect(await addTeamMember(team as never, kestrel as never)).toBe(true);
    expect(teamMemberUuids(team as never)).toEqual([kestrel.uuid]);
    expect(team.ownership[ALICE.id]).toBe(LEVELS.OBSERVER);
    expect(await addTeamMember(team as never, kestrel as never)).toBe(false);
    expect(await addTeamMember(team as never, gravel as never)).toBe(false);
    expect(world.notifications.warn).toHaveBeenCalledWith("Gravel is not a hero: a team's members are heroes.");
    stubGame({ user: ALICE });
    expect(await addTeamMember(team as never, wren as never)).toBe(false);
    expect(teamMemberUuids(team as never)).toEqual([kestrel.uuid]);
  });

  it("team sheet: Award, Heal and Rest act for every member at once, through the GM", async () => {
    const actions = TeamSheet.DEFAULT_OPTIONS.actions as Record<string, (this: { actor: unknown }) => Promise<void>>;
    const host = { actor: team };
    dialogAnswer = { category: "foeBeaten", count: "1", reason: "", to: "selected" };
    await actions.awardTeam?.call(host);
    expect([kestrel.system.karma.value, wren.system.karma.value]).toEqual([30 + KARMA_AWARD_FOE_BEATEN, 10 + KARMA_AWARD_FOE_BEATEN]);
    dialogAnswer = { mode: "amount", amount: "5", turns: "10" };
    await actions.healTeam?.call(host);
    expect([kestrel.system.health.value, wren.system.health.value]).toEqual([55, 65]);
    dialogAnswer = { days: "1", care: "none" };
    await actions.restTeam?.call(host);
    expect(kestrel.system.health.value).toBe(healthAfterRest(55, kestrel.system.health.max, 20, 1, "none"));
    expect(wren.system.health.value).toBe(healthAfterRest(65, wren.system.health.max, 30, 1, "none"));
  });

  it("team sheet: the award dialog for a team names its members and asks no recipients", () => {
    const doc = parseHtml(renderTemplate("templates/dialog/karma-award.hbs", awardPromptContext(["Kestrel", "Wren"], "t", "all", true)));
    expect(queryAll(doc, "select").map((s) => attr(s, "name"))).toEqual(["category"]);
    expect(queryAll(doc, 'input[type="hidden"]').map((i) => [attr(i, "name"), attr(i, "value")])).toEqual([["to", "selected"]]);
  });
});

