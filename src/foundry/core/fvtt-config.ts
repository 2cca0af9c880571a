/**
 * Declaration merging into fvtt-types' configuration: what the type checker may assume
 * about the running Foundry. Nothing here runs.
 */
declare module "fvtt-types/configuration" {
  /**
   * Typed as if `ready` has run: game.user, game.i18n, game.settings … exist. Code that runs
   * earlier (registration in `init`) touches only game.settings and CONFIG, which exist by then.
   */
  interface AssumeHookRan {
    ready: never;
  }

  /** The system's flags on chat messages: an impact card carries its request's id (api/impact-api.ts). */
  interface FlagConfig {
    ChatMessage: {
      case?: { impact?: string; followUp?: string };
    };
  }
}

export {};
