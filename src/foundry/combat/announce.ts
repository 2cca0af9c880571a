/**
 * The text of a turn announcement (the engine's chat summaries): each line localised with its
 * data, colours named ("yellow" → "Yellow"), shifts written as the rules write them ("−4").
 * Lines about NPCs' secrets or hidden combatants are kept apart for a GM-only whisper, and so
 * are the dice they announce: each die goes on the card of its line, once.
 */
import type { Announcement, TurnDie } from "./turn-host";
import type { Localize } from "../core/format";
import { formatSigned } from "../core/format";

/** Data keys whose value is a colour (or "impossible") to be named. */
const COLOR_KEYS = new Set(["color", "required"]);
/** Data keys whose value is a column shift. */
const SHIFT_KEYS = new Set(["shift", "modifier"]);

/** The localised lines of an announcement and their dice, split into those for everyone and those for the GM only. */
export function announcementLines(announcement: Announcement, t: Localize): { open: string[]; secret: string[]; openDice: TurnDie[]; secretDice: TurnDie[] } {
  const open: string[] = [];
  const secret: string[] = [];
  const openDice: TurnDie[] = [];
  const secretDice: TurnDie[] = [];
  for (const line of announcement.lines) {
    const data: Record<string, string | number> = {};
    for (const [key, value] of Object.entries(line.data)) {
      if (COLOR_KEYS.has(key) && typeof value === "string" && value !== "") data[key] = t(`CASE.Color.${value}`);
      else if (SHIFT_KEYS.has(key) && typeof value === "number") data[key] = formatSigned(value);
      else data[key] = value;
    }
    (line.secret ? secret : open).push(t(line.key, data));
    if (line.die) (line.secret ? secretDice : openDice).push(line.die);
  }
  return { open, secret, openDice, secretDice };
}
