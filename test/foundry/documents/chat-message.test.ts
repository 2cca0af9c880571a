/**
 * Cards own themselves: every chat-message type system.json declares has a model from the one
 * base (data/message-model.ts); a card's model (ui/chat-card.ts) declares its template, builds
 * its context and lists its actions, and the document class (documents/chat-message.ts) only
 * delegates to the model. ChatMessage here is a stand-in base with what CaseChatMessage
 * overrides (`visible`, `renderHTML`), as Foundry's public ChatMessage API page documents them.
 */
import "../../support/foundry-globals";
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CaseMessageModel } from "../../../src/foundry/data/message-model";
import { ChatCardModel, type CardOwner } from "../../../src/foundry/ui/chat-card";
import { RulesRangeError } from "../../../src/rules/errors";
import { QueryRefusal } from "../../../src/foundry/requests/router";
import { stubI18nOverriding } from "../../support/foundry-stubs";
import type { ClickActions } from "../../../src/foundry/ui/click-actions";

/** What each registered type's model must be (system.json's types, each a class from the one base). */
type ModelClass = abstract new (...args: never[]) => CaseMessageModel<Record<string, never>>;

let models: Record<string, ModelClass>;
let CaseChatMessage: new () => { type: string; system: unknown; readonly visible: boolean; renderHTML(): Promise<HTMLElement> };

/** The rendered message core would hand over: a `.message-content` that records what is written and listened to. */
function renderedMessage() {
  const listeners: ((event: Event) => void)[] = [];
  const content = { innerHTML: "", contains: () => true, addEventListener: (_type: string, listener: (event: Event) => void) => listeners.push(listener) };
  const html = { querySelector: (selector: string) => (selector === ".message-content" ? content : null) } as unknown as HTMLElement;
  return { html, content, listeners };
}

const rendered: { path: string; context: object }[] = [];
/** The message core renders last (the stand-in's renderHTML). */
let page = renderedMessage();

beforeAll(async () => {
  class ChatMessageStandIn {
    type = "base";
    system: unknown = {};
    get visible(): boolean {
      return true;
    }
    renderHTML(): Promise<HTMLElement> {
      page = renderedMessage();
      return Promise.resolve(page.html);
    }
  }
  vi.stubGlobal("ChatMessage", ChatMessageStandIn);
  // The registered modules declare the document classes at load; only their declarations run here.
  for (const name of ["Roll", "Actor", "Item", "ActiveEffect", "Combat", "Combatant", "TokenDocument"]) vi.stubGlobal(name, function DeclaredOnly() {});
  const double = (globalThis as unknown as { foundry: { applications: object } }).foundry;
  vi.stubGlobal("foundry", {
    ...double,
    applications: {
      ...double.applications,
      // The combat tracker's base, declared at load by register.ts's imports.
      sidebar: { tabs: { CombatTracker: function CombatTracker() {} } },
      handlebars: {
        renderTemplate: (path: string, context: object) => {
          rendered.push({ path, context });
          return Promise.resolve(`<div data-action="hello">${path}</div>`);
        },
      },
    },
  });
  const document: { CaseChatMessage: object } = await import("../../../src/foundry/documents/chat-message");
  CaseChatMessage = document.CaseChatMessage as typeof CaseChatMessage;
  const registered: { CHAT_MESSAGE_DATA_MODELS: object } = await import("../../../src/foundry/register");
  models = registered.CHAT_MESSAGE_DATA_MODELS as typeof models;
}, 60_000);
afterAll(() => {
  vi.unstubAllGlobals();
});

/** A model's instance without its constructor: the template, actions and shownInChat read no stored data. */
function bare(model: ModelClass): CaseMessageModel<Record<string, never>> {
  return Object.create(model.prototype as object) as CaseMessageModel<Record<string, never>>;
}

describe("cards own themselves", () => {
  it("cards own themselves: every chat-message type system.json declares has a registered model from the one base", () => {
    const manifest = JSON.parse(readFileSync("system.json", "utf8")) as { documentTypes: { ChatMessage: Record<string, unknown> } };
    const declared = Object.keys(manifest.documentTypes.ChatMessage).sort();
    expect(Object.keys(models).sort()).toEqual(declared);
    for (const type of declared) expect(models[type]?.prototype, type).toBeInstanceOf(CaseMessageModel);
  });

  it("cards own themselves: each shown type's model declares its template, builds its context and lists its actions; the rest are bookkeeping, never shown", () => {
    const cards = Object.entries(models).filter(([, model]) => bare(model).shownInChat).map(([type]) => type);
    expect(cards.sort()).toEqual(["action", "attack", "impact", "rollRequest"]);
    for (const type of cards) {
      const card = bare(models[type] as ModelClass) as unknown as ChatCardModel<Record<string, never>>;
      expect(card, type).toBeInstanceOf(ChatCardModel);
      expect(card.template, type).toMatch(/^systems\/case\/templates\/chat\/[\w-]+\.hbs$/);
      expect(existsSync(card.template.replace(/^systems\/case\//, "")), type).toBe(true);
      expect(typeof card.context, type).toBe("function");
      for (const action of Object.values(card.actions)) expect(typeof action).toBe("function");
    }
    for (const type of ["request", "requestClaim", "attackRecord", "turnRecord"]) {
      const model = bare(models[type] as ModelClass);
      expect(model, type).not.toBeInstanceOf(ChatCardModel);
      expect(model.shownInChat, type).toBe(false);
    }
  });

  it("cards own themselves: chat-message.ts holds no per-type branch", () => {
    const source = readFileSync("src/foundry/documents/chat-message.ts", "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    expect(source).not.toMatch(/\.type\b|switch\s*\(/);
    for (const type of Object.keys(models)) expect(source, type).not.toContain(`"${type}"`);
  });

  it("cards own themselves: the document renders a card through its model (template, context, actions) and hides what its model says is bookkeeping", async () => {
    const clicked: string[] = [];
    const actions: ClickActions<CardOwner> = {
      hello() {
        clicked.push(this.messageId);
      },
    };
    class TestCard extends ChatCardModel<Record<string, never>> {
      get template(): string {
        return "systems/case/templates/chat/test.hbs";
      }
      context(): Promise<object> {
        return Promise.resolve({ said: "hello" });
      }
      get actions(): ClickActions<CardOwner> {
        return actions;
      }
    }
    const message = new CaseChatMessage();
    const card = Object.create(TestCard.prototype) as TestCard;
    Object.defineProperty(card, "parent", { value: { id: "msg0000000000001", type: "test" } });
    message.system = card;
    rendered.length = 0;
    const html = await message.renderHTML();
    expect(rendered).toEqual([{ path: "systems/case/templates/chat/test.hbs", context: { said: "hello" } }]);
    expect(html).toBe(page.html);
    expect(page.content.innerHTML).toContain("test.hbs");
    // A click on the card's data-action runs the model's action, on the card's message.
    const button = { tagName: "A", dataset: { action: "hello" }, closest: () => button };
    for (const listener of page.listeners) listener({ target: button, preventDefault: () => undefined } as unknown as Event);
    await Promise.resolve();
    expect(clicked).toEqual(["msg0000000000001"]);
    expect(message.visible).toBe(true);

    const bookkeeping = Object.create((models.request?.prototype as object | undefined) ?? null) as CaseMessageModel<Record<string, never>>;
    message.system = bookkeeping;
    expect(message.visible).toBe(false);
    rendered.length = 0;
    await message.renderHTML();
    expect(rendered).toEqual([]);
  });

  it("cards own themselves: a card that cannot be read says why on the card (rules errors localised: en.json's words; a refusal's own words; 'unexpected' for anything else)", async () => {
    stubI18nOverriding({ "CASE.RulesError.unknownAttackCode": "NO ATTACK {got} ({allowed})", "CASE.RulesError.unexpected": "OOPS" });
    const failures = [new RulesRangeError("unknownAttackCode", { got: "zap", allowed: "BA, EA" }), new QueryRefusal("forbidden", "Not a GM's card."), new RangeError("The attack card has no targets.")];
    class BrokenCard extends ChatCardModel<Record<string, never>> {
      get template(): string {
        return "systems/case/templates/chat/test.hbs";
      }
      context(): Promise<object> {
        return Promise.reject(failures.shift() ?? new Error("no more failures"));
      }
      get actions(): ClickActions<CardOwner> {
        return {};
      }
    }
    const card = Object.create(BrokenCard.prototype) as BrokenCard;
    Object.defineProperty(card, "parent", { value: { id: "msg0000000000002", type: "attack" } });
    const { html } = renderedMessage();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    rendered.length = 0;
    for (let i = 0; i < 3; i++) await card.renderCard(html);
    expect(rendered.map((r) => r.context)).toEqual([
      { message: "NO ATTACK zap (BA, EA)", total: null },
      { message: "Not a GM's card.", total: null },
      { message: "OOPS", total: null },
    ]);
    expect(rendered.every((r) => r.path === "systems/case/templates/chat/roll-error.hbs")).toBe(true);
    expect(errors).toHaveBeenCalledTimes(3);
    errors.mockRestore();
  });
});
