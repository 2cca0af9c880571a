/**
 * The root: everything CASE puts into Foundry, made and wired in one place on `init`. It
 * creates the services (the request router with the turn's directory of combats and the
 * exchange's bridge to the turn) and hands them to what needs them; no module sets another's
 * state. Each step below is one named registration; the order matters only where noted.
 */
import * as rules from "../rules/index";
import { SYSTEM_ID, SYSTEM_PATH } from "./core/constants";
import { registerHandlebarsHelpers } from "./core/handlebars-helpers";
import { registerSettings, settleKarmaPoolDrawLimit } from "./core/settings";
import { ACTOR_DATA_MODELS, ITEM_DATA_MODELS } from "./data/index";
import { COMBAT_DATA_MODELS, COMBATANT_DATA_MODELS } from "./data/combat/index";
import { TurnRecordData } from "./data/combat/turn-record";
import { AttackRecordData } from "./exchange/card-model";
import { AttackCardData } from "./exchange/card-message";
import { RequestClaimData, RequestMessageData } from "./requests/request-model";
import { RollRequestCardData } from "./roll-requests/request-card-model";
import { ImpactCardData } from "./api/impact-card";
import { ActionCardData } from "./dice/action-card-model";
import { CaseActor } from "./documents/actor";
import { CaseActiveEffect } from "./documents/active-effect";
import { CaseItem } from "./documents/item";
import { CaseChatMessage } from "./documents/chat-message";
import { CaseCombat, CaseCombatant } from "./documents/combat";
import { CaseRoll } from "./dice/case-roll";
import { QueryRouter } from "./requests/router";
import { foundryEnvironment, registerRequestHooks } from "./requests/gm";
import { registerNpcDefenceHooks } from "./exchange/npc-defence";
import { registerDiceSoNiceHooks } from "./dice/dice-so-nice";
import { registerChatBatch } from "./documents/chat-batch";
import { registerKeptRecords } from "./exchange/kept-records";
import type { CardServices } from "./exchange/gm-actions";
import { CASE_QUERIES } from "./queries";
import { registerDefenceShortcut, viewerRows } from "./exchange/defence-shortcut";
import { currentViewer, defendShortcut } from "./exchange/card";
import { selectedTokenUuids } from "./exchange/board";
import type { TurnServices } from "./combat/queries";
import { TURN_CARD_TEMPLATE, foundryTurnDirectory, turnCombatBridge } from "./combat/foundry-host";
import { registerStatusEffects } from "./status-effects";
import { CASE_API } from "./api/index";
import { REFERENCE_API } from "./api/reference-api";
import { preloadSheetTemplates, registerSheets } from "./apps/index";
import { CaseCombatTracker, TRACKER_TEMPLATES, registerTrackerHooks } from "./apps/tracker/combat-tracker";
import { DECLARE_MANY_TEMPLATE, DECLARE_TEMPLATE } from "./apps/tracker/declare-dialog";
import { registerUniversalTableSetting } from "./apps/table/universal-table-app";
import { registerItemListSetting } from "./apps/sheet/item-lists";
import { registerEnrichers } from "./enrichers";
import { registerCanvasDropHook } from "./hooks/canvas-drop";
import { registerHotbarHook } from "./hooks/hotbar";
import { registerUniversalTableControls } from "./hooks/reference-controls";
import { registerBuilderEntry } from "./hooks/builder-entry";
import { registerJudgeDesk } from "./hooks/judge-desk";
import { registerSelfTest } from "./self-test/quench";
import { migrateWorld } from "./world-migration";
import "./core/fvtt-config";

/** The chat message subtypes: the attack card and the GM's records, requests to the GM, the Judge's roll requests, impacts and FEAT rolls. */
export const CHAT_MESSAGE_DATA_MODELS = {
  attack: AttackCardData,
  attackRecord: AttackRecordData,
  request: RequestMessageData,
  requestClaim: RequestClaimData,
  turnRecord: TurnRecordData,
  rollRequest: RollRequestCardData,
  impact: ImpactCardData,
  action: ActionCardData,
} as const;

declare module "fvtt-types/configuration" {
  interface DataModelConfig {
    ChatMessage: {
      attack: typeof AttackCardData;
      attackRecord: typeof AttackRecordData;
      request: typeof RequestMessageData;
      requestClaim: typeof RequestClaimData;
      turnRecord: typeof TurnRecordData;
      rollRequest: typeof RollRequestCardData;
      impact: typeof ImpactCardData;
      action: typeof ActionCardData;
    };
  }
}

/** Every service a request handler may need: the union of what each family of handlers declares. */
export type CaseServices = CardServices & TurnServices;

/** The router of this client, with the services its handlers get in their context. */
export type CaseRouter = QueryRouter<CaseServices>;

/** Makes the services and the router that hands them to the handlers. */
function createRouter(): CaseRouter {
  const services: CaseServices = { turns: foundryTurnDirectory, combat: turnCombatBridge };
  const router = new QueryRouter(foundryEnvironment, services);
  for (const query of CASE_QUERIES) router.register<unknown, unknown>(query);
  return router;
}

/** CONFIG.CASE: the rules, the table in use, the API, and this client's request router. */
function registerConfig(router: CaseRouter): void {
  CONFIG.CASE = { rules, universalTable: rules.UNIVERSAL_TABLE, api: Object.freeze({ ...CASE_API, ...REFERENCE_API }), router };
}

/** The document classes and the data models of every subtype system.json declares. */
function registerDocuments(): void {
  CONFIG.Actor.documentClass = CaseActor;
  CONFIG.Item.documentClass = CaseItem;
  // Item effects apply to the owner from the item itself, suppressed while it is not in use (documents/active-effect.ts).
  CONFIG.ActiveEffect.documentClass = CaseActiveEffect;
  CONFIG.ActiveEffect.legacyTransferral = false;
  CONFIG.ChatMessage.documentClass = CaseChatMessage;
  CONFIG.Combat.documentClass = CaseCombat;
  CONFIG.Combatant.documentClass = CaseCombatant;
  Object.assign(CONFIG.Actor.dataModels, ACTOR_DATA_MODELS);
  Object.assign(CONFIG.Item.dataModels, ITEM_DATA_MODELS);
  Object.assign(CONFIG.ChatMessage.dataModels, CHAT_MESSAGE_DATA_MODELS);
  Object.assign(CONFIG.Combat.dataModels, COMBAT_DATA_MODELS);
  Object.assign(CONFIG.Combatant.dataModels, COMBATANT_DATA_MODELS);
  CONFIG.Dice.rolls.push(CaseRoll);
  // Health and Karma are pools whose max is derived: name them as bars for token HUDs.
  CONFIG.Actor.trackableAttributes = {
    hero: { bar: ["health", "karma"], value: ["initiative"] },
    npc: { bar: ["health", "karma"], value: ["initiative"] },
  };
}

/** The combat tracker that runs the CASE turn, and the turn's templates. */
function registerCombatTurn(): void {
  CONFIG.ui.combat = CaseCombatTracker;
  registerTrackerHooks();
  void foundry.applications.handlebars.loadTemplates([
    ...Object.values(TRACKER_TEMPLATES).map((path) => `${SYSTEM_PATH}/${path}`),
    DECLARE_TEMPLATE,
    DECLARE_MANY_TEMPLATE,
    TURN_CARD_TEMPLATE,
  ]);
}

/** Everything, on `init`. */
export function registerSystem(): void {
  console.log(`${SYSTEM_ID} | Initialising the Costumed Adventurer Simulation Engine`);
  const router = createRouter();
  registerConfig(router);
  registerDocuments();
  registerRequestHooks(router);
  registerNpcDefenceHooks(router);
  registerDiceSoNiceHooks();
  registerChatBatch();
  registerKeptRecords();
  registerStatusEffects();
  registerHandlebarsHelpers();
  registerSettings();
  registerUniversalTableSetting();
  registerItemListSetting();
  registerUniversalTableControls();
  registerBuilderEntry();
  registerJudgeDesk();
  registerEnrichers();
  registerSheets();
  void preloadSheetTemplates();
  registerHotbarHook();
  registerCanvasDropHook();
  registerCombatTurn();
  registerDefenceShortcut(() => defendShortcut(viewerRows(currentViewer(), selectedTokenUuids()), { dialog: true }));
  registerSelfTest();
}

/** On `ready`: the world migration and the stored setting choices (the active GM only). */
export function onReady(): void {
  void migrateWorld();
  if (game.users.activeGM?.isSelf === true) void settleKarmaPoolDrawLimit();
}
