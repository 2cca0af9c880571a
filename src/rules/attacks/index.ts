/**
 * Attacks (CASE-RULES §5): the ten attack codes, what each rolls on, what each colour means,
 * pulling punches, called shots, charging, ranged penalties, thrown damage, grabbing and holds.
 *
 * Sources: [001] CASE "Time and Combat" (primary), [000] the classic FASERIP-style text on
 * dodging, catching and attack results, [FASERIP] classic defaults, [RULING] our own decision
 * where the sources are silent or disagree — every ruling is an exported constant. Functions
 * that depend on a ruling take an optional last `rulings` argument ({@link AttackRulings}) so a
 * world setting can pass its own choice; left out, the constant applies.
 *
 * The files: definitions.ts (the attack table, results, input checks), called-and-pulled.ts,
 * charging.ts, ranged.ts (ranges, obstacles), wrestling.ts (grabs, holds, blindsiding), and
 * rulings.ts (every [RULING] of attacks, and the rulings as one object for world settings).
 */

export { ATTACKS, ATTACK_CODES, ATTACK_RESULTS, type AttackCode, type AttackDamageSource, type AttackDefinition, type AttackFamily, type AttackResult, type CombatSubScore, EDGED_THROWING_PULL_RULE, GRAB_RESULTS, HIT_RESULTS, HOLD_RESULTS, PARTIAL_HOLD_CS, type PullRule, assertAttackCode, assertAttackResult, assertColor, attackDefinition, attackResult, isAttackCode, isAttackResult, isGrabResult, isHit, isHoldResult, isMiss, toHitPossible } from "./definitions";
export { CALLED_SHOT_RED_SUCCEEDS, type PullRequest, calledShotSucceeds, calledShotSucceedsOnColor, canCallShot, countsAsHit, mayPullColor, mayPullDamage, pullAttack, pullColor, pullDamage, pullRule } from "./called-and-pulled";
export { CHARGE_DAMAGE_PER_AREA, CHARGE_MAX_TO_HIT_CS, CHARGE_MIN_AREAS, CHARGE_TO_HIT_COLUMN_CAP, CHARGE_TO_HIT_CS_PER_AREA, type ChargeInput, chargeDamage, chargeReboundDamage, chargeToHitShift } from "./charging";
export { OBSTACLES_BEFORE_PROTECTION, OBSTACLE_CS_PER_OBJECT, RANGE_CS_PER_AREA, bluntThrowingDamage, damageThroughObstacles, missMayStrikeOthers, obstaclePenalty, rangePenalty } from "./ranged";
export { type DefendContext, HOLDER_OTHER_ACTIONS, type HoldEffects, type HoldState, canDefend, fullHoldDealsDamage, holdEffects, strengthAction, strengthBeats, type StrengthContestRoll, takeOutcome, takeSucceeds } from "./wrestling";
export { type AttackRulings, CHARGE_REBOUND_ABSORBED_BY_CHARGER_ARMOR, DEFAULT_ATTACK_RULINGS, FULL_HOLD_CS, PULL_DAMAGE_AND_COLOR_TOGETHER, PULL_TO_MISS_ALLOWED, STRENGTH_CONTEST_BY, STRENGTH_CONTEST_MODES, STRENGTH_CONTEST_RULES, type StrengthContestMode, type StrengthContestRule, TAKE_AND_FULL_HOLD_BY, resolveAttackRulings } from "./rulings";
