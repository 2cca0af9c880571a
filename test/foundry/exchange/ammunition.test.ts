/**
 * Ammunition spent (issue 11, item 2b): the GM's attack refuses an empty weapon with a message
 * naming it and writes nothing, spends the attack's shots in the same write path as the Karma,
 * once per request (a ledger entry on the weapon), and the owner reloads to capacity.
 */
import "../../support/foundry-globals";
import "../../support/chat-globals";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ALICE, FakeActor, GM, characterSource, installWorld, type World } from "../../support/exchange-world";
import { attackQuery, makeAttack } from "../../../src/foundry/exchange/make-attack";
import { AMMUNITION_FIELD, reloadWeapon } from "../../../src/foundry/exchange/ammunition";
import { SYSTEM_ID } from "../../../src/foundry/core/constants";
import { CASE_API } from "../../../src/foundry/api/index";
import { shotsPerAttack } from "../../../src/rules/index";

let world: World;
let hero: FakeActor;
let villain: FakeActor;

/** A weapon owned by an actor: stores what it is updated with, as an embedded Item does. */
class FakeWeapon {
  readonly type = "weapon";
  readonly documentName = "Item";
  flags: Record<string, unknown> = {};
  readonly updates: Record<string, unknown>[] = [];
  system: Record<string, unknown>;
  constructor(
    readonly actor: FakeActor,
    readonly name: string,
    readonly uuid: string,
    ammunition: { tracked: boolean; value: number; max: number },
    public isOwner = true,
  ) {
    this.system = { attack: { enabled: true, type: "Sh", range: 3, pullable: false }, damage: { mode: "rank", rank: 10 }, materialStrength: 20, ammunition, equipped: true };
  }
  get ammo(): { value: number; max: number } {
    return this.system.ammunition as { value: number; max: number };
  }
  get ledger(): { id: string; field: string; before: number; after: number }[] {
    return ((this.flags[SYSTEM_ID] as { ledger?: [] } | undefined)?.ledger ?? []);
  }
  update(data: Record<string, unknown>): Promise<this> {
    this.updates.push(structuredClone(data));
    for (const [key, value] of Object.entries(data)) {
      const [root, ...rest] = key.split(".");
      let node = (root === "flags" ? this.flags : this.system);
      const path = root === "flags" || root === "system" ? rest : [root ?? "", ...rest];
      for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
      node[path.at(-1) ?? ""] = structuredClone(value);
    }
    return Promise.resolve(this);
  }
}

function handgun(value: number, max = 6, owner = hero): FakeWeapon & Item.Implementation {
  const item = new FakeWeapon(owner, "Handgun", `${owner.uuid}.Item.handgun000000${String(owner.items.length + 1).padStart(3, "0")}`, { tracked: true, value, max });
  owner.items.push(item);
  return item as FakeWeapon & Item.Implementation;
}

function cards() {
  return [...world.messages.values()].filter((m) => m.type === "attack");
}

const shoot = (gun: Item.Implementation, requestId?: string, input: Record<string, unknown> = {}) =>
  world.ask(attackQuery, ALICE.id, { itemUuid: gun.uuid, targetUuids: [villain.uuid], input }, requestId);

beforeEach(() => {
  world = installWorld();
  hero = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ agility: 30 }), [ALICE.id]);
  villain = new FakeActor("villain000000001", "Gravel", "npc", characterSource({ fighting: 40 }), []);
  world.actors.set(hero.id, hero);
  world.actors.set(villain.id, villain);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("ammunition spent by the GM's attack", () => {
  it("ammunition spent: a shot spends one, recorded once on the weapon's ledger", async () => {
    const gun = handgun(6);
    expect(await shoot(gun)).toMatchObject({ ok: true });
    expect(shotsPerAttack("Sh")).toBe(1);
    expect(gun.ammo).toMatchObject({ value: 5, max: 6 });
    expect(gun.ledger).toEqual([{ id: expect.any(String) as string, field: AMMUNITION_FIELD, before: 6, after: 5, nonce: expect.any(String) as string }]);
    expect(await shoot(gun)).toMatchObject({ ok: true });
    expect(gun.ammo.value).toBe(4);
    expect(cards()).toHaveLength(2);
  });

  it("ammunition spent: an empty weapon is refused with a message naming it, and no card, Karma or ammunition is written", async () => {
    const gun = handgun(0);
    const result = await shoot(gun, undefined, { karma: 10 });
    expect(result).toEqual({ ok: false, reason: "forbidden", message: "Handgun is empty: reload it before you attack with it." });
    expect(world.messages.size).toBe(0);
    expect(gun.updates).toEqual([]);
    expect(hero.system.karma.value).toBe(30);
  });

  it("ammunition spent: the attacker's own client refuses an empty weapon at once, with the message, and asks the GM nothing", async () => {
    const gun = handgun(0);
    (game.users as unknown as { activeGM: unknown }).activeGM = { id: GM.id, isSelf: true };
    expect(await makeAttack(gun, { targetUuids: [villain.uuid], skipDialog: true })).toBeNull();
    expect(world.notifications.error).toHaveBeenCalledWith("Handgun is empty: reload it before you attack with it.");
    expect(world.messages.size).toBe(0);
  });

  it("rules errors localised: the attacker's own client refuses a tracked weapon with no capacity in en.json's words, asking the GM nothing", async () => {
    const format = game.i18n.format.bind(game.i18n);
    vi.spyOn(game.i18n, "format").mockImplementation((key, data) => (key === "CASE.RulesError.notWholeAtLeast" ? `NO ROOM: ${String(data?.field)} < ${String(data?.min)}` : format(key, data)));
    (game.users as unknown as { activeGM: unknown }).activeGM = { id: GM.id, isSelf: true };
    expect(await makeAttack(handgun(0, 0), { targetUuids: [villain.uuid], skipDialog: true })).toBeNull();
    expect(world.notifications.error).toHaveBeenCalledWith(`NO ROOM: ${game.i18n.localize("CASE.RulesField.ammunitionCapacity")} < 1`);
    expect(world.messages.size).toBe(0);
  });

  it("ammunition spent: a retried request spends once, even when it fired the last shot before the GM dropped", async () => {
    const gun = handgun(1);
    // The GM's client fails between the writes and the card (a drop mid-request): the shot is spent
    // (after the GM's whispered note of the attack, which the spend's ledger entry names), no card.
    const create = (ChatMessage as unknown as { implementation: { create: (d: unknown) => Promise<unknown> } }).implementation;
    const real = create.create.bind(create);
    create.create = (d: unknown) => ((d as { type?: unknown }).type === "attack" ? Promise.reject(new Error("The GM's tab closed.")) : real(d));
    expect(await shoot(gun, "req9999999999999")).toMatchObject({ ok: false, reason: "failed" });
    expect(gun.ammo.value).toBe(0);
    create.create = real;
    // The next active GM handles the same request: it is not refused as empty and spends nothing again.
    expect(await shoot(gun, "req9999999999999")).toMatchObject({ ok: true });
    expect(gun.ammo.value).toBe(0);
    expect(cards()).toHaveLength(1);
    // A replay after the card exists answers with that card and spends nothing.
    expect(await shoot(gun, "req9999999999999")).toMatchObject({ ok: true, value: { messageId: cards()[0]?.id } });
    expect(gun.updates.filter((u) => AMMUNITION_FIELD in u)).toHaveLength(1);
    // A new request with the weapon now empty is refused.
    expect(await shoot(gun)).toMatchObject({ ok: false, reason: "forbidden" });
  });

  it("fake ledger entries: entries Alice writes on her own weapon and hero for her next request skip neither the shot nor the Karma, and do not let an empty weapon fire", async () => {
    const gun = handgun(1);
    const requestId = "req7777777777777";
    const karma = hero.system.karma.value;
    // Alice knows the id of the request she is about to send; she writes its "already spent" entries first.
    await gun.update({ [`flags.${SYSTEM_ID}.ledger`]: [{ id: requestId, field: AMMUNITION_FIELD, before: 1, after: 0 }] });
    await hero.update({ [`flags.${SYSTEM_ID}.ledger`]: [{ id: requestId, field: "system.karma.value", before: karma, after: karma - 10 }] });
    expect(await shoot(gun, requestId, { karma: 10 })).toMatchObject({ ok: true });
    expect(gun.ammo.value).toBe(0);
    expect(hero.system.karma.value).toBe(karma - 10);
    // Empty now: a forged entry for the next request does not let it fire.
    await gun.update({ [`flags.${SYSTEM_ID}.ledger`]: [{ id: "req7777777777778", field: AMMUNITION_FIELD, before: 1, after: 0 }] });
    expect(await shoot(gun, "req7777777777778")).toMatchObject({ ok: false, reason: "forbidden" });
    expect(cards()).toHaveLength(1);
  });

  it("ammunition spent: a weapon that counts no ammunition is never written; a tracked one with no capacity is refused clearly", async () => {
    const fists = handgun(0);
    (fists as FakeWeapon).system.ammunition = { tracked: false, value: 0, max: 0 };
    expect(await shoot(fists)).toMatchObject({ ok: true });
    expect(fists.updates).toEqual([]);
    const broken = handgun(0, 0);
    expect(await shoot(broken)).toMatchObject({ ok: false, reason: "malformed", message: expect.stringContaining("Ammunition capacity") as string });
  });
});

describe("reload", () => {
  it("ammunition spent: reload fills to capacity, from the sheet's button, and says so", async () => {
    const gun = handgun(2, 6);
    // The sheet's actions import the dice, whose roll class extends the world's Roll: import them once it is stubbed.
    const { CHARACTER_SHEET_ACTIONS } = await import("../../../src/foundry/apps/sheet/sheet-actions");
    const onReload = CHARACTER_SHEET_ACTIONS.reload;
    const button = { dataset: { itemId: "gun" }, closest: () => null } as unknown as HTMLElement;
    const actor = { items: { get: (id: string) => (id === "gun" ? gun : undefined) } } as unknown as Actor.Implementation;
    await onReload.call({ actor, isEditable: true }, { shiftKey: false } as PointerEvent, button);
    expect(gun.ammo).toMatchObject({ value: 6, max: 6 });
    expect(world.notifications.info).toHaveBeenCalledWith("Handgun is reloaded (6/6).");
    expect(await shoot(gun)).toMatchObject({ ok: true });
    expect(gun.ammo.value).toBe(5);
  });

  it("ammunition spent: reload refuses a weapon that counts no ammunition, and one the user does not own", async () => {
    const club = handgun(0);
    (club as FakeWeapon).system.ammunition = { tracked: false, value: 0, max: 0 };
    expect(await reloadWeapon(club)).toBe(false);
    expect(world.notifications.error).toHaveBeenCalledWith("Handgun does not count ammunition, so it needs no reload.");
    const other = handgun(1, 6, villain);
    (other as FakeWeapon).isOwner = false;
    expect(await reloadWeapon(other)).toBe(false);
    expect(world.notifications.error).toHaveBeenCalledWith("Handgun is not yours to reload.");
    expect(other.ammo.value).toBe(1);
  });

  it("ammunition spent: CONFIG.CASE.api.reload(uuid) reloads the weapon the UUID names, and says so when it names nothing", async () => {
    const gun = handgun(0, 12);
    expect(await CASE_API.reload(gun.uuid)).toBe(true);
    expect(gun.ammo).toMatchObject({ value: 12, max: 12 });
    expect(await CASE_API.reload("Actor.nobody.Item.nothing")).toBe(false);
    expect(world.notifications.error).toHaveBeenCalledWith("No item found for Actor.nobody.Item.nothing: the macro's item was deleted or moved.");
  });
});
