/**
 * Issue 24, "Defend where you look" and "zero damage finishes", on the card as the real template
 * renders it: each defence button's tooltip says what each colour does against this attack
 * (rules `defenceColourOutcomes`), the row names the best chance of no damage, the
 * extra-defence shift is said once per row, and a hit that gets nothing through finishes its row.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, FakeActor, characterSource, installWorld } from "../../support/exchange-world";
import { renderTemplate } from "../../support/handlebars";
import { attackCardContext, type ExchangeSettings, type Viewer } from "../../../src/foundry/exchange/card-context";
import { colorOdds, declineDefence, defenceProtection, rollToHit, type ExchangeState } from "../../../src/rules/index";
import { createExchange } from "../../support/exchange-fixtures";
import { attr, parseHtml, queryAll, queryOne, text } from "../../support/html";

const TEMPLATE = "templates/chat/attack-card.hbs";
const PLAIN: ExchangeSettings = { hideNpcDefences: false, ownersApplyDamage: false };
/** The GM's shifts on every defence: Kestrel already used her free defences this turn. */
const EXTRA: ExchangeSettings = { ...PLAIN, defenceCs: () => [{ cs: -2, label: "CASE.Exchange.ExtraDefence", localize: true }] };

let hero: FakeActor;
let villain: FakeActor;

beforeEach(() => {
  installWorld();
  hero = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ fighting: 30, agility: 30, strength: 20, endurance: 30 }), [ALICE.id]);
  villain = new FakeActor("villain000000001", "Gravel", "npc", characterSource({ fighting: 40, agility: 20, strength: 40 }), []);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const OWNER: Viewer = { isGM: false, owns: (uuid) => uuid === hero.uuid, isNpc: (uuid) => uuid === villain.uuid };
const GM: Viewer = { isGM: true, owns: () => true, isNpc: (uuid) => uuid === villain.uuid };

function render(state: ExchangeState, viewer: Viewer = OWNER, settings: ExchangeSettings = PLAIN) {
  return parseHtml(renderTemplate(TEMPLATE, attackCardContext(state, viewer, settings)));
}

const tooltip = (doc: ReturnType<typeof render>, defence: string) => attr(queryOne(doc, `[data-action="caseDefend"][data-defence="${defence}"]`), "data-tooltip");

describe("defence choices on the card", () => {
  it("colour outcomes on defence: each defence button's tooltip says what each colour does against this attack", () => {
    // Gravel's Blunt Attack (20 static damage) on Kestrel (Str 20, no armor): Block, Evade, Weave.
    const doc = render(createExchange({ attackerActor: villain, targetActor: hero, attack: "BA", damage: 20 }));
    expect(tooltip(doc, "evasion")).toBe(
      "White: walked into it: the attack hits · Green: the attack is avoided · Yellow: the attack is avoided; +1 CS on the next action against this foe · Red: the attack is avoided; +2 CS on the next action against this foe",
    );
    expect(tooltip(doc, "weave")).toBe("White: 0 CS on the attack · Green: −2 CS on the attack · Yellow: −4 CS on the attack · Red: −6 CS on the attack");
    // Block: the protection of each colour (rules defenceProtection on Str 20) and what a 20-point hit still gets through.
    const block = (["white", "green", "yellow", "red"] as const).map((c) => {
      const p = defenceProtection("block", 20, c);
      const colour = c.charAt(0).toUpperCase() + c.slice(1);
      return p >= 20 ? `${colour}: no damage` : `${colour}: ${String(20 - p)} gets through`;
    });
    expect(tooltip(doc, "block")).toBe(block.join(" · "));
    expect(tooltip(doc, "block")).toMatch(/Red: no damage$/);
  });

  it("colour outcomes on defence: the row names the defence with the best chance of no damage, from the buttons' odds", () => {
    const doc = render(createExchange({ attackerActor: villain, targetActor: hero, attack: "BA", damage: 20 }));
    // Evade avoids on green, yellow and red (Ftg 30); Block stops a 20-point hit on red only (Str 20).
    const evade = colorOdds(30, 0);
    const percent = Math.round((evade.green + evade.yellow + evade.red) * 100);
    expect(text(queryOne(doc, ".best-defence"))).toBe(`Best chance of no damage: Evade ${String(percent)}%`);
    // Who may not defend the row sees no choices and no best chance.
    const other: Viewer = { isGM: false, owns: () => false, isNpc: () => false };
    expect(queryAll(render(createExchange({ attackerActor: villain, targetActor: hero, attack: "BA" }), other), ".best-defence")).toHaveLength(0);
  });

  it("extra defence said once: the −2 CS beyond the free ones is said once per row, not under every button", () => {
    const doc = render(createExchange({ attackerActor: villain, targetActor: hero, attack: "BT" }), OWNER, EXTRA);
    const buttons = queryAll(doc, ".defence-option");
    expect(buttons.length).toBeGreaterThanOrEqual(3);
    const notes = queryAll(doc, ".cs-note").map((n) => text(n));
    expect(notes.filter((n) => n.includes("Defence beyond the free ones"))).toEqual(["−2 CS Defence beyond the free ones"]);
    // Each button still counts it in its total shift and its odds.
    expect(queryAll(doc, ".defence-option .defence-rolls").every((r) => text(r).includes("−2 CS") || text(r).includes("−5 CS"))).toBe(true);
    // Catch's own aim (−3 CS) stays on Catch's line, beside the row's shared shift.
    const thrower = new FakeActor("hero000000000002", "Quickhand", "hero", characterSource({ agility: 75 }), [ALICE.id]);
    const owner: Viewer = { isGM: false, owns: (uuid) => uuid === thrower.uuid, isNpc: () => false };
    const caught = render({ ...createExchange({ attackerActor: villain, targetActor: thrower, attack: "BT" }), projectile: "thrown" }, owner, EXTRA);
    const catchOption = queryAll(caught, ".defence-option").find((o) => queryAll(o, '[data-defence="catch"]').length > 0);
    expect(catchOption).toBeDefined();
    if (catchOption) expect(queryAll(catchOption, ".cs-note").map((n) => text(n))).toEqual(["−3 CS Catching something aimed at you"]);
  });

  it("zero damage finishes: a hit armor soaks whole shows no Apply damage and no Undo; its row folds and says no damage got through", () => {
    // Gravel's red Blunt Attack (20 damage) on Kestrel in 20-point body armor: nothing gets through.
    let state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BA", damage: 20, targetArmor: 20 });
    state = rollToHit(declineDefence(state, "0"), "0", { die: 99 });
    expect(state.targets[0]?.damage?.dealt).toBe(0);
    for (const viewer of [GM, OWNER]) {
      const doc = render(state, viewer, { ...PLAIN, ownersApplyDamage: true });
      for (const action of ["caseApplyDamage", "caseUndoDamage", "caseApplyAll"]) expect(queryAll(doc, `[data-action="${action}"]`)).toHaveLength(0);
      expect(queryAll(doc, "details.row-details")).toHaveLength(1);
      expect(text(queryOne(doc, ".summary-outcome"))).toMatch(/· no damage got through$/);
      expect(queryAll(doc, "li.finished")).toHaveLength(1);
    }
    expect(queryAll(render(state, GM), ".attack-card.complete")).toHaveLength(1);
  });
});
