/**
 * The team: a group actor whose members are heroes (issue 23 item 3). It stores only who is in
 * it (the members' actor UUIDs, in order); what the team sheet shows of each member is read from
 * the member itself. The group Karma pool stays the world's (settings `karmaPoolState`).
 */

/** The most members a team holds. */
export const MAX_TEAM_MEMBERS = 24;

export function teamSchema() {
  const f = foundry.data.fields;
  return {
    members: new f.ArrayField(new f.StringField({ required: true, blank: false }), { required: true, initial: [] }),
  };
}
export type TeamSchema = ReturnType<typeof teamSchema>;

export class TeamData extends foundry.abstract.TypeDataModel<TeamSchema, Actor.Implementation> {
  static override defineSchema(): TeamSchema {
    return teamSchema();
  }
}
