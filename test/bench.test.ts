/**
 * `npm run bench`'s universalColor line is measured like the peer harness
 * (/work/shared/peer-bench/bench.mjs): the same 1,000,000 triples in the same typed arrays (rank
 * as an index into the ladder, d100, column shift), each timed call going through the same
 * lookup (the rank's standard number, then universalColor) in the same loop.
 */
import { describe, expect, it } from "vitest";
import { UC_FINGERPRINT, UC_N, ucLookup, ucPass, ucWorkload } from "../scripts/bench-core";
import { universalColor } from "../src/rules/index";

/** The harness's ladder: the standard number of Feeble … Class 5000. */
const LADDER = [2, 4, 6, 10, 20, 30, 40, 50, 75, 100, 150, 200, 500, 1000, 3000, 5000];

describe("the bench's universalColor, measured like the peer harness", () => {
  const w = ucWorkload();

  it("holds the harness's workload in its arrays: rank indexes, rolls and shifts, fingerprint b3181c2f", () => {
    expect(w.fingerprint).toBe(UC_FINGERPRINT);
    expect(UC_FINGERPRINT).toBe("b3181c2f");
    expect([w.rank, w.roll, w.cs].map((a) => [a.constructor.name, a.length])).toEqual([["Uint8Array", UC_N], ["Uint8Array", UC_N], ["Int8Array", UC_N]]);
    expect(Math.max(...w.rank.subarray(0, 10_000))).toBe(LADDER.length - 1);
  });

  it("times each triple through the harness's lookup: the rank's number, then universalColor", () => {
    for (let i = 0; i < 1000; i++) {
      const [r, d, s] = [w.rank[i] ?? 0, w.roll[i] ?? 0, w.cs[i] ?? 0];
      expect(ucLookup(r, d, s)).toBe(universalColor(LADDER[r] ?? 0, d, s));
    }
    let calls = 0;
    expect(ucPass(w, () => (calls++, undefined))).toBe(UC_N);
    expect(calls).toBe(UC_N);
    expect(ucPass(w)).toBe(0);
  });
});
