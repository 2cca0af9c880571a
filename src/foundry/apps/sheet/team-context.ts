/**
 * The team sheet's data (pure, so the template is tested with the real one): each member's
 * Health, Karma, conditions and Resources at a glance, the group Karma pool, and what the
 * viewer may do (only a GM changes the team or acts for its members).
 */
import { rankOf } from "../../../rules/index";

/** What the sheet reads of one member. */
export interface TeamMemberInput {
  readonly uuid: string;
  readonly name: string;
  readonly img: string | null;
  readonly health: { readonly value: number; readonly max: number };
  readonly karma: { readonly value: number; readonly max: number };
  readonly resources: number;
  /** The status effects on the member (ids), e.g. "unconscious", "stunned". */
  readonly statuses: readonly string[];
}

export interface TeamSheetInput {
  readonly members: readonly TeamMemberInput[];
  /** Member UUIDs that no longer resolve to a hero (deleted, or not a hero). */
  readonly missing: readonly string[];
  /** The world's group Karma pool total, or null when the world does not use one. */
  readonly pool: number | null;
  readonly isGM: boolean;
}

/** The status labels the sheet knows (others show their id). */
export function teamSheetContext(input: TeamSheetInput, statusLabel: (id: string) => string = (id) => id) {
  const members = input.members.map((m) => ({
    uuid: m.uuid,
    name: m.name,
    img: m.img,
    health: { ...m.health, low: m.health.max > 0 && m.health.value * 4 <= m.health.max, out: m.health.value === 0 },
    karma: m.karma,
    resources: { value: m.resources, rankKey: `CASE.Rank.${rankOf(m.resources).key}` },
    conditions: m.statuses.map(statusLabel),
  }));
  return {
    members,
    missing: [...input.missing],
    empty: members.length === 0,
    pool: input.pool,
    totals: { health: members.reduce((n, m) => n + m.health.value, 0), karma: members.reduce((n, m) => n + m.karma.value, 0) },
    isGM: input.isGM,
  };
}
