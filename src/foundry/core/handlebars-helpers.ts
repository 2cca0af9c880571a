/**
 * The system's own Handlebars helpers.
 *
 * caseFormat KEY DATA: localises KEY formatted with DATA (an object built by a view), where a
 * DATA value that is itself a localisation key ("CASE.…") is localised first. Foundry's
 * `localize` only formats hash arguments; views build their data as objects.
 */
export function caseFormat(localize: (key: string) => string, format: (key: string, data: Record<string, string>) => string) {
  return (key: unknown, data: unknown): string => {
    if (typeof key !== "string" || key === "") return "";
    if (typeof data !== "object" || data === null || Object.keys(data).length === 0) return localize(key);
    const resolved = Object.fromEntries(
      Object.entries(data as Record<string, unknown>).map(([k, v]) => [k, typeof v === "string" && v.startsWith("CASE.") ? localize(v) : String(v)]),
    );
    return format(key, resolved);
  };
}

export function registerHandlebarsHelpers(): void {
  Handlebars.registerHelper(
    "caseFormat",
    caseFormat(
      (k) => game.i18n.localize(k),
      (k, d) => game.i18n.format(k, d),
    ),
  );
}
