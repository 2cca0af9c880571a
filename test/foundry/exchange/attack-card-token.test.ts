/**
 * Target rows linked to the board: the token's picture beside the name, and a button that
 * selects the token and pans to it where the user may (against a small canvas double).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeActor, characterSource, installWorld, type World } from "../../support/exchange-world";
import { CARD_ACTIONS, selectToken } from "../../../src/foundry/exchange/card";
import { attackCardContext, type Viewer } from "../../../src/foundry/exchange/card-context";
import { createExchange } from "../../support/exchange-fixtures";
import { renderTemplate } from "../../support/handlebars";
import { attr, parseHtml, queryAll } from "../../support/html";
import { fakeClick, fakeTarget } from "../../support/foundry-stubs";

let world: World;
let hero: FakeActor;
let villain: FakeActor;

/** A canvas double: the viewed scene's tokens by id, and the pans asked for. */
function canvasDouble(tokens: Record<string, { isOwner: boolean }>) {
  const controlled: string[] = [];
  const pans: { x: number; y: number }[] = [];
  const board = {
    tokens: {
      get: (id: string) => {
        const t = tokens[id];
        return t ? { isOwner: t.isOwner, center: { x: 100, y: 200 }, control: () => controlled.push(id) } : undefined;
      },
    },
    animatePan: (view: { x: number; y: number }) => (pans.push(view), Promise.resolve()),
  };
  vi.stubGlobal("canvas", board);
  return { controlled, pans };
}

beforeEach(() => {
  world = installWorld();
  hero = new FakeActor("hero000000000001", "Kestrel", "hero", characterSource({ agility: 30 }), []);
  villain = new FakeActor("villain000000001", "Gravel", "npc", characterSource({ fighting: 40 }), []);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("target rows linked to the board", () => {
  it("token link: a token row carries its picture on a labelled button that selects the token; an actor row only its picture", () => {
    const base = createExchange({ attackerActor: villain, targetActor: hero });
    const onScene = { ...base, targets: base.targets.map((t) => ({ ...t, uuid: "Scene.scene0000000001.Token.token00000000001" })) };
    const viewer: Viewer = { isGM: true, owns: () => true, isNpc: () => false, portrait: (uuid) => (uuid.includes("Token") ? "tokens/kestrel.webp" : "portraits/kestrel.webp") };
    const doc = parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(onScene, viewer, { hideNpcDefences: false, ownersApplyDamage: false })));
    const [button] = queryAll(doc, '[data-action="caseSelectToken"]');
    expect(button && attr(button, "aria-label")).toBe("Find Kestrel on the scene (select the token and pan to it)");
    expect(queryAll(doc, '[data-action="caseSelectToken"] img').map((i) => [attr(i, "src"), attr(i, "alt")])).toEqual([["tokens/kestrel.webp", ""]]);
    const actorRow = parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(base, viewer, { hideNpcDefences: false, ownersApplyDamage: false })));
    expect(queryAll(actorRow, '[data-action="caseSelectToken"]')).toHaveLength(0);
    expect(queryAll(actorRow, "img.target-portrait").map((i) => attr(i, "src"))).toEqual(["portraits/kestrel.webp"]);
    // A viewer that knows no picture: no image at all.
    const plain = parseHtml(renderTemplate("templates/chat/attack-card.hbs", attackCardContext(base, { ...viewer, portrait: () => null }, { hideNpcDefences: false, ownersApplyDamage: false })));
    expect(queryAll(plain, "img")).toHaveLength(0);
  });

  it("token link: clicking selects and pans to a token the user owns; a token not owned or not on the scene is refused with a reason", () => {
    const { controlled, pans } = canvasDouble({ mine00000000001: { isOwner: true }, theirs0000000001: { isOwner: false } });
    expect(selectToken("Scene.s.Token.mine00000000001")).toBe(true);
    expect(controlled).toEqual(["mine00000000001"]);
    expect(pans).toEqual([{ x: 100, y: 200 }]);
    expect(selectToken("Scene.s.Token.theirs0000000001")).toBe(false);
    expect(world.notifications.warn).toHaveBeenLastCalledWith("You may only select tokens you own.");
    expect(selectToken("Scene.s.Token.elsewhere0000001")).toBe(false);
    expect(selectToken("Actor.hero000000000001")).toBe(false);
    expect(world.notifications.warn).toHaveBeenLastCalledWith("That token is not on the scene you are viewing.");
    expect(controlled).toEqual(["mine00000000001"]);
    // The card's action runs the same.
    const action = CARD_ACTIONS.caseSelectToken;
    action?.call({ messageId: "msg0000000000001" }, fakeClick(), fakeTarget({ uuid: "Scene.s.Token.mine00000000001" }));
    expect(controlled).toEqual(["mine00000000001", "mine00000000001"]);
  });

  it("token link: with no canvas (canvas disabled) the click says so and throws nothing", () => {
    vi.stubGlobal("canvas", null);
    expect(selectToken("Scene.s.Token.mine00000000001")).toBe(false);
    expect(world.notifications.warn).toHaveBeenCalledWith("That token is not on the scene you are viewing.");
  });
});
