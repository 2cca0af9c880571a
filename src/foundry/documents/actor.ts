/**
 * The system's Actor class: characters (`hero`, `npc`).
 */
export class CaseActor<SubType extends Actor.SubType = Actor.SubType> extends Actor<SubType> {
  /** Heroes get a linked token with their Health and Karma bars; NPCs an unlinked one. */
  protected override async _preCreate(
    data: Actor.CreateData,
    options: Actor.Database.PreCreateOptions,
    user: User.Implementation,
  ): Promise<boolean | undefined> {
    const allowed = await super._preCreate(data, options, user);
    if (allowed === false) return false;
    const hero = this.type === "hero";
    this.updateSource({
      prototypeToken: {
        actorLink: hero,
        disposition: hero ? CONST.TOKEN_DISPOSITIONS.FRIENDLY : CONST.TOKEN_DISPOSITIONS.HOSTILE,
        bar1: { attribute: "health" },
        bar2: { attribute: "karma" },
      },
    });
    return undefined;
  }
}

declare module "fvtt-types/configuration" {
  interface DocumentClassConfig {
    Actor: typeof CaseActor<Actor.SubType>;
  }
  interface ConfiguredActor<SubType extends Actor.SubType> {
    document: CaseActor<SubType>;
  }
}
