/**
 * The compact tracker's links to the board (src/foundry/ui/board.ts) against a canvas double
 * of Foundry's documented API (Canvas#animatePan, Canvas#ping, canvas.tokens.get, Token#control,
 * Token#isOwner, Token#isVisible, Token#center: https://foundryvtt.com/api/v13/classes/foundry.canvas.Canvas.html
 * and https://foundryvtt.com/api/v13/classes/foundry.canvas.placeables.Token.html), and the
 * bulk-declare form's reading.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { findToken, pingToken } from "../../../src/foundry/ui/board";
import { bulkDeclarationsFromForm } from "../../../src/foundry/apps/tracker/declare-context";

/** The viewed scene's tokens by id; what was controlled, panned to and pinged. */
function canvasDouble(tokens: Record<string, { isOwner: boolean; isVisible: boolean }>) {
  const controlled: string[] = [];
  const pans: { x: number; y: number }[] = [];
  const pings: { x: number; y: number }[] = [];
  vi.stubGlobal("canvas", {
    tokens: {
      get: (id: string) => {
        const t = tokens[id];
        // control() with releaseOthers leaves only this token controlled, as Foundry's does.
        return t ? { ...t, center: { x: 150, y: 250 }, control: (o: { releaseOthers: boolean }) => (o.releaseOthers ? controlled.splice(0, controlled.length, id) : controlled.push(id)) } : undefined;
      },
    },
    animatePan: (view: { x: number; y: number }) => (pans.push(view), Promise.resolve(true)),
    ping: (origin: { x: number; y: number }) => (pings.push(origin), Promise.resolve(true)),
  });
  return { controlled, pans, pings };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("compact tracker: click to pan and select, ping", () => {
  it("compact tracker: finding a token pans to it and selects it only when the user owns it; a hidden or absent token is not found", () => {
    const board = canvasDouble({ mine: { isOwner: true, isVisible: true }, theirs: { isOwner: false, isVisible: true }, unseen: { isOwner: false, isVisible: false } });
    expect(findToken("mine")).toBe("selected");
    expect(board.controlled).toEqual(["mine"]);
    expect(findToken("theirs")).toBe("panned");
    expect(board.controlled).toEqual(["mine"]);
    expect(board.pans).toEqual([{ x: 150, y: 250 }, { x: 150, y: 250 }]);
    expect(findToken("unseen")).toBe("notHere");
    expect(findToken("elsewhere")).toBe("notHere");
    expect(findToken(null)).toBe("notHere");
    expect(board.pans).toHaveLength(2);
  });

  it("compact tracker: ping marks a visible token for everyone, and nothing else", () => {
    const board = canvasDouble({ theirs: { isOwner: false, isVisible: true }, unseen: { isOwner: true, isVisible: false } });
    expect(pingToken("theirs")).toBe(true);
    expect(pingToken("unseen")).toBe(false);
    expect(board.pings).toEqual([{ x: 150, y: 250 }]);
    expect(board.controlled).toEqual([]);
  });

  it("compact tracker: without a canvas (no scene viewed) nothing is found", () => {
    vi.stubGlobal("canvas", null);
    expect(findToken("mine")).toBe("notHere");
    expect(pingToken("mine")).toBe(false);
  });
});

describe("bulk declare: the form", () => {
  const npcs = [
    { id: "thug000000000001", name: "Gravel Gang Bruiser" },
    { id: "thug000000000002", name: "Gravel Gang Lookout" },
    { id: "thug000000000003", name: "Hired Gun" },
  ];

  it("bulk declare: each filled line is a declaration in the NPCs' order; an empty line is left for later", () => {
    const out = bulkDeclarationsFromForm(
      {
        "text-thug000000000001": "Swing the pipe",
        "attack-thug000000000001": "BA",
        "actions-thug000000000001": "1",
        "text-thug000000000002": "  ",
        "attack-thug000000000002": "",
        "text-thug000000000003": "",
        "attack-thug000000000003": "Sh",
        "actions-thug000000000003": "2",
      },
      npcs,
    );
    expect(out.map((d) => [d.combatantId, d.declaration.text, d.declaration.kind, d.declaration.attack, d.declaration.actions])).toEqual([
      ["thug000000000001", "Swing the pipe", "attack", "BA", 1],
      ["thug000000000003", "", "attack", "Sh", 2],
    ]);
  });

  it("bulk declare: a bad line is refused with the NPC's name, nothing guessed", () => {
    expect(() => bulkDeclarationsFromForm({ "text-thug000000000002": "Run", "actions-thug000000000002": "9" }, npcs)).toThrow(/Gravel Gang Lookout/);
    expect(() => bulkDeclarationsFromForm({ "text-thug000000000001": "x".repeat(501) }, npcs)).toThrow(/Gravel Gang Bruiser/);
  });
});
