/**
 * The system's ActiveEffect class. With `CONFIG.ActiveEffect.legacyTransferral = false` (set
 * in register.ts) an item's effects marked `transfer` apply to the actor that owns the item
 * straight from the item (Actor#allApplicableEffects yields them), so an effect is suppressed
 * while its item is not in use: a weapon or armor not equipped, a power switched off. dnd5e
 * (ActiveEffect5e#isSuppressed, MIT) and Draw Steel suppress item effects the same way.
 * The changes CASE reads itself (scores, protection: data/actor/effect-changes.ts) are not
 * applied by Foundry's arithmetic; the character data model applies them through the rules.
 */
import { isCaseChangeKey } from "../data/actor/effect-changes";
import { effectItem, itemInUse } from "./effect-items";

export class CaseActiveEffect extends ActiveEffect {
  /** Suppressed while the item carrying it is not in use ({@link itemInUse}). */
  override get isSuppressed(): boolean {
    if (super.isSuppressed) return true;
    const item = effectItem(this);
    return item !== null && !itemInUse(item.type, item.system);
  }

  /** Scores and protection are applied by the character data model through the rules; Foundry applies the rest. */
  override apply(...args: Parameters<ActiveEffect["apply"]>): ReturnType<ActiveEffect["apply"]> {
    const [, change] = args;
    if (isCaseChangeKey(change.key)) return {};
    return super.apply(...args);
  }
}

declare module "fvtt-types/configuration" {
  interface DocumentClassConfig {
    ActiveEffect: typeof CaseActiveEffect;
  }
}
