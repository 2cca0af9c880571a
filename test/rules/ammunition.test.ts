import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ATTACK_CODES } from "../../src/rules/attacks";
import { SHOTS_PER_ATTACK_DEFAULT, mayFire, reload, shotsPerAttack, spendAmmunition, type Ammunition } from "../../src/rules/ammunition";

const magazine = fc.integer({ min: 1, max: 200 }).chain((capacity) => fc.record({ capacity: fc.constant(capacity), current: fc.integer({ min: 0, max: capacity }) }));

describe("ammunition spent per attack", () => {
  it("one shot per attack by default, for every attack type", () => {
    expect(SHOTS_PER_ATTACK_DEFAULT).toBe(1);
    for (const a of ATTACK_CODES) expect(shotsPerAttack(a)).toBe(1);
  });

  it("a weapon's own figure, a per-type setting and a flurry change the shots", () => {
    expect(shotsPerAttack("Sh", { weaponShots: 3 })).toBe(3);
    expect(shotsPerAttack("Sh", { byType: { Sh: 2 } })).toBe(2);
    expect(shotsPerAttack("Sh", { weaponShots: 3, attacks: 2 })).toBe(6);
    expect(() => shotsPerAttack("Sh", { weaponShots: 0 })).toThrow(RangeError);
    expect(() => shotsPerAttack("Sh", { attacks: 1.5 })).toThrow(RangeError);
  });

  it("spending takes the shots off; a six-shooter fires six times, then refuses as empty", () => {
    let gun: Ammunition | null = { current: 6, capacity: 6 };
    for (let i = 0; i < 6; i++) gun = spendAmmunition(gun);
    expect(gun).toEqual({ current: 0, capacity: 6 });
    expect(mayFire(gun)).toEqual({ ok: false, reason: "empty", shots: 1, left: 0 });
    expect(() => spendAmmunition(gun)).toThrow(/empty/);
  });

  it("a burst with too few shots left is refused as notEnough", () => {
    expect(mayFire({ current: 2, capacity: 30 }, 3)).toEqual({ ok: false, reason: "notEnough", shots: 3, left: 2 });
    expect(() => spendAmmunition({ current: 2, capacity: 30 }, 3)).toThrow(/needs 3 shots; only 2/);
  });

  it("reload fills to capacity", () => {
    expect(reload({ current: 0, capacity: 12 })).toEqual({ current: 12, capacity: 12 });
  });

  it("weapons without ammunition (null) never refuse and never change", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1000 }), (shots) => {
      expect(mayFire(null, shots)).toEqual({ ok: true, shots });
      expect(spendAmmunition(null, shots)).toBeNull();
    }));
    expect(reload(null)).toBeNull();
  });

  it("refuses malformed ammunition with a clear error", () => {
    expect(() => mayFire({ current: 7, capacity: 6 })).toThrow(/more than the capacity/);
    expect(() => mayFire({ current: -1, capacity: 6 })).toThrow(RangeError);
    expect(() => mayFire({ current: 1, capacity: 0 })).toThrow(RangeError);
    expect(() => mayFire({ current: Number.NaN, capacity: 6 })).toThrow(RangeError);
    expect(() => mayFire({ current: 1, capacity: 6 }, 0)).toThrow(RangeError);
  });

  it("property: spending never goes below 0, keeps the capacity, and refuses exactly when too few are left", () => {
    fc.assert(fc.property(magazine, fc.integer({ min: 1, max: 50 }), (ammo, shots) => {
      const check = mayFire(ammo, shots);
      expect(check.ok).toBe(ammo.current >= shots);
      if (check.ok) {
        const after = spendAmmunition(ammo, shots);
        expect(after).toEqual({ current: ammo.current - shots, capacity: ammo.capacity });
      } else {
        expect(() => spendAmmunition(ammo, shots)).toThrow(RangeError);
      }
      expect(reload(ammo)?.current).toBe(ammo.capacity);
    }));
  });
});
