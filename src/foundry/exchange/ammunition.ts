/**
 * A weapon's ammunition in Foundry: read as the rules' {@link Ammunition} (rules/ammunition.ts),
 * spent by the active GM when it writes the attack card (once per request, with a ledger entry
 * on the weapon, as Karma is spent once with one on the actor), and reloaded by the weapon's
 * owner. The rules decide whether a weapon may fire, how many shots an attack spends and what
 * a reload does; this file only reads and writes the item.
 */
import { mayFire, reload, shotsPerAttack, spendAmmunition, type Ammunition, type AttackCode, type FireCheck } from "../../rules/index";
import { SYSTEM_ID } from "../core/constants";
import { isItemType } from "../core/guards";
import { LEDGER_SIZE, actorLock, ledgerOf } from "../actor-writes";
import { QueryRefusal } from "../requests/router";
import { describeError } from "../core/describe-error";
import type { LockScope } from "../requests/locks";

/** The ledger field an ammunition spend is recorded under (on the weapon's own flags). */
export const AMMUNITION_FIELD = "system.ammunition.value";

/** A weapon's ammunition as the rules read it; null when it does not count it (or is not a weapon). */
export function weaponAmmunition(item: Item.Implementation): Ammunition | null {
  if (!isItemType(item, "weapon")) return null;
  const ammo = item.system.ammunition;
  return ammo.tracked ? { current: ammo.value, capacity: ammo.max } : null;
}

/** The shots an attack with `item` spends (the rules' {@link shotsPerAttack}). */
export function shotsFor(attack: AttackCode): number {
  return shotsPerAttack(attack);
}

/** The localised reason `item` may not fire, or null when it may (bad stored ammunition is a RangeError). */
export function ammunitionRefusal(item: Item.Implementation, attack: AttackCode): string | null {
  const check: FireCheck = mayFire(weaponAmmunition(item), shotsFor(attack));
  if (check.ok) return null;
  return game.i18n.format(`CASE.Ammunition.${check.reason}`, { weapon: item.name, shots: String(check.shots), left: String(check.left) });
}

/**
 * Whether the request with this id already spent the weapon's ammunition: its ledger entry
 * carries the nonce of the GM's note of the attack (card-store.ts `beginAttack`). The weapon is
 * its owner's to write, so an entry without that nonce, or with no note (`nonce` null), counts
 * for nothing.
 */
export function ammunitionSpentBy(item: Item.Implementation, requestId: string, nonce: string | null): boolean {
  return nonce !== null && ledgerOf(item).some((e) => e.id === requestId && (e.field as string) === AMMUNITION_FIELD && e.nonce === nonce);
}

function refusalOrRangeError(fn: () => string | null): string | null {
  try {
    return fn();
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) throw QueryRefusal.of("malformed", error);
    throw error;
  }
}

/**
 * The GM's check before anything is written: refuses (naming the weapon) when it may not fire.
 * A retry of a request that already spent its shots passes: that attack was already made.
 */
export function assertMayFire(item: Item.Implementation, attack: AttackCode, requestId: string, nonce: string | null): void {
  if (ammunitionSpentBy(item, requestId, nonce)) return;
  const refusal = refusalOrRangeError(() => ammunitionRefusal(item, attack));
  if (refusal !== null) throw new QueryRefusal("forbidden", refusal);
}

/**
 * Spends the attack's shots on the GM, once per request: the new count and a ledger entry on
 * the weapon go in one update, so a retry of the request finds the entry and spends nothing
 * again. Refused (naming the weapon) when it may not fire. A weapon that counts no ammunition
 * is not written at all.
 */
export async function spendAmmunitionOnce(item: Item.Implementation, actor: Actor.Implementation, attack: AttackCode, context: { readonly requestId: string; readonly scope: LockScope }, nonce: string): Promise<void> {
  if (weaponAmmunition(item) === null) return;
  await context.scope.within([actorLock(actor.uuid)], async () => {
    if (ammunitionSpentBy(item, context.requestId, nonce)) return;
    assertMayFire(item, attack, context.requestId, nonce);
    const before = weaponAmmunition(item);
    const after = spendAmmunition(before, shotsFor(attack));
    if (before === null || after === null) return;
    const entry = { id: context.requestId, field: AMMUNITION_FIELD, before: before.current, after: after.current, nonce };
    const ledger = [...ledgerOf(item), entry].slice(-LEDGER_SIZE);
    await item.update({ [AMMUNITION_FIELD]: after.current, [`flags.${SYSTEM_ID}.ledger`]: ledger } as Item.UpdateData);
  });
}

/**
 * Reloads a weapon to its capacity (the rules' {@link reload}): its owner's own update. Tells
 * the user and resolves false when the weapon counts no ammunition or is not theirs.
 */
export async function reloadWeapon(item: Item.Implementation): Promise<boolean> {
  const ammo = weaponAmmunition(item);
  if (ammo === null) {
    ui.notifications.error(game.i18n.format("CASE.Ammunition.NotTracked", { weapon: item.name }));
    return false;
  }
  if (!item.isOwner) {
    ui.notifications.error(game.i18n.format("CASE.Ammunition.NotYours", { weapon: item.name }));
    return false;
  }
  let full: Ammunition | null;
  try {
    full = reload(ammo);
  } catch (error) {
    ui.notifications.error(game.i18n.format("CASE.Ammunition.Invalid", { weapon: item.name, error: describeError(error) }));
    return false;
  }
  if (full === null) return false;
  await item.update({ "system.ammunition.value": full.current } as Item.UpdateData);
  ui.notifications.info(game.i18n.format("CASE.Ammunition.Reloaded", { weapon: item.name, value: String(full.current), max: String(full.capacity) }));
  return true;
}
