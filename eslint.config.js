// @ts-check
import tseslint from "typescript-eslint";

export default tseslint.config(
  // At least everything .gitignore ignores that could be linted: `npm test` skips the lint when
  // no file git lists has changed since the lint last passed (scripts/test.mjs).
  { ignores: ["dist/", "node_modules/", "test/artifacts/", "coverage/", ".vite/", "release/"] },
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["*.js", "scripts/*.mjs"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": ["error", { "ts-expect-error": "allow-with-description", "ts-ignore": true }],
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "@typescript-eslint/no-unnecessary-condition": ["error", { allowConstantLoopConditions: true }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // fvtt-types models configured documents (User.Implementation …) as types that its own
      // classes' constructors do not produce, so this rule flags every document we pass on.
      "@typescript-eslint/no-unsafe-class-instance-assignment": "off",
    },
  },
  {
    // The rules library is pure: no Foundry globals, no DOM.
    files: ["src/rules/**/*.ts"],
    rules: {
      "no-restricted-globals": [
        "error",
        ...["foundry", "game", "CONFIG", "Hooks", "canvas", "ui", "document", "window", "fromUuid", "ChatMessage"].map((name) => ({
          name,
          message: "src/rules is pure TypeScript: pass data in, do not reach for Foundry or the DOM.",
        })),
      ],
      "no-restricted-imports": ["error", { patterns: ["../foundry/*", "../case", "node:*", "handlebars"] }],
    },
  },
  {
    // Each stored shape is declared once (in its data model's schema) and read through the
    // documents' own types: no `x as unknown as T` in the Foundry adapters. Untyped values at
    // the boundary (a module's global, a v14-only API) go through a runtime type guard.
    files: ["src/foundry/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          // `x as unknown as T` and `<T><unknown>x`, in either spelling.
          selector: ":matches(TSAsExpression, TSTypeAssertion) > :matches(TSAsExpression, TSTypeAssertion).expression[typeAnnotation.type='TSUnknownKeyword']",
          message: "No `as unknown as` in src/foundry: derive the type from the data model's schema, or check the value with a type guard.",
        },
        {
          // `x.system as { … }` (or `{ … } | null`), `system as { … }`, `x?.system as { … }`.
          selector: [">", "> TSUnionType >"].map((to) => `TSAsExpression:matches([expression.property.name='system'], [expression.name='system'], [expression.expression.property.name='system']) ${to} TSTypeLiteral`).join(", "),
          message: "No `system as { … }` in src/foundry: read `system` through its data model's type (core/guards.ts isActorType, isItemType, isMessageType, characterSystem) or fieldOf.",
        },
        {
          // `x.flags as …`, `flags as …`, `x?.flags as …`, and `…[SYSTEM_ID] as …` (also `?.[SYSTEM_ID]`).
          selector: "TSAsExpression:matches([expression.property.name='flags'], [expression.name='flags'], [expression.expression.property.name='flags'], [expression.computed=true][expression.property.name='SYSTEM_ID'], [expression.expression.computed=true][expression.expression.property.name='SYSTEM_ID'])",
          message: "No hand-cast flag reads in src/foundry: `flags.case` is declared in core/flags.ts; read it with caseFlag or readCaseFlag.",
        },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
);
