/**
 * What the packs must contain to be "ready to play out of the box": the powers, gear, talents
 * and characters the system promises, with data that agrees with the rules (standard rank
 * numbers, attack types whose pull rule matches the `pullable` flag, embedded items that are
 * faithful copies of the pack items), and original content only.
 */
import { describe, expect, it } from "vitest";
import { ATTACK_CODES, POWER_CATEGORIES, RANKS, isTalentCover, pullRule, rankOf, type AttackCode } from "../../src/rules/index";
import { readAllPacks, readManifest, readPack, type SourceDoc } from "../support/pack-files";

type Sys = Record<string, unknown>;
interface Attack {
  enabled: boolean;
  type: AttackCode;
  range: number;
  pullable: boolean;
}

const docs = (pack: string): SourceDoc[] => readPack(pack).map((f) => f.doc as SourceDoc);
const sys = (doc: SourceDoc): Sys => doc.system as Sys;
const byName = (list: readonly SourceDoc[], name: string): SourceDoc | undefined => list.find((d) => d.name === name);
const STANDARD = new Set(RANKS.map((r) => r.number));

const powers = docs("powers");
const talents = docs("talents");
const gear = docs("gear");
const weapons = gear.filter((d) => d.type === "weapon");
const armors = gear.filter((d) => d.type === "armor");
const heroes = docs("heroes");
const villainsAndFoes = docs("villains");
const actors = [...heroes, ...villainsAndFoes];

describe("powers", () => {
  it("at least 40, all of type power, covering all nine categories", () => {
    expect(powers.length).toBeGreaterThanOrEqual(40);
    expect(powers.every((p) => p.type === "power")).toBe(true);
    expect(new Set(powers.map((p) => sys(p).category))).toEqual(new Set(POWER_CATEGORIES));
  });

  it("include the classic powers", () => {
    const names = [
      "Body Armor",
      "Force Field",
      "Flight",
      "Super Speed",
      "Regeneration",
      "Elongation",
      "Telekinesis",
      "Mind Control",
      "Teleportation",
      "Claws",
      "Super Strength",
      "Invisibility",
      "Energy Blast",
    ];
    expect(names.filter((n) => !byName(powers, n))).toEqual([]);
  });

  it("attack with every ranged attack type (En, Fo, Sh, BT, ET) and with claws as EA", () => {
    const types = new Set(powers.map((p) => sys(p).attack as Attack).filter((a) => a.enabled).map((a) => a.type));
    for (const t of ["En", "Fo", "Sh", "BT", "ET", "EA"] as const) expect(types, t).toContain(t);
    expect((sys(byName(powers, "Claws") ?? {}).attack as Attack).type).toBe("EA");
  });

  it("each has a standard default rank, a duration, rank guidance and a description", () => {
    for (const p of powers) {
      const s = sys(p);
      expect(STANDARD.has(s.rank as number), `${String(p.name)} rank ${String(s.rank)}`).toBe(true);
      expect(String(s.duration).trim(), String(p.name)).not.toBe("");
      expect(String(s.description), String(p.name)).toContain("<h3>Rank guidance</h3>");
    }
  });

  it("an attacking power's pullable flag follows its attack type's pull rule, and it says how it attacks", () => {
    for (const p of powers) {
      const a = sys(p).attack as Attack;
      if (!a.enabled) continue;
      expect(a.pullable, String(p.name)).toBe(pullRule(a.type) !== "none");
      expect(String(sys(p).description), String(p.name)).toContain(`(${a.type})`);
    }
  });
});

describe("gear", () => {
  const weapon = (name: string): { attack: Attack; damage: { mode: string; rank: number }; materialStrength: number; ammunition: { tracked: boolean; value: number; max: number } } => {
    const w = byName(weapons, name);
    if (!w) throw new Error(`No weapon "${name}".`);
    return sys(w) as never;
  };

  it("fists are Strength, Blunt Attack", () => {
    const fists = weapon("Fists");
    expect(fists.attack.type).toBe("BA");
    expect(fists.damage.mode).toBe("strength");
  });

  it("has the everyday weapons with the right attack types", () => {
    const want: [string, AttackCode][] = [
      ["Combat Knife", "EA"],
      ["Throwing Knife", "ET"],
      ["Sword", "EA"],
      ["Club", "BA"],
      ["Recurve Bow", "Sh"],
      ["Handgun", "Sh"],
      ["Rifle", "Sh"],
      ["Shotgun", "Sh"],
      ["Throwing Stone", "BT"],
    ];
    for (const [name, type] of want) expect(weapon(name).attack.type, name).toBe(type);
    expect(weapon("Club").damage.mode).toBe("strength");
  });

  it("ranged weapons have a range, firearms and bows track ammunition (a full load)", () => {
    for (const w of weapons) {
      const s = sys(w) as ReturnType<typeof weapon>;
      const ranged = ["BT", "ET", "En", "Fo", "Sh"].includes(s.attack.type);
      expect(s.attack.range > 0, String(w.name)).toBe(ranged);
      expect(s.attack.pullable, String(w.name)).toBe(pullRule(s.attack.type) !== "none");
      if (s.attack.type === "Sh") expect(s.ammunition.tracked, String(w.name)).toBe(true);
      if (s.ammunition.tracked) expect(s.ammunition.value, String(w.name)).toBe(s.ammunition.max);
      if (s.ammunition.tracked) expect(s.ammunition.max, String(w.name)).toBeGreaterThan(0);
      if (s.damage.mode === "rank") expect(STANDARD.has(s.damage.rank), String(w.name)).toBe(true);
      else expect(s.damage.rank, `${String(w.name)}: a Strength weapon has no rank of its own`).toBe(0);
      expect(s.materialStrength === 0 || STANDARD.has(s.materialStrength), String(w.name)).toBe(true);
    }
  });

  it("has body armor and shields with standard ranks", () => {
    expect(armors.length).toBeGreaterThanOrEqual(5);
    for (const name of ["Ballistic Vest", "Riot Armor", "Power Armor Plating", "Riot Shield"]) expect(byName(armors, name), name).toBeDefined();
    for (const a of armors) {
      const s = sys(a) as { physical: number; energy: number };
      expect(STANDARD.has(s.physical) && STANDARD.has(s.energy), String(a.name)).toBe(true);
    }
  });
});

describe("talents", () => {
  it("at least 25, each covering valid, distinct rolls", () => {
    expect(talents.length).toBeGreaterThanOrEqual(25);
    for (const t of talents) {
      const covers = sys(t).covers as string[];
      expect(covers.length, String(t.name)).toBeGreaterThan(0);
      expect(covers.filter((c) => !isTalentCover(c)), String(t.name)).toEqual([]);
      expect(new Set(covers).size, String(t.name)).toBe(covers.length);
    }
  });

  it("include the staple combat and skill talents", () => {
    for (const name of ["Martial Arts", "Marksman", "Acrobatics", "First Aid", "Wrestling", "Thrown Weapons", "Blades", "Pilot"]) {
      expect(byName(talents, name), name).toBeDefined();
    }
    const covers = new Set(talents.flatMap((t) => sys(t).covers as string[]));
    for (const c of ["Sh", "dodge", "agility.dex", "BA"]) expect(covers, c).toContain(c);
  });
});

describe("characters", () => {
  const named = actors.filter((a) => sys(a).minor !== true);
  const minor = actors.filter((a) => sys(a).minor === true);
  const abilityRanks = (a: SourceDoc): number[] => Object.values((sys(a).abilities ?? {}) as Record<string, { value: number }>).map((x) => rankOf(x.value).index);

  it("at least 8 heroes and villains, and a handful of minor foes", () => {
    expect(named.length).toBeGreaterThanOrEqual(8);
    expect(minor.length).toBeGreaterThanOrEqual(3);
    expect(heroes.every((h) => h.type === "hero")).toBe(true);
    expect(villainsAndFoes.every((v) => v.type === "npc")).toBe(true);
    expect(minor.every((m) => m.type === "npc")).toBe(true);
  });

  it("span street level (no ability above Good) to Unearthly", () => {
    const best = named.map((a) => Math.max(...abilityRanks(a)));
    expect(Math.min(...best)).toBeLessThanOrEqual(RANKS.findIndex((r) => r.key === "good"));
    expect(Math.max(...best)).toBe(RANKS.findIndex((r) => r.key === "unearthly"));
  });

  it("use standard rank numbers for abilities, sub-scores set apart, Resources and item ranks", () => {
    const off: string[] = [];
    for (const a of actors) {
      const s = sys(a);
      for (const [key, ability] of Object.entries(s.abilities as Record<string, Record<string, number | null>>)) {
        for (const [sub, v] of Object.entries(ability)) if (v !== null && !STANDARD.has(v)) off.push(`${String(a.name)} ${key}.${sub} = ${v}`);
      }
      if (!STANDARD.has(s.resources as number)) off.push(`${String(a.name)} resources`);
      for (const item of a.items as SourceDoc[]) {
        const r = sys(item).rank;
        if (typeof r === "number" && !STANDARD.has(r)) off.push(`${String(a.name)}: ${String(item.name)} rank ${r}`);
      }
    }
    expect(off).toEqual([]);
  });

  it("heroes' tokens are linked to their actor; minor foes' tokens are numbered", () => {
    for (const h of heroes) expect((h.prototypeToken as Sys).actorLink, String(h.name)).toBe(true);
    for (const m of minor) expect((m.prototypeToken as Sys).appendNumber, String(m.name)).toBe(true);
    for (const a of actors) expect((a.prototypeToken as { bar1: { attribute: string } }).bar1.attribute).toBe("health");
  });

  it("have a biography and carry their powers, talents and gear", () => {
    for (const a of actors) {
      expect(String(sys(a).biography).length, String(a.name)).toBeGreaterThan(50);
      const types = new Set((a.items as SourceDoc[]).map((i) => i.type));
      expect(types.has("weapon"), `${String(a.name)} has a weapon (at least Fists)`).toBe(true);
    }
    const all = named.flatMap((a) => (a.items as SourceDoc[]).map((i) => i.type));
    for (const t of ["power", "talent", "weapon", "armor"]) expect(all, t).toContain(t);
  });

  it("embedded items are faithful copies of pack items (only name, rank and doubled may differ)", () => {
    const manifest = readManifest();
    const packItems = new Map<string, SourceDoc>();
    for (const p of manifest.packs.filter((x) => x.type === "Item")) for (const d of docs(p.name)) packItems.set(`Compendium.${manifest.id}.${p.name}.Item.${String(d._id)}`, d);
    const problems: string[] = [];
    for (const a of actors) {
      for (const item of a.items as SourceDoc[]) {
        const source = String((item._stats as Sys | undefined)?.compendiumSource);
        const original = packItems.get(source);
        if (!original) {
          problems.push(`${String(a.name)}: ${String(item.name)} points at ${source}, which is not a pack item`);
          continue;
        }
        if (original.type !== item.type) problems.push(`${String(a.name)}: ${String(item.name)} type differs from its source`);
        const strip = (s: Sys): Sys => Object.fromEntries(Object.entries(s).filter(([k]) => k !== "rank" && k !== "doubled"));
        const copy = strip(sys(item));
        const base = strip(sys(original));
        if (JSON.stringify(copy) !== JSON.stringify(base)) problems.push(`${String(a.name)}: ${String(item.name)} differs from ${String(original.name)} beyond rank/doubled`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("original content", () => {
  // A guard against borrowed names: the best-known trademarked heroes, villains, teams and places.
  const TRADEMARKS = [
    /spider-/i,
    /\bmarvel\b/i,
    /\bavengers?\b/i,
    /\bx-men\b/i,
    /\bhulk\b/i,
    /\bwolverine\b/i,
    /\bbat(man|girl|mobile)\b/i,
    /\bsuperman\b/i,
    /\bwonder woman\b/i,
    /\bjustice league\b/i,
    /\biron man\b/i,
    /\bcaptain america\b/i,
    /\bthor\b/i,
    /\bmagneto\b/i,
    /\bgalactus\b/i,
    /\bdoctor doom\b/i,
    /\bjoker\b/i,
    /\bfantastic four\b/i,
    /\bdaredevil\b/i,
    /\bdeadpool\b/i,
    /\bgreen lantern\b/i,
    /\baquaman\b/i,
    /\bpunisher\b/i,
    /\bkryptonite\b/i,
    /\bgotham\b/i,
    /\bwakanda\b/i,
    /\bs\.h\.i\.e\.l\.d\b/i,
    /\bvibranium\b/i,
    /\badamantium\b/i,
  ];

  it("names no trademarked character, team or place", () => {
    const hits = readAllPacks().flatMap((f) => TRADEMARKS.filter((re) => re.test(f.text)).map((re) => `${f.file}: ${String(re)}`));
    expect(hits).toEqual([]);
  });

  it("every attack code used in the packs is one the rules know", () => {
    const used = readAllPacks().flatMap((f) => [...f.text.matchAll(/"type": "([A-Za-z]{2})"/g)].map((m) => m[1] ?? ""));
    expect(used.filter((t) => !(ATTACK_CODES as readonly string[]).includes(t))).toEqual([]);
  });
});

describe("area attack: shipped items with an area", () => {
  it("area attack: the Concussion Grenade is an explosive burst and Force Blast a line; every other item's attack has none", async () => {
    const { powerItem, POWERS } = await import("../../scripts/packs/content/powers");
    const { weaponItem, WEAPONS } = await import("../../scripts/packs/content/gear");
    const areaOf = (item: { system: Record<string, unknown> }) => (item.system.attack as { area: unknown }).area;
    const withArea = [...POWERS.map(powerItem), ...WEAPONS.map(weaponItem)].filter((i) => (areaOf(i) as { shape: string }).shape !== "none");
    expect(withArea.map((i) => [i.name, areaOf(i)])).toEqual([
      ["Force Blast", { shape: "line", radius: 3, explosive: false }],
      ["Concussion Grenade", { shape: "burst", radius: 1, explosive: true }],
    ]);
    for (const i of withArea) expect(i.system.description).toContain("<strong>Area:</strong>");
  });
});
