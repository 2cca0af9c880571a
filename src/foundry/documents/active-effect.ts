/**
 * The system's ActiveEffect class. With `CONFIG.ActiveEffect.legacyTransferral = false` (set
 * in register.ts) an item's effects marked `transfer` apply to the actor that owns the item
 * straight from the item (Actor#allApplicableEffects yields them), so an effect is suppressed
 * while its item is not in use: a weapon or armor not equipped, a power switched off. dnd5e
 * (ActiveEffect5e#isSuppressed, MIT) and Draw Steel suppress item effects the same way.
 * The changes CASE reads itself (scores, protection: data/actor/effect-changes.ts) are not
 * applied by Foundry's arithmetic; the character data model applies them through the rules.
 */
import { isCaseChangeKey, readEffectChanges, type EffectProblem } from "../data/actor/effect-changes";
import { effectItem, itemInUse, ownRankOf } from "./effect-items";
import { changeOfApplyCall, effectChangesOf } from "../core/compat";
import { effectProblemDetail } from "../ui/error-text";

export class CaseActiveEffect extends ActiveEffect {
  /** Suppressed while the item carrying it is not in use ({@link itemInUse}). */
  override get isSuppressed(): boolean {
    if (super.isSuppressed) return true;
    const item = effectItem(this);
    return item !== null && !itemInUse(item.type, item.system);
  }

  /** The changes of this effect CASE would refuse (a rank of −3, "lots", multiply …). */
  get refusedChanges(): readonly EffectProblem[] {
    const item = effectItem(this);
    const ownRank = item ? ownRankOf(item.type, item.system) : null;
    return readEffectChanges(effectChangesOf(this).map((c) => ({ effect: this.name, key: c.key, mode: c.mode, value: c.value, priority: c.priority, ownRank }))).problems;
  }

  /** The user who wrote a refused change is told at once (the sheet's Effects tab shows it too). */
  private warnRefused(userId: string): void {
    if (userId !== game.user.id) return;
    for (const p of this.refusedChanges) ui.notifications.warn(game.i18n.format("CASE.Effects.RefusedWarning", { name: this.name, detail: effectProblemDetail(p) }));
  }

  protected override _onCreate(...args: Parameters<ActiveEffect["_onCreate"]>): void {
    super._onCreate(...args);
    this.warnRefused(args[2]);
  }

  protected override _onUpdate(...args: Parameters<ActiveEffect["_onUpdate"]>): void {
    super._onUpdate(...args);
    this.warnRefused(args[2]);
  }

  /** Scores and protection are applied by the character data model through the rules; Foundry applies the rest (v13). */
  override apply(...args: Parameters<ActiveEffect["apply"]>): ReturnType<ActiveEffect["apply"]> {
    const [, change] = args;
    if (isCaseChangeKey(change.key)) return {};
    return super.apply(...args);
  }

  /**
   * v14 applies each change through this static method instead of `apply` (core/compat.ts
   * `changeOfApplyCall`): CASE's keys are left alone here too, so core never writes a score into
   * `actor.overrides`, never tries to resolve "@rank", and the rules apply them once. v13 has no
   * such method; then this is never called.
   */
  static applyChange(...args: unknown[]): unknown {
    const change = changeOfApplyCall(args);
    if (change && isCaseChangeKey(change.key)) return {};
    // The class CaseActiveEffect extends (core's), never the global, which a world may have replaced.
    const base: unknown = Reflect.get(Object.getPrototypeOf(CaseActiveEffect) as object, "applyChange");
    if (typeof base !== "function") return {};
    const result: unknown = Reflect.apply(base, this, args);
    return result;
  }
}

declare module "fvtt-types/configuration" {
  interface DocumentClassConfig {
    ActiveEffect: typeof CaseActiveEffect;
  }
}
