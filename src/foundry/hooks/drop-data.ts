/**
 * Reading the data of a drag-and-drop (hotbar, canvas): Foundry's drag data for a document is
 * `{ type: "Item", uuid }`, and on the canvas also the drop point `x`, `y`.
 */

export interface ItemDropData {
  readonly type: "Item";
  readonly uuid: string;
  readonly x?: number;
  readonly y?: number;
}

export function isItemDropData(data: unknown): data is ItemDropData {
  const d = data as { type?: unknown; uuid?: unknown } | null | undefined;
  return d?.type === "Item" && typeof d.uuid === "string" && d.uuid.length > 0;
}

/**
 * The item a drop names, if it can be resolved at once (a world item or one owned by an
 * actor) and can attack. Hook handlers must answer synchronously whether they handle a drop,
 * so this uses `fromUuidSync`; a compendium entry (not loaded) is left to Foundry.
 */
export function attackItemOfDrop(data: ItemDropData): Item.Implementation | null {
  const doc: unknown = fromUuidSync(data.uuid);
  return isAttackItem(doc) ? doc : null;
}

/** An Item document (our CaseItem: it has `isAttack`) that can attack. */
function isAttackItem(doc: unknown): doc is Item.Implementation {
  return typeof doc === "object" && doc !== null && "documentName" in doc && doc.documentName === "Item" && "isAttack" in doc && doc.isAttack === true;
}

/**
 * A roll dragged from a character sheet (an ability, a sub-score, or the Resources or Popularity
 * FEAT): the sheet's `_onDragStart` writes it (actor-sheets.ts), the hotbar turns it into a macro.
 */
export interface RollDropData {
  readonly type: "CaseRoll";
  readonly actorUuid: string;
  /** An ability or sub-score (rules `ScoreRef`), or "resources" / "popularity". */
  readonly score: string;
}

export function isRollDropData(data: unknown): data is RollDropData {
  const d = data as { type?: unknown; actorUuid?: unknown; score?: unknown } | null | undefined;
  return d?.type === "CaseRoll" && typeof d.actorUuid === "string" && d.actorUuid.length > 0 && typeof d.score === "string" && d.score.length > 0;
}

/** The power a drop names, if it resolves at once and is not an attack (its FEAT goes on the hotbar). */
export function featItemOfDrop(data: ItemDropData): Item.Implementation | null {
  const doc: unknown = fromUuidSync(data.uuid);
  return isItemDoc(doc) && doc.type === "power" && !doc.isAttack ? doc : null;
}

function isItemDoc(doc: unknown): doc is Item.Implementation {
  return typeof doc === "object" && doc !== null && "documentName" in doc && doc.documentName === "Item" && "type" in doc;
}
