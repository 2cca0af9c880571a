/**
 * The attack card: what each viewer sees and may click at each stage, from the exchange-view
 * logic, rendered through the REAL template with real Handlebars and en.json.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, FakeActor, characterSource, installWorld } from "../../support/exchange-world";
import { renderTemplate } from "../../support/handlebars";
import { attackCardContext, type Viewer } from "../../../src/foundry/exchange/card-context";
import { applyDamage, chooseDefence, declineDefence, resolveConsequence, rollToHit, sealExchange, type ExchangeState } from "../../../src/rules/index";
import { createExchange } from "../../support/exchange-fixtures";
import { attr, parseHtml, queryAll, queryOne, text } from "../../support/html";

const TEMPLATE = "templates/chat/attack-card.hbs";
const settings = { hideNpcDefences: false, ownersApplyDamage: false };

let hero: FakeActor;
let villain: FakeActor;

beforeEach(() => {
  installWorld();
  hero = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ agility: 30, strength: 20, endurance: 30 }), [ALICE.id]);
  villain = new FakeActor("villain000000001", "Gravel", "npc", characterSource({ fighting: 40, agility: 20, strength: 40 }), []);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function viewer(kind: "gm" | "owner" | "other"): Viewer {
  return {
    isGM: kind === "gm",
    owns: (uuid) => kind === "owner" && uuid === hero.uuid,
    isNpc: (uuid) => uuid === villain.uuid,
  };
}

function render(state: ExchangeState, who: "gm" | "owner" | "other", s = settings) {
  return parseHtml(renderTemplate(TEMPLATE, attackCardContext(state, viewer(who), s)));
}

/** Elements matching `selector`; `has` / `count` / `line` read the rendered card. */
const count = (doc: ReturnType<typeof render>, selector: string) => queryAll(doc, selector).length;
const line = (doc: ReturnType<typeof render>, selector: string) => text(queryOne(doc, selector));

describe("the attack card", () => {
  it("declared: the defender's owner and the GM get exactly the defences valid against the attack, others none", () => {
    const state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BT" });
    for (const who of ["gm", "owner"] as const) {
      const doc = render(state, who);
      const buttons = queryAll(doc, '[data-action="caseDefend"]').map((b) => attr(b, "data-defence"));
      // §6: against Blunt Throwing — Block, Dodge, Feint (Catch only for a catchable thing).
      expect(buttons.sort()).toEqual(["block", "dodge", "feint", "none"]);
      expect(line(doc, '[data-action="caseDefend"][data-defence="dodge"]')).toBe("Dodge");
    }
    const other = render(state, "other");
    expect(count(other, '[data-action="caseDefend"]')).toBe(0);
    expect(line(other, ".target-phase")).toBe("Choosing a defence");
    expect(line(other, ".card-title")).toBe("Test attack");
    expect(line(other, ".card-rank")).toBe("Blunt Throwing");
  });

  it("a blindsided target gets no defence buttons at all; the attacker's side may ask for the pending to-hit", () => {
    const state = createExchange({ attackerActor: villain, targetActor: hero, blindsided: true });
    const doc = render(state, "gm");
    expect(count(doc, '[data-action="caseDefend"]')).toBe(0);
    expect(count(doc, '[data-action="caseRollToHit"]')).toBe(1);
    expect(count(render(state, "owner"), '[data-action="caseRollToHit"]')).toBe(0);
  });

  it("resolved: the defence, the to-hit on its column, the damage line and Apply for the GM only", () => {
    let state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BT", damage: 20 });
    state = chooseDefence(state, "0", { defence: "dodge", die: 66, cs: [] });
    state = rollToHit(state, "0", { die: 70 });
    const doc = render(state, "gm");
    expect(line(doc, ".defence-line")).toBe("Dodge: 66 on Remarkable Yellow — −4 CS on the attack");
    expect(line(doc, ".tohit-line")).toBe("To hit: 70 on Feeble Green Hit");
    expect(line(doc, ".damage-line")).toBe("Damage 20 − protection 0 = 20");
    expect(count(doc, '[data-action="caseApplyDamage"]')).toBe(1);
    expect(count(render(state, "owner"), '[data-action="caseApplyDamage"]')).toBe(0);
    expect(count(render(state, "owner", { ...settings, ownersApplyDamage: true }), '[data-action="caseApplyDamage"]')).toBe(1);
    // Pull buttons go to the attacker's side (the GM runs the NPC attacker): lower colours only.
    expect(queryAll(doc, '[data-action="casePull"]').map((b) => attr(b, "data-color"))).toEqual(["white"]);
    expect(count(render(state, "owner"), '[data-action="casePull"]')).toBe(0);
  });

  it("hides an NPC's defence from players when the world says so", () => {
    let state = createExchange({ attackerActor: hero, targetActor: villain, attack: "BA" });
    state = chooseDefence(state, "0", { defence: "weave", die: 80, cs: [] });
    const hidden = render(state, "other", { ...settings, hideNpcDefences: true });
    expect(line(hidden, ".defence-line")).toBe("Defended.");
    expect(text(hidden)).not.toMatch(/Weave/);
    expect(line(render(state, "gm", { ...settings, hideNpcDefences: true }), ".defence-line")).toMatch(/^Weave: 80 on Incredible Yellow — −4 CS on the attack/);
  });

  it("applied: Health before and after, the due Stun? check with a Roll button for the target's owner", () => {
    let state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BA", damage: 40 });
    state = declineDefence(state, "0");
    state = rollToHit(state, "0", { die: 95 });
    state = applyDamage(state, "0", { value: 110, max: 110 }).state;
    const doc = render(state, "owner");
    expect(line(doc, ".applied-line")).toBe("Health: 110 → 70 / 110");
    expect(line(doc, ".check-stun")).toMatch(/^Stun\?/);
    expect(count(doc, '[data-action="caseConsequence"][data-check="stun"]')).toBe(1);
    expect(count(render(state, "other"), '[data-action="caseConsequence"]')).toBe(0);
    state = resolveConsequence(state, "0", { check: "stun", die: 40, d10: 3, hasActed: false });
    const rolled = render(state, "owner");
    expect(line(rolled, ".check-stun")).toBe("Stun?: 40 Green — stunned for 1 turn, starting now");
    expect(count(rolled, '[data-action="caseConsequence"]')).toBe(0);
    expect(count(rolled, '[data-action="caseUndoDamage"]')).toBe(0);
  });

  it("a slam reads its direction in words", () => {
    let state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BA", damage: 40 });
    state = declineDefence(state, "0");
    state = rollToHit(state, "0", { die: 70 }); // yellow on Incredible: Slam
    state = applyDamage(state, "0", { value: 110, max: 110 }).state;
    state = resolveConsequence(state, "0", { check: "slam", die: 40, d10: 9 }); // green: one area; 9 → up
    expect(line(render(state, "gm"), ".check-slam")).toBe("Slam?: 40 Green — slammed 1 area up into the air");
  });

  it("notes what a result calls for: a Take's strength contest, a ranged miss that may strike a bystander", () => {
    // Gravel (Str 40) grabs at Kestrel (Str 20): green is Take, and the stronger grabber takes it.
    let grab = createExchange({ attackerActor: villain, targetActor: hero, attack: "Gb" });
    grab = rollToHit(declineDefence(grab, "0"), "0", { die: 40 });
    expect(line(render(grab, "other"), ".result-note")).toBe("The grabber wins the Strength contest: the item is taken.");
    // Kestrel (Str 20) grabs at Gravel (Str 40): a struggle.
    let weak = createExchange({ attackerActor: hero, targetActor: villain, attack: "Gb" });
    weak = rollToHit(declineDefence(weak, "0"), "0", { die: 50 });
    expect(line(render(weak, "other"), ".result-note")).toBe("The grabber does not win the Strength contest: a struggle for the item.");
    let shot = createExchange({ attackerActor: villain, targetActor: hero, attack: "Sh" });
    shot = rollToHit(declineDefence(shot, "0"), "0", { die: 2 });
    expect(line(render(shot, "other"), ".result-note")).toBe("A ranged miss may strike someone next to the target: roll for each.");
    let punch = createExchange({ attackerActor: villain, targetActor: hero, attack: "BA" });
    punch = rollToHit(declineDefence(punch, "0"), "0", { die: 2 });
    expect(count(render(punch, "other"), ".result-note")).toBe(0);
  });
});

describe("a sealed card (an NPC target: the GM keeps its secrets)", () => {
  it("players see that the NPC defended and what got through, never its defence, scores or protection; the GM's whole view shows them", () => {
    // Kestrel's blunt attack on Gravel (an NPC); Gravel blocks (rolled 80: its protection soaks part of the blow).
    let state = createExchange({ attackerActor: hero, targetActor: villain, attack: "BA", damage: 40, targetArmor: 10 });
    state = chooseDefence(state, "0", { defence: "block", die: 80, cs: [] });
    state = rollToHit(state, "0", { die: 60 });
    const { card } = sealExchange(state, { sealed: new Set(["0"]), hiddenDefence: new Set(["0"]) });
    for (const who of ["owner", "other"] as const) {
      const html = renderTemplate(TEMPLATE, attackCardContext(card, viewer(who), { ...settings, hideNpcDefences: true }));
      const doc = parseHtml(html);
      expect(line(doc, ".defence-line")).toBe("Defended.");
      expect(html).not.toContain("Block");
      expect(line(doc, ".damage-line")).toBe(`Damage that gets through: ${String(state.targets[0]?.damage?.dealt)}`);
      expect(line(doc, ".damage-line")).not.toMatch(/protection/i);
    }
    // The GM renders the card unsealed (card-store's cardForViewer joins the record): the block and the sums show.
    const gm = parseHtml(renderTemplate(TEMPLATE, attackCardContext(state, viewer("gm"), { ...settings, hideNpcDefences: true })));
    expect(text(gm)).toContain("Block");
    expect(line(gm, ".damage-line")).toMatch(/protection \d+ =/);
  });
});

describe("wording: the card reads as sentences at every stage", () => {
  it("wording: No defence is not followed by a second 'no defence'", () => {
    let state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BA" });
    state = declineDefence(state, "0");
    for (const who of ["gm", "owner", "other"] as const) {
      expect(line(render(state, who), ".defence-line")).toBe("No defence");
    }
  });

  it("wording: a Block's protection carries its number for those who may see it, and no dangling '— protection'", () => {
    // Kestrel blocks Gravel's blow (Str 20: Block protection on a yellow).
    let state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BA", damage: 40 });
    state = chooseDefence(state, "0", { defence: "block", die: 80, cs: [] });
    const protection = state.targets[0]?.defence?.outcome.protection ?? -1;
    expect(protection).toBeGreaterThan(0);
    const defenceLine = line(render(state, "other"), ".defence-line");
    expect(defenceLine).toMatch(new RegExp(`— protection ${String(protection)}$`));
    expect(defenceLine).not.toMatch(/— protection$/);
    // A sealed NPC row (its defence not hidden): players learn that it protects, never how much.
    let npc = createExchange({ attackerActor: hero, targetActor: villain, attack: "BA", damage: 40 });
    npc = chooseDefence(npc, "0", { defence: "block", die: 80, cs: [] });
    const npcProtection = npc.targets[0]?.defence?.outcome.protection ?? -1;
    const { card } = sealExchange(npc, { sealed: new Set(["0"]), hiddenDefence: new Set() });
    const sealedLine = line(render(card, "other"), ".defence-line");
    expect(sealedLine).toMatch(/— its protection soaks part of the blow$/);
    expect(sealedLine).not.toContain(`protection ${String(npcProtection)}`);
  });

  it("wording: a due Slam?/Stun? says what it waits on, before and after the damage is applied", () => {
    let state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BA", damage: 40 });
    state = declineDefence(state, "0");
    state = rollToHit(state, "0", { die: 95 }); // red: Stun?
    expect(line(render(state, "other"), ".check-stun")).toBe("Stun?: due once the damage is applied");
    state = applyDamage(state, "0", { value: 110, max: 110 }).state;
    expect(line(render(state, "other"), ".check-stun")).toBe("Stun?: due: a roll on End (res)");
    expect(line(render(state, "owner"), ".check-stun")).toBe("Stun?: due: a roll on End (res) Roll");
  });

  it("wording: no Pull is offered when no damage gets through", () => {
    // Damage 20 against armor 20: a hit that deals 0.
    let state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BA", damage: 20, targetArmor: 20 });
    state = declineDefence(state, "0");
    state = rollToHit(state, "0", { die: 95 });
    expect(state.targets[0]?.damage?.dealt).toBe(0);
    const doc = render(state, "gm");
    expect(count(doc, '[data-action="casePull"]') + count(doc, '[data-action="casePullDamage"]')).toBe(0);
    expect(count(doc, ".pull-buttons")).toBe(0);
  });
});

describe("collapse: a finished row folds to its outcome", () => {
  it("collapse: a row waiting on anything stays open (for the GM a row waiting on its defence is one line: issue 24); a miss, an avoided attack and applied damage with its checks rolled fold to one line", () => {
    let state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BA", damage: 40 });
    expect(count(render(state, "owner"), "details.row-details")).toBe(0);
    expect(count(render(state, "gm"), "details.waiting-details")).toBe(1);
    state = declineDefence(state, "0");
    expect(count(render(state, "gm"), "details.row-details")).toBe(0);
    // A miss: nothing left to do.
    const miss = rollToHit(state, "0", { die: 2 });
    const missDoc = render(miss, "other");
    expect(count(missDoc, "li.finished details.row-details")).toBe(1);
    expect(attr(queryOne(missDoc, "details.row-details"), "open")).toBeUndefined();
    expect(line(missDoc, ".row-summary")).toBe("Kestrel — Miss");
    // A red hit: Apply, Pull and then Stun? are still to do, so the row stays open until the check is rolled.
    let hit = rollToHit(state, "0", { die: 95 });
    expect(count(render(hit, "gm"), "details.row-details")).toBe(0);
    hit = applyDamage(hit, "0", { value: 110, max: 110 }).state;
    expect(count(render(hit, "gm"), "details.row-details")).toBe(0);
    hit = resolveConsequence(hit, "0", { check: "stun", die: 40, d10: 3, hasActed: false });
    const done = render(hit, "gm");
    expect(line(done, ".row-summary")).toBe("Kestrel — Stun · 40 damage · Health: 110 → 70 / 110");
    // The rolled check stays in view under the line; the rolls fold into the details.
    expect(line(done, ".check-stun")).toBe("Stun?: 40 Green — stunned for 1 turn, starting now");
    expect(count(done, "details.row-details .tohit-line")).toBe(1);
    expect(count(done, ".applied-line")).toBe(1);
  });

  it("collapse: an avoided attack folds to what the defence did; a hidden NPC defence to 'Defended.'", () => {
    let state = createExchange({ attackerActor: villain, targetActor: hero, attack: "BA" });
    state = chooseDefence(state, "0", { defence: "evasion", die: 97, cs: [] }); // red Evasion: avoided
    expect(line(render(state, "other"), ".row-summary")).toBe("Kestrel — the attack is avoided; +2 CS on the next action against this foe");
    let npc = createExchange({ attackerActor: hero, targetActor: villain, attack: "BA" });
    npc = chooseDefence(npc, "0", { defence: "evasion", die: 97, cs: [] });
    const hidden = render(npc, "other", { ...settings, hideNpcDefences: true });
    expect(line(hidden, ".row-summary")).toBe("Gravel — Defended.");
    expect(text(hidden)).not.toMatch(/Evade|avoided/);
  });
});
