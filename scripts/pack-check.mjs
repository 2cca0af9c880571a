// Checks one pack source document the way the Foundry CLI needs it: a 16-character
// alphanumeric _id and a _key that matches the document kind and _id. Returns the problems
// found (empty when the document is well formed). Embedded documents are checked too.
const ID = /^[A-Za-z0-9]{16}$/;
const COLLECTION = { Actor: "actors", Item: "items", JournalEntry: "journal", Macro: "macros", RollTable: "tables", Scene: "scenes", Adventure: "adventures" };

export function checkPackSource(doc, packType) {
  const problems = [];
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return ["not a JSON object"];
  const collection = COLLECTION[packType];
  if (!collection) return [`unknown pack type ${packType}`];
  if (!ID.test(doc._id ?? "")) problems.push(`_id must be 16 letters or digits, got ${JSON.stringify(doc._id)}`);
  if (doc._key !== `!${collection}!${doc._id}`) problems.push(`_key must be "!${collection}!${doc._id}", got ${JSON.stringify(doc._key)}`);
  if (typeof doc.name !== "string" || doc.name.trim() === "") problems.push("name is missing");
  const embedded = { items: "items", pages: "pages", effects: "effects" };
  for (const [field, sub] of Object.entries(embedded)) {
    for (const child of doc[field] ?? []) {
      if (!ID.test(child?._id ?? "")) problems.push(`${field}: _id ${JSON.stringify(child?._id)} is not 16 letters or digits`);
      const want = `!${collection}.${sub}!${doc._id}.${child?._id}`;
      if (child?._key !== want) problems.push(`${field}: _key must be "${want}", got ${JSON.stringify(child?._key)}`);
    }
  }
  return problems;
}
