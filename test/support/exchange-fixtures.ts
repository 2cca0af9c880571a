/** Builds attack exchanges between fake actors for the exchange tests. */
import { createExchange as create, type AttackCode, type ExchangeState } from "../../src/rules/index";
import { ATTACKS } from "../../src/rules/index";
import { readExchange } from "../../src/foundry/exchange/card-model";
import type { FakeActor } from "./exchange-world";
import { exchangeInput, exchangeTarget } from "./exchange-input";

export interface FixtureOptions {
  attackerActor: FakeActor;
  targetActor: FakeActor;
  attack?: AttackCode;
  damage?: number;
  blindsided?: boolean;
  karma?: number;
  /** The target's body armor. */
  targetArmor?: number;
}

export function createExchange(o: FixtureOptions): ExchangeState {
  const attack = o.attack ?? "BA";
  const a = o.attackerActor.system;
  const t = o.targetActor.system;
  return create(
    exchangeInput({
      attack,
      source: "Test attack",
      attacker: { uuid: o.attackerActor.uuid, name: o.attackerActor.name, value: a.score(ATTACKS[attack].rollsOn), strength: a.score("strength.mgt"), armor: 0 },
      karma: o.karma ?? 0,
      damage: { method: "static", value: o.damage ?? 20 },
      blindsided: o.blindsided ?? false,
      targets: [
        exchangeTarget({
          uuid: o.targetActor.uuid,
          actorUuid: o.targetActor.uuid,
          name: o.targetActor.name,
          scores: { "agility.bal": t.score("agility.bal"), "fighting.def": t.score("fighting.def"), "strength.mgt": t.score("strength.mgt"), "endurance.res": t.score("endurance.res") },
          armor: { body: o.targetArmor ?? 0, energy: 0 },
        }),
      ],
    }),
  );
}

export function readExchangeForTest(value: unknown): ExchangeState {
  return readExchange(value);
}
