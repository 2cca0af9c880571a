/**
 * The team sheet (issue 23 item 3): a group actor (type "team", data/actor/team.ts) whose
 * members are heroes. It shows each member's Health, Karma, conditions and Resources at a
 * glance and the world's group Karma pool; a GM adds a member by dropping a hero on it (the
 * member's owners then may see the team: OBSERVER) and removes one with its button, and rests,
 * heals or awards Karma to all members at once through the same GM-only requests as the Judge's
 * desk, by the stable API (`CONFIG.CASE.api.promptRestSelected(members)`, `promptHeal`,
 * `promptAwardKarma`: api/ sits above this folder). A player sees the sheet and changes nothing.
 */
import { characterSystem, isActorDocument, isActorType, isCharacter } from "../../core/guards";
import { karmaPoolEnabled, karmaPoolState } from "../../core/settings";
import { MAX_TEAM_MEMBERS } from "../../data/actor/team";
import { teamSheetContext, type TeamMemberInput } from "./team-context";
import { partsOf } from "../templates";
import { statusEffectEntries } from "../../core/compat";

const { HandlebarsApplicationMixin } = foundry.applications.api;
const { ActorSheetV2 } = foundry.applications.sheets;

type SheetOptions = foundry.applications.sheets.ActorSheetV2.DefaultOptions;
type BaseSheet = InstanceType<typeof ActorSheetV2>;

export const TEAM_PARTS = { sheet: "templates/actor/team-sheet.hbs" } as const;

/** The team's member UUIDs as stored. */
export function teamMemberUuids(actor: Actor.Implementation): string[] {
  const members = isActorType(actor, "team") ? actor.system.members : [];
  return Array.isArray(members) ? members.filter((m): m is string => typeof m === "string") : [];
}

/** The heroes the team names, and the UUIDs that no longer name one. */
export function resolveMembers(uuids: readonly string[]): { members: Actor.Implementation[]; missing: string[] } {
  const members: Actor.Implementation[] = [];
  const missing: string[] = [];
  for (const uuid of uuids) {
    const doc: unknown = fromUuidSync(uuid);
    if (isActorDocument(doc) && isCharacter(doc) && doc.type === "hero") members.push(doc);
    else missing.push(uuid);
  }
  return { members, missing };
}

function memberInput(actor: Actor.Implementation): TeamMemberInput {
  const system = characterSystem(actor);
  return { uuid: actor.uuid, name: actor.name, img: actor.img, health: system.health, karma: system.karma, resources: system.resources, statuses: [...actor.statuses] };
}

function statusLabel(id: string): string {
  const effect = statusEffectEntries().find((e) => e.id === id);
  return effect ? game.i18n.localize(effect.name) : id;
}

/** The team the sheet shows, as the GM's tools need it: the members' UUIDs and names. */
function named(actor: Actor.Implementation): { uuid: string; name: string }[] {
  return resolveMembers(teamMemberUuids(actor)).members.map((m) => ({ uuid: m.uuid, name: m.name }));
}

export class TeamSheet extends HandlebarsApplicationMixin(ActorSheetV2) {
  static override DEFAULT_OPTIONS: SheetOptions = {
    classes: ["case", "sheet", "actor", "team"],
    position: { width: 640, height: 480 },
    window: { resizable: true },
    actions: {
      restTeam: onRestTeam,
      healTeam: onHealTeam,
      awardTeam: onAwardTeam,
      removeMember: onRemoveMember,
      openMember: onOpenMember,
    },
  };

  static override PARTS = partsOf(TEAM_PARTS, ["sheet"]);

  protected override async _prepareContext(options: Parameters<BaseSheet["_prepareContext"]>[0]) {
    const base = await super._prepareContext(options);
    const { members, missing } = resolveMembers(teamMemberUuids(this.actor));
    const pool = karmaPoolEnabled() ? karmaPoolState().total : null;
    return { ...base, team: teamSheetContext({ members: members.map(memberInput), missing, pool, isGM: game.user.isGM }, statusLabel) };
  }

  /** A hero dropped on the sheet joins the team (a GM only); its owners may then see the team. */
  protected override async _onDropActor(_event: DragEvent, actor: Actor.Implementation): Promise<Actor.Implementation | null> {
    return (await addTeamMember(this.actor, actor)) ? actor : null;
  }
}

/**
 * Adds `hero` to `team` (a GM only; refused with a clear message for anything but a hero, a
 * member already in, or a full team) and lets the hero's owners observe the team.
 */
export async function addTeamMember(team: Actor.Implementation, hero: Actor.Implementation): Promise<boolean> {
  if (!game.user.isGM) {
    ui.notifications.error(game.i18n.localize("CASE.Campaign.GMOnly"));
    return false;
  }
  if (hero.type !== "hero") {
    ui.notifications.warn(game.i18n.format("CASE.Team.NotAHero", { name: hero.name }));
    return false;
  }
  const uuids = teamMemberUuids(team);
  if (uuids.includes(hero.uuid)) return false;
  if (uuids.length >= MAX_TEAM_MEMBERS) {
    ui.notifications.warn(game.i18n.format("CASE.Team.Full", { max: String(MAX_TEAM_MEMBERS) }));
    return false;
  }
  const observer = CONST.DOCUMENT_OWNERSHIP_LEVELS.OBSERVER;
  const owners = Object.entries(hero.ownership).filter(([id, level]) => id !== "default" && typeof level === "number" && level >= CONST.DOCUMENT_OWNERSHIP_LEVELS.OWNER);
  const ownership: Record<string, number> = {};
  for (const [id] of owners) if ((team.ownership[id] ?? 0) < observer) ownership[`ownership.${id}`] = observer;
  await team.update({ "system.members": [...uuids, hero.uuid], ...ownership } as Actor.UpdateData);
  return true;
}

type TeamHost = { readonly actor: Actor.Implementation };

async function onRestTeam(this: TeamHost): Promise<void> {
  await CONFIG.CASE.api.promptRestSelected(named(this.actor));
}

async function onHealTeam(this: TeamHost): Promise<void> {
  await CONFIG.CASE.api.promptHeal(named(this.actor));
}

async function onAwardTeam(this: TeamHost): Promise<void> {
  await CONFIG.CASE.api.promptAwardKarma(named(this.actor));
}

async function onRemoveMember(this: TeamHost, _event: PointerEvent, target: HTMLElement): Promise<void> {
  if (!game.user.isGM) return;
  const uuid = target.dataset.member;
  await this.actor.update({ "system.members": teamMemberUuids(this.actor).filter((m) => m !== uuid) } as Actor.UpdateData);
}

async function onOpenMember(_event: PointerEvent, target: HTMLElement): Promise<void> {
  const uuid = target.dataset.member;
  const doc: unknown = uuid ? fromUuidSync(uuid) : null;
  const sheet = isActorDocument(doc) ? doc.sheet : null;
  if (sheet instanceof foundry.applications.api.ApplicationV2) await sheet.render({ force: true });
}
