/**
 * The seed rules' follow-ups on an attack card's row (rules follow-ups.ts decides which a row
 * offers; collisions.ts and combat-results.ts decide what they do): the GM's button on the row
 * (templates/chat/follow-ups.hbs) asks what the rules need (what was struck and its armor or
 * material strength, the areas, the selected tokens as bystanders or the caught person, the
 * reversal's choice), then the active GM rolls the dice, writes each Health change under the
 * actor's lock with a ledger entry naming the request (a replay writes nothing twice), sets the
 * conditions (a reversed hold, a Mercy Bullet's stun) and posts a card with the rolls. GM only.
 */
import {
  DEFAULT_GROUND_MATERIAL_STRENGTH,
  FOLLOW_UPS,
  RANKS,
  REVERSAL_CHOICES,
  STRUCK_KINDS,
  applyDamageToHealth,
  armorApplies,
  breakRoll,
  bystanderRolls,
  careeningCharge,
  catchDamage,
  clampHealth,
  damageAfterProtection,
  escapeOutcome,
  mercyBullets,
  rowFollowUps,
  slamCollision,
  type FollowUp,
  type Mover,
  type ReversalChoice,
  type StruckKind,
} from "../../rules/index";
import { SYSTEM_ID, SYSTEM_PATH } from "../core/constants";
import { caseFlag } from "../core/flags";
import { actorFromUuid, isCharacter } from "../core/guards";
import { actorLock, actorLocksOf, writeOnce } from "../actor-writes";
import { QueryRefusal, choiceOf, defineQuery, intField, payloadRecord, stringField, type AskingUser, type QueryContext } from "../requests/router";
import { bodyProtection, protectionAgainstAttack, protectionSources } from "./protection";
import { loadCard, rollDie, type RolledDie } from "./card-store";
import { gmIds } from "../dice/dice-so-nice";
import { setStatus, syncUnconscious } from "../status-effects";
import { requestGM } from "../requests/gm";
import { askForm } from "../ui/dialogs";

export const FOLLOW_UP_CARD_TEMPLATE = `${SYSTEM_PATH}/templates/chat/follow-up-card.hbs`;

export interface FollowUpPayload {
  readonly messageId: string;
  readonly targetKey: string;
  readonly kind: FollowUp;
  /** What a slammed or careening body struck, and that object's material strength (a character's armor is read). */
  readonly struck: StruckKind;
  readonly armor: number;
  readonly areas: number;
  readonly choice: ReversalChoice;
  /** The struck character, the bystanders in the Judge's order, or the caught person (tokens or actors). */
  readonly uuids: readonly string[];
}

const ID = /^[A-Za-z0-9]{1,64}$/;

/** Validates untrusted data into a follow-up, or throws QueryRefusal("malformed"). */
export function parseFollowUpPayload(raw: unknown): FollowUpPayload {
  const r = payloadRecord(raw);
  const uuids = r.uuids ?? [];
  if (!Array.isArray(uuids) || uuids.length > 24 || !uuids.every((u) => typeof u === "string" && u.length > 0 && u.length <= 300)) throw QueryRefusal.keyed("malformed", "fieldList", { key: "uuids", min: 0, max: 24 });
  return {
    messageId: stringField(r, "messageId", ID),
    targetKey: stringField(r, "targetKey", /^\d{1,3}$/),
    kind: choiceOf(r, "kind", FOLLOW_UPS),
    struck: choiceOf({ struck: "object", ...r }, "struck", STRUCK_KINDS),
    armor: intField({ armor: 0, ...r }, "armor", 0, 5000),
    areas: intField({ areas: 1, ...r }, "areas", 1, 100),
    choice: choiceOf({ choice: "reverse", ...r }, "choice", REVERSAL_CHOICES),
    uuids: uuids as string[],
  };
}

type Character = Actor.OfType<"hero" | "npc">;

async function character(uuid: string): Promise<Character> {
  const actor = await actorFromUuid(uuid);
  if (!actor || !isCharacter(actor)) throw new QueryRefusal("stale", game.i18n.format("CASE.DamageApi.TargetGone", { uuid }));
  return actor;
}

const mover = (a: Character): Mover => ({ endurance: a.system.score("endurance.res"), bodyArmor: bodyProtection(a) });

/** One line of the follow-up's card: a localisation key and its data. */
interface Line {
  readonly key: string;
  readonly data: Record<string, string>;
}

/** What a follow-up does, before it is written. */
interface Plan {
  /** An NPC is in it (its numbers are on the card): only the GMs receive the card. */
  npc: boolean;
  readonly dice: RolledDie[];
  readonly lines: Line[];
  readonly hurt: { readonly actor: Character; readonly amount: number }[];
}

async function d100(plan: Plan): Promise<number> {
  const die = await rollDie("1d100");
  plan.dice.push(die);
  return die.total;
}

/** An impact's line and Health: `moving` takes the rebound, `struck` (a character) the damage that got through. */
function impactInto(plan: Plan, moving: Character, struck: Character | null, out: { damage: number; toTarget: number; rebound: number }): void {
  plan.lines.push({ key: "CASE.FollowUp.Line.impact", data: { name: moving.name, damage: String(out.damage), through: String(out.toTarget), rebound: String(out.rebound) } });
  plan.hurt.push({ actor: moving, amount: out.rebound });
  if (struck) plan.hurt.push({ actor: struck, amount: out.toTarget });
}

async function planFollowUp(p: FollowUpPayload, messageId: string): Promise<Plan> {
  const { state } = loadCard(messageId);
  const target = state.targets.find((t) => t.key === p.targetKey);
  if (!target || !rowFollowUps(state, target).includes(p.kind)) throw new QueryRefusal("stale", game.i18n.localize("CASE.FollowUp.NotOffered"));
  const hit = target.toHit;
  if (!hit) throw new QueryRefusal("stale", game.i18n.localize("CASE.FollowUp.NotOffered"));
  const others = await Promise.all(p.uuids.map(character));
  const involved = [...others, await character(state.attacker.uuid), await character(target.actorUuid)];
  const plan: Plan = { npc: involved.some((a) => a.type === "npc"), dice: [], lines: [], hurt: [] };
  const struckCharacter = p.struck === "character" ? (others[0] ?? null) : null;
  if (p.struck === "character" && !struckCharacter && (p.kind === "slamCollision" || p.kind === "careen")) throw new QueryRefusal("malformed", game.i18n.localize("CASE.FollowUp.SelectOne"));
  const struckArmor = struckCharacter ? bodyProtection(struckCharacter) : p.armor;
  switch (p.kind) {
    case "slamCollision": {
      const slam = target.consequences.find((c) => c.outcome?.check === "slam")?.outcome;
      const slammed = await character(target.actorUuid);
      if (slam?.check !== "slam") throw new QueryRefusal("stale", game.i18n.localize("CASE.FollowUp.NotOffered"));
      const areas = typeof slam.areas === "number" && slam.areas > 0 ? Math.min(slam.areas, p.areas) : p.areas;
      impactInto(plan, slammed, struckCharacter, slamCollision({ slam: slam.result, areasFlown: areas, slammed: mover(slammed), struck: p.struck, struckArmor }));
      break;
    }
    case "careen": {
      const charger = await character(state.attacker.uuid);
      const out = careeningCharge({ chargeColor: hit.color, crowded: true, charger: mover(charger), areas: p.areas, struck: p.struck, struckArmor, die: await d100(plan) });
      plan.lines.push({ key: "CASE.FollowUp.Line.roll", data: { name: charger.name, die: String(plan.dice[0]?.total ?? ""), result: `CASE.AttackResult.${out.result ?? "miss"}` } });
      if (out.impact) impactInto(plan, charger, struckCharacter, out.impact);
      break;
    }
    case "bystanders": {
      if (others.length === 0) throw new QueryRefusal("malformed", game.i18n.localize("CASE.FollowUp.SelectOne"));
      const bystanders: { id: string; die: number }[] = [];
      for (const b of others) bystanders.push({ id: b.uuid, die: await d100(plan) });
      const rolls = bystanderRolls({ attack: state.attack, targetResult: hit.result, value: state.attacker.value, cs: state.toHitCs.reduce((n, c) => n + c.cs, 0), bystanders });
      for (const r of rolls) {
        const b = others.find((o) => o.uuid === r.id) as Character;
        plan.lines.push({ key: "CASE.FollowUp.Line.roll", data: { name: b.name, die: String(r.die), result: `CASE.AttackResult.${r.result}` } });
        if (!r.struck) continue;
        const armor = protectionAgainstAttack(protectionSources(b), state.attack);
        const raw = target.damage?.raw ?? state.damage.value;
        plan.hurt.push({ actor: b, amount: damageAfterProtection(raw, armorApplies(state.attack, "body") ? armor.body : armor.energy) });
      }
      break;
    }
    case "break": {
      const out = breakRoll(state.attacker.strength, p.armor, await d100(plan));
      plan.lines.push({ key: out.breaks ? "CASE.FollowUp.Line.broken" : "CASE.FollowUp.Line.held", data: { name: state.attacker.name, die: String(out.die) } });
      break;
    }
    case "catchDamage": {
      const catcher = await character(target.actorUuid);
      const person = others[0];
      if (state.projectile === "falling" || person) {
        if (!person) throw new QueryRefusal("malformed", game.i18n.localize("CASE.FollowUp.SelectOne"));
        const out = catchDamage({ caught: "person", catcher: mover(catcher), person: mover(person), areas: p.areas });
        plan.lines.push({ key: "CASE.FollowUp.Line.impact", data: { name: catcher.name, damage: String(out.damage), through: String(out.toCaught), rebound: String(out.toCatcher) } });
        plan.hurt.push({ actor: person, amount: out.toCaught }, { actor: catcher, amount: out.toCatcher });
      } else {
        const out = catchDamage({ caught: "object", strength: target.scores["strength.mgt"], materialStrength: p.armor, die: await d100(plan) });
        plan.lines.push({ key: out.damaged ? "CASE.FollowUp.Line.broken" : "CASE.FollowUp.Line.held", data: { name: catcher.name, die: String(out.die) } });
      }
      break;
    }
    case "reversal": {
      const last = target.escapes.at(-1);
      const hold = hit.result === "fullHold" ? "fullHold" : "partialHold";
      const out = escapeOutcome({ color: last?.color ?? "red", hold, source: "grapple", choice: p.choice, ableToHold: true });
      if (out.formerHolderHold !== "none") await setStatus(involved[others.length] as Character, out.formerHolderHold, { holderUuid: target.actorUuid, messageId });
      plan.lines.push({ key: out.formerHolderHold === "none" ? "CASE.FollowUp.Line.loose" : "CASE.FollowUp.Line.reversed", data: { name: target.name, holder: state.attacker.name } });
      break;
    }
    case "mercy": {
      const die = await d100(plan);
      const d10 = await rollDie("1d10");
      plan.dice.push(d10);
      const out = mercyBullets({ result: hit.result, weaponRank: state.damage.value, endurance: target.scores["endurance.res"], die, d10: d10.total });
      if (out.turnsOut > 0) await setStatus(involved[others.length + 1] as Character, "stunned", { turns: out.turnsOut });
      plan.lines.push({ key: out.resisted ? "CASE.FollowUp.Line.shrugged" : "CASE.FollowUp.Line.out", data: { name: target.name, die: String(die), turns: String(out.turnsOut) } });
      break;
    }
  }
  return plan;
}

/** Whether the card of follow-up request `id` is in the chat log (a GM-written message carrying its id). */
function cardPosted(id: string): boolean {
  return game.messages.some((m) => caseFlag(m.flags, "followUp") === id && m.author?.isGM === true);
}

async function handleFollowUp(user: AskingUser, p: FollowUpPayload, context: QueryContext): Promise<null> {
  const id = `followUp:${context.requestId}`;
  if (cardPosted(id)) return null;
  const plan = await planFollowUp(p, p.messageId);
  const field = "system.health.value";
  // Each character's write is keyed by the character, not its place in the plan: a replay's plan
  // (its dice rolled again) never hurts one character twice.
  for (const { actor, amount } of plan.hurt) {
    if (amount <= 0) continue;
    await context.scope.within([actorLock(actor.uuid)], async () => {
      const health = actor.system.health;
      const before = clampHealth(health.value, health.max);
      const after = applyDamageToHealth(before, health.max, amount).health;
      await writeOnce(context.scope, actor, `${id}:${actor.uuid}`, field, before, after);
      await syncUnconscious(actor, after);
    });
  }
  const names = plan.hurt.map((h) => ({ name: h.actor.name, amount: String(h.amount) })).filter((h) => h.amount !== "0");
  const content = await foundry.applications.handlebars.renderTemplate(FOLLOW_UP_CARD_TEMPLATE, { titleKey: `CASE.FollowUp.${p.kind}`, lines: plan.lines, names });
  // It names an NPC's numbers (its Endurance, armor, Health lost): with an NPC in it, only the GMs receive it.
  await ChatMessage.implementation.create({ content, whisper: plan.npc ? gmIds() : [], rolls: plan.dice.map((d) => d.roll), speaker: { scene: null, actor: null, token: null, alias: user.name }, flags: { [SYSTEM_ID]: { followUp: id } } });
  return null;
}

/** The attacker and targets a card names (none when it cannot be read: the handler refuses it). */
function cardActors(messageId: string): string[] {
  try {
    const { state } = loadCard(messageId);
    return [state.attacker.uuid, ...state.targets.map((t) => t.actorUuid)];
  } catch {
    return [];
  }
}

export const followUpQuery = defineQuery({
  name: "followUp",
  parse: parseFollowUpPayload,
  lockKeys: (p) => actorLocksOf([...p.uuids, ...cardActors(p.messageId)]),
  authorize(user: AskingUser): void {
    if (!user.isGM) throw new QueryRefusal("forbidden", game.i18n.localize("CASE.Campaign.GMOnly"));
  },
  handle: handleFollowUp,
});

export const FOLLOW_UP_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/follow-up.hbs`;

/** The follow-up dialog's template data: the fields `kind` needs, and the selected tokens' names. */
export function followUpContext(kind: FollowUp, names: readonly string[], id: string) {
  const impact = kind === "slamCollision" || kind === "careen";
  return {
    id,
    names: [...names],
    struck: impact,
    areas: impact || kind === "catchDamage",
    armor: impact || kind === "break" || kind === "catchDamage",
    choice: kind === "reversal",
    hintKey: `CASE.FollowUp.Hint.${kind}`,
    strengths: RANKS.map((r) => ({ value: r.number, labelKey: `CASE.Rank.${r.key}`, selected: r.number === DEFAULT_GROUND_MATERIAL_STRENGTH })),
  };
}

/** Reads the follow-up dialog's fields (absent ones: an object, Shift 0, one area, reverse); null for a value out of range. */
export function readFollowUpForm(form: Readonly<Record<string, unknown>>): Pick<FollowUpPayload, "struck" | "armor" | "areas" | "choice"> | null {
  try {
    const p = parseFollowUpPayload({ messageId: "x", targetKey: "0", kind: "break", ...form, armor: Number(form.armor ?? 0), areas: Number(form.areas ?? 1) });
    return { struck: p.struck, armor: p.armor, areas: p.areas, choice: p.choice };
  } catch {
    return null;
  }
}

/** The GM's click on a row's follow-up: asks what the rules need, then the active GM rolls it with the selected tokens. */
export async function askFollowUp(messageId: string, targetKey: string, kind: string): Promise<void> {
  const known = FOLLOW_UPS.find((k) => k === kind);
  if (!known) return;
  const tokens = canvas.tokens?.controlled ?? [];
  const content = await foundry.applications.handlebars.renderTemplate(FOLLOW_UP_TEMPLATE, followUpContext(known, tokens.map((t) => t.name), foundry.utils.randomID()));
  const form = await askForm(game.i18n.localize(`CASE.FollowUp.${kind}`), content, "CASE.FollowUp.Roll", "fa-solid fa-dice-d20");
  if (!form) return;
  const answer = readFollowUpForm(form);
  if (!answer) {
    ui.notifications.error(game.i18n.localize("CASE.Impact.InvalidForm"));
    return;
  }
  await requestGM(followUpQuery, { messageId, targetKey, kind: known, ...answer, uuids: tokens.map((t) => t.document.uuid) });
}
