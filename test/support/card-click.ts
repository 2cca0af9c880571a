/**
 * What the card's client half (src/foundry/exchange/card.ts) adds to a click: the revision of
 * its own copy of the card (`cardRevision`), which every card request names. Test drivers
 * that click a card query on a client's behalf add it the same way, unless the test names a
 * revision itself (an old one, to send a stale request).
 */
import { cardRevision } from "../../src/foundry/exchange/card-store";

export function asClicked(payload: unknown): unknown {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return payload;
  const p = payload as Record<string, unknown>;
  if (typeof p.messageId !== "string" || "revision" in p || game.messages.get(p.messageId)?.type !== "attack") return payload;
  return { ...p, revision: cardRevision(p.messageId) };
}
