/**
 * Minor foes grouped (src/rules/minor-foes.ts `minorFoeGroups`): the Judge's minor foes of one
 * base actor, two or more, form a group; the turn rolls it as one team.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MINOR_FOE_GROUP_PREFIX, type MinorFoeCandidate, minorFoeGroups } from "../../src/rules/minor-foes";

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
