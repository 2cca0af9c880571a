/**
 * Minor foes grouped (src/rules/minor-foes.ts `minorFoeGroups`): the Judge's minor foes of one
 * base actor, two or more, form a group; the turn rolls it as one team.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MINOR_FOE_GROUP_PREFIX, type MinorFoeCandidate, initiativeTeamOf, initiativeWithMinorGroups, minorFoeGroups } from "../../src/rules/minor-foes";
import { createCombatantTurn, createTurnState, initiativeUnits } from "../../src/rules/turn/index";

const candidateArb = fc.array(
  fc.record({ minor: fc.boolean(), playerOwned: fc.boolean(), baseActorId: fc.constantFrom(null, "", "thugActor", "robotActor", "bossActor") }),
  { maxLength: 20 },
).map((list) => list.map((c, i): MinorFoeCandidate => ({ id: `c${i}`, ...c })));

describe("minor foe rule: groups", () => {
  it("minor foe rule: a group is two or more of the Judge's minor foes of one base actor, and every such pair is in one group", () => {
    fc.assert(
      fc.property(candidateArb, (candidates) => {
        const groups = minorFoeGroups(candidates);
        const byId = new Map(candidates.map((c) => [c.id, c]));
        const sizes = new Map<string, number>();
        for (const [id, key] of groups) {
          const c = byId.get(id) as MinorFoeCandidate;
          expect(c.minor && !c.playerOwned).toBe(true);
          expect(key).toBe(`${MINOR_FOE_GROUP_PREFIX}${c.baseActorId ?? ""}`);
          sizes.set(key, (sizes.get(key) ?? 0) + 1);
        }
        for (const n of sizes.values()) expect(n).toBeGreaterThanOrEqual(2);
        const eligible = candidates.filter((c) => c.minor && !c.playerOwned && c.baseActorId);
        for (const a of eligible) for (const b of eligible) if (a !== b && a.baseActorId === b.baseActorId) expect(groups.get(a.id)).toBe(groups.get(b.id) ?? "missing");
      }),
    );
  });

  it("minor foe rule: a lone minor foe, a player's and a named villain are never grouped", () => {
    const groups = minorFoeGroups([
      { id: "a", minor: true, playerOwned: false, baseActorId: "thug" },
      { id: "b", minor: true, playerOwned: false, baseActorId: "thug" },
      { id: "c", minor: true, playerOwned: false, baseActorId: "robot" },
      { id: "d", minor: true, playerOwned: true, baseActorId: "thug" },
      { id: "e", minor: false, playerOwned: false, baseActorId: "thug" },
    ]);
    expect([...groups]).toEqual([
      ["a", "minor:thug"],
      ["b", "minor:thug"],
    ]);
  });
});

describe("minor foe groups turn team initiative on (initiativeWithMinorGroups, initiativeTeamOf)", () => {
  const stats = (initiativeModifier: number) => ({ initiativeModifier, offence: 6, balance: 6, freeDefences: 1, endurance: 6 });

  it("minor foe groups: with any group and the world's team initiative off, team initiative is on; otherwise the settings stand", () => {
    const off = { mode: "everyTurn", team: false } as const;
    const on = { mode: "everyTurn", team: true } as const;
    expect(initiativeWithMinorGroups(off, true)).toEqual({ mode: "everyTurn", team: true });
    expect(initiativeWithMinorGroups(off, false)).toBe(off);
    expect(initiativeWithMinorGroups(on, true)).toBe(on);
    expect(() => initiativeWithMinorGroups(off, "yes" as unknown as boolean)).toThrow(TypeError);
  });

  it("minor foe groups: a combatant's team is its side's under the world's team initiative, else its group's or none", () => {
    expect(initiativeTeamOf(true, "judge", "minor:thug")).toBe("judge");
    expect(initiativeTeamOf(false, "judge", "minor:thug")).toBe("minor:thug");
    expect(initiativeTeamOf(false, "players", null)).toBeNull();
    expect(() => initiativeTeamOf(false, "judge", 3 as unknown as string)).toThrow(TypeError);
  });

  it("minor foe groups: the group is one initiative unit (its best modifier rolls); everyone else is a unit of one", () => {
    const groups = minorFoeGroups([
      { id: "thug1", minor: true, playerOwned: false, baseActorId: "thug" },
      { id: "hero", minor: false, playerOwned: true, baseActorId: "hero" },
      { id: "thug2", minor: true, playerOwned: false, baseActorId: "thug" },
    ]);
    const world = { mode: "everyTurn", team: false } as const;
    const ids = ["thug1", "hero", "thug2"];
    const combatants = ids.map((id, i) => createCombatantTurn(id, stats(i), { team: initiativeTeamOf(world.team, "judge", groups.get(id) ?? null) }));
    const state = createTurnState(combatants, { initiative: initiativeWithMinorGroups(world, groups.size > 0), declaredDodge: false });
    expect(initiativeUnits(state).map((u) => u.memberIds)).toEqual([["thug2", "thug1"], ["hero"]]);
  });
});
