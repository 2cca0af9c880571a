/**
 * Starts the system: the root (foundry/register.ts) makes and wires everything on `init`.
 * Imported by the entry (case.ts) for its effect alone, so it ships in the core chunk.
 */
import { onReady, registerSystem } from "./foundry/register";

Hooks.once("init", registerSystem);
Hooks.once("ready", onReady);
