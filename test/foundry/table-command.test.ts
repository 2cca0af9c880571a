/**
 * The `[[/case …]]` grammar and the plain column roll's check (src/foundry/table-command.ts):
 * every rank by key, abbreviation, name and number (ranks and names read from the rules text,
 * not from the engine), every attack code, labels, and text that must be refused with a
 * localised reason instead of a guessed column.
 */
import { describe, expect, it } from "vitest";
import {
  ERROR_KEYS,
  TABLE_COMMAND_PATTERN,
  checkFromDataset,
  checkLinkView,
  isCheckCommand,
  parseCheckCommand,
  columnCheck,
  columnNames,
  columnOf,
  commandFromDataset,
  parseColumn,
  parseTableCommand,
  tableLinkView,
  type Parsed,
  type TableCommand,
} from "../../src/foundry/table-command";
import { actionCardContext } from "../../src/foundry/dice/action-card-context";
import { parseRollCheck } from "../../src/foundry/dice/roll-check";
import { ATTACK_CODES, RANKS, UNIVERSAL_TABLE } from "../../src/rules/index";
import { localize } from "../support/handlebars";
import { markdownTables, rulesSection } from "../support/rules-doc";

/** §1's ladder as the rules text writes it: name, abbreviation, number, range. */
const LADDER = (() => {
  const table = markdownTables(rulesSection(1))[0];
  if (!table) throw new Error("CASE-RULES §1 has no table.");
  return table.rows.map((row) => {
    const [, name, abbr, number, range] = row;
    const [min, max] = (range ?? "").replace("+", "–∞").split("–");
    return { name: name ?? "", abbr: abbr ?? "", number: Number(number), min: Number(min), max: max === undefined ? Number(min) : max === "∞" ? Infinity : Number(max) };
  });
})();

/** The key the engine gives a rank of the rules text (looked up by name, so the text is the source). */
function keyOf(name: string): string {
  const rank = RANKS.find((r) => r.name === name);
  if (!rank) throw new Error(`The engine has no rank named ${name}.`);
  return rank.key;
}

function ok<T>(parsed: Parsed<T>): T {
  if (!parsed.ok) throw new Error(`Refused: ${parsed.error.key} ${JSON.stringify(parsed.error.data)}`);
  return parsed.value;
}

function refused<T>(parsed: Parsed<T>): { key: string; data: Readonly<Record<string, string>> } {
  if (parsed.ok) throw new Error(`Accepted: ${JSON.stringify(parsed.value)}`);
  return parsed.error;
}

/** Every `[[/case …]]` in a text, as Foundry's enricher loop finds them. */
function matches(text: string): RegExpMatchArray[] {
  return [...text.matchAll(TABLE_COMMAND_PATTERN)];
}

describe("a column by name", () => {
  it("the rules text's 17 ranks are all there", () => {
    expect(LADDER).toHaveLength(17);
    expect(LADDER[0]).toMatchObject({ name: "Shift 0", abbr: "S0", number: 0 });
    expect(LADDER[16]).toMatchObject({ name: "Class 5000", abbr: "C5000", number: 5000 });
  });

  it.each(LADDER.map((r) => [r.name, r] as const))("%s: by key, abbreviation and name, in any case, it is that column at its standard number", (name, row) => {
    const key = keyOf(name);
    for (const spelling of [key, key.toUpperCase(), row.abbr, row.abbr.toLowerCase(), row.name, row.name.toUpperCase(), `  ${row.name.replace(" ", "   ")}  `]) {
      const column = ok(parseColumn(spelling));
      expect(column.rank.key, spelling).toBe(key);
      expect(column.value, spelling).toBe(row.number);
    }
  });

  it.each(LADDER.map((r) => [r.name, r] as const))("%s: by its standard number, and by the ends of its range", (name, row) => {
    const key = keyOf(name);
    expect(ok(parseColumn(String(row.number)))).toMatchObject({ value: row.number, rank: { key } });
    expect(ok(parseColumn(String(row.min)))).toMatchObject({ value: row.min, rank: { key } });
    const top = Number.isFinite(row.max) ? row.max : 123_456;
    expect(ok(parseColumn(String(top)))).toMatchObject({ value: top, rank: { key } });
    expect(ok(columnOf(row.number))).toMatchObject({ value: row.number, rank: { key } });
  });

  it("no spelling names two columns", () => {
    const names = columnNames();
    // 17 keys + 17 abbreviations + the names that differ from their key in more than case.
    expect(names.size).toBeGreaterThanOrEqual(34);
    for (const [alias, rank] of names) expect(ok(parseColumn(alias)).rank).toBe(rank);
  });

  it.each([
    ["mighty", "mighty"],
    ["remarkabl", "remarkabl"],
    ["remarkable!", "remarkable!"],
    ["Rm30", "Rm30"],
    ["-5", "-5"],
    ["2.5", "2.5"],
    ["30 CS", "30 CS"],
    ["1e3", "1e3"],
    ["99999999999999999999", "99999999999999999999"],
    ["shift", "shift"],
    ["class", "class"],
  ])("refuses %j: an unknown column, named in the message", (text, shown) => {
    const error = refused(parseColumn(text));
    expect(error).toEqual({ key: ERROR_KEYS.unknownColumn, data: { text: shown } });
    expect(localize(error.key, error.data)).toContain(`“${shown}”`);
  });

  it("refuses nothing at all, and what is not a string or a number", () => {
    expect(refused(parseColumn("   ")).key).toBe(ERROR_KEYS.missingColumn);
    for (const bad of [Number.NaN, -1, 2.5, Infinity, null, undefined, {}, ["remarkable"]]) {
      expect(refused(columnOf(bad)).key, JSON.stringify(bad)).toBe(ERROR_KEYS.unknownColumn);
    }
  });
});

describe("[[/case …]] in text", () => {
  it("finds each command, its text and its label, and nothing that only looks like one", () => {
    const text = "Leap: [[/case remarkable]]{Leap the chasm}. Or [[/case 30]], [[/case attack BA incredible]], [[/casex 30]], [[/r 1d100]], [[/case]] and [[ /case good ]].";
    const found = matches(text).map((m) => [m[0], m[1] ?? null, m[2] ?? null]);
    expect(found).toEqual([
      ["[[/case remarkable]]{Leap the chasm}", "remarkable", "Leap the chasm"],
      ["[[/case 30]]", "30", null],
      ["[[/case attack BA incredible]]", "attack BA incredible", null],
      ["[[/case]]", null, null],
    ]);
  });

  it("a column, by key or number, is a plain roll on it", () => {
    expect(ok(parseTableCommand("remarkable"))).toEqual({ column: { rank: RANKS[6], value: 30 }, attack: null, label: null });
    expect(ok(parseTableCommand(" 30 "))).toEqual({ column: { rank: RANKS[6], value: 30 }, attack: null, label: null });
    expect(ok(parseTableCommand("Shift X"))).toMatchObject({ column: { value: 150, rank: { key: "shiftX" } } });
    expect(ok(parseTableCommand("class 1000"))).toMatchObject({ column: { value: 1000, rank: { key: "class1000" } } });
  });

  it.each(ATTACK_CODES.map((c) => [c] as const))("attack %s, written in any case, rolls that attack on the column", (code) => {
    for (const spelling of [code, code.toLowerCase(), code.toUpperCase()]) {
      expect(ok(parseTableCommand(`attack ${spelling} incredible`))).toEqual({ column: { rank: RANKS[7], value: 40 }, attack: code, label: null });
      expect(ok(parseTableCommand(`ATTACK ${spelling} 40`)).attack).toBe(code);
    }
  });

  it("a label is kept as written (spaces tidied); an empty one counts as none", () => {
    expect(ok(parseTableCommand("remarkable", "Leap the chasm")).label).toBe("Leap the chasm");
    expect(ok(parseTableCommand("remarkable", "  Leap   the\nchasm ")).label).toBe("Leap the chasm");
    expect(ok(parseTableCommand("remarkable", "   ")).label).toBeNull();
    expect(ok(parseTableCommand("attack Sh 30", "<b>Sniper</b>")).label).toBe("<b>Sniper</b>");
    expect(refused(parseTableCommand("remarkable", "x".repeat(201)))).toEqual({ key: ERROR_KEYS.labelTooLong, data: { max: "200" } });
  });

  it.each([
    ["", ERROR_KEYS.empty, {}],
    ["mighty", ERROR_KEYS.unknownColumn, { text: "mighty" }],
    ["remarkable incredible", ERROR_KEYS.unknownColumn, { text: "remarkable incredible" }],
    ["attack", ERROR_KEYS.missingAttack, { known: ATTACK_CODES.join(", ") }],
    ["attack ZZ good", ERROR_KEYS.unknownAttack, { text: "ZZ", known: ATTACK_CODES.join(", ") }],
    ["attack mighty", ERROR_KEYS.unknownAttack, { text: "mighty", known: ATTACK_CODES.join(", ") }],
    ["attack BA", ERROR_KEYS.missingColumn, {}],
    ["attack BA mighty", ERROR_KEYS.unknownColumn, { text: "mighty" }],
    ["attack BA good extra", ERROR_KEYS.unknownColumn, { text: "good extra" }],
  ])("refuses %j with a localised reason", (body, key, data) => {
    const error = refused(parseTableCommand(body));
    expect(error).toEqual({ key, data });
    const message = localize(error.key, error.data);
    expect(message).not.toMatch(/\{[a-z]+\}/); // every placeholder filled
    expect(message.length).toBeGreaterThan(10);
  });
});

describe("the roll a command makes", () => {
  function command(body: string, label: string | null = null): TableCommand {
    return ok(parseTableCommand(body, label));
  }

  it("a plain column roll: no shifts, no Karma, no intensity — green succeeds", () => {
    const check = columnCheck(command("remarkable").column);
    expect(check).toEqual({
      label: "CASE.UniversalTable.RollLabel",
      localizeLabel: true,
      score: null,
      value: 30,
      shifts: [],
      karma: 0,
      intensity: null,
      needed: null,
      blindsided: false,
      attack: null,
    });
    expect(parseRollCheck(check)).toEqual(check); // CaseRoll accepts it as is
    // Remarkable: green from 36 (rules §2). 35 fails, 36 succeeds.
    expect(actionCardContext(check, 35, UNIVERSAL_TABLE)).toMatchObject({ color: "white", success: false });
    expect(actionCardContext(check, 36, UNIVERSAL_TABLE)).toMatchObject({ color: "green", success: true, required: "green" });
  });

  it("an attack's to-hit roll carries the attack, so the card shows its result row", () => {
    const check = columnCheck(command("attack BA incredible").column, { attack: "BA" });
    expect(check).toMatchObject({ value: 40, attack: "BA", label: "CASE.Attack.BA", localizeLabel: true });
    // Incredible: green 31, yellow 61, red 91. Blunt Attack: white Miss, green Hit, yellow Slam, red Stun (§5).
    expect(actionCardContext(check, 30, UNIVERSAL_TABLE).attackResultKey).toBe("CASE.AttackResult.miss");
    expect(actionCardContext(check, 31, UNIVERSAL_TABLE).attackResultKey).toBe("CASE.AttackResult.hit");
    expect(actionCardContext(check, 61, UNIVERSAL_TABLE).attackResultKey).toBe("CASE.AttackResult.slam");
    expect(actionCardContext(check, 91, UNIVERSAL_TABLE).attackResultKey).toBe("CASE.AttackResult.stun");
  });

  it("a label becomes the card's title, shown as written", () => {
    expect(columnCheck(command("good").column, { label: "Leap the chasm" })).toMatchObject({ label: "Leap the chasm", localizeLabel: false, value: 10 });
    expect(columnCheck(command("good").column, { attack: "EA", label: "  " })).toMatchObject({ label: "CASE.Attack.EA", localizeLabel: true });
  });

  it("the link shows the label or the column in words, and carries what a click rolls back unchanged", () => {
    const t = (key: string, data?: Record<string, string>) => localize(key, data);
    const plain = tableLinkView(command("30"), t);
    expect(plain).toEqual({ text: "Remarkable (30)", tooltip: "Roll Remarkable (30) on the Universal Table", data: { caseColumn: "30", caseAttack: "", caseLabel: "" } });
    const attack = tableLinkView(command("attack ba Incredible", "Haymaker"), t);
    expect(attack).toEqual({ text: "Haymaker", tooltip: "Roll Blunt Attack on Incredible (40) on the Universal Table", data: { caseColumn: "40", caseAttack: "BA", caseLabel: "Haymaker" } });
    expect(ok(commandFromDataset(plain.data))).toEqual(command("30"));
    expect(ok(commandFromDataset(attack.data))).toEqual(command("attack BA incredible", "Haymaker"));
  });

  it("a link whose data was altered is refused, not rolled on a guess", () => {
    expect(refused(commandFromDataset({ caseColumn: "mighty", caseAttack: "", caseLabel: "" })).key).toBe(ERROR_KEYS.unknownColumn);
    expect(refused(commandFromDataset({ caseColumn: "30", caseAttack: "ZZ", caseLabel: "" })).key).toBe(ERROR_KEYS.unknownAttack);
    expect(refused(commandFromDataset({})).key).toBe(ERROR_KEYS.missingColumn);
  });
});

describe("[[/case check …]]: the Judge's request for a roll", () => {
  const t = (key: string, data?: Record<string, string>) => localize(key, data ?? {});

  it("request card: `check <score> [<column>]` names an ability or sub-score, by key, abbreviation or notation, and an optional intensity", () => {
    const ok = (body: string) => {
      const parsed = parseCheckCommand(body);
      if (!parsed.ok) throw new Error(`refused: ${parsed.error.key}`);
      return parsed.value;
    };
    expect(ok("check endurance incredible")).toEqual({ score: "endurance", intensity: { rank: RANKS[7], value: 40 }, label: null });
    expect(ok("CHECK End 30").intensity?.value).toBe(30);
    expect(ok("check endurance.res").score).toBe("endurance.res");
    expect(ok("check End(res) Rm").score).toBe("endurance.res");
    expect(ok("check agy.bal").score).toBe("agility.bal");
    expect(ok("check psyche")).toEqual({ score: "psyche", intensity: null, label: null });
    expect(ok("check psyche Shift X").intensity?.value).toBe(150);
    expect(parseCheckCommand("check strength good", "  Lift  the car ")).toMatchObject({ ok: true, value: { label: "Lift the car" } });
  });

  it("request card: a check that names nothing, or an unknown score or column, is refused with a localised reason", () => {
    const refusal = (body: string) => {
      const parsed = parseCheckCommand(body);
      return parsed.ok ? null : parsed.error.key;
    };
    expect(refusal("check")).toBe(ERROR_KEYS.missingScore);
    expect(refusal("check luck")).toBe(ERROR_KEYS.unknownScore);
    expect(refusal("check psyche.res")).toBe(ERROR_KEYS.unknownScore);
    expect(refusal("check endurance.sta.x")).toBe(ERROR_KEYS.unknownScore);
    expect(refusal("check endurance mighty")).toBe(ERROR_KEYS.unknownColumn);
    for (const key of [ERROR_KEYS.missingScore, ERROR_KEYS.unknownScore]) expect(localize(key, { text: "luck" })).not.toBe(key);
  });

  it("request card: the enricher's pattern finds a check; its link reads back to the same check, and altered data is refused", () => {
    const text = "Roll [[/case check endurance incredible]]{Hold your breath} now";
    const match = [...text.matchAll(TABLE_COMMAND_PATTERN)][0];
    expect(isCheckCommand(match?.[1] ?? "")).toBe(true);
    expect(isCheckCommand("checkered 30")).toBe(false);
    const parsed = parseCheckCommand(match?.[1] ?? "", match?.[2] ?? null);
    if (!parsed.ok) throw new Error("refused");
    const view = checkLinkView(parsed.value, t);
    expect(view.text).toBe("Hold your breath");
    expect(view.tooltip).toContain("Endurance");
    expect(view.tooltip).toContain("Incredible");
    expect(checkFromDataset(view.data)).toEqual(parsed);
    expect(checkLinkView({ score: "endurance", intensity: null, label: null }, t).text).toBe(localize("CASE.Enricher.Check", { score: "Endurance" }));
    expect(checkFromDataset({ ...view.data, caseCheck: "endurance; alert(1)" }).ok).toBe(false);
    expect(checkFromDataset({ ...view.data, caseIntensity: "-3" }).ok).toBe(false);
  });
});
