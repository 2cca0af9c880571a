/** What a strict-table client loads of the project (./strict-client-modules.ts): its router, the queries, the turn's host. */
export { QueryRouter } from "../../src/foundry/requests/router";
export { LockTable } from "../../src/foundry/requests/locks";
export { foundryEnvironment, registerRequestHooks, requestGM } from "../../src/foundry/requests/gm";
export { CASE_QUERIES } from "../../src/foundry/queries";
export { foundryTurnDirectory, turnCombatBridge } from "../../src/foundry/combat/foundry-host";
export { registerNpcDefenceHooks } from "../../src/foundry/exchange/npc-defence";
export { registerKeptRecords } from "../../src/foundry/exchange/kept-records";
