/**
 * The Judge's request for a roll (src/rules/roll-request.ts): who is asked, what may happen
 * next (each row once), the tally, and reading a stored request back, with properties.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_ROLL_REQUEST_ROWS,
  RollRequestError,
  createRollRequest,
  mayRollRequestRow,
  readRollRequest,
  recordRequestResult,
  requestTally,
  type RollRequest,
  type RollRequestResult,
} from "../../src/rules/roll-request";
import { ABILITY_KEYS, SUB_SCORE_REFS, COLORS } from "../../src/rules/index";

const subject = (n: number) => ({ actorUuid: `Actor.a${String(n)}`, name: `Hero ${String(n)}` });
const result = (die: number, success: boolean): RollRequestResult => ({ die, value: 30, shift: 0, karma: 0, color: success ? "green" : "white", success });

const arbShown = fc.record({ value: fc.constantFrom(0, 2, 6, 10, 30, 40, 100, 1000), shift: fc.integer({ min: -5, max: 5 }) });
const arbSealed = fc.constant({ value: null, shift: null });
const arbResult = fc.record({
  die: fc.integer({ min: 1, max: 100 }),
  column: fc.oneof(arbShown, arbSealed),
  karma: fc.constantFrom(0, 10, 25),
  color: fc.constantFrom(...COLORS),
  success: fc.boolean(),
}).map(({ column, ...rest }): RollRequestResult => ({ ...rest, ...column }));

describe("request card rules", () => {
  it("request card: every character asked is one row, in the order asked; the same actor twice is one row", () => {
    const request = createRollRequest("endurance", 40, "  Hold   your breath ", [subject(1), subject(2), subject(1)]);
    expect(request.rows.map((r) => [r.key, r.actorUuid, r.result])).toEqual([
      ["0", "Actor.a1", null],
      ["1", "Actor.a2", null],
    ]);
    expect(request.label).toBe("Hold your breath");
    expect(createRollRequest("psyche", null, "   ", [subject(1)]).label).toBeNull();
  });

  it("request card: a bad request is refused with a reason, never guessed", () => {
    const refused = (fn: () => unknown): void => {
      expect(fn).toThrow(RollRequestError);
    };
    refused(() => createRollRequest("endurance", 40, null, []));
    refused(() => createRollRequest("stamina" as never, 40, null, [subject(1)]));
    refused(() => createRollRequest("endurance", -3, null, [subject(1)]));
    refused(() => createRollRequest("endurance", 2.5, null, [subject(1)]));
    refused(() => createRollRequest("endurance", null, "x".repeat(201), [subject(1)]));
    refused(() => createRollRequest("endurance", null, null, Array.from({ length: MAX_ROLL_REQUEST_ROWS + 1 }, (_, i) => subject(i))));
    expect(createRollRequest("endurance", null, null, Array.from({ length: MAX_ROLL_REQUEST_ROWS }, (_, i) => subject(i))).rows).toHaveLength(MAX_ROLL_REQUEST_ROWS);
  });

  it("request card: any ability or sub-score may be asked for", () => {
    for (const score of [...ABILITY_KEYS, ...SUB_SCORE_REFS]) expect(createRollRequest(score, null, null, [subject(1)]).score).toBe(score);
  });

  it("request card: each row is rolled once, whatever the order; the tally counts what was rolled and what succeeded", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.tuple(fc.nat(20), arbResult), { maxLength: 30 }), (size, attempts) => {
        let request: RollRequest = createRollRequest("agility.bal", null, null, Array.from({ length: size }, (_, i) => subject(i)));
        const kept = new Map<string, RollRequestResult>();
        for (const [n, r] of attempts) {
          const key = String(n);
          if (n >= size) {
            expect(() => recordRequestResult(request, key, r)).toThrow(RollRequestError);
            continue;
          }
          if (kept.has(key)) {
            expect(mayRollRequestRow(request, key)).toBe(false);
            expect(() => recordRequestResult(request, key, r)).toThrow(expect.objectContaining({ kind: "stale" }));
            continue;
          }
          expect(mayRollRequestRow(request, key)).toBe(true);
          request = recordRequestResult(request, key, r);
          kept.set(key, r);
        }
        for (const row of request.rows) expect(row.result).toEqual(kept.get(row.key) ?? null);
        const tally = requestTally(request);
        expect(tally.rolled).toBe(kept.size);
        expect(tally.waiting).toBe(size - kept.size);
        expect(tally.successes).toBe([...kept.values()].filter((r) => r.success).length);
      }),
    );
  });

  it("request card: a stored request reads back the same after JSON, and a damaged one is refused", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(arbResult, { maxLength: 6 }), (size, results) => {
        let request = createRollRequest("endurance.res", 30, "Brace", Array.from({ length: size }, (_, i) => subject(i)));
        results.slice(0, size).forEach((r, i) => (request = recordRequestResult(request, String(i), r)));
        expect(readRollRequest(JSON.parse(JSON.stringify(request)))).toEqual(request);
      }),
    );
    const good = recordRequestResult(createRollRequest("endurance", 40, null, [subject(1)]), "0", result(50, true));
    const damaged = (patch: (r: Record<string, unknown>) => void) => {
      const copy = JSON.parse(JSON.stringify(good)) as Record<string, unknown>;
      patch(copy);
      return () => readRollRequest(copy);
    };
    const row = (r: Record<string, unknown>) => (r.rows as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(damaged((r) => (r.version = 99))).toThrow(/newer version/);
    expect(damaged((r) => (r.score = "luck"))).toThrow(RollRequestError);
    expect(damaged((r) => (r.intensity = -3))).toThrow(RollRequestError);
    expect(damaged((r) => (r.rows = []))).toThrow(RollRequestError);
    expect(damaged((r) => (row(r).key = "5"))).toThrow(RollRequestError);
    expect(damaged((r) => ((row(r).result as Record<string, unknown>).die = 101))).toThrow(/101/);
    expect(damaged((r) => ((row(r).result as Record<string, unknown>).color = "blue"))).toThrow(RollRequestError);
    // A sealed (NPC) row hides both its rank number and its shift, never one of them.
    expect(damaged((r) => ((row(r).result as Record<string, unknown>).value = null))).toThrow(/sealed/);
    expect(() => readRollRequest(null)).toThrow(RollRequestError);
  });

  it("request card: a row keeps each shift with its reason; they must add up to the row's shift, and a sealed row has none", () => {
    const asked = createRollRequest("endurance", null, null, [subject(1)]);
    const shifts = [{ cs: -2, label: "CASE.TurnShift.declaredDodge", localize: true }, { cs: 1, label: "Stoic", localize: false }];
    const rolled = recordRequestResult(asked, "0", { ...result(50, true), shift: -1, shifts });
    expect(readRollRequest(JSON.parse(JSON.stringify(rolled))).rows[0]?.result?.shifts).toEqual(shifts);
    expect(() => recordRequestResult(asked, "0", { ...result(50, true), shift: -2, shifts })).toThrow(/add up/);
    expect(() => recordRequestResult(asked, "0", { ...result(50, true), value: null, shift: null, shifts })).toThrow(/sealed/);
    expect(() => recordRequestResult(asked, "0", { ...result(50, true), shift: 0, shifts: [{ cs: 0, label: "x", localize: false }] })).toThrow(RollRequestError);
  });
});
