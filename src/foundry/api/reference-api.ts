/**
 * The reference tools' part of `CONFIG.CASE.api` (see api.ts): the Universal Table window, plain
 * column rolls, damage outside an attack, and what the system's macros call. Stable names:
 * macros call these.
 */
import { rollColumn } from "../column-roll";
import { openUniversalTable } from "../apps/table/universal-table-app";
import { openCharacterBuilder } from "../apps/builder/builder-loader";
import { contributeToGroupPool, drawFromGroupPool } from "../karma-pool";
import { applyDamage } from "./damage-api";
import { awardKarmaTo, promptAwardKarma, promptRestSelected, restSelected } from "./campaign-api";
import { promptColumnRoll, promptDamageToControlled, startCombatTurn } from "./macro-api";
import { askForRoll, promptRollRequest } from "../roll-requests/request-card";
import { impact, promptImpact } from "./impact-api";
import { heal, promptHeal } from "./heal-api";
import { rollPowerFeat, rollScore } from "./roll-api";
import { importStatBlock } from "../apps/builder/stat-block-import";
import { openFightLog } from "./fight-log-api";

export interface ReferenceApi {
  /** Opens the Universal Table reference window (or brings it to the front). */
  readonly openUniversalTable: typeof openUniversalTable;
  /**
   * Rolls a plain ACTION on a column: `rollColumn("remarkable")`, `rollColumn(30)`,
   * `rollColumn("incredible", { attack: "BA", label: "Haymaker" })` (see column-roll.ts).
   */
  readonly rollColumn: typeof rollColumn;
  /** Asks for a column (a dialog), then rolls on it. */
  readonly promptColumnRoll: typeof promptColumnRoll;
  /** Takes `amount` Health off the characters of these token (or actor) UUIDs, through the GM (see damage-api.ts). */
  readonly applyDamage: typeof applyDamage;
  /** Asks for an amount, then applies it to the controlled tokens' actors. */
  readonly promptDamageToControlled: typeof promptDamageToControlled;
  /** Starts the current combat when it has not started; otherwise says why not. */
  readonly startCombatTurn: typeof startCombatTurn;
  /** GM: awards Karma with a reason to the characters of these actor (or token) UUIDs, logged (see campaign-api.ts). */
  readonly awardKarma: typeof awardKarmaTo;
  /** GM: asks for an amount, a reason and the recipients (selected tokens or all player characters), then awards. */
  readonly promptAwardKarma: typeof promptAwardKarma;
  /** GM: a rest of `days` (care "none" or "medical") for the controlled tokens' characters: Health and lost Endurance ranks. */
  readonly restSelected: typeof restSelected;
  /** GM: asks days and care, then rests the controlled tokens' characters. */
  readonly promptRestSelected: typeof promptRestSelected;
  /**
   * Heals these characters (tokens or actors) through the GM: `heal(uuids, { mode: "amount",
   * amount: 10 })`, `{ mode: "recovery", turns: 10 }` (FASERIP Recovery) or `{ mode: "wake" }`
   * (an Endurance FEAT from 0 Health). A GM heals anyone, a player their own (see heal-api.ts).
   */
  readonly heal: typeof heal;
  /** Asks how to heal (a dialog), then heals the controlled tokens' characters. */
  readonly promptHeal: typeof promptHeal;
  /** Rolls an ability, sub-score, Resources or Popularity of the character with this UUID (a hotbar macro; see roll-api.ts). */
  readonly rollScore: typeof rollScore;
  /** Rolls the FEAT of the power with this UUID (a hotbar macro). */
  readonly rollPowerFeat: typeof rollPowerFeat;
  /** Paste a FASERIP-style stat block, preview it (with every line not understood), and create the NPC once confirmed. */
  readonly importStatBlock: typeof importStatBlock;
  /**
   * GM: asks characters for a roll, a card they roll from: `askForRoll({ score: "endurance",
   * intensity: 40, label, uuids })` (uuids absent: the selected tokens). See roll-requests/.
   */
  readonly askForRoll: typeof askForRoll;
  /** GM: asks what to roll (a dialog), then asks the selected tokens' owners. */
  readonly promptRollRequest: typeof promptRollRequest;
  /**
   * Opens the character builder on the actor this UUID names (a character the user owns), or
   * without one on the user's own character, or for a new hero when the user may create actors.
   */
  readonly openCharacterBuilder: typeof openCharacterBuilder;
  /** With the group Karma pool on: puts `amount` of this character's Karma into the pool (its owner or a GM; through the GM). */
  readonly contributeToGroupPool: typeof contributeToGroupPool;
  /** With the group Karma pool on: draws `amount` Karma from the pool for this character (the world's draw limit applies). */
  readonly drawFromGroupPool: typeof drawFromGroupPool;
  /** GM: a fall or a charge at an object of a material strength for these characters (see impact-api.ts). */
  readonly impact: typeof impact;
  /** GM: asks for a fall or a charge at an object, then resolves it for the controlled tokens' characters. */
  readonly promptImpact: typeof promptImpact;
  /** GM: the fight log of a combat (the viewed one, else the latest fought): exports and the award dialog pre-filled (see fight-log-api.ts). */
  readonly openFightLog: typeof openFightLog;
}

export const REFERENCE_API: ReferenceApi = Object.freeze({
  openUniversalTable,
  rollColumn,
  promptColumnRoll,
  applyDamage,
  promptDamageToControlled,
  startCombatTurn,
  awardKarma: awardKarmaTo,
  promptAwardKarma,
  restSelected,
  promptRestSelected,
  heal,
  promptHeal,
  importStatBlock,
  rollScore,
  rollPowerFeat,
  askForRoll,
  promptRollRequest,
  openCharacterBuilder,
  contributeToGroupPool,
  drawFromGroupPool,
  impact,
  promptImpact,
  openFightLog,
});
