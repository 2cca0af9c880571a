/**
 * The fight log's rules (issue 23, item 2): the rows of a combat's attack cards, who was taken
 * out, the award counts ("foes beaten", "rescues") and the exports. Exchanges are made and
 * played with the real transitions and the real Universal Table (CASE-RULES §2):
 *
 *   Amazing (50)  green from 26, yellow 56, red 91   (the attacker's Fighting column)
 *   Excellent (30) green from 41, yellow 71, red 95  (the target's Endurance column)
 *
 * A Blunt Attack (BA: miss, hit, slam, stun) with die 30 on Amazing is green: a Hit. Static
 * damage 40 against no armor gets 40 through: Health 100 → 60 (still up), Health 30 → 0 (taken
 * out, and a Kill? check is due, §8). A Kill? with die 10 on Excellent is white: an Endurance
 * rank lost (dying) [001].
 */
import { describe, expect, it } from "vitest";
import {
  FIGHT_LOG_VERSION,
  FOE_BEATEN_BY_ALLY_ONLY,
  RESCUE_NEEDS_DYING,
  applyDamage,
  buildFightLog,
  createExchange,
  declineDefence,
  fightLogJson,
  fightLogMarkdown,
  resolveConsequence,
  rollToHit,
  type ExchangeState,
  type FightCard,
  type FightSide,
} from "../../src/rules/index";
import { exchangeInput } from "../support/exchange-input";

function card(id: string, at: number, attacker: string, target: string, health: number, opts: { apply?: boolean; undo?: boolean; kill?: boolean; karma?: number } = {}): FightCard {
  let s: ExchangeState = createExchange(exchangeInput({
    source: "Fists",
    attacker: { uuid: `Actor.${attacker}`, name: attacker, value: 50, strength: 50, armor: 0 },
    karma: opts.karma ?? 0,
    targets: [{ uuid: `Scene.s.Token.${target}`, actorUuid: `Actor.${target}`, name: target, scores: { "agility.bal": 30, "fighting.def": 30, "strength.mgt": 30, "endurance.res": 30 }, armor: { body: 0, energy: 0 } }],
  }));
  s = rollToHit(declineDefence(s, "0"), "0", { die: 30 });
  if (opts.apply !== false) s = applyDamage(s, "0", { value: health, max: 100 }).state;
  if (opts.kill) s = resolveConsequence(s, "0", { check: "kill", die: 10, endurance: 30 });
  if (opts.undo) s = { ...s, targets: s.targets.map((t) => ({ ...t, phase: "undone" as const, applied: null, consequences: [] })) };
  return { id, at, state: s };
}

const sides: Record<string, FightSide> = { "Actor.Hero": "ally", "Actor.Sidekick": "ally", "Actor.Thug": "foe", "Actor.Boss": "foe" };
const sideOf = (uuid: string): FightSide => sides[uuid] ?? "ally";

describe("fight log", () => {
  it("fight log: who hit whom with what, what got through, what was undone, who was taken out", () => {
    const log = buildFightLog(
      "c1",
      [card("m2", 2, "Hero", "Thug", 30), card("m1", 1, "Hero", "Boss", 100, { karma: 10 }), card("m3", 3, "Boss", "Hero", 30, { undo: true }), card("m4", 4, "Thug", "Sidekick", 100, { apply: false })],
      [],
      sideOf,
    );
    expect(log.version).toBe(FIGHT_LOG_VERSION);
    expect(log.combatId).toBe("c1");
    // Oldest first, whatever order the cards came in.
    expect(log.rows.map((r) => [r.attacker.name, r.target.name, r.source, r.result, r.through, r.status, r.health, r.takenOut, r.karma])).toEqual([
      ["Hero", "Boss", "Fists", "hit", 40, "applied", { before: 100, after: 60 }, false, 10],
      ["Hero", "Thug", "Fists", "hit", 40, "applied", { before: 30, after: 0 }, true, 0],
      ["Boss", "Hero", "Fists", "hit", 40, "undone", null, false, 0],
      ["Thug", "Sidekick", "Fists", "hit", 40, "resolved", null, false, 0],
    ]);
    expect(log.takenOut).toEqual(["Thug"]);
  });

  it("fight log counts foes beaten by an ally's blow, once each, and not an undone one", () => {
    expect(FOE_BEATEN_BY_ALLY_ONLY).toBe(true);
    const log = buildFightLog("c1", [card("a", 1, "Hero", "Thug", 30), card("b", 2, "Sidekick", "Thug", 10), card("c", 3, "Boss", "Thug", 30), card("d", 4, "Hero", "Boss", 30, { undo: true })], [], sideOf);
    // Thug went down twice to allies: one foe beaten. The Boss's blow on its own man does not count; the undone row took no one out.
    expect(log.foesBeaten).toBe(1);
    const byFoe = buildFightLog("c1", [card("c", 3, "Boss", "Thug", 30)], [], sideOf);
    expect(byFoe.foesBeaten).toBe(0);
    expect(byFoe.takenOut).toEqual(["Thug"]);
  });

  it("fight log counts rescues: an ally dying in the fight and alive at its end", () => {
    expect(RESCUE_NEEDS_DYING).toBe(true);
    // The Kill? on the Hero took an Endurance rank (white): dying, not dead.
    const kill = card("a", 1, "Boss", "Hero", 30, { kill: true });
    expect(kill.state.targets[0]?.consequences.map((c) => c.outcome?.check === "kill" && [c.outcome.result, c.outcome.dead])).toEqual([["enduranceLoss", false]]);
    const events = [
      { round: 1, actorUuid: "Actor.Sidekick", name: "Sidekick", kind: "dying" as const, before: 0, after: 1 },
      { round: 1, actorUuid: "Actor.Thug", name: "Thug", kind: "dying" as const, before: 0, after: 1 },
      { round: 2, actorUuid: "Actor.Hero", name: "Hero", kind: "regen" as const, before: 0, after: 6 },
    ];
    const log = buildFightLog("c1", [kill], events, sideOf);
    // Hero (the Kill?) and Sidekick (the wrap-up's loss) are allies who were dying; the Thug is a foe.
    expect(log.rescues).toBe(2);
    expect(log.takenOut).toEqual(["Hero"]);
    expect(log.events.map((e) => e.kind)).toEqual(["dying", "dying", "regen"]);
  });

  it("fight log export: Markdown names every row and the counts, JSON round-trips the log", () => {
    const log = buildFightLog("c1", [card("a", 1, "Hero", "Thug", 30), card("b", 2, "Boss", "Hero", 30, { undo: true })], [{ round: 1, actorUuid: "Actor.Hero", name: "Hero | Ace", kind: "regen", before: 4, after: 10 }], sideOf);
    const words = (key: string, data?: Readonly<Record<string, string>>) => (data ? `${key}(${Object.values(data).join(",")})` : key);
    const md = fightLogMarkdown(log, "Fight at the docks", words);
    expect(md.split("\n").slice(0, 6)).toEqual([
      "# Fight at the docks",
      "",
      "| Who | Target | With | Result | Through | Health | State |",
      "|---|---|---|---|---|---|---|",
      "| Hero | Thug | Fists | Result.hit | 40 | 30 → 0 | Status.applied · Out |",
      "| Boss | Hero | Fists | Result.hit | 40 |  | Status.undone |",
    ]);
    // A pipe in a name is escaped so the table stays a table.
    expect(md).toContain("- Event.regen(Hero \\| Ace,4,10)");
    expect(md).toContain("TakenOut: Thug");
    expect(md).toContain("FoesBeaten: 1 · Rescues: 0");
    expect(JSON.parse(fightLogJson(log))).toEqual(log);
  });
});
