/**
 * A slam moves the token (the "slam moves tokens" world setting, off by default): on the active
 * GM, after a Slam? that throws the target, its token goes the areas rolled in the slam's
 * direction seen from the attacker (rules `slamMove`: one square per area, stopping at the
 * scene's edge), and the card records where it went. Under the token's lock (`token:<uuid>`),
 * once: the token keeps the step's id and move in `flags.case.slamMove`, so a retry of the
 * same step finds the move made (with the nonce of the GM's note of the step) and records it
 * without moving the token again.
 * Documented members read: TokenDocument `x`, `y`, `width`, `height`, `actorId`, `parent`,
 * `flags`, `update`; Scene `tokens` (an EmbeddedCollection: iterable), `grid`, `dimensions`.
 */
import { ExchangeError, recordSlamMove, slamMove, targetOf, type ExchangeState, type SlamMove } from "../../rules/index";
import { SYSTEM_ID } from "../core/constants";
import type { QueryContext } from "../requests/router";
import { boundsOf, footprintOf, measurable, type BoardScene, type BoardTokenDocument } from "./board";
import { caseFlag } from "../core/flags";
import { attackerTokenAmong } from "../ui/board";

/** The lock of a token's position. */
export function tokenLock(uuid: string): string {
  return `token:${uuid}`;
}

interface SlamToken extends BoardTokenDocument {
  readonly flags: Record<string, unknown>;
  readonly parent: SlamScene | null;
  update(data: Record<string, unknown>): Promise<unknown>;
}

interface SlamScene extends BoardScene {
  readonly tokens: Iterable<SlamToken>;
}

function isSlamToken(doc: unknown): doc is SlamToken {
  return doc instanceof TokenDocument;
}

/**
 * The move a step already made on this token (its id, move and the nonce of the GM's note of
 * the step in the token's flags), or null. The token is its owners' to write too: a flag without
 * the note's nonce is not the GM's, and counts for nothing.
 */
function movedBefore(token: SlamToken, id: string, nonce: string): SlamMove | null {
  const flag = caseFlag(token.flags, "slamMove");
  return flag?.id === id && flag.nonce === nonce && flag.move ? flag.move : null;
}

/**
 * Moves the token of row `key` as its rolled slam says, when the setting allows and the row is
 * a token on a square-grid scene that also holds the attacker's token; returns the state with
 * the move recorded (unchanged otherwise). `id` names the step (the card, revision, row, check).
 */
export async function moveSlammedToken<S>(state: ExchangeState, key: string, id: string, context: QueryContext<S>, nonce: string): Promise<ExchangeState> {
  if (!game.settings.get(SYSTEM_ID, "slamMovesTokens")) return state;
  const slam = targetOf(state, key).consequences.find((c) => c.check === "slam");
  const outcome = slam?.outcome;
  if (outcome?.check !== "slam" || outcome.direction === null || outcome.areas === null || slam?.moved) return state;
  const doc: unknown = await fromUuid(targetOf(state, key).uuid);
  if (!isSlamToken(doc)) return state;
  const token = doc;
  const scene = token.parent;
  if (!measurable(scene)) return state;
  const attacker = attackerTokenAmong(scene.id, scene.tokens, state.attacker.uuid);
  if (!attacker) return state;
  const direction = outcome.direction;
  const areas = outcome.areas === "sight" ? Number.POSITIVE_INFINITY : outcome.areas;
  return context.scope.within([tokenLock(token.uuid)], async () => {
    let move = movedBefore(token, id, nonce);
    if (!move) {
      const from = footprintOf(token, scene);
      move = slamMove(footprintOf(attacker, scene), from, direction, areas, boundsOf(scene));
      const size = scene.grid.size;
      await token.update({ x: token.x + (move.to.x - from.x) * size, y: token.y + (move.to.y - from.y) * size, [`flags.${SYSTEM_ID}.slamMove`]: { id, move, nonce } });
    }
    try {
      return recordSlamMove(state, key, move);
    } catch (error) {
      if (error instanceof ExchangeError) return state;
      throw error;
    }
  });
}
