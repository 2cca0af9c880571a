/**
 * Making an attack, in two halves. The attacker's client (makeAttack) checks the item, asks
 * the attack's circumstances (unless skipped) and sends "attack with item X at targets T with
 * these inputs" to the active GM. The GM (attackQuery) checks the asker owns the attacker,
 * re-reads the item, the actors and the Karma pool itself, refuses an empty weapon, builds the
 * exchange (every target's armor and protective powers: protectionSources), spends the
 * weapon's ammunition and the Karma (each once per request), clears a used foe bonus and
 * writes the card: players never write attack cards.
 * Targets who are blindsided get no defence; the GM rolls their to-hit before the card is posted.
 * An item with an area (system.attack.area) first has the attacker place its template
 * (area-template.ts); the GM then reads the template and the scene's tokens itself and makes
 * one card with a row for every token the area covers, each at its distance from the centre.
 */
import {
  ATTACKS,
  areaWithinRange,
  rangeInAreas,
  KARMA_MINIMUM,
  PROJECTILE_BY_ATTACK,
  attackSetup,
  targetRangeShifts,
  mayCallShotWith,
  createExchange,
  createResistedExchange,
  foeBonusShift,
  rankOf,
  type AttackCode,
  type AreaDefinition,
  type AttackSetupInput,
  type CsReason,
  type ExchangeInput,
  type ExchangeState,
  type TargetInput,
} from "../../rules/index";
import { resistedPowerOfItem } from "./resist-steps";
import { SYSTEM_ID, SYSTEM_PATH } from "../core/constants";
import { actorFromUuid, isCharacter, isItemType, isMessageType } from "../core/guards";
import { rollShifts, talentShifts } from "../dice/talents";
import { requestGM, userOwns } from "../requests/gm";
import { areaDocumentName, deletionUpdate } from "../core/compat";
import { DEFAULT_ATTACK_INPUT, obstacleOptions, obstaclesOf, parseAttackInput, type AttackInput } from "./attack-input";
import { QueryRefusal, UUID_PATTERN, payloadRecord, stringField, uuidListField } from "../requests/router";
import { attackNonce, beginAttack, cardOfOrigin, createCard, type RolledDie } from "./card-store";
import { readExchange } from "./card-model";
import { attackTurn, helplessNow, refuseHelpless, refuseUndeclaredCombat, spendAttackAction, type AttackTurn } from "../combat/turn-feed";
import { ammunitionRefusal, assertMayFire, spendAmmunitionOnce } from "./ammunition";
import { rangesFromTokens } from "./board";
import { attackerTokenAmong } from "../ui/board";
import { ATTACK_PREVIEW_TEMPLATE, attackForm, attackPreviewContext, type AttackPreviewSubject } from "./attack-preview";
import { livePreview } from "../dice/roll-dialog";
import { bodyProtection, snapshotTarget } from "./protection";
import { afterToHit, defineCardQuery, isNpcActor, rollPendingToHit, transition } from "./gm-actions";
import { consumeFoeBonus, foeBonusFlag, foeBonusKey, foeBonusLockKeys, grantedFoeBonus } from "./foe-bonus";
import { cardLock } from "./card-request";
import { actorLock, actorLocksOf, spendKarmaOnce } from "../actor-writes";
import { areaPlacement, areaTemplateItem, coveredTokens, placedAt, foundryAreaCanvas, placeArea, tokenSquares, type AreaTokenDoc, type CoveredToken, type PlacedAreaDoc, type SceneGrid } from "./area-template";
import type { AskingUser } from "../requests/router";
import { describeError } from "../core/describe-error";

export const ATTACK_DIALOG_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/attack-dialog.hbs`;

export interface AttackOptions {
  /** Targets as token (or actor) UUIDs. Defaults to the user's current targets. */
  targetUuids?: string[];
  /** Skip the dialog (shift-click): no extra circumstances. */
  skipDialog?: boolean;
  /** An area attack: the template already placed for it (else the attacker places one now). */
  templateUuid?: string;
}

async function askAttackInput(context: Record<string, unknown>, subject: AttackPreviewSubject, start: AttackInput = DEFAULT_ATTACK_INPUT): Promise<AttackInput | null> {
  let input: AttackInput = start;
  const karmaPool = subject.karmaPool;
  for (;;) {
    const targets = subject.targets.map((t) => ({ name: t.name, areas: input.distances[t.uuid] ?? input.distance }));
    const content = await foundry.applications.handlebars.renderTemplate(ATTACK_DIALOG_TEMPLATE, { ...context, input, targets, obstacleOptions: obstacleOptions(input.obstacleStrength), id: foundry.utils.randomID() });
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
      // The preview per target (attack-preview.ts), kept in step with the form, shown at once.
      render: (_event, dialog) => {
        const element = dialog.element.querySelector("form") ?? dialog.element;
        if (!(element instanceof HTMLFormElement)) return;
        const subjectOfRoll = { subject: "", value: subject.value, karmaPool, talents: [], talentCs: "", talentShift: subject.shift };
        livePreview(element, subjectOfRoll, (values) => foundry.applications.handlebars.renderTemplate(ATTACK_PREVIEW_TEMPLATE, attackPreviewContext(subject, values)));
        element.dispatchEvent(new Event("change"));
      },
      rejectClose: false,
    });
    if (typeof form !== "object" || form === null) return null;
    const values = attackForm(form as Record<string, unknown>, subject.targets);
    const parsed = parseAttackInput(values, karmaPool);
    if (parsed.ok) return parsed.value;
    ui.notifications.error(game.i18n.format(parsed.errorKey, parsed.data ?? {}));
    input = { ...DEFAULT_ATTACK_INPUT, ...(values as Partial<AttackInput>) };
  }
}

const SHIFT_LABELS = { range: "CASE.Exchange.RangePenaltyLabel", objects: "CASE.Exchange.ObstacleLabel", charge: "CASE.Exchange.ChargeLabel" } as const;

/** The most targets one attack may name. */
export const MAX_ATTACK_TARGETS = 20;

/** The item's attack, or null when it does not make one. */
function attackOf(item: Item.Implementation): AttackCode | null {
  const attacking = isItemType(item, "power") || isItemType(item, "weapon") ? item.system.attack : null;
  return attacking?.enabled ? (attacking.type) : null;
}

/** The area an item's attack covers, or null for an attack on chosen targets. */
export function itemArea(item: Item.Implementation): AreaDefinition | null {
  const attacking = isItemType(item, "power") || isItemType(item, "weapon") ? item.system.attack : null;
  const area = attacking?.area;
  if (!area || area.shape === "none") return null;
  return { shape: area.shape, radius: area.radius, explosive: area.explosive };
}

/**
 * Makes an attack with a power or weapon: the attacker's client half. Resolves to the card
 * the GM wrote, or null (after telling the user why).
 */
export async function makeAttack(item: Item.Implementation, options: AttackOptions = {}): Promise<ChatMessage.Implementation | null> {
  const actor = item.actor;
  if (!actor || !isCharacter(actor)) {
    ui.notifications.error(game.i18n.localize("CASE.Exchange.NotCharacter"));
    return null;
  }
  const attack = attackOf(item);
  if (!attack) {
    ui.notifications.error(game.i18n.localize("CASE.Exchange.NotAnAttack"));
    return null;
  }
  // The GM refuses the helpless (turn-feed.ts); this spares the user the dialog first.
  const bridge = (CONFIG as Partial<CONFIG>).CASE?.router.services.combat;
  const helpless = helplessNow(actor, bridge ? await bridge.standing(actor) : null);
  if (helpless !== null) {
    ui.notifications.warn(game.i18n.format("CASE.Helpless.Attack", { name: actor.name, reason: game.i18n.localize(`CASE.Helpless.${helpless}`) }));
    return null;
  }
  // The GM checks again and spends; this spares the user a dialog for a shot that cannot be made.
  let empty: string | null;
  try {
    empty = ammunitionRefusal(item, attack);
  } catch (error) {
    empty = describeError(error);
  }
  if (empty !== null) {
    ui.notifications.error(empty);
    return null;
  }
  const area = itemArea(item);
  let templateUuid = options.templateUuid;
  // An area's targets are whom its template covers, not whom the user had targeted.
  let uuids = options.targetUuids ?? (area ? [] : [...game.user.targets].map((t) => t.document.uuid));
  if (area && templateUuid === undefined) {
    const board = foundryAreaCanvas();
    if (!board) {
      ui.notifications.error(game.i18n.localize("CASE.Area.NoScene"));
      return null;
    }
    const placed = await placeArea(board, area, actor.uuid, item.uuid);
    if (!placed) return null;
    templateUuid = placed.templateUuid;
    uuids = placed.targets.map((t) => t.uuid);
  }
  const snapshots = (await Promise.all(uuids.map((u) => snapshotTarget(u, attack)))).filter((t) => t !== null);
  const targetCount = snapshots.length;
  if (targetCount === 0) {
    ui.notifications.warn(game.i18n.localize(area ? "CASE.Area.NoOneInside" : "CASE.Exchange.NoTargets"));
    return null;
  }
  const def = ATTACKS[attack];
  const system = actor.system;
  const value = system.score(def.rollsOn);
  const attacking = (isItemType(item, "power") || isItemType(item, "weapon") ? item.system.attack : null) as { range: number } | null;
  // The range from the attacker's token to each target's, in areas: each target's pre-filled (overridable).
  const measured = def.family === "ranged" ? rangesFromTokens(actor, snapshots) : [];
  const start: AttackInput = { ...DEFAULT_ATTACK_INPUT, distances: Object.fromEntries(measured.map((m) => [m.uuid, m.areas])) };
  const subject: AttackPreviewSubject = {
    attack,
    value,
    karmaPool: system.karma.value,
    shift: rollShifts(actor, { score: def.rollsOn, attack }).reduce((sum, s) => sum + s.cs, 0),
    setup: setupOf(item, actor, attack),
    targets: snapshots.map((t) => ({ uuid: t.uuid, name: t.name })),
  };
  const input = options.skipDialog
    ? start
    : await askAttackInput(
        {
          subject: game.i18n.format("CASE.Exchange.Title", { actor: actor.name, item: item.name }),
          attackKey: `CASE.Attack.${attack}`,
          rollsOnKey: `CASE.Score.${def.rollsOn}`,
          rankKey: `CASE.Rank.${rankOf(value).key}`,
          value,
          talents: talentShifts(actor, def.rollsOn, attack).map((t) => t.label),
          targetCount: String(targetCount),
          ranged: def.family === "ranged",
          range: String(attacking?.range ?? 0),
          measured: measured.length > 0,
          charge: attack === "Ch",
          canCallShot: mayCallShotWith(attack, area !== null),
          karmaPool: system.karma.value,
          karmaMinimum: KARMA_MINIMUM,
        },
        subject,
        start,
      );
  if (!input) return null;
  const answer = await requestGM(attackQuery, { itemUuid: item.uuid, targetUuids: uuids, input: { ...input }, ...(templateUuid !== undefined ? { templateUuid } : {}) });
  return answer ? (game.messages.get(answer.messageId) ?? null) : null;
}

/** The attack's setup from the item and the attacker, before the circumstances the dialog asks (rules `attackSetup`). */
function setupOf(item: Item.Implementation, actor: Actor.OfType<"hero" | "npc">, attack: AttackCode): Omit<AttackSetupInput, "distance" | "objects" | "chargeAreas"> {
  const system = actor.system;
  const attacking = (isItemType(item, "power") || isItemType(item, "weapon") ? item.system.attack : null) as { range: number } | null;
  return {
    attack,
    basis: isItemType(item, "weapon") ? item.system.damage.mode : "rank",
    itemRank: isItemType(item, "weapon") ? item.system.damage.rank : isItemType(item, "power") ? item.system.rank : 0,
    materialStrength: isItemType(item, "weapon") ? item.system.materialStrength : undefined,
    strength: system.score("strength.mgt"),
    endurance: system.score("endurance.res"),
    bodyArmor: bodyProtection(actor),
    range: attacking?.range ?? 0,
  };
}

/**
 * Builds the exchange of an attack from the actors as this client holds them (the GM's). Each
 * target's range shift is its own row's (rules `targetRangeShifts`), at the distance the input
 * gives it (else `input.distance`).
 */
export function buildExchange(item: Item.Implementation, actor: Actor.OfType<"hero" | "npc">, attack: AttackCode, targets: readonly TargetInput[], input: AttackInput, area: AreaDefinition | null = null, turn: AttackTurn | null = null, bonus = 0): ExchangeState {
  const def = ATTACKS[attack];
  const system = actor.system;
  const value = system.score(def.rollsOn);
  const setup = attackSetup({ ...setupOf(item, actor, attack), distance: 0, objects: input.objects, chargeAreas: input.chargeAreas });
  const ranges = targetRangeShifts(attack, setup.range, targets.map((t) => input.distances[t.uuid] ?? input.distance));
  const rows = targets.map((t, i) => {
    const cs = ranges[i] ?? 0;
    return cs === 0 ? t : { ...t, toHitCs: [{ cs, label: SHIFT_LABELS.range, localize: true }] };
  });
  const toHitCs: CsReason[] = [
    ...rollShifts(actor, { score: def.rollsOn, attack }),
    ...(bonus > 0 ? [{ cs: bonus, label: "CASE.Exchange.FoeBonus", localize: true }] : []),
    ...setup.shifts.map((s) => ({ cs: s.cs, label: SHIFT_LABELS[s.reason], localize: true })),
    // The running turn's shifts on this action (rules turn/shifts.ts), each with its reason.
    ...(turn?.toHit ?? []),
    ...(input.cs !== 0 ? [{ cs: input.cs, label: input.reason || "CASE.Dialog.Modifier", localize: input.reason === "" }] : []),
  ];
  const exchange: ExchangeInput = {
    attack,
    source: item.name,
    attacker: { uuid: actor.uuid, name: actor.name, value, strength: system.score("strength.mgt"), armor: bodyProtection(actor) },
    toHitCs,
    karma: input.karma,
    damage: { method: game.settings.get(SYSTEM_ID, "damageMethod"), value: setup.damage },
    calledShot: input.calledShot,
    blindsided: input.blindsided,
    projectile: PROJECTILE_BY_ATTACK[attack] ?? null,
    obstacles: def.family === "ranged" ? obstaclesOf(input) : [],
    strengthContest: game.settings.get(SYSTEM_ID, "strengthContest"),
    targets: rows,
    ...(area ? { area } : {}),
    ...(turn && turn.damage.length > 0 ? { damageCs: turn.damage } : {}),
    ...(turn?.outOfTurn === true ? { outOfTurn: true } : {}),
    ...(turn?.turnAction ? { turnAction: turn.turnAction } : {}),
  };
  // A resisted power (its sheet names the ability that resists it) waits on a Resist, not a defence.
  const resisted = resistedPowerOfItem(item);
  return resisted ? createResistedExchange(exchange, resisted) : createExchange(exchange);
}

/** An area document as the GM reads it (a MeasuredTemplateDocument on 13, a RegionDocument on 14: position, author, flags, scene). */
interface TemplateDoc extends PlacedAreaDoc {
  readonly documentName: string;
  readonly flags: unknown;
  readonly author: { readonly id: string | null } | null;
  readonly parent: { readonly id: string | null; readonly grid: SceneGrid; readonly tokens: Iterable<AreaTokenDoc> } | null;
}

function isTemplateDoc(doc: unknown): doc is TemplateDoc {
  return typeof doc === "object" && doc !== null && (doc as { documentName?: unknown }).documentName === areaDocumentName();
}

/**
 * The GM's own reading of an area attack: the template must be this item's, on a scene, and
 * placed by the asker (its author, which Foundry's server stamps) unless the asker is a GM (null:
 * the lock declaration's reading, before the handler checks the asker); the
 * tokens it covers are read from the scene's token documents as the GM has them (not from the
 * asker's list). Refused, with the reason, when no one or too many are inside.
 */
export async function areaTargets(user: AskingUser | null, templateUuid: string | undefined, item: Item.Implementation, actor: Actor.Implementation, area: AreaDefinition): Promise<CoveredToken[]> {
  if (templateUuid === undefined) throw new QueryRefusal("malformed", game.i18n.localize("CASE.Area.NeedsTemplate"));
  const doc: unknown = await fromUuid(templateUuid);
  if (!isTemplateDoc(doc) || !doc.parent || areaTemplateItem(doc.flags) !== item.uuid || (user !== null && !user.isGM && doc.author?.id !== user.id)) {
    throw new QueryRefusal("stale", game.i18n.localize("CASE.Area.BadTemplate"));
  }
  const scene = doc.parent;
  const tokens = [...scene.tokens];
  const own = attackerTokenAmong(scene.id, tokens, actor.uuid);
  if (!own && area.shape === "line") throw new QueryRefusal("stale", game.i18n.localize("CASE.Area.NoAttackerToken"));
  const origin = own ? tokenSquares(own, scene.grid) : { x: 0, y: 0 };
  const at = placedAt(doc);
  if (!at) throw new QueryRefusal("stale", game.i18n.localize("CASE.Area.BadTemplate"));
  const placement = areaPlacement(area, at, origin, scene.grid);
  // The GM measures where the area landed against the item's range (rules areaWithinRange), from the attacker's token.
  if (own) {
    const attacking = (isItemType(item, "power") || isItemType(item, "weapon") ? item.system.attack : null) as { range: number } | null;
    const range = attacking?.range ?? 0;
    const distance = rangeInAreas(tokenSquares(own, scene.grid), { x: placement.centre.x, y: placement.centre.y, width: 1, height: 1 });
    if (!areaWithinRange(area, distance, range)) throw new QueryRefusal("forbidden", game.i18n.format("CASE.Area.OutOfRange", { item: item.name, distance: String(distance), range: String(range) }));
  }
  const covered = coveredTokens(area, placement, tokens, scene.grid, actor.uuid, own);
  if (covered.length === 0) throw new QueryRefusal("stale", game.i18n.localize("CASE.Area.NoOneInside"));
  if (covered.length > MAX_ATTACK_TARGETS) throw new QueryRefusal("malformed", game.i18n.format("CASE.Area.TooMany", { count: String(covered.length), max: String(MAX_ATTACK_TARGETS) }));
  return covered;
}

/** The token UUIDs an area's template covers, for the lock declaration (none when the handler will refuse it anyway). */
async function areaLockTargets(templateUuid: string | undefined, item: Item.Implementation, actor: Actor.Implementation | null, area: AreaDefinition): Promise<string[]> {
  if (!actor) return [];
  try {
    return (await areaTargets(null, templateUuid, item, actor, area)).map((c) => c.uuid);
  } catch (error) {
    if (error instanceof QueryRefusal) return [];
    throw error;
  }
}

async function attackingItem(itemUuid: string): Promise<Item.Implementation> {
  const doc: unknown = await fromUuid(itemUuid);
  const isItem = typeof doc === "object" && doc !== null && (doc as { documentName?: unknown }).documentName === "Item";
  if (!isItem) throw new QueryRefusal("stale", game.i18n.localize("CASE.Exchange.NotAnAttack"));
  return doc as Item.Implementation;
}

/** The attack, on the active GM: checks, builds, spends, and writes the card. */
export const attackQuery = defineCardQuery({
  name: "attack",
  parse(raw: unknown) {
    const r = payloadRecord(raw);
    const uuids = uuidListField(r, "targetUuids", MAX_ATTACK_TARGETS);
    const input = payloadRecord(r.input);
    const parsed: { itemUuid: string; targetUuids: string[]; input: Record<string, unknown>; templateUuid?: string } = { itemUuid: stringField(r, "itemUuid", UUID_PATTERN), targetUuids: uuids, input };
    if (r.templateUuid !== undefined) parsed.templateUuid = stringField(r, "templateUuid", UUID_PATTERN);
    return parsed;
  },
  // The item's request, the attacker (Karma, ammunition, foe bonus), the targets (the holds a
  // to-hit sets) and the started combats the attacker is in (the attack spends its action there).
  // An area's targets are the actors its template covers, read as the handler reads them: the
  // payload's list is ignored (else a player could make the GM queue on anyone's lock).
  lockKeys: async (p, { combat }) => {
    const item = await attackingItem(p.itemUuid);
    const attacker = item.actor;
    const area = itemArea(item);
    const targets = area ? await areaLockTargets(p.templateUuid, item, attacker, area) : p.targetUuids;
    const foes = (await Promise.all(targets.map((uuid) => actorFromUuid(uuid)))).flatMap((a) => (a ? [a.uuid] : []));
    const targetLocks = foes.map((uuid) => actorLock(uuid));
    // The cards whose GM records note the attacker's foe bonuses against these targets (their use is noted there).
    return [`attack:${p.itemUuid}`, ...(attacker ? [actorLock(attacker.uuid), ...combat.combatLocks(attacker), ...foeBonusLockKeys(attacker, foes)] : []), ...targetLocks];
  },
  async authorize(user, p) {
    if (user.isGM) return;
    const actor = (await attackingItem(p.itemUuid)).actor;
    if (!actor || !userOwns(user, actor)) throw new QueryRefusal("forbidden", game.i18n.localize("CASE.Exchange.NotYourAttack"));
  },
  async handle(user, p, context): Promise<{ messageId: string }> {
    // A replay of a request that already made its card answers with that card.
    const made = cardOfOrigin(context.requestId);
    if (made) {
      // A retry after the card was written finishes spending the attacker's action (once).
      await spendAttackAction(context.services.combat, context.scope, readExchange(isMessageType(made, "attack") ? made.system.exchange : null).turnAction);
      return { messageId: made.id ?? "" };
    }
    const item = await attackingItem(p.itemUuid);
    const actor = item.actor;
    if (!actor || !isCharacter(actor)) throw new QueryRefusal("malformed", game.i18n.localize("CASE.Exchange.NotCharacter"));
    const attack = attackOf(item);
    if (!attack) throw new QueryRefusal("malformed", game.i18n.localize("CASE.Exchange.NotAnAttack"));
    // The helpless do not attack, and in a running combat the attack is the attacker's action:
    // both read by the GM from the actor and the combat, before anything is written.
    const standing = await context.services.combat.standing(actor);
    refuseHelpless(actor, standing, "Attack");
    const turn = attackTurn(actor, standing, attack === "Ch");
    refuseUndeclaredCombat(context.scope, turn);
    // An empty weapon is refused before anything is written (a retry that already fired passes).
    assertMayFire(item, attack, context.requestId, attackNonce(context.requestId));
    const parsed = parseAttackInput(p.input, actor.system.karma.value);
    if (!parsed.ok) throw new QueryRefusal("malformed", game.i18n.format(parsed.errorKey, parsed.data ?? {}));
    // An area attack's targets are the tokens its template covers, as the GM reads them.
    const area = itemArea(item);
    const covered = area ? await areaTargets(user, p.templateUuid, item, actor, area) : null;
    const wanted = covered ? covered.map((c) => c.uuid) : p.targetUuids;
    // A template moved while the attack waited may cover an actor whose lock was not declared: refused, nothing written.
    if (covered && !(await actorLocksOf(wanted)).every((key) => context.scope.holds(key))) throw new QueryRefusal("stale", game.i18n.localize("CASE.Area.TemplateMoved"));
    const snapshots = await Promise.all(wanted.map(async (u, i) => {
      const t = await snapshotTarget(u, attack);
      return t && covered ? { ...t, areaDistance: covered[i]?.distance ?? 0 } : t;
    }));
    const targets = snapshots.filter((t): t is TargetInput => t !== null);
    if (targets.length === 0) throw new QueryRefusal("stale", game.i18n.localize(area ? "CASE.Area.NoOneInside" : "CASE.Exchange.NoTargets"));
    // A bonus from an earlier Evasion/Feint applies when every target is that foe: only as the GM's notes grant it (foe-bonus.ts).
    // (A grant whose card's lock the request does not hold, one noted while it waited, waits for the next attack.)
    const noted = targets.map((t) => grantedFoeBonus(actor, t.actorUuid, context.requestId));
    const grants = noted.map((g) => (g && context.scope.holds(cardLock(g.card.message.id ?? "")) ? g : null));
    const bonus = foeBonusShift(grants.map((g) => g?.bonus ?? 0));
    let state = transition(() => buildExchange(item, actor, attack, targets, parsed.value, area, turn, bonus));
    // The GM's note first (a whispered record): the spends' ledger entries carry its nonce.
    const nonce = await beginAttack(context.requestId);
    await spendAmmunitionOnce(item, actor, attack, context, nonce);
    await spendKarmaOnce(actor, parsed.value.karma, context, game.i18n.format("CASE.KarmaLog.AttackReason", { name: item.name }), nonce);
    // A used grant is noted as used in the GM's record, and its flag goes; so does a flag no grant backs (forged or spent).
    if (bonus > 0) for (const g of grants) if (g) await consumeFoeBonus(g, context.requestId);
    const flagged = targets.filter((t, i) => foeBonusFlag(actor, t.actorUuid) !== undefined && (bonus > 0 || noted[i] === null));
    if (flagged.length > 0) await actor.update(deletionUpdate(`flags.${SYSTEM_ID}.foeBonus`, flagged.map((t) => foeBonusKey(t.actorUuid))));
    const dice: RolledDie[] = [];
    for (const t of state.targets) state = await rollPendingToHit(state, t.key, dice);
    const message = await createCard(state, ChatMessage.getSpeaker({ actor }), context.requestId, dice, isNpcActor);
    for (const t of state.targets) if (t.toHit) await afterToHit(state, t.key, message.id ?? "", context);
    // Under the combat's lock (declared above): the attacker's combatant and the cursor, through the turn engine's completeAction.
    await spendAttackAction(context.services.combat, context.scope, state.turnAction);
    return { messageId: message.id ?? "" };
  },
});
