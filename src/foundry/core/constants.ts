/** The system's id, as in system.json; also the settings namespace and the query prefix. */
export const SYSTEM_ID = "case";

/** Where the system's files are served from inside Foundry. */
export const SYSTEM_PATH = `systems/${SYSTEM_ID}`;
