/**
 * Defence button labels: each defence on the card says what it rolls on, the shifts the GM will
 * put on the roll (the extra-defence penalty once the free defences are spent) and the odds of
 * each colour on the shifted column; a sealed NPC row shows none of its scores.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FakeActor} from "../../support/exchange-world";
import { ALICE, FakeMessage, installWorld, type World, kestrelAndGravel } from "../../support/exchange-world";
import { renderTemplate } from "../../support/handlebars";
import { attackCardContext, type ExchangeSettings, type Viewer } from "../../../src/foundry/exchange/card-context";
import { defenceShiftsFor } from "../../../src/foundry/exchange/card";
import { defendQuery } from "../../../src/foundry/exchange/gm-actions";
import { COLORS, colorOdds, sealExchange, type CsReason, type ExchangeState } from "../../../src/rules/index";
import { createExchange, readExchangeForTest } from "../../support/exchange-fixtures";
import { parseHtml, queryAll, queryOne, text } from "../../support/html";
import { NO_COMBAT } from "../../../src/foundry/combat/bridge";

const TEMPLATE = "templates/chat/attack-card.hbs";
const MESSAGE_ID = "msg0000000000001";
const base: ExchangeSettings = { hideNpcDefences: false, ownersApplyDamage: false };
const EXTRA: CsReason = { cs: -2, label: "CASE.Exchange.ExtraDefence", localize: true };

let world: World;
let hero: FakeActor;
let villain: FakeActor;

beforeEach(() => {
  world = installWorld();
  // Kestrel: Agility 30 (Remarkable), so Dodge rolls on Agy (bal) Remarkable.
  ({ hero, villain } = kestrelAndGravel(world));
});
afterEach(() => {
  world.services.combat = NO_COMBAT;
  vi.unstubAllGlobals();
});

const owner: Viewer = { isGM: false, owns: (uuid) => uuid === hero.uuid, isNpc: (uuid) => uuid === villain.uuid };

function render(state: ExchangeState, viewer: Viewer, settings: ExchangeSettings = base) {
  return parseHtml(renderTemplate(TEMPLATE, attackCardContext(state, viewer, settings)));
}

function optionOf(doc: ReturnType<typeof render>, code: string) {
  const found = queryAll(doc, ".defence-option").find((o) => queryAll(o, `[data-action="caseDefend"][data-defence="${code}"]`).length === 1);
  if (!found) throw new Error(`No defence option ${code}.`);
  return found;
}

function option(doc: ReturnType<typeof render>, code: string): string {
  return text(optionOf(doc, code));
}

/** "W 30% G 35% …" for a score and a shift, from the rules' colorOdds. */
function oddsText(value: number, cs: number): string {
  const odds = colorOdds(value, cs);
  return COLORS.map((c) => `${c[0]?.toUpperCase() ?? ""} ${String(Math.round(odds[c] * 100))}%`).join(" ");
}

describe("defence button labels", () => {
  it("defence button labels: each defence says what it rolls on and its odds of each colour on that column", () => {
    const state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BT" });
    const doc = render(state, owner);
    expect(option(doc, "dodge")).toBe(`Dodge · Agy (bal) Remarkable ${oddsText(30, 0)}`);
    // Block rolls on Str (mgt): Kestrel's 20 is Excellent.
    expect(option(doc, "block")).toBe(`Block · Str (mgt) Excellent ${oddsText(20, 0)}`);
    // The odds of a column add up to 100 %.
    const percents = queryAll(optionOf(doc, "dodge"), ".defence-odds .odds").map((e) => Number(/(\d+)%/.exec(text(e))?.[1]));
    expect(percents).toHaveLength(4);
    expect(percents.reduce((a, b) => a + b, 0)).toBe(100);
    // "No defence" rolls nothing and says so by itself.
    expect(text(queryOne(doc, ".no-defence"))).toBe("No defence");
  });

  it("defence button labels: once the free defences are spent, the −2 CS shows with its reason (once, on the row: issue 24) and the odds are on the shifted column", () => {
    const state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BT" });
    const doc = render(state, owner, { ...base, defenceCs: () => [EXTRA] });
    // Remarkable −2 CS is Good.
    expect(option(doc, "dodge")).toBe(`Dodge · Agy (bal) Remarkable −2 CS → Good ${oddsText(30, -2)}`);
    expect(text(queryOne(doc, ".row-cs"))).toBe("−2 CS Defence beyond the free ones");
    expect(oddsText(30, -2)).not.toBe(oddsText(30, 0));
  });

  it("defence button labels: the penalty shown is the one the GM then applies (the GM's own defenceShifts, from the turn's count)", async () => {
    world.services.combat = { ...NO_COMBAT, defencesUsed: () => Promise.resolve(2) };
    const exchange = createExchange({ attackerActor: villain, targetActor: hero, attack: "BT" });
    const message = new FakeMessage(MESSAGE_ID, exchange);
    world.messages.set(MESSAGE_ID, message);
    const defenceCs = await defenceShiftsFor(exchange, owner);
    expect(defenceCs?.("0", "dodge")).toEqual([EXTRA]);
    const view = attackCardContext(exchange, owner, { ...base, ...(defenceCs ? { defenceCs } : {}) });
    const dodge = view.rows[0]?.defenceButtons.find((b) => b.code === "dodge");
    expect(dodge).toMatchObject({ cs: "−2", shiftedKey: "CASE.Rank.good" });
    // The GM rolls it: the shifts on the roll are the ones the button showed.
    world.dice.push(66, 70);
    expect(await world.ask(defendQuery, ALICE.id, { messageId: MESSAGE_ID, targetKey: "0", defence: "dodge" })).toMatchObject({ ok: true });
    const rolled = readExchangeForTest(message.system.exchange).targets[0]?.defence;
    expect(rolled?.cs).toEqual(defenceCs?.("0", "dodge"));
    expect(rolled?.column).toBe("good");
    // A user who owns neither side is given no numbers for the row.
    const stranger: Viewer = { isGM: false, owns: () => false, isNpc: () => false };
    expect((await defenceShiftsFor(exchange, stranger))?.("0", "dodge")).toBeUndefined();
  });

  it("defence button labels: Catch's own −3 CS is counted (rules catchRollShift)", () => {
    // A thrown thing may be caught (§6): Catch is offered, and its roll carries Catch's own shift.
    const state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BT" });
    const view = attackCardContext({ ...state, projectile: "thrown" }, owner, base);
    const c = view.rows[0]?.defenceButtons.find((b) => b.code === "catch");
    expect(c).toBeDefined();
    expect(c?.cs).toBe("−3");
  });

  it("defence button labels: a sealed NPC row shows the defence names only, never its scores or odds", () => {
    const state = createExchange({ attackerActor: hero, targetActor: villain, attack: "BT" });
    const { card } = sealExchange(state, { sealed: new Set(["0"]), hiddenDefence: new Set() });
    // Even a player who owns the NPC (or a GM reading the sealed card) gets no numbers from it.
    const npcOwner: Viewer = { isGM: false, owns: (uuid) => uuid === villain.uuid, isNpc: (uuid) => uuid === villain.uuid };
    const doc = render(card, npcOwner, { ...base, defenceCs: () => [EXTRA] });
    expect(option(doc, "dodge")).toBe("Dodge");
    expect(count(doc, ".defence-odds")).toBe(0);
    expect(text(queryOne(doc, ".defence-buttons"))).not.toMatch(/%|Agy|Str \(mgt\)|CS/);
  });
});

function count(doc: ReturnType<typeof render>, selector: string): number {
  return queryAll(doc, selector).length;
}
