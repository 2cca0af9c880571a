/**
 * The system's Actor class: characters (`hero`, `npc`).
 */
import { CHARACTER_SCHEMA_VERSION } from "../data/actor/character";
import { withSchemaVersion } from "../data/fields";
import type { EffectChangeInput } from "../data/actor/effect-changes";
import { isCharacter } from "../core/guards";
import { appliesCaseEffectChanges, effectChangesOf } from "../core/compat";
import { effectItem, ownRankOf } from "./effect-items";
import { keepRefusedNumbers, lostEntries, refusedBy, rememberRefused, warnLostValues } from "./migration-lost";

/** The token settings a new character gets where its creation data names none. */
export function prototypeTokenDefaults(type: string, given: unknown): Record<string, unknown> {
  const token = (typeof given === "object" && given !== null ? given : {}) as Record<string, unknown>;
  const hero = type === "hero";
  const defaults: Record<string, unknown> = {};
  if (!("actorLink" in token)) defaults.actorLink = hero;
  if (!("disposition" in token)) defaults.disposition = hero ? CONST.TOKEN_DISPOSITIONS.FRIENDLY : CONST.TOKEN_DISPOSITIONS.HOSTILE;
  const bar = (key: "bar1" | "bar2") => (token[key] as { attribute?: unknown } | undefined)?.attribute;
  if (bar("bar1") === undefined) defaults.bar1 = { attribute: "health" };
  if (bar("bar2") === undefined) defaults.bar2 = { attribute: "karma" };
  return defaults;
}

export class CaseActor<SubType extends Actor.SubType = Actor.SubType> extends Actor<SubType> {
  /**
   * Foundry applies Active Effects at the end of prepareEmbeddedDocuments, after base data and
   * before derived data (ClientDocumentMixin#prepareData; Actor#applyActiveEffects). Foundry's
   * own pass sets the statuses and applies keys CASE leaves to it; then the character applies
   * its score and protection changes through the rules, so prepareDerivedData reads them. v14
   * calls this per phase ("initial", then "final" after derived data): CASE's changes go in the
   * initial phase only (core/compat.ts), so the final phase keeps lost Endurance ranks lost.
   */
  override applyActiveEffects(...args: Parameters<Actor["applyActiveEffects"]>): void {
    super.applyActiveEffects(...args);
    if (isCharacter(this) && appliesCaseEffectChanges(args)) this.system.applyEffectChanges(effectChangeInputs(this.allApplicableEffects()));
  }

  /**
   * Before Foundry migrates and cleans the raw source: numbers too large to keep are refused
   * and their text recorded in `flags.case.migrationLost` (documents/migration-lost.ts).
   */
  protected override _initializeSource(data: this | Actor.CreateData, options?: foundry.abstract.DataModel.InitializeSourceOptions): Actor.Source {
    rememberRefused(this, keepRefusedNumbers("Actor", data));
    return super._initializeSource(data, options);
  }

  /**
   * A new hero gets a linked token with its Health and Karma bars, an NPC an unlinked one —
   * only where the creation data says nothing: a compendium import or a Duplicate keeps its
   * own token settings (dnd5e sets its prototype-token defaults the same way). A new document
   * also gets the current schema version.
   */
  protected override async _preCreate(
    data: Actor.CreateData,
    options: Actor.Database.PreCreateOptions,
    user: User.Implementation,
  ): Promise<boolean | undefined> {
    const allowed = await super._preCreate(data, options, user);
    if (allowed === false) return false;
    const token = prototypeTokenDefaults(this.type, (data as { prototypeToken?: unknown }).prototypeToken);
    const version = withSchemaVersion((data as { system?: unknown }).system, CHARACTER_SCHEMA_VERSION);
    this.updateSource({ ...(Object.keys(token).length > 0 ? { prototypeToken: token } : {}), ...(version ? { system: version } : {}) });
    warnLostValues(lostEntries(this.name, refusedBy(this)));
    return undefined;
  }
}

/** The changes of the effects that apply (not disabled, not suppressed), with the rank of the item carrying each. */
export function effectChangeInputs(effects: Iterable<ActiveEffect.Implementation>): EffectChangeInput[] {
  const out: EffectChangeInput[] = [];
  for (const effect of effects) {
    if (!effect.active) continue;
    const item = effectItem(effect);
    const ownRank = item ? ownRankOf(item.type, item.system) : null;
    for (const change of effectChangesOf(effect)) {
      out.push({ effect: effect.name, key: change.key, mode: change.mode, value: change.value, priority: change.priority, ownRank });
    }
  }
  return out;
}

declare module "fvtt-types/configuration" {
  interface DocumentClassConfig {
    Actor: typeof CaseActor<Actor.SubType>;
  }
  interface ConfiguredActor<SubType extends Actor.SubType> {
    document: CaseActor<SubType>;
  }
}
