import { describe, expect, it } from "vitest";
import { statusId, statusShift } from "../../src/foundry/status-effects";
import { FULL_HOLD_CS, PARTIAL_HOLD_CS } from "../../src/rules/index";

describe("the shift a character's conditions put on its rolls", () => {
  it("a Partial Hold: its −2 CS on every action, Escape included", () => {
    const held = new Set([statusId("partialHold")]);
    expect(statusShift(held)).toEqual([{ cs: PARTIAL_HOLD_CS, label: "CASE.Status.partialHold" }]);
    expect(statusShift(held, "escape")).toEqual([{ cs: PARTIAL_HOLD_CS, label: "CASE.Status.partialHold" }]);
  });

  it("a Full Hold: its ruling's CS on actions other than the Escape it allows, and it does not add to a Partial one", () => {
    const held = new Set([statusId("fullHold"), statusId("partialHold")]);
    expect(statusShift(held)).toEqual([{ cs: FULL_HOLD_CS, label: "CASE.Status.fullHold" }]);
    expect(statusShift(held, "escape")).toEqual([]);
  });

  it("no hold, no shift", () => {
    expect(statusShift(new Set([statusId("stunned")]))).toEqual([]);
  });
});
