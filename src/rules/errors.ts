/**
 * The rules' error texts, in one place. Every error the rules throw names its text by a key and
 * carries the values the text is made from, so a reader sees it in their own language:
 * lang/en.json holds each key under CASE's RulesError (and each field name under its
 * RulesField), and the adapters show an error through `describeError`
 * (src/foundry/ui/describe-error.ts). The English texts here make the error's own `message`, for
 * logs, tests and the rules used outside Foundry; test/lang.test.ts holds en.json to them
 * (every key there, with the same placeholders).
 *
 * A text's placeholders are `{name}`, as Foundry's `game.i18n.format` fills them. A value named
 * `field` is a key of {@link RULES_FIELD_TEXT} (what was wrong, said in the reader's language);
 * every other value is shown as it is (numbers, identifiers, the player's own words).
 */

/** A value an error's text is made from. */
export type ErrorValue = string | number;
export type ErrorData = Readonly<Record<string, ErrorValue>>;

/** The English text of every rules error, by key. */
export const RULES_ERROR_TEXT = {
  // ── the exchange, the turn and roll requests ──────────────────────────────────────────────
  requestLabelTooLong: "A request's label may have at most {max} characters.",
  requestNotScore: "\"{got}\" is not an ability or sub-score.",
  requestIntensityNotRank: "The intensity {got} is not a rank number.",
  requestNoSubject: "A request asks at least one character.",
  requestTooManyRows: "A request asks at most {max} characters; {got} were chosen.",
  requestNoRow: "The request has no row {key}.",
  requestRolled: "{name} has already rolled.",
  requestDieBad: "The die {got} is not a d100 result.",
  requestSealedHalf: "A sealed row hides both its rank number and its shift.",
  requestSealedShifts: "A sealed row has no shifts.",
  requestShiftsSum: "A row's shifts do not add up to its column shift.",
  requestNewer: "The request was written by a newer version of the CASE system (version {got}).",
  requestMalformed: "The stored request is malformed ({at}).",
  exchangeCsBad: "A column shift must be a whole number with a label ({at}).",
  exchangeUnknown: "Unknown {at} \"{got}\".",
  exchangeNotRank: "{at} must be a rank number, got {got}.",
  exchangeKarmaMinimum: "Karma must be 0 or at least {min}.",
  exchangeNoCalledShot: "A {attack} attack has no Bullseye, so it cannot make a called shot.",
  exchangeObstacleList: "Obstacles must be a list of at most {max} material strengths.",
  exchangeObstacleNotRank: "An obstacle's material strength must be a rank number, got {got}.",
  exchangeObstacleNotRanged: "A {attack} attack is not ranged: it has no objects in its path.",
  exchangeNoTarget: "An attack needs at least one target.",
  exchangeTurnActionBad: "The turn's action must name a combat, a combatant and an action number.",
  exchangeTargetNoUuid: "Every target needs a UUID.",
  exchangeTargetTwice: "Target {name} is listed twice.",
  exchangeTargetNotRank: "Target {name}: {at} must be a rank number, got {got}.",
  exchangeAreaNotRanged: "A {attack} attack cannot have an area: only ranged attacks can.",
  exchangeAreaCalledShot: "An area attack cannot be a called shot.",
  exchangeAreaDistance: "Target {name}: an area attack needs its distance from the centre, 0 to {max} areas, got {got}.",
  exchangeNoSuchTarget: "This attack has no target \"{key}\".",
  exchangeWrongPhase: "{name}: that step does not fit the row now ({phase}).",
  exchangeEscapeNotAttack: "Escape answers an existing hold, not an attack.",
  exchangeHealthBad: "{name}: Health must be whole numbers ≥ 0, got {value} of {max}.",
  exchangeChargerHealthBad: "The charger's Health must be whole numbers ≥ 0.",
  exchangeNoDamageToUndo: "{name}: there is no damage to undo.",
  exchangeConsequenceRolled: "{name}: a consequence was already rolled; undo it by hand.",
  exchangeNoDamageApplied: "{name}: no damage was applied.",
  exchangeNoDamageThrough: "{name}: no damage got through to apply.",
  exchangeChargeOthers: "{name}: a charge's damage cannot be applied to other tokens.",
  exchangeSelectTokens: "Select at least one token to apply the damage to.",
  exchangeTokenTwice: "Each token may take the damage once.",
  exchangeNoSlam: "{name}: no slam was rolled.",
  exchangeSlamMoved: "{name}: the slam already moved the token.",
  exchangeCheckNotDue: "{name}: no {check} check is due.",
  exchangeCheckRolled: "{name}: the {check} check was already rolled.",
  exchangeEnduranceNotRank: "{name}: Endurance must be a rank number, got {got}.",
  exchangeSlamD10: "A slam needs a d10 for its direction.",
  exchangeStunD10: "A long stun needs a d10 for its turns.",
  exchangeKillEndurance: "A Kill result needs the target's Endurance.",
  exchangeNoHold: "{name}: there is no hold to escape yet.",
  exchangeNotHeld: "{name} is not held by this attack.",
  exchangeEscapeTried: "{name} already tried to escape this turn.",
  exchangeNoDeath: "{name}: no death to buy off.",
  exchangeCannotBuyDeath: "{name} cannot buy off death: {karma} Karma, or the world's ruling forbids it.",
  exchangeDefenceNotOffered: "{name} cannot use {defence} against this attack.",
  exchangeNoDodge: "A {attack} attack cannot be dodged.",
  exchangeDodgeShift: "A declared dodge's shift must be 0 or negative, got {got}.",
  exchangeHoldNeedsRoll: "A Take or Full Hold read as a Strength ACTION needs its roll.",
  exchangeIntensityDie: "Intensity damage needs a damage roll.",
  exchangeNoHitToPull: "{name}: there is no hit to pull.",
  exchangePulled: "{name}: the blow was already pulled.",
  exchangePullRefused: "{name}: the blow cannot be pulled to that colour or damage.",
  exchangeNpcDefenceMode: "Unknown NPC defence mode \"{got}\". Known: {allowed}.",
  exchangeNoDefencePicked: "{name} has no defence to mark as picked.",
  exchangeDefenceFixed: "{name}'s defence can no longer be changed.",
  exchangeResistBlindsided: "A resisted power is resisted, not dodged: it cannot be made blindsided.",
  exchangeResistKarma: "A resisted power rolls no to-hit: Karma goes on the target's resistance, not the attack.",
  exchangeNotResistedDefends: "{source} is not a resisted power: {name} defends against it.",
  exchangeNotResisted: "{source} is not a resisted power.",
  exchangeRowRecordMissing: "{name}: the GM's record of this row is missing.",
  exchangeAttackerRecordMissing: "{name}: the GM's record of the attacker is missing.",
  turnNotCount: "{field} must be a whole number of at least {min}, got {got}.",
  turnCombatantNotCount: "Combatant \"{id}\": {field} must be a whole number of at least {min}, got {got}.",
  turnCombatantNotWhole: "Combatant \"{id}\": {field} must be a whole number, got {got}.",
  turnCounterNotCount: "Combatant \"{id}\": {counter} must be a whole number of at least 0, got {got}.",
  turnCounterNotWhole: "Combatant \"{id}\": {counter} must be a whole number, got {got}.",
  turnIdBad: "A combatant id must be a non-empty string, got {got}.",
  turnIdTwice: "Combatant id \"{id}\" appears more than once.",
  turnNoStats: "Combatant \"{id}\" needs stats, got {got}.",
  turnTeamBad: "A team must be a non-empty string or null, got {got}.",
  turnCombatantsNotList: "Combatants must be an array, got {got}.",
  turnSettingsBad: "Turn settings must be an object, got {got}.",
  turnUnknownPhase: "Unknown turn phase {got}. Phases: {allowed}.",
  turnNoCombatant: "No combatant \"{id}\" in this turn.",
  turnWrongPhase: "That step belongs to the phase {phases}; the turn is in \"{phase}\".",
  turnAdvanced: "The turn is in the \"{phase}\" phase, not \"{from}\": it was already advanced.",
  turnPhaseWaits: "The \"{phase}\" phase still waits for {count}: {list}.",
  turnInitiativeIncomplete: "Initiative is not complete.",
  turnNoEarlierStep: "There is no earlier step of the turn to go back to.",
  turnHistoryChanged: "The turn's history changed since: that step was already taken back, or another was taken.",
  turnDead: "Combatant \"{id}\" is dead.",
  turnNotDying: "Combatant \"{id}\" is not dying.",
  turnNoActionForDefence: "Combatant \"{id}\" has no action left for {defence}.",
  turnDefenceCountedLater: "Combatant \"{id}\": a defence counted in turn {counted} is in a turn not yet reached (turn {turn}).",
  turnNoActionToGiveBack: "Combatant \"{id}\" has no action used to give back for {defence}.",
  turnNoDefenceToGiveBack: "Combatant \"{id}\" has no counted defence to give back.",
  turnEventNotText: "An event must be text, got {got}.",
  turnEventLength: "An event must be 1 to {max} characters.",
  turnDeclarationNotObject: "A declaration must be an object, got {got}.",
  turnDeclarationTextBad: "A declaration's text must be a string, got {got}.",
  turnDeclarationTextLong: "A declaration's text may be at most {max} characters, got {got}.",
  turnUnknownAttack: "Unknown attack {got}. Known attacks: {allowed}.",
  turnAttackNotKind: "A declaration names an attack ({attack}) only when its kind is \"attack\".",
  turnUnknownDefence: "Unknown defence {got}. Known defences: {allowed}.",
  turnDefenceNotKind: "A declaration names a defence ({defence}) only when its kind is \"defence\".",
  turnRollsNotObject: "The rolls must be an object of id → d10, got {got}.",
  turnModeNoDie: "Initiative mode \"{mode}\" rolls no initiative die.",
  turnNoInitiative: "Combatant \"{id}\" takes no part in initiative (out of the fight).",
  turnTeamRoll: "Combatant \"{id}\" acts on its team's roll, made by \"{roller}\".",
  turnInitiativeRolled: "Combatant \"{id}\" already rolled {roll} for initiative.",
  turnRollOffEarly: "Initiative rolls are still missing ({ids}): roll-offs come after them.",
  turnNotTied: "Combatant \"{id}\" is not tied on initiative.",
  turnRollOffMissing: "The roll-off needs a d10 for every tied roller; \"{id}\" is missing.",
  turnNoDeclaredDodge: "Combatant \"{id}\" did not declare a dodge (or the declared-dodge rule is off).",
  turnDodgeRolled: "Combatant \"{id}\" already rolled {roll} for the declared dodge.",
  turnCannotAct: "Combatant \"{id}\" cannot act this turn (stunned, dying or out of the fight).",
  turnTooManyActions: "Combatant \"{id}\" cannot take {actions} actions: it needs a Ftg (off) ACTION against {intensity} intensity, impossible from Fighting (off) {offence}.",
  turnDodgeActions: "A declared dodge allows at most {max} other action; \"{id}\" declared {got}.",
  turnNoExtraRoll: "Combatant \"{id}\" declared one action and makes no extra-action roll.",
  turnExtraRolled: "Combatant \"{id}\" already rolled {roll} for extra actions.",
  turnNoPassedExtra: "Combatant \"{id}\" has no passed extra-action roll to choose for.",
  turnActionNotNext: "Combatant \"{id}\" has taken {used} actions; action {index} is not next.",
  turnNobodyDue: "Nobody is due to act now.",
  turnNotYours: "It is \"{current}\"'s action, not \"{id}\"'s.",
  turnDodgeNoCharge: "Combatant \"{id}\" declared a dodge this turn and may not charge.",
  turnNoActionLeft: "Combatant \"{id}\" has no action left to change.",

  // ── shapes shared by every part of the rules (`field`: a key of RULES_FIELD_TEXT) ─────────
  notWhole: "{field} must be a whole number, got {got}.",
  notNonNegativeWhole: "{field} must be a non-negative whole number, got {got}.",
  notBoolean: "{field} must be true or false, got {got}.",
  notOneOf: "{field} must be one of {allowed}, got {got}.",
  notInRange: "{field} must be from {min} to {max}, got {got}.",

  // ── the rest of the rules ──────────────────────────────────────────────────────────────────
} as const satisfies Record<string, string>;

export type RulesErrorKey = keyof typeof RULES_ERROR_TEXT;

/** The English name of every field an error's `field` value may name. */
export const RULES_FIELD_TEXT = {
  // ── the exchange, the turn and roll requests ──────────────────────────────────────────────
  exchangeTurn: "The turn",
  turnForce: "force",
  turnAided: "aided",
  turnDefeated: "defeated",
  turnUnconscious: "unconscious",
  turnSecret: "A declaration's secret flag",
  turnTeamInitiative: "Team initiative",
  turnDeclaredDodge: "Declared dodge",
  turnStunTurns: "Stun turns",
  turnPendingStun: "Pending stun turns",
  turnDefenceCountedIn: "The turn a defence was counted in",
  turnFreeDefences: "free defences",
  turnInitiativeModifier: "the initiative modifier",
  turnNumber: "The turn number",
  turnRound: "The round",
  turnCursor: "The cursor",
  turnActionIndex: "The action index",
  turnHistoryLimit: "The history limit",
  turnDeclarationKind: "A declaration's kind",
  turnActionsDeclared: "The number of actions declared",
  turnRollKind: "The kind of roll",
  turnExtraModeValue: "Extra-action mode",

  // ── the rest of the rules ──────────────────────────────────────────────────────────────────
} as const satisfies Record<string, string>;

export type RulesFieldKey = keyof typeof RULES_FIELD_TEXT;

/** An error that names its text: what the adapters localise. */
export interface KeyedError {
  readonly key: RulesErrorKey;
  readonly data: ErrorData;
}

/** The English text of a key, filled with its data (a `field` value by its English name). */
export function rulesErrorText(key: RulesErrorKey, data: ErrorData = {}): string {
  return RULES_ERROR_TEXT[key].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = data[name];
    if (value === undefined) return whole;
    if (name === "field" && typeof value === "string" && Object.hasOwn(RULES_FIELD_TEXT, value)) return RULES_FIELD_TEXT[value as RulesFieldKey];
    return String(value);
  });
}

/** Bad input of the right type: out of range, not whole, not one of the allowed values. */
export class RulesRangeError extends RangeError implements KeyedError {
  constructor(
    readonly key: RulesErrorKey,
    readonly data: ErrorData = {},
  ) {
    super(rulesErrorText(key, data));
    this.name = "RangeError";
  }
}

/** Input of the wrong type (a string where a number belongs, a missing object). */
export class RulesTypeError extends TypeError implements KeyedError {
  constructor(
    readonly key: RulesErrorKey,
    readonly data: ErrorData = {},
  ) {
    super(rulesErrorText(key, data));
    this.name = "TypeError";
  }
}

/** Whether an error names its text (any of the rules' errors). */
export function isKeyedError(error: unknown): error is Error & KeyedError {
  return error instanceof Error && typeof (error as Partial<KeyedError>).key === "string" && Object.hasOwn(RULES_ERROR_TEXT, (error as Partial<KeyedError>).key as string);
}
