/**
 * Declaration merging into fvtt-types' configuration: what the type checker may assume
 * about the running Foundry. Nothing here runs.
 */
declare module "fvtt-types/configuration" {
  /** All our code runs from the init hook on, so game.settings, game.i18n … exist. */
  interface AssumeHookRan {
    init: never;
  }
}

export {};
