/**
 * The values the flow batches of the in-Foundry self-test compare with
 * (src/foundry/self-test/expected.ts), against the rules, the packs and the code the GM runs:
 * each case must be able to fail (the batch's documents make a difference the world must show),
 * and each comparison must name what is wrong.
 */
import "../../support/foundry-globals";
import { describe, expect, it } from "vitest";
import {
  AREA_CASE,
  EFFECT_CHANGES,
  EFFECT_HERO,
  EFFECT_POWER_RANKS,
  FIRST_AID_TALENT,
  IMPACT_CASE,
  KARMA_CASE,
  REGENERATION_CASE,
  REST_CASE,
  areaRowProblems,
  builderRankProblems,
  clearChatRefusal,
  expectedAdvance,
  expectedAid,
  expectedEffects,
  expectedImpact,
  expectedRegeneration,
  expectedRest,
  recordLossAfterClear,
  slamMoveProblems,
} from "../../../src/foundry/self-test/expected";
import { areaPlacement, areaTemplateData, coveredTokens, type AreaTokenDoc } from "../../../src/foundry/exchange/area-template";
import { EFFECT_MODE_NUMBERS, readEffectChanges } from "../../../src/foundry/data/actor/effect-changes";
import { BLANK_RANK } from "../../../src/foundry/apps/builder/builder-context";
import { REGENERATION_TURNS, isFirstAidTalent, resolveRecoveryRulings } from "../../../src/rules/index";
import { readPack } from "../../support/pack-files";

const GRID = { size: 100, distance: 1 };

function tokenAt(uuid: string, square: { x: number; y: number }): AreaTokenDoc {
  return { id: uuid, uuid, x: square.x * GRID.size, y: square.y * GRID.size, width: 1, height: 1, hidden: false, actorId: uuid, actor: { uuid: `Actor.${uuid}` } };
}

describe("the area batch's board", () => {
  it("the GM's own reading of the placed area covers the tokens inside and not the one outside", () => {
    const template = areaTemplateData(AREA_CASE.area, AREA_CASE.aim, AREA_CASE.attacker, GRID);
    const tokens = [tokenAt("attacker", AREA_CASE.attacker), ...AREA_CASE.inside.map((s, i) => tokenAt(`in${String(i)}`, s)), ...AREA_CASE.outside.map((s, i) => tokenAt(`out${String(i)}`, s))];
    const covered = coveredTokens(AREA_CASE.area, areaPlacement(AREA_CASE.area, template, AREA_CASE.attacker, GRID), tokens, GRID, "Actor.attacker", null).map((c) => c.uuid);
    const inside = AREA_CASE.inside.map((_, i) => `in${String(i)}`);
    const outside = AREA_CASE.outside.map((_, i) => `out${String(i)}`);
    expect(areaRowProblems(covered, inside, outside)).toEqual([]);
    expect(covered).not.toContain("attacker");
  });

  it("names a token inside without a row, one outside with a row, and a token twice", () => {
    expect(areaRowProblems(["a"], ["a", "b"], ["c"])).toEqual(["b stood inside and has no row"]);
    expect(areaRowProblems(["a", "c"], ["a"], ["c"])).toEqual(["c stood outside and has a row"]);
    expect(areaRowProblems(["a", "a"], ["a"], [])).toEqual(["a token has two rows"]);
  });
});

describe("the effects batch", () => {
  it("each change makes a difference the hero must show, and CASE accepts every one", () => {
    const expected = expectedEffects();
    expect(expected).toEqual({ strength: 30, physical: 30, endurance: [40, 50] });
    expect(expected.strength).not.toBe(EFFECT_HERO.abilities.strength.value);
    expect(expected.endurance[0]).not.toBe(EFFECT_HERO.abilities.endurance.value);
    expect(expected.endurance[1]).not.toBe(expected.endurance[0]);
    const read = readEffectChanges(
      Object.values(EFFECT_CHANGES).map((c) => ({ effect: "self-test", key: c.key, mode: EFFECT_MODE_NUMBERS[c.mode], value: c.value, ownRank: EFFECT_POWER_RANKS[0] })),
    );
    expect(read.problems).toEqual([]);
  });
});

describe("the builder batch", () => {
  it("the first power the builder adds (by name) has a rank in the pack other than Typical, so a build that ignored it fails", () => {
    const powers = readPack("powers")
      .map((f) => f.doc as { name: string; type: string; system: { rank?: number } })
      .filter((d) => d.type === "power")
      .sort((a, b) => a.name.localeCompare(b.name));
    const first = powers[0];
    expect(typeof first?.system.rank).toBe("number");
    expect(first?.system.rank).not.toBe(BLANK_RANK);
    expect(builderRankProblems(first?.system.rank ?? null, BLANK_RANK, BLANK_RANK)).toHaveLength(2);
  });

  it("names each place the rank was lost", () => {
    expect(builderRankProblems(20, 20, 20)).toEqual([]);
    expect(builderRankProblems(20, 6, 20)).toEqual(["the builder offered rank 6, the pack says 20"]);
    expect(builderRankProblems(20, 20, null)).toEqual(["the hero's power has rank null, the pack says 20"]);
    expect(builderRankProblems(null, 6, 6)).toEqual(["the pack's power has no rank"]);
  });
});

describe("the Karma batch", () => {
  it("the award pays for the advance, which raises the ability", () => {
    const advance = expectedAdvance(KARMA_CASE.award);
    expect(advance.rank).toBeGreaterThan(KARMA_CASE.from);
    expect(advance.cost).toBeGreaterThan(0);
    expect(advance.balance).toBe(KARMA_CASE.award - advance.cost);
    expect(KARMA_CASE.pool).toBeLessThanOrEqual(advance.balance);
  });
});

describe("the rest batch", () => {
  it("a week's rest heals the hero and gives back its lost rank, so a rest that did nothing fails", () => {
    const hero = { health: REST_CASE.hero.health.value, max: 40, enduranceBeforeLoss: REST_CASE.hero.abilities.endurance.value, lost: REST_CASE.hero.lostEnduranceRanks };
    const after = expectedRest(hero, resolveRecoveryRulings());
    expect(after.health).toBeGreaterThan(hero.health);
    expect(after.health).toBeLessThanOrEqual(hero.max);
    expect(after.lost).toBe(0);
  });
});

describe("the impact batch", () => {
  it("a fall onto Incredible ground rebounds 40 on an unarmored hero", () => {
    expect(expectedImpact(IMPACT_CASE.hero.abilities.endurance.value, 68, 68)).toEqual({ rebound: 40, health: 28 });
    expect(expectedImpact(IMPACT_CASE.hero.abilities.endurance.value, 30, 68).health).toBe(0);
  });
});

describe("the regeneration batch", () => {
  it("an Incredible Regeneration gives back 4 Health a wrap-up under the default 10 turns, never above the maximum", () => {
    expect(REGENERATION_TURNS).toBe(10);
    expect(expectedRegeneration(REGENERATION_CASE.health, 100, REGENERATION_TURNS)).toBe(14);
    expect(expectedRegeneration(99, 100, REGENERATION_TURNS)).toBe(100);
  });
});

describe("the first aid batch", () => {
  it("the talent's name is the rules' own; beside the dying hero the aid stops the loss, out of reach it is refused", () => {
    expect(isFirstAidTalent(FIRST_AID_TALENT)).toBe(true);
    expect(expectedAid(true)).toMatchObject({ ok: true, stopsDying: true });
    expect(expectedAid(false)).toEqual({ ok: false, reason: "notAdjacent" });
  });
});

describe("the slam batch", () => {
  const move = { heading: "away", to: { x: 6, y: 5 }, areas: 2, edge: false } as const;

  it("accepts a token that went the squares the card records", () => {
    expect(slamMoveProblems({ x: 400, y: 500 }, { x: 600, y: 500 }, move, 100)).toEqual([]);
    expect(slamMoveProblems({ x: 400, y: 500 }, { x: 600, y: 700 }, move, 100)).toEqual([]);
  });

  it("names a token that did not go as far, and a card without a move", () => {
    expect(slamMoveProblems({ x: 400, y: 500 }, { x: 400, y: 500 }, move, 100)).toEqual(["the token went 0 squares, the card says 2"]);
    expect(slamMoveProblems({ x: 400, y: 500 }, { x: 600, y: 500 }, null, 100)).toEqual(["the card recorded no move"]);
  });
});

describe("the Clear Chat Log batch", () => {
  it("clears only a log of its own messages, and says why not otherwise", () => {
    expect(clearChatRefusal(["a", "b"], ["a", "b", "c"])).toBeNull();
    expect(clearChatRefusal(["a", "x", "y"], ["a"])).toMatch(/2 message\(s\) this batch did not make.*test world/);
  });

  it("names what the turn record lost", () => {
    const before = { npcDeclared: true, steps: 1 };
    expect(recordLossAfterClear(before, before)).toEqual([]);
    expect(recordLossAfterClear(before, { npcDeclared: false, steps: 0 })).toEqual(["the NPC's secret declaration is gone", "the back-step history went from 1 steps to 0"]);
  });
});
