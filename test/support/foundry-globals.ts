/** Installs the `foundry` test double as a global, before any model module is imported. */
import { foundryDouble } from "./foundry-double";

(globalThis as Record<string, unknown>).foundry = foundryDouble;
