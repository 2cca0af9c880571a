/**
 * The acting row acts (issue 24, item 3): the acting combatant's tracker row offers the attack
 * its declaration names (rules `declaredAttackItem`) to the users who command it, and one click
 * there opens that item's attack dialog and sends the existing attack query (make-attack.ts):
 * the Judge attacks with an NPC without opening its sheet. The row is built by the real view
 * model and rendered by the real template; the click runs the tracker's real action against the
 * exchange world (the attack query on the GM, the card it writes). DialogV2 is stood in for as
 * Foundry's public API pages describe `DialogV2.wait` (it resolves to the pressed button's
 * callback result): here the attack dialog's form as a person leaves it.
 */
import "../../../support/foundry-globals";
import "../../../support/chat-globals";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { buildTrackerContext, type AttackItem, type TrackerInput } from "../../../../src/foundry/apps/tracker/tracker-context";
import { declaredAttackItem, parseDeclaration } from "../../../../src/rules/index";
import { localize, renderTemplate } from "../../../support/handlebars";
import { attr, parseHtml, queryAll } from "../../../support/html";
import { trackerInputFor, turnWorld, worldCombatant, type TurnWorld } from "../../../support/combat-world";
import { foundryDouble } from "../../../support/foundry-double";
import { fakeClick, fakeTarget } from "../../../support/foundry-stubs";
import { ALICE, FakeActor, GM, characterSource, installWorld, type World } from "../../../support/exchange-world";
import { readExchange } from "../../../../src/foundry/exchange/card-model";
import { stats } from "../../../support/turn-play";

const BOB = "bob0000000000000";
const PISTOL: AttackItem = { itemUuid: "Actor.villain000000001.Item.pistol0000000001", name: "Laser Pistol", attack: "En" };
const CLUB: AttackItem = { itemUuid: "Actor.villain000000001.Item.club00000000001", name: "Club", attack: "BA" };
const FISTS: AttackItem = { itemUuid: "Actor.hero000000000001.Item.fists00000000001", name: "Fists", attack: "BA" };
const ATTACKS: Record<string, AttackItem[]> = { villain: [CLUB, PISTOL], hero1: [FISTS] };

function world(): TurnWorld {
  return turnWorld([
    worldCombatant("hero1", stats(), { name: "Kestrel", playerOwned: true, owners: [ALICE.id] }),
    worldCombatant("villain", stats({ initiativeModifier: 9 }), { name: "Doctor Dread" }),
  ]);
}

/** The tracker's input for a viewer ("gm" or a player's id): each owned character's attacking items, as the tracker reads them. */
function input(w: TurnWorld, viewer: string): TrackerInput {
  const isGM = viewer === "gm";
  return trackerInputFor(w, { id: viewer, isGM }, { row: (c) => ({ attacks: isGM || c.owners.includes(viewer) ? (ATTACKS[c.id] ?? []) : [] }) });
}

function attackButtons(w: TurnWorld, viewer: string): { row: string | undefined; item: string | undefined; label: string | undefined }[] {
  const doc = parseHtml(renderTemplate("templates/combat/tracker.hbs", { case: buildTrackerContext(input(w, viewer), localize) }));
  return queryAll(doc, "li.case-combatant").flatMap((li) =>
    queryAll(li, '[data-action="caseAttack"]').map((b) => ({ row: attr(li, "data-combatant-id"), item: attr(b, "data-item-uuid"), label: attr(b, "data-tooltip") })),
  );
}

/** Both declared; the villain (initiative +9) acts first in Resolve. */
async function toResolve(w: TurnWorld, villain: object = { text: "Shoot Kestrel", kind: "attack", attack: "En" }): Promise<void> {
  await w.engine.declare("hero1", parseDeclaration({ text: "Punch", kind: "attack", attack: "BA" }));
  await w.engine.declare("villain", parseDeclaration({ ...villain, secret: true }));
  await w.engine.advance("declare");
  w.dice.push(5); // the villain's initiative, rolled on entering the phase
  await w.engine.advance("extraActions");
  w.dice.push(1); // Kestrel's
  await w.engine.advance("initiative");
}

describe("acting row attacks: the view", () => {
  it("acting row attacks: the acting NPC's row offers the Judge its declared attack (the item of that type), one button; nobody else gets one", async () => {
    const w = world();
    await toResolve(w);
    expect(buildTrackerContext(input(w, "gm"), localize).phase).toBe("resolve");
    expect(attackButtons(w, "gm")).toEqual([{ row: "villain", item: PISTOL.itemUuid, label: "Attack with Laser Pistol" }]);
    // Players do not command the NPC: no button on its row (nor on Kestrel's, who is not acting).
    expect(attackButtons(w, ALICE.id)).toEqual([]);
    expect(attackButtons(w, BOB)).toEqual([]);
    // Once the villain is done, Kestrel acts: her player and the Judge get her declared attack; Bob does not.
    await w.engine.completeAction("villain", 0);
    expect(attackButtons(w, ALICE.id)).toEqual([{ row: "hero1", item: FISTS.itemUuid, label: "Attack with Fists" }]);
    expect(attackButtons(w, "gm")).toEqual([{ row: "hero1", item: FISTS.itemUuid, label: "Attack with Fists" }]);
    expect(attackButtons(w, BOB)).toEqual([]);
  });

  it("acting row attacks: a declaration that is not an attack, or names a type no item makes, offers no button (never a guess)", async () => {
    const moving = world();
    await toResolve(moving, { text: "Run for the van", kind: "move" });
    expect(attackButtons(moving, "gm")).toEqual([]);
    const slashing = world();
    await toResolve(slashing, { text: "Slash", kind: "attack", attack: "EA" });
    expect(attackButtons(slashing, "gm")).toEqual([]);
  });

  it("acting row attacks (rules): the declared type's first item; an attack with no type names the only attacking item", () => {
    const attack = (attack: string | null) => parseDeclaration({ text: "", kind: "attack", attack });
    expect(declaredAttackItem(attack("En"), [CLUB, PISTOL])).toBe(PISTOL);
    expect(declaredAttackItem(attack("BA"), [CLUB, PISTOL, { ...CLUB, name: "Second club" }])).toBe(CLUB);
    expect(declaredAttackItem(attack(null), [FISTS])).toBe(FISTS);
    expect(declaredAttackItem(attack(null), [CLUB, PISTOL])).toBeNull();
    expect(declaredAttackItem(attack("Sh"), [CLUB, PISTOL])).toBeNull();
    expect(declaredAttackItem(parseDeclaration({ text: "Block", kind: "defence", defence: "block" }), [CLUB])).toBeNull();
    expect(declaredAttackItem(null, [CLUB])).toBeNull();
  });
});

describe("acting row attacks: the click", () => {
  type TrackerAction = (this: unknown, event: PointerEvent, target: HTMLElement) => Promise<void>;
  let caseAttack: TrackerAction;
  let exchange: World;
  let dialogs: { title: string; content: string }[];

  beforeAll(async () => {
    // Foundry's CombatTracker, as much as the module needs to load: the class to extend and its parts.
    const CombatTrackerStandIn = Object.assign(function CombatTracker() {}, { PARTS: {}, DEFAULT_OPTIONS: {} });
    (foundryDouble.applications as Record<string, unknown>).sidebar = { tabs: { CombatTracker: CombatTrackerStandIn } };
    const { CaseCombatTracker } = await import("../../../../src/foundry/apps/tracker/combat-tracker");
    const found = (CaseCombatTracker.DEFAULT_OPTIONS as unknown as { actions: Record<string, TrackerAction | undefined> }).actions.caseAttack;
    if (!found) throw new Error("The tracker has no caseAttack action.");
    caseAttack = found;
  });

  beforeEach(() => {
    exchange = installWorld();
    dialogs = [];
    vi.stubGlobal("foundry", {
      ...foundryDouble,
      applications: {
        ...foundryDouble.applications,
        handlebars: { renderTemplate: (path: string, context: object) => Promise.resolve(renderTemplate(path.replace(/^systems\/case\//, ""), context)) },
        api: {
          ...foundryDouble.applications.api,
          // The attack dialog, answered as a person who presses Attack without changing a field.
          DialogV2: { wait: (config: { window: { title: string }; content: string }) => (dialogs.push({ title: config.window.title, content: config.content }), Promise.resolve({})) },
        },
      },
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("acting row attacks: one click on the NPC's row opens its item's attack dialog, and pressing Attack makes the GM's card (2 clicks, no sheet)", async () => {
    const hero = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ agility: 30 }), [ALICE.id]);
    const villain = new FakeActor("villain000000001", "Doctor Dread", "npc", characterSource({ fighting: 40 }), []);
    const club = { type: "weapon", name: "Club", actor: villain, uuid: CLUB.itemUuid, documentName: "Item", system: { attack: { enabled: true, type: "BA", range: 0, pullable: true }, damage: { mode: "strength", rank: 0 }, materialStrength: 10, ammunition: { tracked: false, value: 0, max: 0 } } };
    villain.items.push(club);
    exchange.actors.set(hero.id, hero);
    exchange.actors.set(villain.id, villain);
    // The Judge, the active GM, targets Kestrel's token.
    (game.users as unknown as { activeGM: unknown }).activeGM = { id: GM.id, isSelf: true };
    (game as unknown as { user: unknown }).user = { ...GM, targets: new Set([{ document: { uuid: hero.uuid } }]) };
    await caseAttack.call({}, fakeClick(), fakeTarget({ action: "caseAttack", itemUuid: CLUB.itemUuid }));
    expect(dialogs.map((d) => d.title)).toEqual(["Doctor Dread attacks with Club"]);
    const cards = [...exchange.messages.values()].filter((m) => m.type === "attack");
    expect(cards).toHaveLength(1);
    const state = readExchange(cards[0]?.system.exchange);
    expect(state.source).toBe("Club");
    expect(state.targets.map((t) => t.uuid)).toEqual([hero.uuid]);
  });

  it("acting row attacks: a shift-click attacks at once, without the dialog (1 click), as on the sheet", async () => {
    const hero = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ agility: 30 }), [ALICE.id]);
    const villain = new FakeActor("villain000000001", "Doctor Dread", "npc", characterSource({ fighting: 40 }), []);
    const club = { type: "weapon", name: "Club", actor: villain, uuid: CLUB.itemUuid, documentName: "Item", system: { attack: { enabled: true, type: "BA", range: 0, pullable: true }, damage: { mode: "strength", rank: 0 }, materialStrength: 10, ammunition: { tracked: false, value: 0, max: 0 } } };
    villain.items.push(club);
    exchange.actors.set(hero.id, hero);
    exchange.actors.set(villain.id, villain);
    (game.users as unknown as { activeGM: unknown }).activeGM = { id: GM.id, isSelf: true };
    (game as unknown as { user: unknown }).user = { ...GM, targets: new Set([{ document: { uuid: hero.uuid } }]) };
    await caseAttack.call({}, fakeClick(true), fakeTarget({ action: "caseAttack", itemUuid: CLUB.itemUuid }));
    expect(dialogs).toEqual([]);
    expect([...exchange.messages.values()].filter((m) => m.type === "attack")).toHaveLength(1);
  });

  it("acting row attacks: a button whose item is gone opens nothing and sends nothing", async () => {
    await caseAttack.call({}, fakeClick(), fakeTarget({ action: "caseAttack", itemUuid: "Actor.nobody0000000001.Item.gone000000000001" }));
    expect(dialogs).toEqual([]);
    expect([...exchange.messages.values()]).toEqual([]);
  });
});
