/**
 * Every query a player may ask the active GM, in one list: the root (register.ts) registers it
 * on this client's router, and the strict table's clients register the same list, so a test
 * world never lacks a query the system has.
 */
import { CARD_QUERIES } from "./exchange/gm-actions";
import { RESIST_QUERIES } from "./exchange/resist-steps";
import { buyOffDeathQuery } from "./exchange/death-steps";
import { BOARD_QUERIES } from "./exchange/apply-to-selected";
import { attackQuery } from "./exchange/make-attack";
import { NPC_DEFENCE_QUERIES } from "./exchange/npc-defence";
import { applyDamageApiQuery } from "./api/damage-api";
import { awardKarmaQuery, restQuery } from "./api/campaign-api";
import { healQuery } from "./api/heal-api";
import { answerRollRequestQuery } from "./roll-requests/gm-request";
import { karmaPoolQuery } from "./karma-pool";
import { impactQuery } from "./api/impact-api";
import { TURN_QUERIES } from "./combat/queries";
import { fightLogQuery } from "./exchange/fight-log";
import { followUpQuery } from "./exchange/follow-up";

export const CASE_QUERIES = [...CARD_QUERIES, ...RESIST_QUERIES, buyOffDeathQuery, ...BOARD_QUERIES, ...NPC_DEFENCE_QUERIES, attackQuery, applyDamageApiQuery, awardKarmaQuery, restQuery, healQuery, impactQuery, karmaPoolQuery, answerRollRequestQuery, fightLogQuery, followUpQuery, ...TURN_QUERIES] as const;
