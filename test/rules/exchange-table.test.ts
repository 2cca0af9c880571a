/**
 * The attack exchange, table-driven: every attack type × every defence the rules offer against
 * it × every defence colour × every to-hit colour, with the expected outcome computed from
 * CASE-RULES.md (§1, §2, §5–§9) — never from the engine's own tables. Dice for a wanted colour
 * are read off the document's Universal Table (§2).
 */
import { describe, expect, it } from "vitest";
import { ATTACK_CODES, type AttackCode, type AttackResult } from "../../src/rules/attacks";
import { CATCH_KINDS, type CatchKind, type DefenceCode } from "../../src/rules/defences";
import {
  applyDamage,
  chooseDefence,
  createExchange,
  declineDefence,
  defenceOptions,
  resolveConsequence,
  rollToHit,
  targetOf,
  type ExchangeInput,
  type ExchangeState,
  type ExchangeTarget,
  type TargetInput,
  type TargetScores,
} from "../../src/rules/exchange";
import { DOC_COLORS, docColorOn, docLadder, docRankAt, docRankNamed, docRankOf, docRollEdges, docRollFor, docRollsFor, docThrownRange, rulesSection, rulesTable, signedNumber, tableRecords, type DocColor, RESULT_WORDS } from "../support/rules-doc";
import { exchangeInput as plainExchangeInput } from "../support/exchange-input";

// ---------------------------------------------------------------------------------------------
// The document, read once
// ---------------------------------------------------------------------------------------------

const flat = (n: number) => rulesSection(n).replace(/\s+/g, " ");
const section5 = flat(5);
const section6 = flat(6);
const section7 = flat(7);
const section8 = flat(8);

const attackDoc = tableRecords(rulesTable(5, "code", "attack", "rolls on", "white", "green", "yellow", "red", "may pull"));
const defenceDoc = tableRecords(rulesTable(6, "defence", "rolls on", "white", "green", "yellow", "red", "against"));
const checkDoc = tableRecords(rulesTable(8, "check", "white", "green", "yellow", "red"));

function attackRow(code: AttackCode): Record<string, string> {
  const row = attackDoc.find((r) => r["code"] === code);
  if (!row) throw new Error(`CASE-RULES §5 has no row ${code}.`);
  return row;
}

function defenceRow(code: DefenceCode): Record<string, string> {
  const row = defenceDoc.find((r) => (r["defence"] ?? "").toLowerCase() === code);
  if (!row) throw new Error(`CASE-RULES §6 has no row ${code}.`);
  return row;
}

const DOC_DEFENCES = defenceDoc.map((r) => (r["defence"] ?? "").toLowerCase() as DefenceCode);


/** The §5 cell of `code` for `color`, as a doc word ("Miss", "Slam", "Full Hold" …). */
function docResultWord(code: AttackCode, color: DocColor): string {
  return attackRow(code)[color] ?? "";
}

function docResult(code: AttackCode, color: DocColor): AttackResult {
  const r = RESULT_WORDS[docResultWord(code, color)];
  if (!r) throw new Error(`Unknown §5 result "${docResultWord(code, color)}".`);
  return r;
}

/** §5 results that are a hit dealing the attack's damage (a Bullseye "counts as a Hit"). */
const HIT_WORDS = new Set(["Hit", "Slam", "Stun", "Kill", "Bullseye"]);

const SCORE_WORDS: Readonly<Record<string, keyof TargetScores>> = {
  "Agy (bal)": "agility.bal",
  "Ftg (def)": "fighting.def",
  "Str (mgt)": "strength.mgt",
  "End (res)": "endurance.res",
};

function docRollsOn(code: DefenceCode): keyof TargetScores {
  const key = SCORE_WORDS[defenceRow(code)["rolls on"] ?? ""];
  if (!key) throw new Error(`Cannot read what ${code} rolls on.`);
  return key;
}

/** The attack codes a §6 "against" cell lists (tags like "[RULING for Ch]" removed). */
function docAgainstCodes(code: DefenceCode): AttackCode[] {
  const cell = (defenceRow(code)["against"] ?? "").replace(/\[[^\]]*\]/g, "");
  return cell
    .split(",")
    .map((t) => t.trim().split(/\s+/)[0] ?? "")
    .filter((t): t is AttackCode => (ATTACK_CODES as readonly string[]).includes(t));
}

/** §6: "Catch: −3 CS when the object is aimed at the catcher". */
const CATCH_ROLL_CS = signedNumber(/Catch: ([+−-]\d+) CS when the object is aimed at the catcher/.exec(section6)?.[1] ?? "NaN");

/** §6: "minimum Agility: Unearthly for bullets, Amazing for arrows, Remarkable for other thrown projectiles, any for falling people". */
function docCatchMinimum(kind: CatchKind): number {
  const m = /minimum Agility: ([^[]+)/.exec(section6);
  const words: Record<CatchKind, RegExp> = { bullet: /(\w+) for bullets/, arrow: /(\w+) for arrows/, thrown: /(\w+) for other thrown projectiles/, falling: /(\w+) for falling/ };
  const name = words[kind].exec(m?.[1] ?? "")?.[1];
  if (!name) throw new Error(`§6 gives no minimum Agility for ${kind}.`);
  return name === "any" ? 0 : docRankNamed(name).index;
}

/** §6 buddy rule: "unless the two are within one rank of each other, when they stack as a buddy +1 CS". */
const BUDDY = (() => {
  const m = /within (\w+) rank of each other, when they stack as a buddy ([+−-]\d+) CS/.exec(section6);
  const words: Record<string, number> = { one: 1, two: 2 };
  const gap = words[m?.[1] ?? ""];
  if (!m || gap === undefined) throw new Error("§6 does not state the buddy rule.");
  return { gap, cs: signedNumber(m[2] ?? "NaN") };
})();

/** §7 intensity: "white −3 CS, green −1 CS, yellow ±0, red +1 CS". */
function docIntensityShift(c: DocColor): number {
  const text = new RegExp(`${c} ([+−-]\\d+ CS|±0)`).exec(section7)?.[1];
  if (text === undefined) throw new Error(`§7 gives no intensity shift for ${c}.`);
  return text === "±0" ? 0 : signedNumber(text.replace(" CS", ""));
}

/** §5: which armor absorbs `code`: "Body armor (…) absorbs its rank number from BA, EA, BT, ET, Fo, Sh and Ch damage"; "Protection against En is a separate rank on the armor". */
function docArmorKind(code: AttackCode): "body" | "energy" | null {
  const m = /absorbs its rank number from ([\s\S]+?)\s+damage/.exec(section5);
  if (!m) throw new Error("§5 does not say what body armor absorbs.");
  const body = (m[1] ?? "").split(/,\s*|\s+and\s+/).map((s) => s.trim());
  if (body.includes(code)) return "body";
  if (/Protection against (\w+) is a separate rank on the armor/.exec(section5)?.[1] === code) return "energy";
  return null;
}

/** Block/Brace combined with armor per §6: the better of the two, or the better +1 CS (buddy) when within one rank. No armor (0) or no protection (0) is nothing to stack with. */
function docCombinedProtection(armor: number, fromDefence: number): number {
  if (fromDefence === 0) return armor;
  if (armor === 0) return fromDefence;
  const better = Math.max(armor, fromDefence);
  const gap = Math.abs(docRankOf(armor).index - docRankOf(fromDefence).index);
  if (gap > BUDDY.gap) return better;
  return Math.max(better, docRankAt(docRankOf(better).index + BUDDY.cs).number);
}

function docCheckCell(check: "Slam?" | "Stun?" | "Kill?", c: DocColor): string {
  const row = checkDoc.find((r) => r["check"] === check);
  if (!row) throw new Error(`§8 has no ${check} row.`);
  return row[c] ?? "";
}

// ---------------------------------------------------------------------------------------------
// What a defence colour does, by the §6 cell
// ---------------------------------------------------------------------------------------------

type DocEffect =
  | { readonly kind: "shift"; readonly cs: number } // on the attack's to-hit column
  | { readonly kind: "protection"; readonly cs: number } // on the defender's own score
  | { readonly kind: "autoHit" }
  | { readonly kind: "avoided"; readonly bonus: number };

function docEffect(code: DefenceCode, c: DocColor): DocEffect {
  const cell = defenceRow(code)[c] ?? "";
  if (cell === "Auto-hit") return { kind: "autoHit" };
  if (cell === "no shift") return { kind: "shift", cs: 0 };
  let m = /^(?:attack )?([+−-]\d+) CS$/.exec(cell);
  if (m) return { kind: "shift", cs: signedNumber(m[1] ?? "") };
  m = /^(?:protection )?(?:Str|End) ([+−-]\d+) CS$/.exec(cell);
  if (m) return { kind: "protection", cs: signedNumber(m[1] ?? "") };
  m = /^Miss \(([+−-]\d+) CS to the attack if aimed at the catcher\)$/.exec(cell);
  if (m) return { kind: "shift", cs: signedNumber(m[1] ?? "") };
  if (cell.startsWith("avoided")) return { kind: "avoided", bonus: signedNumber(/([+−-]\d+) CS/.exec(cell)?.[1] ?? "0") };
  if (cell === "Catch" || cell.startsWith("Caught")) return { kind: "avoided", bonus: 0 };
  throw new Error(`Cannot read §6 cell "${cell}" (${code}, ${c}).`);
}

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

const ATTACKER_VALUE = 50; // Amazing: −6 CS still leaves a column to roll on
const DAMAGE = 40; // Incredible
const ARMOR = { body: 20, energy: 10 } as const; // Excellent / Good
const SCORE = 40; // Incredible, every sub-score
const ATTACKER_STRENGTH: number = 50; // beats SCORE: a full hold deals damage

function targetInput(over: Partial<TargetInput> = {}): TargetInput {
  return {
    uuid: "Scene.s.Token.t0",
    actorUuid: "Actor.t0",
    name: "Target",
    scores: { "agility.bal": SCORE, "fighting.def": SCORE, "strength.mgt": SCORE, "endurance.res": SCORE },
    armor: { ...ARMOR },
    ...over,
  };
}

function exchangeInput(attack: AttackCode, over: Partial<ExchangeInput> = {}): ExchangeInput {
  return plainExchangeInput({
    attack,
    source: "test",
    attacker: { uuid: "Actor.a", name: "Attacker", value: ATTACKER_VALUE, strength: ATTACKER_STRENGTH, armor: 0 },
    damage: { method: "static", value: DAMAGE },
    projectile: attack === "BT" || attack === "ET" ? "thrown" : null,
    targets: [targetInput()],
    ...over,
  });
}

const t0 = (s: ExchangeState): ExchangeTarget => targetOf(s, "0");

/** The defences the document offers against `attack` (never Escape: it answers a hold, §6). */
function docOffered(attack: AttackCode, projectile: CatchKind | null, agility: number): DefenceCode[] {
  return DOC_DEFENCES.filter((d) => {
    if (!docAgainstCodes(d).includes(attack)) return false;
    if (d === "catch") return projectile !== null && docRankOf(agility).index >= docCatchMinimum(projectile);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// The oracle: the outcome the document gives
// ---------------------------------------------------------------------------------------------

interface Expected {
  readonly avoided: boolean;
  readonly bonusCs: number;
  readonly toHitColumn: number; // ladder index, may be < 0
  readonly color: DocColor;
  readonly result: AttackResult;
  readonly raw: number | null;
  readonly protection: number | null;
  readonly dealt: number | null;
  readonly check: "slam" | "stun" | "kill" | null;
}

/** The first colour whose §5 result is not a Miss (an auto-hit "will make it strike" [001]). */
function docFirstStrikingColor(attack: AttackCode): DocColor {
  const c = DOC_COLORS.find((x) => docResultWord(attack, x) !== "Miss");
  if (!c) throw new Error(`${attack} never strikes.`);
  return c;
}

function atLeast(a: DocColor, b: DocColor): DocColor {
  return DOC_COLORS.indexOf(a) >= DOC_COLORS.indexOf(b) ? a : b;
}

function expectedOutcome(attack: AttackCode, defence: DefenceCode | "none", defenceColor: DocColor | null, toHitRoll: number, attackerValue = ATTACKER_VALUE): Expected {
  const effect: DocEffect = defence === "none" || defenceColor === null ? { kind: "shift", cs: 0 } : docEffect(defence, defenceColor);
  if (effect.kind === "avoided") {
    return { avoided: true, bonusCs: effect.bonus, toHitColumn: NaN, color: "white", result: "miss", raw: null, protection: null, dealt: null, check: null };
  }
  const column = docRankOf(attackerValue).index + (effect.kind === "shift" ? effect.cs : 0);
  // §1/§6: below Shift 0 no roll can hit.
  let color: DocColor = column < 0 ? "white" : docColorOn(column, toHitRoll);
  if (effect.kind === "autoHit") color = atLeast(color, docFirstStrikingColor(attack));
  const word = docResultWord(attack, color);
  const result = docResult(attack, color);
  let raw: number | null = null;
  let armor = 0;
  if (HIT_WORDS.has(word)) {
    raw = DAMAGE;
    const kind = docArmorKind(attack);
    armor = kind === null ? 0 : ARMOR[kind];
  } else if (word === "Full Hold" && ATTACKER_STRENGTH > SCORE) {
    // §5 "deals damage only if stronger"; [RULING in attacks.ts] the amount is the holder's Strength,
    // [001] "requires overcoming any body armor".
    raw = ATTACKER_STRENGTH;
    armor = ARMOR.body;
  }
  if (raw === null) return { avoided: false, bonusCs: 0, toHitColumn: column, color, result, raw: null, protection: null, dealt: null, check: null };
  const fromDefence = effect.kind === "protection" ? docRankAt(docRankOf(SCORE).index + effect.cs).number : 0;
  const protection = docCombinedProtection(armor, fromDefence);
  const dealt = Math.max(0, raw - protection);
  const check = dealt > 0 && (word === "Slam" || word === "Stun" || word === "Kill") ? (word.toLowerCase() as "slam" | "stun" | "kill") : null;
  return { avoided: false, bonusCs: 0, toHitColumn: column, color, result, raw, protection, dealt, check };
}

/** The die for the defence colour, on the column the defence rolls on (Catch with its own CS). */
function defenceDie(defence: DefenceCode, c: DocColor): number {
  const column = docRankOf(SCORE).index + (defence === "catch" ? CATCH_ROLL_CS : 0);
  return docRollFor(column, c);
}

function runExchange(attack: AttackCode, defence: DefenceCode | "none", defenceColor: DocColor | null, toHitRoll: number): ExchangeState {
  let s = createExchange(exchangeInput(attack));
  s = defence === "none" || defenceColor === null ? declineDefence(s, "0") : chooseDefence(s, "0", { defence, die: defenceDie(defence, defenceColor), cs: [] });
  if (t0(s).phase === "awaitingToHit") s = rollToHit(s, "0", { die: toHitRoll });
  return s;
}

function checkAgainst(s: ExchangeState, e: Expected): void {
  const t = t0(s);
  if (e.avoided) {
    expect(t.phase).toBe("resolved");
    expect(t.toHit).toBeNull();
    expect(t.damage).toBeNull();
    expect(t.consequences).toEqual([]);
    expect(t.defence?.outcome.avoided).toBe(true);
    expect(t.defence?.outcome.bonusCs).toBe(e.bonusCs);
    return;
  }
  expect(t.phase).toBe("resolved");
  expect(t.toHit?.belowShift0).toBe(e.toHitColumn < 0);
  expect(t.toHit?.column).toBe(docRankAt(e.toHitColumn).name.replace(/\s+(\w)/g, (_m, ch: string) => ch.toUpperCase()).replace(/^\w/, (ch) => ch.toLowerCase()));
  expect(t.toHit?.color).toBe(e.color);
  expect(t.toHit?.result).toBe(e.result);
  if (e.raw === null) {
    expect(t.damage).toBeNull();
  } else {
    expect(t.damage?.raw).toBe(e.raw);
    expect(t.damage?.protection).toBe(e.protection);
    expect(t.damage?.dealt).toBe(e.dealt);
  }
  expect(t.consequences.map((c) => c.check)).toEqual(e.check === null ? [] : [e.check]);
}

// ---------------------------------------------------------------------------------------------

describe("the defences on offer (CASE-RULES §5, §6)", () => {
  it.each(ATTACK_CODES.map((a) => [a]))("against %s: exactly the §6 'against' column, no Escape, Catch by projectile and Agility", (attack) => {
    for (const projectile of [null, ...CATCH_KINDS]) {
      for (const agility of docLadder().map((r) => r.number)) {
        const s = createExchange(exchangeInput(attack, { projectile, targets: [targetInput({ scores: { ...targetInput().scores, "agility.bal": agility } })] }));
        expect({ projectile, agility, options: [...defenceOptions(s, "0")].sort() }).toEqual({ projectile, agility, options: docOffered(attack, projectile, agility).sort() });
        expect(defenceOptions(s, "0")).not.toContain("escape");
      }
    }
  });

  it.each(ATTACK_CODES.map((a) => [a]))("a blindsided %s cannot be defended at all (§5)", (attack) => {
    const s = createExchange(exchangeInput(attack, { blindsided: true }));
    expect(defenceOptions(s, "0")).toEqual([]);
    expect(t0(s).phase).toBe("awaitingToHit");
  });
});

// Every attack × (no defence | each defence on offer) × defence colour × to-hit colour × both edges of the to-hit band.
const cases: [string, AttackCode, DefenceCode | "none", DocColor | null, DocColor, number][] = [];
for (const attack of ATTACK_CODES) {
  const offered: (DefenceCode | "none")[] = ["none", ...docOffered(attack, attack === "BT" || attack === "ET" ? "thrown" : null, SCORE)];
  for (const defence of offered) {
    for (const dc of defence === "none" ? [null] : DOC_COLORS) {
      const effect = defence === "none" || dc === null ? null : docEffect(defence, dc);
      const column = docRankOf(ATTACKER_VALUE).index + (effect?.kind === "shift" ? effect.cs : 0);
      for (const hc of DOC_COLORS) {
        for (const roll of new Set(docRollEdges(column, hc))) cases.push([`${attack} vs ${defence}${dc ? ` (${dc})` : ""}, to-hit ${hc} (${roll})`, attack, defence, dc, hc, roll]);
      }
    }
  }
}

describe("attack × defence × defence colour × to-hit colour (CASE-RULES §5–§8)", () => {
  it("covers every attack and every defence the document offers", () => {
    expect(new Set(cases.map((c) => c[1]))).toEqual(new Set(ATTACK_CODES));
    expect(new Set(cases.map((c) => c[2]))).toEqual(new Set(["none", ...DOC_DEFENCES.filter((d) => d !== "escape")]));
  });

  it.each(cases)("%s", (_name, attack, defence, dc, _hc, roll) => {
    checkAgainst(runExchange(attack, defence, dc, roll), expectedOutcome(attack, defence, dc, roll));
  });
});

describe("shifts that push the to-hit column below Shift 0 (§1, §6)", () => {
  const weak = 2; // Feeble: a −2 CS Dodge/Weave takes it off the ladder
  const shifting = ATTACK_CODES.flatMap((a) => docOffered(a, null, SCORE).filter((d) => d === "dodge" || d === "weave").map((d) => [a, d] as const));

  it.each(shifting)("%s vs %s: a green or better defence leaves no roll that hits, even 100 with Karma", (attack, defence) => {
    for (const dc of DOC_COLORS) {
      const effect = docEffect(defence, dc);
      if (effect.kind !== "shift") throw new Error("Dodge/Weave should shift.");
      const below = docRankOf(weak).index + effect.cs < 0;
      for (const die of [1, 50, 99, 100]) {
        let s = createExchange(exchangeInput(attack, { attacker: { uuid: "a", name: "A", value: weak, strength: weak, armor: 0 }, karma: 50 }));
        s = chooseDefence(s, "0", { defence, die: defenceDie(defence, dc), cs: [] });
        s = rollToHit(s, "0", { die });
        const t = t0(s);
        expect(t.toHit?.belowShift0).toBe(below);
        if (below) {
          expect(t.toHit?.result).toBe("miss");
          expect(t.damage).toBeNull();
        } else {
          expect(t.toHit?.result).toBe(docResult(attack, docColorOn(docRankOf(weak).index, Math.min(100, die + 50))));
        }
      }
    }
  });

  it.each(ATTACK_CODES.flatMap((a) => docOffered(a, a === "BT" || a === "ET" ? "thrown" : null, SCORE).filter((d) => docEffect(d, "white").kind === "autoHit").map((d) => [a, d] as const)))(
    "%s vs %s: a white defence walks into the attack even when it could not have hit (auto-hit)",
    (attack, defence) => {
      let s = createExchange(exchangeInput(attack, { toHitCs: [{ cs: -20, label: "impossible", localize: false }] }));
      s = chooseDefence(s, "0", { defence, die: defenceDie(defence, "white"), cs: [] });
      s = rollToHit(s, "0", { die: 1 });
      const t = t0(s);
      expect(t.toHit?.belowShift0).toBe(true);
      expect(t.toHit?.result).not.toBe("miss");
      expect(t.toHit?.color).toBe(docFirstStrikingColor(attack));
    },
  );
});

describe("Block and Brace protection with armor, every Strength/Endurance rank (§6)", () => {
  const protecting = ATTACK_CODES.flatMap((a) => docOffered(a, null, SCORE).filter((d) => docEffect(d, "white").kind === "protection").map((d) => [a, d] as const));

  it.each(protecting)("%s vs %s", (attack, defence) => {
    const kind = docArmorKind(attack);
    for (const rank of docLadder()) {
      for (const armorRank of [0, 4, 5, 6, 9]) {
        const armorValue = docRankAt(armorRank).number;
        for (const dc of DOC_COLORS) {
          const effect = docEffect(defence, dc);
          if (effect.kind !== "protection") throw new Error("Block/Brace should protect.");
          const scores = { ...targetInput().scores, [docRollsOn(defence)]: rank.number };
          const armor = kind === "energy" ? { body: 0, energy: armorValue } : { body: armorValue, energy: 0 };
          let s = createExchange(exchangeInput(attack, { damage: { method: "static", value: 5000 }, targets: [targetInput({ scores, armor })] }));
          s = chooseDefence(s, "0", { defence, die: docRollFor(rank.index, dc), cs: [] });
          s = rollToHit(s, "0", { die: 100 }); // red: a hit for every attack Block/Brace answer
          const fromDefence = docRankAt(rank.index + effect.cs).number;
          const expected = docCombinedProtection(armorValue, fromDefence);
          expect({ rank: rank.name, armorValue, dc, protection: t0(s).damage?.protection, dealt: t0(s).damage?.dealt }).toEqual({
            rank: rank.name,
            armorValue,
            dc,
            protection: expected,
            dealt: Math.max(0, 5000 - expected),
          });
        }
      }
    }
  });
});

describe("armor by attack type (§5)", () => {
  it.each(ATTACK_CODES.filter((a) => HIT_WORDS.has(docResultWord(a, "red"))).map((a) => [a]))("%s: body armor or energy protection as §5 says", (attack) => {
    let s = createExchange(exchangeInput(attack, { damage: { method: "static", value: 100 }, targets: [targetInput({ armor: { body: 30, energy: 6 } })] }));
    s = declineDefence(s, "0");
    s = rollToHit(s, "0", { die: 100 });
    const kind = docArmorKind(attack);
    const armor = kind === "body" ? 30 : kind === "energy" ? 6 : 0;
    expect(t0(s).damage).toMatchObject({ raw: 100, armor, protection: armor, dealt: 100 - armor });
  });

  it.each(ATTACK_CODES.map((a) => [a]))("%s: damage never goes below 0 when armor exceeds it", (attack) => {
    let s = createExchange(exchangeInput(attack, { damage: { method: "static", value: 4 }, attacker: { uuid: "a", name: "A", value: 50, strength: 45, armor: 0 }, targets: [targetInput({ armor: { body: 100, energy: 100 } })] }));
    s = declineDefence(s, "0");
    s = rollToHit(s, "0", { die: 100 });
    const d = t0(s).damage;
    if (d) {
      expect(d.dealt).toBe(0);
      expect(t0(s).consequences).toEqual([]); // §8: only checked when damage got through
    }
  });
});

describe("intensity damage (§7): a second d100 on the damage rank's column", () => {
  const ranks = docLadder().filter((r) => r.index > 0);
  it.each(ranks.map((r) => [r.name, r] as const))("damage rank %s", (_name, rank) => {
    for (const c of DOC_COLORS) {
      for (const die of new Set(docRollEdges(rank.index, c))) {
        let s = createExchange(exchangeInput("BA", { damage: { method: "intensity", value: rank.number }, targets: [targetInput({ armor: { body: 0, energy: 0 } })] }));
        s = declineDefence(s, "0");
        s = rollToHit(s, "0", { die: docRollFor(docRankOf(ATTACKER_VALUE).index, "green"), damageDie: die });
        const expected = docRankAt(rank.index + docIntensityShift(c)).number;
        expect({ c, die, raw: t0(s).damage?.raw, dieColor: t0(s).damage?.dieColor }).toEqual({ c, die, raw: expected, dieColor: c });
      }
    }
  });

  it("a miss needs no damage roll; a hit does", () => {
    const base = declineDefence(createExchange(exchangeInput("Sh", { damage: { method: "intensity", value: 50 } })), "0");
    const white = docRollFor(docRankOf(ATTACKER_VALUE).index, "white");
    expect(t0(rollToHit(base, "0", { die: white })).toHit?.result).toBe("miss");
    expect(() => rollToHit(base, "0", { die: 100 })).toThrow(/damage roll/);
  });

  it("static damage is the attack's rank number itself, not its rank's standard number", () => {
    for (const value of [1, 7, 33, 45, 99, 777]) {
      let s = createExchange(exchangeInput("Sh", { damage: { method: "static", value }, targets: [targetInput({ armor: { body: 0, energy: 0 } })] }));
      s = rollToHit(declineDefence(s, "0"), "0", { die: 100 });
      expect(t0(s).damage?.raw).toBe(value);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Slam? / Stun? / Kill? (§8)
// ---------------------------------------------------------------------------------------------

/** An attack whose red result is `word` and which hits for damage (so the check is due). */
function attackWithRed(word: string): AttackCode {
  const a = ATTACK_CODES.find((x) => docResultWord(x, "red") === word);
  if (!a) throw new Error(`No attack has ${word} on red.`);
  return a;
}
function attacksWithCheck(word: "Slam" | "Stun" | "Kill"): [AttackCode, DocColor][] {
  return ATTACK_CODES.flatMap((a) => DOC_COLORS.filter((c) => docResultWord(a, c) === word).map((c) => [a, c] as [AttackCode, DocColor]));
}

const END = 30; // Remarkable End (res)

function appliedWith(attack: AttackCode, color: DocColor, damage = 40, health = { value: 200, max: 200 }, endurance = END): ExchangeState {
  let s = createExchange(exchangeInput(attack, { damage: { method: "static", value: damage }, targets: [targetInput({ armor: { body: 0, energy: 0 }, scores: { ...targetInput().scores, "endurance.res": endurance } })] }));
  s = declineDefence(s, "0");
  s = rollToHit(s, "0", { die: docRollFor(docRankOf(ATTACKER_VALUE).index, color) });
  return applyDamage(s, "0", health).state;
}

function slamDirections(): Map<number, string> {
  const m = /Slam direction \(d10\): (.+?)\./.exec(section8);
  if (!m) throw new Error("§8 has no slam directions.");
  const map = new Map<number, string>();
  for (const part of (m[1] ?? "").split(",")) {
    const p = /(\d+)–(\d+) (\w+)/.exec(part.trim());
    if (!p) throw new Error(`Cannot read "${part}".`);
    for (let d = Number(p[1]); d <= Number(p[2]); d++) map.set(d, p[3] ?? "");
  }
  return map;
}

describe("which check a result calls for (§5, §8)", () => {
  it.each(ATTACK_CODES.flatMap((a) => DOC_COLORS.map((c) => [a, c] as const)))("%s %s: a Slam?/Stun?/Kill? check only for those results, only when damage got through", (attack, c) => {
    const word = docResultWord(attack, c);
    const due = (word === "Slam" || word === "Stun" || word === "Kill") ? word.toLowerCase() : null;
    let s = createExchange(exchangeInput(attack, { targets: [targetInput({ armor: { body: 0, energy: 0 } })] }));
    s = rollToHit(declineDefence(s, "0"), "0", { die: docRollFor(docRankOf(ATTACKER_VALUE).index, c) });
    expect(t0(s).consequences.map((x) => x.check)).toEqual(due ? [due] : []);
    // The same roll against armor that soaks it all: no check.
    let soaked = createExchange(exchangeInput(attack, { targets: [targetInput({ armor: { body: 5000, energy: 5000 } })] }));
    soaked = rollToHit(declineDefence(soaked, "0"), "0", { die: docRollFor(docRankOf(ATTACKER_VALUE).index, c) });
    expect(soaked.targets[0]?.consequences).toEqual([]);
  });
});

describe("Slam? (§8, §9)", () => {
  const directions = slamDirections();
  it.each(attacksWithCheck("Slam"))("%s %s", (attack, c) => {
    for (const ec of DOC_COLORS) {
      const cell = docCheckCell("Slam?", ec);
      for (let d10 = 1; d10 <= 10; d10++) {
        const s = resolveConsequence(appliedWith(attack, c), "0", { check: "slam", die: docRollFor(docRankOf(END).index, ec), d10 });
        const out = t0(s).consequences[0]?.outcome;
        if (out?.check !== "slam") throw new Error("no slam outcome");
        const dealt = t0(s).damage?.dealt ?? -1;
        if (cell.startsWith("Grand Slam")) {
          expect(out.result).toBe("grandSlam");
          const range = docThrownRange(dealt);
          expect(out.areas).toBe(range === "line of sight" ? "sight" : range);
          expect(out.direction).toBe(directions.get(d10));
        } else if (cell === "slammed 1 area") {
          expect(out.result).toBe("oneArea");
          expect(out.areas).toBe(1);
          expect(out.direction).toBe(directions.get(d10));
        } else {
          expect(out.result).toBe(cell.startsWith("staggered") ? "stagger" : "none");
          expect(out.direction).toBeNull();
        }
      }
    }
  });

  it("a grand slam throws the target by Table 24 for Strength = damage dealt (after protection), for every rank of damage", () => {
    const [attack, slamColor] = attacksWithCheck("Slam")[0] ?? ["BA", "yellow"];
    for (const rank of docLadder().filter((r) => r.index > 0)) {
      const s = resolveConsequence(appliedWith(attack, slamColor, rank.number, { value: 10_000, max: 10_000 }), "0", {
        check: "slam",
        die: docRollFor(docRankOf(END).index, "white"),
        d10: 1,
      });
      const out = t0(s).consequences[0]?.outcome;
      const range = docThrownRange(rank.number);
      expect({ rank: rank.name, areas: out?.check === "slam" ? out.areas : null }).toEqual({ rank: rank.name, areas: range === "line of sight" ? "sight" : range });
    }
  });

  it("the grand-slam Strength is the damage dealt after armor and Block, not the raw damage", () => {
    const [attack, slamColor] = attacksWithCheck("Slam")[0] ?? ["BA", "yellow"];
    for (const [raw, body] of [
      [100, 50],
      [100, 90],
      [150, 20],
    ] as const) {
      let s = createExchange(exchangeInput(attack, { damage: { method: "static", value: raw }, targets: [targetInput({ armor: { body, energy: 0 } })] }));
      s = rollToHit(declineDefence(s, "0"), "0", { die: docRollFor(docRankOf(ATTACKER_VALUE).index, slamColor) });
      s = applyDamage(s, "0", { value: 1000, max: 1000 }).state;
      s = resolveConsequence(s, "0", { check: "slam", die: docRollFor(docRankOf(SCORE).index, "white"), d10: 10 });
      const out = t0(s).consequences[0]?.outcome;
      const range = docThrownRange(raw - body);
      expect({ raw, body, areas: out?.check === "slam" ? out.areas : null }).toEqual({ raw, body, areas: range === "line of sight" ? "sight" : range });
    }
  });

  it("a slam that moves the target needs the direction d10", () => {
    const s = appliedWith("BA", "yellow");
    expect(() => resolveConsequence(s, "0", { check: "slam", die: docRollFor(docRankOf(END).index, "white") })).toThrow();
    expect(() => resolveConsequence(s, "0", { check: "slam", die: docRollFor(docRankOf(END).index, "green") })).toThrow();
    expect(t0(resolveConsequence(s, "0", { check: "slam", die: docRollFor(docRankOf(END).index, "red") })).consequences[0]?.outcome).toMatchObject({ result: "none" });
  });
});

describe("Stun? (§8)", () => {
  it.each(attacksWithCheck("Stun"))("%s %s", (attack, c) => {
    for (const ec of DOC_COLORS) {
      const cell = docCheckCell("Stun?", ec);
      for (const hasActed of [false, true]) {
        for (const d10 of [1, 7, 10]) {
          const s = resolveConsequence(appliedWith(attack, c), "0", { check: "stun", die: docRollFor(docRankOf(END).index, ec), d10, hasActed });
          const out = t0(s).consequences[0]?.outcome;
          if (out?.check !== "stun") throw new Error("no stun outcome");
          if (cell === "out 1d10 turns") expect(out).toMatchObject({ result: "outLong", turns: d10 });
          else if (cell.startsWith("stunned 1 turn")) expect(out).toMatchObject({ result: "oneTurn", turns: 1, thisTurn: !hasActed }); // "this turn if not yet acted, else next"
          else expect(out).toMatchObject({ result: "none", turns: 0 });
        }
      }
    }
  });

  it("out 1d10 turns needs the d10", () => {
    const s = appliedWith("BA", "red");
    expect(() => resolveConsequence(s, "0", { check: "stun", die: docRollFor(docRankOf(END).index, "white") })).toThrow();
  });
});

describe("Kill? (§8)", () => {
  const greenSources = (/as white, but only if the source was (.+)$/.exec(docCheckCell("Kill?", "green"))?.[1] ?? "").split(/\s+or\s+|,\s*/);

  it.each(attacksWithCheck("Kill"))("%s %s: the Kill? row by colour and source", (attack, c) => {
    for (const ec of DOC_COLORS) {
      for (const endurance of [0, 2, 6, 30, 100]) {
        const cell = docCheckCell("Kill?", ec);
        const loses = cell.startsWith("loses 1 Endurance rank") || (cell.startsWith("as white") && greenSources.includes(attack));
        const s = resolveConsequence(appliedWith(attack, c), "0", { check: "kill", die: docRollFor(docRankOf(END).index, ec), endurance });
        const out = t0(s).consequences[0]?.outcome;
        if (out?.check !== "kill") throw new Error("no kill outcome");
        expect(out.result).toBe(loses ? "enduranceLoss" : "none");
        if (loses) {
          // "loses 1 Endurance rank"; "Endurance below Shift 0 = dead".
          const index = docRankOf(endurance).index - 1;
          expect({ endurance: out.endurance, dead: out.dead }).toEqual(index < 0 ? { endurance: 0, dead: true } : { endurance: docRankAt(index).number, dead: false });
        } else {
          expect({ endurance: out.endurance, dead: out.dead }).toEqual({ endurance, dead: false });
        }
      }
    }
  });

  it("a Kill? check is also due when Health reaches 0, or on damage taken at 0 — from any damaging attack, read with its source", () => {
    for (const attack of ATTACK_CODES.filter((a) => HIT_WORDS.has(docResultWord(a, "green")))) {
      // green is a plain Hit: no result check of its own
      const reach = appliedWith(attack, "green", 40, { value: 40, max: 100 });
      expect(t0(reach).consequences).toEqual([expect.objectContaining({ check: "kill", cause: "health" })]);
      const atZero = appliedWith(attack, "green", 40, { value: 0, max: 100 });
      expect(t0(atZero).consequences).toEqual([expect.objectContaining({ check: "kill", cause: "health" })]);
      const above = appliedWith(attack, "green", 40, { value: 41, max: 100 });
      expect(t0(above).consequences).toEqual([]);
      const green = resolveConsequence(reach, "0", { check: "kill", die: docRollFor(docRankOf(END).index, "green"), endurance: END });
      const out = t0(green).consequences[0]?.outcome;
      expect(out?.check === "kill" ? out.result : null).toBe(greenSources.includes(attack) ? "enduranceLoss" : "none");
    }
  });

  it("a result Kill? and Health reaching 0 make one check, not two", () => {
    const redKill = attackWithRed("Kill");
    const s = appliedWith(redKill, "red", 40, { value: 10, max: 100 });
    expect(t0(s).consequences.filter((c) => c.check === "kill")).toHaveLength(1);
  });

  it("losing a rank needs the target's current Endurance", () => {
    const s = appliedWith("EA", "red");
    expect(() => resolveConsequence(s, "0", { check: "kill", die: docRollFor(docRankOf(END).index, "white") })).toThrow();
  });

  it("a check reads the roll on the target's End (res) column (§3, §8)", () => {
    for (const endurance of [2, 10, 50, 150]) {
      const s = appliedWith("EA", "red", 40, { value: 200, max: 200 }, endurance);
      for (const die of [1, 20, 40, 60, 80, 99]) {
        const out = t0(resolveConsequence(s, "0", { check: "kill", die, endurance })).consequences[0];
        expect(out?.color).toBe(docColorOn(docRankOf(endurance).index, die));
      }
    }
  });
});

describe("dice edges: every roll on the to-hit column gives the document's colour", () => {
  it.each(docLadder().map((r) => [r.name, r.number] as const))("attacker %s", (_name, value) => {
    const base = declineDefence(createExchange(exchangeInput("BA", { attacker: { uuid: "a", name: "A", value, strength: 10, armor: 0 } })), "0");
    for (let die = 1; die <= 100; die++) {
      const t = t0(rollToHit(base, "0", { die }));
      expect({ die, color: t.toHit?.color }).toEqual({ die, color: docColorOn(docRankOf(value).index, die) });
    }
  });

  it("the document's bands are non-empty where the tests need them", () => {
    expect(docRollsFor(docRankOf(SCORE).index + CATCH_ROLL_CS, "red").length).toBeGreaterThan(0);
  });
});
