/**
 * The seed rules reachable from the attack card (issue 23, item 8), on the strict table: a row
 * whose result the rules name offers the GM its follow-up (rules follow-ups.ts), and the
 * follow-up request rolls it on the active GM, writes Health under the actor's lock with a
 * ledger entry, sets conditions and posts a card. A player is refused. Each card is a real one
 * (Kestrel's Haymaker on Wren, two heroes: nothing sealed) whose row the server is then given
 * the result the follow-up answers (a slam, a white charge, a ranged miss, …), as the GM's card
 * would hold it after those rolls.
 *
 * Worked by hand (CASE-RULES §2, §5, [000], [001]): Kestrel and Wren have Endurance 100, no
 * armor. One impact rule: the charge's damage is the higher of Endurance and body armor + 2 per
 * area (the bonus at most that value); the struck armor or material strength absorbs it and
 * rebounds onto the mover less the mover's body armor.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CAST, StrictTable, installTableGlobals, itemUuid, seatCast } from "../../support/strict-table";
import { attackQuery } from "../../../src/foundry/exchange/make-attack";
import { defendQuery } from "../../../src/foundry/exchange/gm-actions";
import { followUpQuery } from "../../../src/foundry/exchange/follow-up";
import { readExchange } from "../../../src/foundry/exchange/card-model";
import { attackCardContext } from "../../../src/foundry/exchange/card-context";
import { resolveImpact, type ExchangeState, type ExchangeTarget } from "../../../src/rules/index";

let table: StrictTable;

beforeEach(async () => {
  installTableGlobals();
  table = new StrictTable({ seed: 31 });
  seatCast(table);
  table.server.settings.set("case.attacksInTurn", false);
  await table.connectAll();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const KESTREL = `Actor.${CAST.kestrel}`;
const WREN = `Actor.${CAST.wren}`;

/** Kestrel's Haymaker on Wren, No defence, rolled (die 50); then the row as `patch` leaves it, every client reloaded. */
async function cardWith(patch: (s: ExchangeState, row: ExchangeTarget) => { state?: Partial<ExchangeState>; row: Partial<ExchangeTarget> }): Promise<string> {
  const { gm } = table.clients;
  const made = await gm.click(attackQuery, { itemUuid: itemUuid(CAST.kestrel, "punch"), targetUuids: [WREN], input: {} });
  await table.settle();
  if (!made.ok || !made.value) throw new Error(`The attack was refused: ${JSON.stringify(made)}`);
  const id = made.value.messageId;
  table.dice.push(50);
  expect(await gm.click(defendQuery, { messageId: id, targetKey: "0", defence: "none" })).toEqual({ ok: true, value: null });
  await table.settle();
  const source = table.server.messages.get(id);
  if (!source) throw new Error("No card.");
  const state = readExchange(source.system.exchange);
  const row = state.targets[0] as ExchangeTarget;
  const change = patch(state, row);
  source.system.exchange = JSON.parse(JSON.stringify({ ...state, ...change.state, targets: [{ ...row, ...change.row }] })) as typeof source.system.exchange;
  for (const c of Object.values(table.clients)) {
    c.drop();
    await c.connect();
  }
  await table.settle();
  return id;
}

/** The follow-ups the card offers the GM, and a player, on its row. */
function offered(id: string): { gm: string[]; alice: string[] } {
  const state = readExchange(table.server.messages.get(id)?.system.exchange);
  const settings = { hideNpcDefences: true, ownersApplyDamage: false };
  const kinds = (isGM: boolean) => attackCardContext(state, { isGM, owns: () => true, isNpc: () => false }, settings).rows[0]?.followUps.map((f) => f.kind) ?? [];
  return { gm: kinds(true), alice: kinds(false) };
}

async function followUp(id: string, kind: string, extra: Record<string, unknown> = {}, by = table.clients.gm) {
  const answer = await by.click(followUpQuery, { messageId: id, targetKey: "0", kind, ...extra });
  await table.settle();
  return answer;
}

/** The newest follow-up card's text. */
function lastCard(): string {
  const cards = [...table.server.messages.values()].filter((m) => (m.flags as { case?: { followUp?: string } }).case?.followUp !== undefined);
  return (cards.at(-1)?.content ?? "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
}

const statuses = (actorId: string) => (table.server.actors.get(actorId)?.effects ?? []).flatMap((e) => e.statuses);
const applied = (_row: ExchangeTarget) => ({ phase: "applied" as const, applied: { healthBefore: 330, healthAfter: 330, max: 330, reachedZero: false, rebound: null } as ExchangeTarget["applied"] });

describe("seed rules reachable from the card", () => {
  it("slam collision reachable from the card: a slammed row offers Hit something; the wall's MS 30 takes 72 and 30 rebounds onto Wren; a player is refused", async () => {
    const id = await cardWith((_s, row) => ({ row: { ...applied(row), consequences: [{ check: "slam", cause: "result", die: 50, color: "green", outcome: { check: "slam", result: "oneArea", direction: "back", areas: 1 } }] } }));
    expect(offered(id)).toEqual({ gm: ["slamCollision"], alice: [] });
    const before = table.health(CAST.wren);
    const refused = await followUp(id, "slamCollision", { struck: "object", armor: 30, areas: 1 }, table.clients.alice);
    expect(refused.ok ? "ok" : refused.reason).toBe("forbidden");
    expect(table.health(CAST.wren)).toBe(before);
    expect(await followUp(id, "slamCollision", { struck: "object", armor: 30, areas: 1 })).toEqual({ ok: true, value: null });
    // 100 + 2 × 1 area = 102 against MS 30: 72 through; 30 back, less Wren's armor 0.
    expect(table.health(CAST.wren)).toBe(before - 30);
    expect(lastCard()).toContain("impact 102, 72 through, 30 back");
  });

  it("one impact rule reachable from the card: a slam into a wall deals what the Judge's impact of the same charge at that object deals", async () => {
    const id = await cardWith((_s, row) => ({ row: { ...applied(row), consequences: [{ check: "slam", cause: "result", die: 99, color: "white", outcome: { check: "slam", result: "grandSlam", direction: "back", areas: 3 } }] } }));
    await followUp(id, "slamCollision", { struck: "object", armor: 20, areas: 3 });
    const impact = resolveImpact({ kind: "object", areas: 3, endurance: 100, bodyArmor: 0, materialStrength: 20 });
    // 100 + 6 = 106; MS 20: 86 through, 20 back.
    expect(impact).toEqual({ damage: 106, objectDamage: 86, breaks: true, rebound: 20 });
    expect(lastCard()).toContain(`impact ${impact.damage}, ${impact.objectDamage} through, ${impact.rebound} back`);
  });

  it("careening charge reachable from the card: a white charge offers Careens into…; rolled again (99, a red Stun on the Charging row) it hits the object as a Hit", async () => {
    const id = await cardWith((_s, row) => ({ state: { attack: "Ch" }, row: { toHit: { ...(row.toHit as NonNullable<ExchangeTarget["toHit"]>), color: "white", rolledColor: "white", result: "miss" } } }));
    expect(offered(id).gm).toEqual(["careen"]);
    const before = table.health(CAST.kestrel);
    table.dice.push(99);
    await followUp(id, "careen", { struck: "object", armor: 10, areas: 2 });
    // Kestrel charged 2 areas: 100 + 4 = 104 against MS 10: 94 through, 10 back.
    expect(lastCard()).toContain("99, Hit");
    expect(lastCard()).toContain("impact 104, 94 through, 10 back");
    expect(table.health(CAST.kestrel)).toBe(before - 10);
  });

  it("bystander roll reachable from the card: a ranged miss offers Bystanders; Doctor Gravel beside Wren is hit (50 on Kestrel's Excellent Agility is green) and takes the blast's 30", async () => {
    const id = await cardWith((_s, row) => ({ state: { attack: "En", damage: { method: "static", value: 30 }, attacker: { ...(_s.attacker), value: 30 } }, row: { damage: null, toHit: { ...(row.toHit as NonNullable<ExchangeTarget["toHit"]>), color: "white", rolledColor: "white", result: "miss" } } }));
    expect(offered(id).gm).toEqual(["bystanders"]);
    const before = table.health(CAST.gravel);
    table.dice.push(50);
    await followUp(id, "bystanders", { uuids: [`Actor.${CAST.gravel}`] });
    expect(lastCard()).toContain("Doctor Gravel: 50, Hit");
    expect(table.health(CAST.gravel)).toBe(before - 30);
    // The card names an NPC's Health: only the GMs receive it.
    expect([...table.server.messages.values()].at(-1)?.whisper.sort()).toEqual(["gm00000000000001", "gm00000000000002"]);
  });

  it("break roll reachable from the card: a Break result rolls Kestrel's Strength ACTION against the item's MS (1: white, it holds; 99: red, it breaks)", async () => {
    const id = await cardWith((_s, row) => ({ row: { toHit: { ...(row.toHit as NonNullable<ExchangeTarget["toHit"]>), result: "break" } } }));
    expect(offered(id).gm).toEqual(["break"]);
    table.dice.push(1);
    await followUp(id, "break", { armor: 30 });
    expect(lastCard()).toContain(": 1, it holds");
    table.dice.push(99);
    await followUp(id, "break", { armor: 30 });
    expect(lastCard()).toContain(": 99, it breaks");
  });

  it("catch damage reachable from the card: a yellow catch of an object rolls Wren's Strength ACTION against its MS (99: damaged)", async () => {
    const id = await cardWith((_s, row) => ({ row: { defence: { code: "catch", die: 80, cs: [], column: "unearthly", color: "yellow", outcome: { attackCs: 0, protection: 0, avoided: true, autoHit: false, bonusCs: 0, catchResult: "caughtDamaged" } }, toHit: row.toHit } }));
    expect(offered(id).gm).toEqual(["catchDamage"]);
    table.dice.push(99);
    await followUp(id, "catchDamage", { armor: 10 });
    expect(lastCard()).toContain("Wren: 99, it breaks");
  });

  it("falling ally reachable from the card: Wren's yellow catch of falling Kestrel is Wren's charge over 3 areas: 106 to Kestrel, nothing back", async () => {
    const id = await cardWith((_s, row) => ({ state: { projectile: "falling" }, row: { defence: { code: "catch", die: 80, cs: [], column: "unearthly", color: "yellow", outcome: { attackCs: 0, protection: 0, avoided: true, autoHit: false, bonusCs: 0, catchResult: "caughtDamaged" } }, toHit: row.toHit } }));
    expect(offered(id).gm).toEqual(["catchDamage"]);
    const before = { kestrel: table.health(CAST.kestrel), wren: table.health(CAST.wren) };
    await followUp(id, "catchDamage", { areas: 3, uuids: [KESTREL] });
    expect([table.health(CAST.kestrel), table.health(CAST.wren)]).toEqual([before.kestrel - 106, before.wren]);
  });

  it("reversal on escape reachable from the card: a red escape offers Reversal; reversing puts Kestrel, the holder, in the same Partial Hold", async () => {
    const id = await cardWith((_s, row) => ({ row: { toHit: { ...(row.toHit as NonNullable<ExchangeTarget["toHit"]>), result: "partialHold" }, escapes: [{ die: 99, color: "red", result: "reversal", turn: null }] } }));
    expect(offered(id).gm).toEqual(["reversal"]);
    await followUp(id, "reversal", { choice: "reverse" });
    expect(statuses(CAST.kestrel)).toContain("case-partialHold");
    expect(lastCard()).toContain("reverses the hold on Kestrel");
  });

  it("mercy bullets reachable from the card: a Shooting hit offers Mercy bullets; Wren's Endurance FEAT (1: white) fails and Wren is out 4 turns, no Health lost", async () => {
    const id = await cardWith((_s, row) => ({ state: { attack: "Sh", damage: { method: "static", value: 30 } }, row: { toHit: { ...(row.toHit as NonNullable<ExchangeTarget["toHit"]>), result: "hit" } } }));
    expect(offered(id).gm).toEqual(["mercy"]);
    const before = table.health(CAST.wren);
    table.dice.push(1, 4);
    await followUp(id, "mercy");
    expect(lastCard()).toContain("Wren: 1, out 4 turns");
    expect(statuses(CAST.wren)).toContain("case-stunned");
    expect(table.health(CAST.wren)).toBe(before);
  });
});
