/**
 * The adapters' own refusals on the strict table (test/support/strict-table.ts): the active GM's
 * client refuses a request with a refusal of its own (src/foundry/core/refusal-texts.ts), and the
 * asking client says why in its reader's language. Each reader here has a text of its own for the
 * key (`client.lang`), different from en.json's, and the GM's reader another, so a text written
 * on the GM's client (as these refusals were, in English) cannot pass.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, StrictTable, installTableGlobals, itemUuid, seatCast, seatCombat } from "../../support/strict-table";
import { advancePhaseQuery, declareActionQuery } from "../../../src/foundry/combat/queries";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { defendQuery } from "../../../src/foundry/exchange/gm-actions";

let table: StrictTable;
const COMBAT = "combat0000000001";
/** Kestrel's combatant: Alice's character. */
const KESTREL = "cbt0000000000000";

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 7 });
  seatCast(table);
  await table.connectAll();
});

afterEach(async () => {
  await table.settle();
  vi.unstubAllGlobals();
});

/** The answers the GM wrote on request documents, as the server holds them. */
function answers(): unknown[] {
  return [...table.server.messages.values()].filter((m) => m.type === "request").map((m) => m.system.answer);
}

describe("refusals localised on the asking client", () => {
  beforeEach(async () => {
    seatCombat(table, COMBAT, [CAST.kestrel, CAST.wren, CAST.gravel]);
    for (const c of Object.values(table.clients)) {
      c.drop();
      await c.connect();
    }
  });

  it("refusals localised: Bob commanding Alice's Kestrel reads the refusal in his own text, her name filled in", async () => {
    const { gm, bob } = table.clients;
    gm.lang.set("CASE.Refusal.notYourCombatant", "GM-TEXT {name}");
    bob.lang.set("CASE.Refusal.notYourCombatant", "{name} gehört nicht dir.");
    expect(await bob.ask(declareActionQuery, { combatId: COMBAT, combatantId: KESTREL, declaration: { text: "Take her turn", actions: 1 } })).toBeUndefined();
    expect(bob.notified).toContainEqual({ level: "error", text: "You may not do that: Kestrel, the Unbreakable Sentinel of the Northern Reach gehört nicht dir." });
    // The wire carried the key and the name, not a text to show.
    expect(answers()).toContainEqual(expect.objectContaining({ ok: false, reason: "forbidden", error: { kind: "refusal", key: "notYourCombatant", data: { name: "Kestrel, the Unbreakable Sentinel of the Northern Reach" } } }));
    expect(bob.notified.map((n) => n.text).join("\n")).not.toContain("GM-TEXT");
  });

  it("refusals localised: Alice reading \"only the Judge runs the turn\" in her own text", async () => {
    const { gm, alice } = table.clients;
    gm.lang.set("CASE.Refusal.judgeRunsTurn", "GM-TEXT");
    alice.lang.set("CASE.Refusal.judgeRunsTurn", "nur die Spielleitung führt den Zug.");
    expect(await alice.ask(advancePhaseQuery, { combatId: COMBAT, from: "declare" })).toBeUndefined();
    expect(alice.notified).toEqual([{ level: "error", text: "You may not do that: nur die Spielleitung führt den Zug." }]);
  });

  it("refusals localised: a malformed field is named in the asker's text (the router's parse helpers)", async () => {
    const { alice } = table.clients;
    alice.lang.set("CASE.Refusal.fieldForm", "«{key}» ist nicht wohlgeformt.");
    expect(await alice.ask(declareActionQuery, { combatId: "not an id", combatantId: KESTREL, declaration: { text: "Go", actions: 1 } })).toBeUndefined();
    expect(alice.notified).toEqual([{ level: "error", text: "The request was not understood, so nothing was changed: «combatId» ist nicht wohlgeformt." }]);
  });
});

describe("refusals localised: stored data the GM's client cannot read", () => {
  it("refusals localised: an attack card written by a newer version is refused in the defender's own text, the version filled in", async () => {
    const { gm, alice } = table.clients;
    const attacked = await gm.click(attackQuery, { itemUuid: itemUuid(CAST.gravel, "blast"), targetUuids: [`Actor.${CAST.kestrel}`], input: {} });
    if (!attacked.ok || !attacked.value) throw new Error(`The attack was refused: ${JSON.stringify(attacked)}`);
    await table.settle();
    const id = attacked.value.messageId;
    // A newer client wrote the card (its exchange version is past this code's); every client reloads it.
    const stored = table.server.messages.get(id)?.system as { exchange: { version: number } };
    stored.exchange.version = 999;
    for (const c of Object.values(table.clients)) {
      c.drop();
      await c.connect();
    }
    gm.lang.set("CASE.Refusal.cardNewer", "GM-TEXT {version}");
    alice.lang.set("CASE.Refusal.cardNewer", "Karte aus CASE-Version {version}.");
    expect(await alice.ask(defendQuery, { messageId: id, targetKey: "0", defence: "dodge" })).toBeUndefined();
    expect(alice.notified).toEqual([{ level: "error", text: "Something went wrong while the GM applied that: Karte aus CASE-Version 999. Check the card before you click again." }]);
  });
});
