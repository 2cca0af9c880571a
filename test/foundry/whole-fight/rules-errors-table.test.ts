/**
 * The rules' refusals on the strict table (test/support/strict-table.ts): the active GM's client
 * refuses a request, and the asking client says why in its own reader's language. Each reader
 * here has a text of its own for the key (`client.lang`), different from en.json's and from the
 * rules' English, so a text that came from the GM's client or from the rules cannot pass.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, StrictTable, installTableGlobals, itemUuid, seatCast, seatCombat } from "../../support/strict-table";
import { declareActionQuery, setConditionQuery } from "../../../src/foundry/combat/queries";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { consequenceQuery } from "../../../src/foundry/exchange/gm-actions";

let table: StrictTable;

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 5 });
  seatCast(table);
  await table.connectAll();
});

afterEach(async () => {
  await table.settle();
  vi.unstubAllGlobals();
});

const NOT_UNDERSTOOD = "The request was not understood, so nothing was changed";

/** The answers the GM wrote on request documents, as the server holds them. */
function answers(): unknown[] {
  return [...table.server.messages.values()].filter((m) => m.type === "request").map((m) => m.system.answer);
}

describe("rules errors localised on the asking client", () => {
  const COMBAT = "combat0000000001";
  const kestrel = "cbt0000000000000";

  beforeEach(async () => {
    seatCombat(table, COMBAT, [CAST.kestrel, CAST.gravel]);
    for (const c of Object.values(table.clients)) {
      c.drop();
      await c.connect();
    }
  });

  it("rules errors localised: a declaration the GM's client refused reads in Alice's language, its field and numbers filled in", async () => {
    const { gm, alice } = table.clients;
    alice.lang.set("CASE.RulesError.notInRange", "{field}: nur {min} bis {max}, nicht {got}.");
    alice.lang.set("CASE.RulesField.turnActionsDeclared", "Aktionen");
    expect(await alice.ask(declareActionQuery, { combatId: COMBAT, combatantId: kestrel, declaration: { text: "Everything at once", actions: 9 } })).toBeUndefined();
    expect(alice.notified).toContainEqual({ level: "error", text: `${NOT_UNDERSTOOD}: Aktionen: nur 1 bis 8, nicht 9.` });
    // The wire carried the key and the data (the GM's English beside them, for the logs), not a text to show.
    expect(answers()).toContainEqual(expect.objectContaining({ ok: false, reason: "malformed", error: { key: "notInRange", data: { field: "turnActionsDeclared", min: 1, max: 8, got: "9" } } }));
    expect(gm.notified.map((n) => n.text).join("\n")).not.toContain("Aktionen");
  });

  it("rules errors localised: a turn refusal names the combatant by name, in the asker's language", async () => {
    const { gm, alice } = table.clients;
    expect(await gm.click(setConditionQuery, { combatId: COMBAT, combatantId: kestrel, condition: "stun", turns: 2 })).toMatchObject({ ok: true });
    await table.settle();
    alice.lang.set("CASE.RulesError.turnCannotAct", "{id} kann in diesem Zug nicht handeln.");
    expect(await alice.ask(declareActionQuery, { combatId: COMBAT, combatantId: kestrel, declaration: { text: "Get up", actions: 1 } })).toBeUndefined();
    // The rules name the combatant by id; the reader sees its name (Kestrel's long one on this table).
    expect(alice.notified).toContainEqual({ level: "error", text: expect.stringMatching(/^You may not do that: Kestrel, [^"]* kann in diesem Zug nicht handeln\.$/) as string });
  });
});

describe("rules errors localised in the exchange", () => {
  it("rules errors localised: a step on a row the card does not have reads in the clicking GM's language, the row's key filled in", async () => {
    const { gm } = table.clients;
    const attacked = await gm.click(attackQuery, { itemUuid: itemUuid(CAST.gravel, "punch"), targetUuids: [`Actor.${CAST.wren}`], input: {} });
    if (!attacked.ok || !attacked.value) throw new Error(`The attack was refused: ${JSON.stringify(attacked)}`);
    await table.settle();
    const id = attacked.value.messageId;
    gm.lang.set("CASE.RulesError.exchangeNoSuchTarget", "Dieser Angriff hat kein Ziel {key}.");
    expect(await gm.ask(consequenceQuery, { messageId: id, targetKey: "7", check: "stun" })).toBeUndefined();
    expect(gm.notified).toContainEqual({ level: "error", text: `${NOT_UNDERSTOOD}: Dieser Angriff hat kein Ziel 7.` });
  });
});
