/**
 * ChatMessage subtype `attack`: one attack exchange, stored whole in `system.exchange` so the
 * card re-renders from it after a reload and every transition is one message update.
 */
import { EXCHANGE_VERSION, isAttackCode, type ExchangeState } from "../../../rules/index";
import { schemaVersionField } from "../fields";

export const ATTACK_MESSAGE_SCHEMA_VERSION = 1;

/** Throws a RangeError unless `value` looks like a stored exchange this code can read. */
export function readExchange(value: unknown): ExchangeState {
  if (typeof value !== "object" || value === null) throw new RangeError("The attack card has no exchange data.");
  const v = value as Record<string, unknown>;
  if (typeof v.version !== "number" || v.version > EXCHANGE_VERSION) {
    throw new RangeError(`The attack card was written by a newer version of the CASE system (exchange version ${String(v.version)}).`);
  }
  if (!isAttackCode(v.attack)) throw new RangeError("The attack card has no valid attack type.");
  if (!Array.isArray(v.targets) || v.targets.length === 0) throw new RangeError("The attack card has no targets.");
  for (const t of v.targets as unknown[]) {
    const target = t as Record<string, unknown> | null;
    if (typeof target !== "object" || target === null || typeof target.key !== "string" || typeof target.phase !== "string") {
      throw new RangeError("The attack card has a malformed target row.");
    }
  }
  return value as ExchangeState;
}

function attackMessageSchema() {
  const f = foundry.data.fields;
  return {
    exchange: new f.ObjectField({ required: true }),
    schemaVersion: schemaVersionField(ATTACK_MESSAGE_SCHEMA_VERSION),
  };
}
type AttackMessageSchema = ReturnType<typeof attackMessageSchema>;

export class AttackMessageData extends foundry.abstract.TypeDataModel<AttackMessageSchema, ChatMessage.Implementation> {
  static override defineSchema(): AttackMessageSchema {
    return attackMessageSchema();
  }

  /** The exchange, validated; RangeError with a clear message when it cannot be read. */
  get state(): ExchangeState {
    return readExchange(this.exchange);
  }
}
