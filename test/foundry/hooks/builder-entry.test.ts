/**
 * The Actors sidebar's "Build a hero" button (hooks/builder-entry.ts) where the directory has
 * no `.header-actions` (a system or module that renders its own header) and where it has one
 * (core's ActorDirectory, v13 and v14). A small element stand-in: class names, children,
 * `querySelector` by one class, `append`/`prepend`.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { BUILDER_BUTTON_CLASS, addBuilderButton } from "../../../src/foundry/hooks/builder-entry";
import { stubI18nAndNotifications } from "../../support/foundry-stubs";

class El {
  className = "";
  type = "";
  inert = false;
  readonly children: (El | string)[] = [];
  constructor(readonly tag: string, className = "") {
    this.className = className;
  }
  querySelector(selector: string): El | null {
    const wanted = selector.replace(/^\./, "");
    for (const child of this.children) {
      if (typeof child === "string") continue;
      if (child.className.split(" ").includes(wanted)) return child;
      const inner = child.querySelector(selector);
      if (inner) return inner;
    }
    return null;
  }
  append(...nodes: (El | string)[]): void {
    this.children.push(...nodes);
  }
  prepend(...nodes: (El | string)[]): void {
    this.children.unshift(...nodes);
  }
  addEventListener(): void {}
}

afterEach(() => {
  vi.unstubAllGlobals();
});

function install(): void {
  stubI18nAndNotifications();
  vi.stubGlobal("document", { createElement: (tag: string) => new El(tag) });
}

describe("the Build a hero button", () => {
  it("a directory without .header-actions still gets the button, at the top of its header, once", () => {
    install();
    const header = new El("header", "directory-header");
    const directory = new El("section", "actors-sidebar");
    directory.append(header, new El("ol", "directory-list"));
    addBuilderButton(directory as unknown as HTMLElement);
    addBuilderButton(directory as unknown as HTMLElement);
    const actions = header.children[0] as El;
    expect(actions.className).toContain("header-actions");
    expect(actions.children.filter((c) => typeof c !== "string" && c.className === BUILDER_BUTTON_CLASS)).toHaveLength(1);
  });

  it("core's directory: the button joins its .header-actions", () => {
    install();
    const actions = new El("div", "header-actions action-buttons flexrow");
    const header = new El("header", "directory-header");
    header.append(actions);
    const directory = new El("section");
    directory.append(header);
    addBuilderButton(directory as unknown as HTMLElement);
    expect(header.children).toHaveLength(1);
    expect(actions.querySelector(`.${BUILDER_BUTTON_CLASS}`)).not.toBeNull();
  });
});
