/**
 * One home: the board's geometry (src/foundry/ui/board.ts), which the attack card's range, the
 * area templates, the slam move and first aid read: a token's footprint on the grid (TokenDocument
 * `x`, `y` in pixels, `width`, `height` in squares; Scene `grid.size`) and the attacker's token
 * among a scene's tokens (a token's actor by its token, a world actor by `actorId`).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { attackerTokenAmong, footprintOf } from "../../../src/foundry/ui/board";

const scene = { grid: { size: 100 } };
const tokens = [
  { id: "tokA", actorId: "hero", name: "A" },
  { id: "tokB", actorId: "hero", name: "B" },
  { id: "tokC", actorId: "villain", name: "C" },
];

describe("one home: the board's geometry", () => {
  it("a token's footprint: the nearest square and its size in squares (at least one)", () => {
    expect(footprintOf({ x: 249, y: 151, width: 2, height: 1 }, scene)).toEqual({ x: 2, y: 2, width: 2, height: 1 });
    expect(footprintOf({ x: 0, y: 0, width: 0.5, height: 0.4 }, scene)).toEqual({ x: 0, y: 0, width: 1, height: 1 });
  });

  it("the attacker's token: a token's actor by its token on its own scene only", () => {
    expect(attackerTokenAmong("scn1", tokens, "Scene.scn1.Token.tokB.Actor.hero")?.name).toBe("B");
    expect(attackerTokenAmong("scn2", tokens, "Scene.scn1.Token.tokB.Actor.hero")).toBeNull();
  });

  it("a world actor's token: the preferred one (this user's controlled) first, else its first; none for another's", () => {
    expect(attackerTokenAmong("scn1", tokens, "Actor.hero")?.name).toBe("A");
    expect(attackerTokenAmong("scn1", tokens, "Actor.hero", (t) => t.id === "tokB")?.name).toBe("B");
    expect(attackerTokenAmong("scn1", tokens, "Actor.nobody")).toBeNull();
    expect(attackerTokenAmong("scn1", tokens, "Item.hero")).toBeNull();
  });

  it("no other module in src/foundry computes a footprint or finds the attacker's token its own way", () => {
    const files = readdirSync("src/foundry", { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts")).map((f) => join("src/foundry", f));
    const own = files.filter((f) => f !== join("src/foundry", "ui", "board.ts") && /Math\.round\((?:t|token)\.x \/ |\.actor\?\.uuid === |function attackerToken\(scene/.test(readFileSync(f, "utf8")));
    expect(own).toEqual([]);
  });
});
