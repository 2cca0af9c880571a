/**
 * The public face of the CASE rules engine. Pure TypeScript: no Foundry, no DOM.
 */
export * from "./ranks";
export * from "./universal-table";
