/**
 * Type guards that narrow a document to one of our subtypes, so `system` is typed as that
 * subtype's data (fvtt-types does not narrow `system` on a `type` comparison).
 */
export function isItemType<T extends Item.SubType>(item: Item.Implementation, type: T): item is Item.OfType<T> {
  return item.type === type;
}

export function isActorType<T extends Actor.SubType>(actor: Actor.Implementation, type: T): actor is Actor.OfType<T> {
  return actor.type === type;
}

/** A hero or an NPC: the actors with abilities. */
export function isCharacter(actor: Actor.Implementation): actor is Actor.OfType<"hero" | "npc"> {
  return actor.type === "hero" || actor.type === "npc";
}

/**
 * An Actor document. Every actor in a world is an instance of the configured class
 * (`Actor.Implementation`, our CaseActor), which fvtt-types does not know of Foundry's `Actor`.
 */
export function isActorDocument(doc: unknown): doc is Actor.Implementation {
  return doc instanceof Actor;
}

/** The actor behind a UUID: an Actor's, or a Token's actor (synthetic for unlinked tokens). */
export async function actorFromUuid(uuid: string): Promise<Actor.Implementation | null> {
  const doc: unknown = await fromUuid(uuid);
  if (isActorDocument(doc)) return doc;
  if (doc instanceof TokenDocument) return doc.actor;
  return null;
}

/** A hero's or an NPC's data (the actors with Health, Endurance and Karma); a TypeError naming the actor when it is neither. */
export function characterSystem(actor: Actor.Implementation): Actor.OfType<"hero" | "npc">["system"] {
  if (!isCharacter(actor)) throw new TypeError(`${actor.name} is a ${actor.type}, not a hero or an NPC.`);
  return actor.system;
}

export function isMessageType<T extends ChatMessage.SubType>(message: ChatMessage.Implementation, type: T): message is ChatMessage.OfType<T> {
  return message.type === type;
}

/** `value[key]` when `value` is an object, else undefined: how code given a document's `system` as plain data reads one field. */
export function fieldOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Readonly<Record<string, unknown>>)[key] : undefined;
}
