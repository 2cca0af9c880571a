/**
 * Making an attack: from a power or weapon of a character, against targets given as UUIDs (a
 * drop on a token) or the user's current targets. Snapshots the attacker and the targets,
 * asks the attack's circumstances (unless skipped), spends Karma, and posts the attack card.
 * Targets who are blindsided get no defence; their to-hit rolls are made by the GM at once.
 */
import {
  ATTACKS,
  ExchangeError,
  KARMA_MINIMUM,
  PROJECTILE_BY_ATTACK,
  attackSetup,
  canCallShot,
  createExchange,
  foeBonusShift,
  rankOf,
  wornArmor,
  type ArmorPiece,
  type AttackCode,
  type CsReason,
  type ExchangeState,
  type TargetInput,
} from "../../rules/index";
import { SYSTEM_ID, SYSTEM_PATH } from "../constants";
import { actorFromUuid, isCharacter, isItemType } from "../documents/guards";
import { spendActorKarma, talentShifts } from "../dice/talents";
import { requestGM } from "../gm";
import { statusShift } from "../status-effects";
import { DEFAULT_ATTACK_INPUT, parseAttackInput, type AttackInput } from "./attack-input";
import { foeBonusKey, rollToHitQuery } from "./exchange-queries";

export const ATTACK_DIALOG_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/attack-dialog.hbs`;

export interface AttackOptions {
  /** Targets as token (or actor) UUIDs. Defaults to the user's current targets. */
  targetUuids?: string[];
  /** Skip the dialog (shift-click): no extra circumstances. */
  skipDialog?: boolean;
}

/** The protection of the armor an actor wears (its equipped armor items), per the rules' {@link wornArmor}. */
export function bestArmor(actor: Actor.Implementation): ArmorPiece {
  const pieces: ArmorPiece[] = [];
  for (const item of actor.items) {
    if (isItemType(item, "armor") && item.system.equipped) pieces.push({ body: item.system.physical, energy: item.system.energy });
  }
  return wornArmor(pieces);
}

/**
 * The bonus an earlier Evasion/Feint gave `actor` against the foe with this UUID (0 if none):
 * it applies to the next action against that foe, then is spent.
 */
export function foeBonus(actor: Actor.Implementation, foeUuid: string): number {
  const flags = (actor.flags as Record<string, unknown>)[SYSTEM_ID] as { foeBonus?: Record<string, unknown> } | undefined;
  const value = flags?.foeBonus?.[foeBonusKey(foeUuid)];
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : 0;
}

/** A target's snapshot, or null when the UUID is not a character. */
export async function snapshotTarget(uuid: string): Promise<TargetInput | null> {
  const actor = await actorFromUuid(uuid);
  if (!actor || !isCharacter(actor)) return null;
  const s = actor.system;
  return {
    uuid,
    actorUuid: actor.uuid,
    name: actor.name,
    scores: { "agility.bal": s.score("agility.bal"), "fighting.def": s.score("fighting.def"), "strength.mgt": s.score("strength.mgt"), "endurance.res": s.score("endurance.res") },
    armor: bestArmor(actor),
  };
}

async function askAttackInput(context: Record<string, unknown>, karmaPool: number): Promise<AttackInput | null> {
  let input: AttackInput = DEFAULT_ATTACK_INPUT;
  for (;;) {
    const content = await foundry.applications.handlebars.renderTemplate(ATTACK_DIALOG_TEMPLATE, { ...context, input, id: foundry.utils.randomID() });
    const form: unknown = await foundry.applications.api.DialogV2.wait({
      window: { title: String(context.subject) },
      content,
      buttons: [
        {
          action: "attack",
          label: "CASE.Dialog.Attack",
          icon: "fa-solid fa-hand-fist",
          default: true,
          callback: (_event, button) => new foundry.applications.ux.FormDataExtended(button.form ?? document.createElement("form")).object,
        },
        { action: "cancel", label: "CASE.Dialog.Cancel", icon: "fa-solid fa-xmark" },
      ],
      rejectClose: false,
    });
    if (typeof form !== "object" || form === null) return null;
    const parsed = parseAttackInput(form as Record<string, unknown>, karmaPool);
    if (parsed.ok) return parsed.value;
    ui.notifications.error(game.i18n.format(parsed.errorKey, parsed.data ?? {}));
    input = { ...DEFAULT_ATTACK_INPUT, ...(form as Partial<AttackInput>) };
  }
}

const SHIFT_LABELS = { range: "CASE.Exchange.RangePenaltyLabel", objects: "CASE.Exchange.ObstacleLabel", charge: "CASE.Exchange.ChargeLabel" } as const;

/** Makes an attack with a power or weapon. Resolves to the card's message, or null. */
export async function makeAttack(item: Item.Implementation, options: AttackOptions = {}): Promise<ChatMessage.Implementation | null> {
  const actor = item.actor;
  if (!actor || !isCharacter(actor)) {
    ui.notifications.error(game.i18n.localize("CASE.Exchange.NotCharacter"));
    return null;
  }
  const attacking = isItemType(item, "power") || isItemType(item, "weapon") ? item.system.attack : null;
  if (!attacking?.enabled) {
    ui.notifications.error(game.i18n.localize("CASE.Exchange.NotAnAttack"));
    return null;
  }
  const attack = attacking.type as AttackCode;
  const uuids = options.targetUuids ?? [...game.user.targets].map((t) => t.document.uuid);
  const targets: TargetInput[] = [];
  for (const uuid of uuids) {
    const t = await snapshotTarget(uuid);
    if (t) targets.push(t);
  }
  if (targets.length === 0) {
    ui.notifications.warn(game.i18n.localize("CASE.Exchange.NoTargets"));
    return null;
  }

  const def = ATTACKS[attack];
  const system = actor.system;
  const value = system.score(def.rollsOn);
  const talents = talentShifts(actor, def.rollsOn, attack);
  const basis = isItemType(item, "weapon") ? item.system.damage.mode : "rank";
  const itemRank = isItemType(item, "weapon") ? item.system.damage.rank : isItemType(item, "power") ? item.system.rank : 0;
  const materialStrength = isItemType(item, "weapon") ? item.system.materialStrength : undefined;
  const subject = game.i18n.format("CASE.Exchange.Title", { actor: actor.name, item: item.name });

  const input = options.skipDialog
    ? DEFAULT_ATTACK_INPUT
    : await askAttackInput(
        {
          subject,
          attackKey: `CASE.Attack.${attack}`,
          rollsOnKey: `CASE.Score.${def.rollsOn}`,
          rankKey: `CASE.Rank.${rankOf(value).key}`,
          value,
          talents: talents.map((t) => t.label),
          targetCount: String(targets.length),
          ranged: def.family === "ranged",
          range: String(attacking.range),
          charge: attack === "Ch",
          canCallShot: canCallShot(attack),
          karmaPool: system.karma.value,
          karmaMinimum: KARMA_MINIMUM,
        },
        system.karma.value,
      );
  if (!input) return null;

  // A bonus from an earlier Evasion/Feint applies when every target is that foe.
  const bonus = foeBonusShift(targets.map((t) => foeBonus(actor, t.actorUuid)));

  let setup;
  let state: ExchangeState;
  try {
    setup = attackSetup({
      attack,
      basis,
      itemRank,
      materialStrength,
      strength: system.score("strength.mgt"),
      endurance: system.score("endurance.res"),
      bodyArmor: bestArmor(actor).body,
      range: attacking.range,
      distance: input.distance,
      objects: input.objects,
      chargeAreas: input.chargeAreas,
    });
    const toHitCs: CsReason[] = [
      ...talents,
      ...(bonus > 0 ? [{ cs: bonus, label: "CASE.Exchange.FoeBonus", localize: true }] : []),
      ...statusShift(actor.statuses).map((s) => ({ ...s, localize: true })),
      ...setup.shifts.map((s) => ({ cs: s.cs, label: SHIFT_LABELS[s.reason], localize: true })),
      ...(input.cs !== 0 ? [{ cs: input.cs, label: input.reason || "CASE.Dialog.Modifier", localize: input.reason === "" }] : []),
    ];
    state = createExchange({
      attack,
      source: item.name,
      attacker: { uuid: actor.uuid, name: actor.name, value, strength: system.score("strength.mgt"), armor: bestArmor(actor).body },
      toHitCs,
      karma: input.karma,
      damage: { method: game.settings.get(SYSTEM_ID, "damageMethod"), value: setup.damage },
      calledShot: input.calledShot,
      blindsided: input.blindsided,
      projectile: PROJECTILE_BY_ATTACK[attack] ?? null,
      targets,
    });
  } catch (error) {
    if (error instanceof ExchangeError || error instanceof RangeError || error instanceof TypeError) {
      console.warn("case | attack not made", error);
      ui.notifications.error(game.i18n.format("CASE.Exchange.CannotAttack", { item: item.name }));
      return null;
    }
    throw error;
  }

  if (!(await spendActorKarma(actor, input.karma))) return null;

  if (bonus > 0) {
    await actor.update(Object.fromEntries(targets.map((t) => [`flags.${SYSTEM_ID}.foeBonus.-=${foeBonusKey(t.actorUuid)}`, null])));
  }

  const message = await ChatMessage.create({
    type: "attack",
    speaker: ChatMessage.getSpeaker({ actor }),
    content: "",
    // The exchange is plain JSON; ObjectField types it as a record.
    system: { exchange: state as unknown as Record<string, unknown> },
  });
  if (message && state.targets.some((t) => t.phase === "awaitingToHit")) {
    await requestGM(rollToHitQuery, { messageId: message.id });
  }
  return message ?? null;
}
