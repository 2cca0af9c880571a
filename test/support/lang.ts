/** Helpers for the localisation test. */

/** Every leaf of a nested language object as "A.B.C" → value. */
export function flattenKeys(obj: Record<string, unknown>, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      for (const [kk, vv] of flattenKeys(v as Record<string, unknown>, key)) out.set(kk, vv);
    } else out.set(key, v);
  }
  return out;
}

/**
 * Localisation keys used in a text. In source and JSON: any quoted string literal that starts
 * with "CASE." and is a full dotted key. Keys built at run time from a prefix are written
 * as `CASE.Foo.` + variable: the prefix ends with a dot and is skipped here; the code that
 * builds them must be covered by a test of its own (enumerating the variable's values).
 * In templates: the same, which covers {{localize "CASE.…"}} and helpers given a key.
 */
export function usedLocalisationKeys(text: string, _kind: "source" | "template"): Set<string> {
  const keys = new Set<string>();
  for (const m of text.matchAll(/["'`](CASE(?:\.[A-Za-z0-9_-]+)+)["'`]/g)) {
    const key = m[1];
    if (key) keys.add(key);
  }
  return keys;
}

/**
 * The families of keys a text builds at run time: every literal prefix that ends with a dot
 * and is completed by code (`CASE.Turn.Phase.${phase}`, "CASE.Rank." + key), and the label
 * prefixes handed to the data models' choiceField (`CASE.<prefix>.<choice>`). The bare
 * "CASE." is not a family (code that checks `startsWith("CASE.")` builds no key).
 */
export function localisationFamilies(text: string): Set<string> {
  const families = new Set<string>();
  for (const m of text.matchAll(/["'`](CASE(?:\.[A-Za-z0-9_-]+)+\.)(?:\$\{|["'`])/g)) if (m[1]) families.add(m[1]);
  for (const m of text.matchAll(/choiceField\([^()]*?,\s*"([A-Za-z0-9_.-]+)"\)/g)) if (m[1]) families.add(`CASE.${m[1]}.`);
  return families;
}
