/**
 * CaseRoll: a d100 read on the Universal Table. Its options carry the check (rank number,
 * shifts with reasons, Karma, intensity), so a message rebuilt from the database re-renders
 * the same card. Registered in CONFIG.Dice.rolls; the class name is kept by the build.
 */
import { SYSTEM_PATH } from "../core/constants";
import { actionCardContext, resolveCheck } from "./action-card-context";
import { parseRollCheck, type RollCheck } from "./roll-check";
import type { ActionResult } from "../../rules/index";
import { describeLogged } from "../ui/error-text";

export const ACTION_CARD_TEMPLATE = `${SYSTEM_PATH}/templates/chat/action-card.hbs`;
export const ROLL_ERROR_TEMPLATE = `${SYSTEM_PATH}/templates/chat/roll-error.hbs`;

type CaseRollOptions = Roll.Options & { case?: unknown };

/** Its data is empty: the formula is always 1d100, nothing is substituted. */
export class CaseRoll extends Roll {
  declare options: CaseRollOptions;

  /** The formula of every CASE roll. */
  static readonly FORMULA = "1d100";

  /** A roll for `check` (validated), not yet evaluated. */
  static fromCheck(check: RollCheck): CaseRoll {
    return new CaseRoll(CaseRoll.FORMULA, {}, { case: parseRollCheck(check) } as Roll.Options);
  }

  /** The check this roll makes; RangeError if the recorded data is not valid. */
  get check(): RollCheck {
    return parseRollCheck(this.options.case);
  }

  /** The d100 result, or null before evaluation. */
  get die(): number | null {
    return this._evaluated ? (this.total ?? null) : null;
  }

  /** The ACTION's outcome on the Universal Table in use, or null before evaluation. */
  get outcome(): ActionResult | null {
    return resolveCheck(this.check, this.die, CONFIG.CASE.universalTable);
  }

  /** The FEAT card's data for this roll: the FEAT card's model (action-card-model.ts) and `render` (older messages) share it. */
  cardContext(): Record<string, unknown> {
    return { ...actionCardContext(this.check, this.die, CONFIG.CASE.universalTable), formula: this.formula };
  }

  override async render({ isPrivate = false }: Parameters<Roll["render"]>[0] = {}): Promise<string> {
    if (isPrivate) return super.render({ isPrivate });
    try {
      return await foundry.applications.handlebars.renderTemplate(ACTION_CARD_TEMPLATE, this.cardContext());
    } catch (error) {
      console.error("case | cannot render a CASE roll", error);
      const message = describeLogged(error);
      return foundry.applications.handlebars.renderTemplate(ROLL_ERROR_TEMPLATE, { message, total: this.total ?? null });
    }
  }
}
