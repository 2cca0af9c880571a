/** The Karma log's stored limits, shared by the data model and the writers (no Foundry needed to read them). */

/** How many Karma log entries a character keeps (the newest; older ones fall off). */
export const KARMA_LOG_SIZE = 200;

/** The longest reason a Karma log entry keeps (a longer one is cut). */
export const KARMA_REASON_LENGTH = 200;
