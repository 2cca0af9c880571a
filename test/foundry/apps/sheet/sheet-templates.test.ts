/**
 * The sheets' real templates, rendered by real Handlebars with the real lang/en.json, from
 * the context the sheets' own builders make out of real data models.
 */
import { describe, expect, it } from "vitest";
import { ABILITY_KEYS, SUB_SCORE_REFS, TALENT_COST } from "../../../../src/rules/index";
import { HERO_TABS } from "../../../../src/foundry/apps/sheet/sheet-context";
import { renderSheet, renderTemplate } from "../../../support/handlebars";
import { attr, parseHtml, queryAll, queryOne, text } from "../../../support/html";
import { HERO_SOURCE, SHEET_TEMPLATES, heroItems, heroSheetData, itemSheetFixture, npcSheetData } from "../../../support/sheet-fixtures";

function hero(options: Parameters<typeof heroSheetData>[0] = {}) {
  const html = renderSheet(SHEET_TEMPLATES.hero, { sheet: heroSheetData(options) }, { classes: ["case", "sheet", "actor", "hero"], title: "Kestrel" });
  return parseHtml(html);
}

function npc(options: Parameters<typeof npcSheetData>[0] = {}) {
  return parseHtml(renderSheet(SHEET_TEMPLATES.npc, { sheet: npcSheetData(options) }, { classes: ["case", "sheet", "actor", "npc"], title: "Dock Thug" }));
}

describe("hero sheet template", () => {
  it("shows every ability as rank name and number (hand-worked Kestrel)", () => {
    const doc = hero();
    const expected: Record<string, [string, string]> = {
      fighting: ["Remarkable", "30"],
      agility: ["Excellent", "20"],
      strength: ["Good", "10"],
      endurance: ["Amazing", "50"],
      reason: ["Typical", "6"],
      intuition: ["Incredible", "40"],
      psyche: ["Good", "10"],
    };
    for (const [key, [rank, value]] of Object.entries(expected)) {
      const row = queryOne(doc, `li.case-ability[data-ability="${key}"]`);
      const main = queryOne(row, ".case-ability-main");
      expect(attr(queryOne(main, "input.case-score"), "value"), key).toBe(value);
      expect(attr(queryOne(main, "input.case-score"), "name"), key).toBe(`system.abilities.${key}.value`);
      expect(text(queryOne(main, ".case-rank-name")), key).toBe(rank);
    }
  });

  it("shows a following sub-score as a dimmed placeholder and a set-apart one as its value", () => {
    const doc = hero();
    const off = queryOne(doc, `li.case-subscore[data-sub-score="fighting.off"]`);
    expect(attr(off, "class")).toContain("follows");
    const offInput = queryOne(off, "input");
    expect(attr(offInput, "value")).toBe(""); // empty: it follows Fighting …
    expect(attr(offInput, "placeholder")).toBe("30"); // … whose number shows as the placeholder
    expect(attr(offInput, "name")).toBe("system.abilities.fighting.off");
    expect(attr(offInput, "data-tooltip")).toBe("Follows its ability. Type a number to set it apart.");

    const def = queryOne(doc, `li.case-subscore[data-sub-score="fighting.def"]`);
    expect(attr(def, "class")).toContain("set-apart");
    expect(attr(queryOne(def, "input"), "value")).toBe("40");
    expect(text(queryOne(def, ".case-rank-abbr"))).toBe("In");
    expect(attr(queryOne(def, "input"), "data-tooltip")).toMatch(/Clear it to follow/);

    // Agility (dex) is set apart at Rm 30 while Agility is Ex 20; (bal) follows at 20.
    expect(attr(queryOne(doc, `li.case-subscore[data-sub-score="agility.dex"] input`), "value")).toBe("30");
    expect(attr(queryOne(doc, `li.case-subscore[data-sub-score="agility.bal"] input`), "placeholder")).toBe("20");
  });

  it("a sub-score set apart at 0 shows 0, not an empty (following) input", () => {
    const source = { abilities: { fighting: { value: 30, off: 0, def: null } } };
    const doc = hero({ source });
    const off = queryOne(doc, `li.case-subscore[data-sub-score="fighting.off"]`);
    expect(attr(off, "class")).toContain("set-apart");
    expect(attr(queryOne(off, "input"), "value")).toBe("0");
    expect(text(queryOne(off, ".case-rank-abbr"))).toBe("S0");
  });

  it("has exactly one roll button for every ability and every sub-score", () => {
    const doc = hero();
    const buttons = queryAll(doc, `button[data-action="rollScore"]`);
    const scores = buttons.map((b) => attr(b, "data-score"));
    expect(scores.sort()).toEqual([...ABILITY_KEYS, ...SUB_SCORE_REFS].sort());
    for (const b of buttons) expect(attr(b, "type")).toBe("button");
  });

  it("shows the derived values: initiative, actions, free defences, running speed, thrown range", () => {
    const doc = hero();
    const derived = Object.fromEntries(queryAll(doc, ".case-header .case-derived-value").map((el) => [text(queryOne(el, "dt")), text(queryOne(el, "dd"))]));
    expect(derived).toEqual({
      Initiative: "+4",
      Actions: "2",
      "Free defences": "2",
      Running: "2 areas",
      Throwing: "2 areas",
    });
  });

  it("shows Health and Karma as value / derived max, Resources as a rank, and Popularity", () => {
    const doc = hero();
    const health = queryOne(doc, ".case-pool-health");
    expect(attr(queryOne(health, "input"), "name")).toBe("system.health.value");
    expect(attr(queryOne(health, "input"), "value")).toBe("80");
    expect(text(queryOne(health, ".case-pool-max"))).toBe("110");
    expect(attr(queryOne(health, ".case-bar-fill"), "style")).toBe("width: 73%");
    const karma = queryOne(doc, ".case-pool-karma");
    expect(text(queryOne(karma, ".case-pool-max"))).toBe("56");
    const resources = queryOne(doc, ".case-header .case-rank-field");
    expect(attr(queryOne(resources, "input"), "name")).toBe("system.resources");
    expect(text(queryOne(resources, ".case-rank-name"))).toBe("Excellent");
    expect(attr(queryOne(doc, `input[name="system.popularity"]`), "value")).toBe("12");
    expect(attr(queryOne(doc, `input[name="name"]`), "value")).toBe("Kestrel");
  });

  it("rolls Resources and Popularity FEATs from buttons beside them in the header; popularity audience: the Karma tab's underworld button", () => {
    const doc = hero();
    const buttons = queryAll(doc, `.case-header button[data-action="rollFeat"]`);
    expect(buttons.map((b) => [attr(b, "data-feat"), attr(b, "aria-label")])).toEqual([
      ["resources", "Roll a Resources FEAT"],
      ["popularity", "Roll a Popularity FEAT"],
    ]);
    expect(queryAll(hero({ activeTab: "karma" }), `button[data-action="rollUnderworld"]`).map(text)).toEqual(["Popularity FEAT with the underworld"]);
  });

  it("the Karma tab: the log newest first, an advance button per ability and step, lost Endurance ranks and Rest", () => {
    const karmaLog = [
      { kind: "award", date: "2026-11-01T20:00:00Z", reason: "Stopped the heist", amount: 30, balanceAfter: 40 },
      { kind: "advance", date: "2026-11-02", reason: "Reason 10 → 11", amount: 100, balanceAfter: 0 },
    ];
    const doc = hero({ activeTab: "karma", source: { ...HERO_SOURCE, karmaLog, lostEnduranceRanks: 1 } });
    const tab = queryOne(doc, `section[data-tab="karma"]`);
    expect((attr(tab, "class") ?? "").split(" ")).toContain("active");
    const rows = queryAll(tab, ".case-karma-log tbody tr").map((r) => queryAll(r, "td").map((c) => text(c)));
    expect(rows).toEqual([
      ["2026-11-02", "Advancement", "Reason 10 → 11", "\u2212100", "0"],
      ["2026-11-01 20:00:00", "Award", "Stopped the heist", "+30", "40"],
    ]);
    expect(queryAll(tab, `button[data-action="advance"]`)).toHaveLength(ABILITY_KEYS.length * 2);
    // karma advancement of powers and talents: two steps per power with a rank, one learn-a-talent button.
    const powers = heroItems().filter((i) => i.type === "power");
    expect(powers.length).toBeGreaterThan(0);
    expect(queryAll(tab, `.case-advance-powers tbody tr`).map((r) => attr(r, "data-item-id"))).toEqual(powers.map((p) => p.id));
    expect(queryAll(tab, `button[data-action="advancePower"]`).length).toBeGreaterThan(0);
    expect(text(queryOne(tab, `button[data-action="learnTalent"]`))).toContain(`Learn a talent (${String(TALENT_COST)} Karma)`);
    expect(text(queryOne(tab, ".case-recovery p"))).toContain("Lost Endurance ranks: 1");
    expect(queryAll(tab, `button[data-action="rest"]`)).toHaveLength(1);
    const readOnly = queryOne(hero({ editable: false, source: { ...HERO_SOURCE, karmaLog: [] } }), `section[data-tab="karma"]`);
    expect(queryAll(readOnly, `button[data-action="rest"]`)).toHaveLength(0);
    expect(text(queryOne(readOnly, "p.hint"))).toBe("No Karma awarded or spent yet.");
  });

  it("character builder entry: the header offers it to an owner, with a hint on a blank hero; not on a read-only sheet", () => {
    const made = hero();
    expect(queryAll(made, `header button[data-action="openBuilder"]`)).toHaveLength(1);
    expect(queryAll(made, `.case-builder-entry.case-blank`)).toHaveLength(0);
    const blankSheet = parseHtml(renderSheet(SHEET_TEMPLATES.hero, { sheet: { ...heroSheetData(), blank: true } }, { classes: [], title: "" }));
    expect(text(queryOne(blankSheet, ".case-builder-entry.case-blank"))).toContain("A new hero?");
    expect(queryAll(hero({ editable: false }), `button[data-action="openBuilder"]`)).toHaveLength(0);
  });

  it("karma pool: with the world's group pool on, the Karma tab shows its total and this hero's share, with contribute and draw for an owner", () => {
    const data = heroSheetData({ activeTab: "karma" });
    const withPool = { ...data, campaign: { ...data.campaign, groupPool: { total: 40, yours: 12 } } };
    const tab = queryOne(parseHtml(renderSheet(SHEET_TEMPLATES.hero, { sheet: withPool }, { classes: [], title: "" })), `section[data-tab="karma"]`);
    expect(text(queryOne(tab, ".case-group-pool p"))).toMatch(/In the pool: 40 .* Put in by this hero \(net\): 12/);
    expect(queryAll(tab, `.case-group-pool button`).map((b) => attr(b, "data-action"))).toEqual(["poolContribute", "poolDraw"]);
    expect(queryAll(queryOne(hero({ activeTab: "karma" }), `section[data-tab="karma"]`), ".case-group-pool")).toHaveLength(0);
  });

  it("has the seven tabs (with the active effect tab); the first is active by default and the chosen one after a change", () => {
    const doc = hero();
    const links = queryAll(doc, `nav.case-tabs button[data-action="tab"]`);
    expect(links.map((a) => attr(a, "data-tab"))).toEqual([...HERO_TABS]);
    expect(links.map((a) => text(a))).toEqual(["Powers", "Talents", "Gear", "Contacts", "Effects", "Karma", "Biography"]);
    // Foundry's changeTab looks for `.tabs > [data-group][data-tab]` and `.tab[data-group]`.
    for (const a of links) {
      expect((attr(a.parent as never, "class") ?? "").split(" ")).toContain("tabs");
      expect(attr(a, "data-group")).toBe("primary");
    }
    const sections = queryAll(doc, `section.tab[data-group="primary"]`);
    expect(sections.map((s) => attr(s, "data-tab"))).toEqual([...HERO_TABS]);
    expect(sections.filter((s) => (attr(s, "class") ?? "").split(" ").includes("active")).map((s) => attr(s, "data-tab"))).toEqual(["powers"]);

    const gear = hero({ activeTab: "gear" });
    const active = queryAll(gear, `section.tab.active`).map((s) => attr(s, "data-tab"));
    expect(active).toEqual(["gear"]);
    expect(queryAll(gear, `nav.case-tabs button.active`).map((a) => attr(a, "data-tab"))).toEqual(["gear"]);
  });

  it("puts each item in its tab, with attack buttons only for items that attack", () => {
    const doc = hero();
    const tabOf = (id: string) => attr(queryOne(doc, `section.tab li.case-item[data-item-id="${id}"]`).parent?.parent?.parent as never, "data-tab");
    expect(["bolt", "flight"].map(tabOf)).toEqual(["powers", "powers"]);
    expect(tabOf("marksman")).toBe("talents");
    expect(["baton", "hook", "kevlar"].map(tabOf)).toEqual(["gear", "gear", "gear"]);
    expect(tabOf("ruiz")).toBe("contacts");

    const attacks = queryAll(doc, `button[data-action="attack"]`).map((b) => attr(b, "data-item-id"));
    expect(attacks).toEqual(["bolt", "baton"]);
    const rolls = queryAll(doc, `button[data-action="rollItem"]`).map((b) => attr(b, "data-item-id"));
    expect(rolls).toEqual(["bolt", "flight"]);
  });

  it("shows each item's rank and attack type inline, readable gear chips, and edit/delete buttons in every row's summary", () => {
    const doc = hero();
    const bolt = queryOne(doc, `li.case-item[data-item-id="bolt"]`);
    const facts = (row: string) => queryAll(queryOne(doc, `li.case-item[data-item-id="${row}"] .case-item-facts`), ".case-tag").map(text);
    expect(text(queryOne(bolt, ".case-item-name"))).toBe("Plasma Bolt");
    expect(text(queryOne(bolt, ".case-item-rank"))).toBe("Incredible 40");
    expect(text(queryOne(bolt, ".case-item-attack"))).toBe("Energy");
    expect(facts("bolt")).toEqual(["Energy Generation", "instant"]);
    expect(queryAll(queryOne(doc, `li.case-item[data-item-id="flight"]`), ".case-item-attack")).toHaveLength(0);
    expect(facts("marksman")).toEqual(["+1 CS", "Agy (dex)", "Shooting"]);
    expect(text(queryOne(doc, `li.case-item[data-item-id="baton"] .case-item-attack`))).toBe("Blunt Attack");
    // Equipped is the switch in the row, pressed or not (the hook is not equipped).
    expect(attr(queryOne(doc, `li.case-item[data-item-id="hook"] button[data-action="toggleItem"]`), "aria-pressed")).toBe("false");
    expect(attr(queryOne(doc, `li.case-item[data-item-id="baton"] button[data-action="toggleItem"]`), "aria-pressed")).toBe("true");
    // Gear chips read as words: "Body armor Good 10", "Energy protection Shift 0" (not "S0 · 0").
    expect(text(queryOne(doc, `li.case-item[data-item-id="kevlar"] .case-item-rank`))).toBe("Body armor Good 10");
    expect(facts("kevlar")).toEqual(["Energy protection Shift 0"]);
    expect(text(queryOne(doc, `li.case-item[data-item-id="hook"] .case-item-rank`))).toBe("Damage Typical 6");
    for (const row of queryAll(doc, "li.case-item")) {
      expect(attr(row, "class")).toContain("draggable");
      const id = attr(row, "data-item-id");
      expect(queryAll(row, `button[data-action="editItem"][data-item-id="${String(id)}"]`)).toHaveLength(1);
      expect(queryAll(row, `button[data-action="deleteItem"][data-item-id="${String(id)}"]`)).toHaveLength(1);
    }
    expect(queryAll(doc, `button[data-action="createItem"]`).map((b) => attr(b, "data-type"))).toEqual(["power", "talent", "weapon", "armor", "contact"]);
  });

  it("read-only: no delete or add buttons, and rich text shown instead of an editor", () => {
    const doc = hero({ editable: false });
    expect(queryAll(doc, `button[data-action="deleteItem"]`)).toHaveLength(0);
    expect(queryAll(doc, `button[data-action="createItem"]`)).toHaveLength(0);
    expect(queryAll(doc, "prose-mirror")).toHaveLength(0);
    expect(queryAll(doc, `[data-action="editImage"]`)).toHaveLength(0);
    expect(text(queryOne(doc, `section[data-tab="biography"]`))).toContain("Grew up on the docks.");
    // Rolls stay available to whoever can see the sheet.
    expect(queryAll(doc, `button[data-action="rollScore"]`)).toHaveLength(ABILITY_KEYS.length + SUB_SCORE_REFS.length);
  });

  it("edits biography and notes with Foundry v13's prose-mirror element", () => {
    const doc = hero();
    const editors = queryAll(doc, `section[data-tab="biography"] prose-mirror`);
    expect(editors.map((e) => attr(e, "name"))).toEqual(["system.biography", "system.notes"]);
    expect(attr(editors[0] as never, "value")).toBe("<p>Grew up on the <strong>docks</strong>.</p>");
    expect(attr(editors[0] as never, "toggled")).toBe("");
    expect(queryAll(editors[0] as never, "strong").map(text)).toEqual(["docks"]);
  });

  it("marks each part's root as Foundry does, with the image editable in place", () => {
    const doc = hero();
    const parts = queryAll(doc, "[data-application-part]").map((el) => attr(el, "data-application-part"));
    expect(parts).toEqual(Object.keys(SHEET_TEMPLATES.hero));
    const img = queryOne(doc, "img.case-portrait");
    expect(attr(img, "data-action")).toBe("editImage");
    expect(attr(img, "data-edit")).toBe("img");
  });
});

describe("NPC sheet template", () => {
  it("is one compact page: abilities row, Health/Karma, minor-foe checkbox", () => {
    const doc = npc();
    expect(queryAll(doc, "[data-application-part]")).toHaveLength(1);
    expect(queryAll(doc, ".case-npc-ability").map((el) => attr(el, "data-ability"))).toEqual([...ABILITY_KEYS]);
    const str = queryOne(doc, `.case-npc-ability[data-ability="strength"]`);
    expect(attr(queryOne(str, "input.case-score"), "value")).toBe("20");
    expect(text(queryOne(str, ".case-rank-abbr"))).toBe("Ex");
    expect(attr(queryOne(str, `.case-subscore[data-sub-score="strength.vgr"] input`), "value")).toBe("10");
    expect(attr(queryOne(str, `.case-subscore[data-sub-score="strength.mgt"] input`), "placeholder")).toBe("20");
    const minor = queryOne(doc, `input[name="system.minor"]`);
    expect(attr(minor, "type")).toBe("checkbox");
    expect(attr(minor, "checked")).toBe("");
    expect(text(queryOne(doc, ".case-pool-health .case-pool-max"))).toBe(String(10 + 6 + 20 + 10));
    expect(queryAll(doc, `button[data-action="rollScore"]`).map((b) => attr(b, "data-score")).sort()).toEqual([...ABILITY_KEYS, ...SUB_SCORE_REFS].sort());
  });

  it("lists the attacks with their buttons, and the powers with roll buttons", () => {
    const doc = npc();
    const attackRows = queryAll(doc, ".case-npc-attacks li.case-attack-row");
    expect(attackRows.map((r) => attr(r, "data-item-id"))).toEqual(["club"]);
    expect(text(queryOne(attackRows[0] as never, `button[data-action="attack"]`))).toBe("Club");
    expect(queryAll(doc, `button[data-action="attack"]`).map((b) => attr(b, "data-item-id"))).toEqual(["club", "club"]);
    expect(queryAll(doc, `button[data-action="rollItem"]`).map((b) => attr(b, "data-item-id"))).toEqual(["tough"]);
  });

  it("an NPC that is not a minor foe has the box unchecked", () => {
    const html = renderTemplate("templates/actor/npc-sheet.hbs", { sheet: { ...npcSheetData(), minor: false } });
    expect(attr(queryOne(parseHtml(html), `input[name="system.minor"]`), "checked")).toBeUndefined();
  });
});

describe("item sheet templates", () => {
  function itemDoc(type: string, source: Record<string, unknown>) {
    return parseHtml(renderSheet(SHEET_TEMPLATES.item(type), { sheet: itemSheetFixture(type, source) }, { classes: ["case", "sheet", "item"], title: type }));
  }

  it("power: category and attack type selects built from the data model's choices", () => {
    const doc = itemDoc("power", { category: "mental", rank: 30, attack: { enabled: true, type: "Fo", range: 2 } });
    const category = queryAll(doc, `select[name="system.category"] option`);
    expect(category).toHaveLength(9);
    expect(category.filter((o) => attr(o, "selected") !== undefined).map(text)).toEqual(["Mental"]);
    const attackTypes = queryAll(doc, `select[name="system.attack.type"] option`);
    expect(attackTypes.map((o) => attr(o, "value"))).toEqual(["BA", "EA", "BT", "ET", "En", "Fo", "Sh", "Gb", "Gp", "Ch"]);
    expect(attackTypes.filter((o) => attr(o, "selected") !== undefined).map(text)).toEqual(["Force"]);
    expect(attr(queryOne(doc, `input[name="system.rank"]`), "value")).toBe("30");
    expect(text(queryOne(doc, ".case-rank-field .case-rank-name"))).toBe("Remarkable");
    expect(attr(queryOne(doc, `input[name="system.attack.enabled"]`), "checked")).toBe("");
    expect(attr(queryOne(doc, `input[name="system.attack.range"]`), "value")).toBe("2");
    expect(queryAll(doc, "[data-application-part]").map((e) => attr(e, "data-application-part"))).toEqual(["header", "power", "description", "effects"]);
    expect(queryAll(doc, `prose-mirror[name="system.description"]`)).toHaveLength(1);
  });

  it("weapon: damage mode select, damage rank and material strength as ranks, ammunition", () => {
    const doc = itemDoc("weapon", { damage: { mode: "strength", rank: 50 }, materialStrength: 75, ammunition: { tracked: true, value: 4, max: 6 } });
    const modes = queryAll(doc, `select[name="system.damage.mode"] option`);
    expect(modes.map((o) => [attr(o, "value"), text(o), attr(o, "selected") !== undefined])).toEqual([
      ["strength", "Wielder's Strength", true],
      ["rank", "Weapon's rank", false],
    ]);
    const ranks = queryAll(doc, ".case-rank-field").map((f) => [attr(queryOne(f, "input"), "name"), text(queryOne(f, ".case-rank-name"))]);
    expect(ranks).toEqual([
      ["system.damage.rank", "Amazing"],
      ["system.materialStrength", "Monstrous"],
    ]);
    expect(attr(queryOne(doc, `input[name="system.ammunition.value"]`), "value")).toBe("4");
    expect(attr(queryOne(doc, `input[name="system.equipped"]`), "checked")).toBe("");
  });

  it("area attack: the power and weapon sheets edit the attack's area (shape, size, explosive) from the data model", () => {
    const doc = itemDoc("weapon", { attack: { enabled: true, type: "Fo", range: 2, area: { shape: "burst", radius: 2, explosive: true } } });
    const shapes = queryAll(doc, `select[name="system.attack.area.shape"] option`);
    expect(shapes.map((o) => [attr(o, "value"), text(o), attr(o, "selected") !== undefined])).toEqual([
      ["none", "None (chosen targets)", false],
      ["burst", "Burst", true],
      ["line", "Line", false],
    ]);
    expect(attr(queryOne(doc, `input[name="system.attack.area.radius"]`), "value")).toBe("2");
    expect(attr(queryOne(doc, `input[name="system.attack.area.explosive"]`), "checked")).toBe("");
    const power = itemDoc("power", { attack: { enabled: true, type: "En", range: 2 } });
    expect(queryAll(power, `select[name="system.attack.area.shape"] option`).filter((o) => attr(o, "selected") !== undefined).map((o) => attr(o, "value"))).toEqual(["none"]);
  });

  it("talent: covers as a grouped checkbox list (abilities / sub-scores / attacks / defences)", () => {
    const doc = itemDoc("talent", { covers: ["fighting", "agility.dex", "Sh", "dodge"], doubled: true });
    const box = queryOne(doc, `multi-checkbox[name="system.covers"]`);
    const groups = queryAll(box, "optgroup");
    expect(groups.map((g) => attr(g, "label"))).toEqual(["Abilities", "Sub-scores", "Attacks", "Defences"]);
    expect(groups.map((g) => queryAll(g, "option").length)).toEqual([7, 8, 10, 8]);
    const selected = queryAll(box, "option").filter((o) => attr(o, "selected") !== undefined);
    expect(selected.map((o) => [attr(o, "value"), text(o)])).toEqual([
      ["fighting", "Fighting"],
      ["agility.dex", "Agy (dex)"],
      ["Sh", "Shooting"],
      ["dodge", "Dodge"],
    ]);
    expect(attr(queryOne(doc, `input[name="system.doubled"]`), "checked")).toBe("");
  });

  it("armor and contact: their ranks; a contact also has notes", () => {
    const armor = itemDoc("armor", { physical: 30, energy: 10 });
    expect(queryAll(armor, ".case-rank-field").map((f) => [attr(queryOne(f, "input"), "name"), text(queryOne(f, ".case-rank-name"))])).toEqual([
      ["system.physical", "Remarkable"],
      ["system.energy", "Good"],
    ]);
    expect(queryAll(armor, `prose-mirror[name="system.notes"]`)).toHaveLength(0);
    const contact = itemDoc("contact", { rank: 6, notes: "<p>Owes us.</p>" });
    expect(text(queryOne(contact, ".case-rank-field .case-rank-name"))).toBe("Typical");
    expect(attr(queryOne(contact, `prose-mirror[name="system.notes"]`), "value")).toBe("<p>Owes us.</p>");
  });
});
