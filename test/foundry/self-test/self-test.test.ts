/**
 * The in-Foundry self-test's pure half (src/foundry/self-test/batches.ts) and its registration
 * (quench.ts), against a fake Quench that records describe/it/before/after and runs them the
 * way mocha does (after hooks run even when a test or a before hook failed). The expected
 * values the batches compare with are checked here against the packs and the rules.
 */
import "../../support/foundry-globals";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  BATCHES,
  COMPENDIUM_HERO,
  EXCHANGE_ATTACKER,
  EXCHANGE_WEAPON,
  MAX_ATTACK_TRIES,
  MIGRATED_HERO,
  OLD_SCHEMA_HERO,
  SCRATCH_PREFIX,
  ScratchRecorder,
  batchKey,
  batchSpec,
  expectedHealth,
  playerApplyExpectation,
  registerBatches,
  runDeclared,
  scratchName,
  secondUserBatches,
  turnWalkProblems,
  wrongRunnerMessage,
  type BatchId,
  type BatchSpec,
  type Quench,
  type QuenchAssert,
  type QuenchContext,
  type Runner,
  type ScratchDocument,
  type Test,
} from "../../../src/foundry/self-test/batches";
import { ABILITY_KEYS, TURN_PHASES, characterStats, createExchange, declineDefence, targetActions, universalColor, type AbilitiesInput } from "../../../src/rules/index";
import { migrateCharacterSource } from "../../../src/foundry/data/migrations";
import { CombatDouble, CombatantDouble } from "../../support/foundry-double";
import { readPack } from "../../support/pack-files";
import type * as QuenchModule from "../../../src/foundry/self-test/quench";
import { exchangeInput } from "../../support/exchange-input";

// ── a fake Quench ───────────────────────────────────────────────────────────────────────

interface Suite {
  readonly name: string;
  readonly before: Test[];
  readonly after: Test[];
  readonly tests: { name: string; fn: Test }[];
  readonly suites: Suite[];
}

interface RunResult {
  readonly passed: string[];
  readonly failed: { name: string; error: string }[];
  readonly hookErrors: string[];
}

const assertDouble: QuenchAssert = {
  ok: (value, message) => {
    if (!value) throw new Error(message ?? "not ok");
  },
  equal: (a, b, message) => {
    if (a !== b) throw new Error(message ?? `${String(a)} !== ${String(b)}`);
  },
  deepEqual: (a, b, message) => {
    expect(a, message).toEqual(b);
  },
  isUndefined: (value, message) => {
    if (value !== undefined) throw new Error(message ?? "defined");
  },
  include: (haystack, needle, message) => {
    if (!(haystack as readonly unknown[]).includes(needle)) throw new Error(message ?? "not included");
  },
  isAbove: (value, above, message) => {
    if (!(value > above)) throw new Error(message ?? "not above");
  },
  fail: (message) => {
    throw new Error(message ?? "failed");
  },
};

/** One registered batch: its root suite as its function declared it. */
class FakeBatch {
  readonly root: Suite = { name: "", before: [], after: [], tests: [], suites: [] };

  constructor(
    readonly key: string,
    readonly displayName: string,
    readonly preSelected: boolean,
    fn: (context: QuenchContext) => void,
  ) {
    let current = this.root;
    const context: QuenchContext = {
      describe: (name, body) => {
        const suite: Suite = { name, before: [], after: [], tests: [], suites: [] };
        current.suites.push(suite);
        const parent = current;
        current = suite;
        body();
        current = parent;
      },
      it: (name, test) => current.tests.push({ name, fn: test }),
      before: (hook) => current.before.push(hook),
      after: (hook) => current.after.push(hook),
      assert: assertDouble,
    };
    fn(context);
  }

  /** Every test in the batch. */
  tests(suite: Suite = this.root): { name: string; fn: Test }[] {
    return [...suite.tests, ...suite.suites.flatMap((s) => this.tests(s))];
  }

  /** Runs the batch as mocha does: a failed before hook skips the suite's tests; after hooks always run. */
  async run(suite: Suite = this.root, result: RunResult = { passed: [], failed: [], hookErrors: [] }): Promise<RunResult> {
    let skip = false;
    for (const hook of suite.before) {
      try {
        await hook();
      } catch (error) {
        result.hookErrors.push(String(error));
        skip = true;
        break;
      }
    }
    if (!skip) {
      for (const t of suite.tests) {
        try {
          await t.fn();
          result.passed.push(t.name);
        } catch (error) {
          result.failed.push({ name: t.name, error: String(error) });
        }
      }
      for (const s of suite.suites) await this.run(s, result);
    }
    for (const hook of suite.after) {
      try {
        await hook();
      } catch (error) {
        result.hookErrors.push(String(error));
      }
    }
    return result;
  }
}

class FakeQuench implements Quench {
  readonly batches: FakeBatch[] = [];
  registerBatch(key: string, fn: (context: QuenchContext) => void, options: { displayName: string; preSelected: boolean }): void {
    this.batches.push(new FakeBatch(key, options.displayName, options.preSelected, fn));
  }
}

/** A fake world document: deleting it takes it out of `world`. */
class FakeDoc implements ScratchDocument {
  deletions = 0;
  constructor(
    readonly uuid: string,
    readonly world: Set<string>,
    readonly failDelete = false,
  ) {
    world.add(uuid);
  }
  delete(): Promise<unknown> {
    this.deletions += 1;
    if (this.failDelete) return Promise.reject(new Error("permission denied"));
    if (!this.world.delete(this.uuid)) return Promise.reject(new Error(`${this.uuid} does not exist`));
    return Promise.resolve(this);
  }
}

const BATCH_IDS = Object.keys(BATCHES) as BatchId[];

/** `game.modules` with the given modules active (Foundry's ModuleCollection: get(id)?.active). */
function activeModules(...ids: string[]): { get(id: string): { active: boolean } | undefined } {
  return { get: (id) => (ids.includes(id) ? { active: true } : undefined) };
}

// ── the real batches, registered through the real quench.ts ──────────────────────────────

describe("registerSelfTest: every batch registers with Quench on quenchReady", () => {
  let quench: FakeQuench;
  let hooks: Map<string, (q: Quench) => Promise<void>>;

  beforeAll(async () => {
    hooks = new Map();
    vi.stubGlobal("Hooks", { once: (hook: string, fn: (q: Quench) => Promise<void>) => hooks.set(hook, fn), on: vi.fn(), off: vi.fn() });
    vi.stubGlobal("Combat", CombatDouble);
    vi.stubGlobal("Combatant", CombatantDouble);
    // The batches' modules import the document classes; only their declarations run here.
    vi.stubGlobal("Roll", function Roll() {});
    vi.stubGlobal("game", { user: { isGM: true }, release: { generation: 13 }, modules: activeModules("quench") });
    const module: typeof QuenchModule = await import("../../../src/foundry/self-test/quench");
    module.registerSelfTest();
    quench = new FakeQuench();
    const ready = hooks.get("quenchReady");
    if (!ready) throw new Error("registerSelfTest did not wait for quenchReady");
    // With Quench active the batches start loading at init; loaded before Quench's setup hook
    // calls quenchReady, they register inside the hook, before Quench's auto-run at ready.
    await vi.dynamicImportSettled();
    void ready(quench);
    expect(quench.batches.length).toBeGreaterThan(0);
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });

  it("registers each batch of the list once, under its key and display name, and nothing else", () => {
    expect(quench.batches.map((b) => b.key)).toEqual(BATCH_IDS.map(batchKey));
    for (const b of quench.batches) {
      const id = b.key.replace(/^case\./, "") as BatchId;
      expect(b.displayName).toBe(BATCHES[id].displayName);
      expect(b.displayName).toMatch(/^CASE: /);
    }
    expect(new Set(quench.batches.map((b) => b.displayName)).size).toBe(quench.batches.length);
  });

  it("gives every batch tests, a before that checks the user and an after that cleans up", () => {
    for (const b of quench.batches) {
      expect(b.tests().length, b.key).toBeGreaterThan(0);
      expect(b.root.before, b.key).toHaveLength(1);
      expect(b.root.after, b.key).toHaveLength(1);
    }
  });

  it("covers what the issue lists: FEAT, exchange, turn, compendium, migration, and a second browser", () => {
    const names = (id: BatchId): string => (quench.batches.find((b) => b.key === batchKey(id))?.tests() ?? []).map((t) => t.name).join(" | ");
    expect(names("feat")).toMatch(/fighting.*agility\.dex/);
    expect(names("exchange")).toMatch(/attack card.*applies.*undoes/);
    expect(names("turn")).toMatch(/begins.*declaration.*every phase/);
    expect(names("compendium")).toContain(COMPENDIUM_HERO.name);
    expect(names("migration")).toMatch(/loads.*world migration/);
    expect(names("player")).toMatch(/No defence.*GM-only/);
  });

  it("a self-test batch for every flow: each flow the issue lists has its registered batch, whose tests prove it", () => {
    // Issue 22, item 4, in its own words: flow → the batch that proves it, and what its tests must name.
    const FLOWS: readonly { flow: string; batch: BatchId; proves: RegExp }[] = [
      { flow: "area attacks (template on 13, Region on 14)", batch: "areas", proves: /row for each token inside the area.*none for the one outside/ },
      { flow: "Active Effects (an effect changes an ability, a protection, @rank)", batch: "effects", proves: /ability.*protection.*@rank/ },
      { flow: "the character builder (ranks from the pack)", batch: "builder", proves: /Powers pack at the pack's rank/ },
      { flow: "the Karma tab (award, advance, log, pool)", batch: "karma", proves: /awards.*log.*advances.*group pool/ },
      { flow: "rest and recovery", batch: "rest", proves: /Health and a lost Endurance rank/ },
      { flow: "roll requests", batch: "rollRequest", proves: /asked by the Judge, rolled once/ },
      { flow: "minor foes", batch: "minorFoes", proves: /one group.*out of the fight/ },
      { flow: "slam moves", batch: "slam", proves: /moves the slammed token/ },
      { flow: "first aid", batch: "firstAid", proves: /talent stops a dying hero's loss/ },
      { flow: "impacts", batch: "impact", proves: /fall takes the rules' rebound/ },
      { flow: "regeneration at wrap-up", batch: "regeneration", proves: /Health at the wrap-up/ },
      { flow: "Apply to selected", batch: "applySelected", proves: /row's damage to the selected bystander/ },
      { flow: "Clear Chat Log mid-combat", batch: "clearChat", proves: /turn record.*attack card's record/ },
      { flow: "a deletion that must really delete on each version", batch: "deletion", proves: /compat\.ts is gone after the update.*foe bonus/ },
    ];
    const registered = new Map(quench.batches.map((b) => [b.key, b]));
    const missing = FLOWS.filter((f) => !registered.has(batchKey(f.batch))).map((f) => f.flow);
    expect(missing, "flows without a registered batch").toEqual([]);
    for (const { flow, batch, proves } of FLOWS) {
      const b = registered.get(batchKey(batch));
      expect(b?.tests().map((t) => t.name).join(" | "), flow).toMatch(proves);
      expect(BATCHES[batch].runner, flow).toBe("gm");
    }
  });

  it("ticks the batches the registering user can run, and leaves the player's batch for the second browser (and Clear Chat Log for a test world)", async () => {
    const destructive = (id: BatchId): boolean => (BATCHES[id] as { destructive?: true }).destructive === true;
    expect(quench.batches.filter((b) => b.preSelected).map((b) => b.key)).toEqual(BATCH_IDS.filter((id) => BATCHES[id].runner === "gm" && !destructive(id)).map(batchKey));
    expect(BATCH_IDS.filter(destructive)).toEqual(["clearChat"]);
    expect(quench.batches.find((b) => b.key === batchKey("clearChat"))?.preSelected).toBe(false);
    const { registerSuite } = await import("../../../src/foundry/self-test/suite");
    const asPlayer = new FakeQuench();
    vi.stubGlobal("game", { user: { isGM: false }, release: { generation: 13 } });
    try {
      registerSuite(asPlayer);
    } finally {
      vi.stubGlobal("game", { user: { isGM: true }, release: { generation: 13 }, modules: activeModules("quench") });
    }
    expect(asPlayer.batches.filter((b) => b.preSelected).map((b) => b.key)).toEqual([batchKey("player")]);
  });

  it("without Quench active at init, still registers every batch when a quenchReady comes (loading them then)", async () => {
    vi.stubGlobal("game", { user: { isGM: true }, release: { generation: 13 }, modules: activeModules() });
    try {
      const module: typeof QuenchModule = await import("../../../src/foundry/self-test/quench");
      module.registerSelfTest();
      const late = new FakeQuench();
      await hooks.get("quenchReady")?.(late);
      expect(late.batches.map((b) => b.key)).toEqual(BATCH_IDS.map(batchKey));
    } finally {
      vi.stubGlobal("game", { user: { isGM: true }, release: { generation: 13 }, modules: activeModules("quench") });
    }
  });

  it("refuses a GM batch run by a player before it makes anything (the tests are skipped, the cleanup still runs)", async () => {
    vi.stubGlobal("game", { user: { isGM: false }, release: { generation: 13 } });
    const feat = quench.batches.find((b) => b.key === batchKey("feat"));
    const result = await feat?.run();
    expect(result?.passed).toEqual([]);
    expect(result?.failed).toEqual([]);
    expect(result?.hookErrors).toEqual([`Error: ${wrongRunnerMessage(BATCHES.feat)}`]);
    vi.stubGlobal("game", { user: { isGM: true }, release: { generation: 13 }, modules: activeModules("quench") });
  });
});

describe("quench auto-run before chunk: every batch registers at quenchReady and runs once the chunk loads", () => {
  afterAll(() => {
    vi.doUnmock("../../../src/foundry/self-test/suite");
    vi.resetModules();
    vi.unstubAllGlobals();
  });

  it("quench auto-run before chunk: quenchReady and an immediate run while the batches' import is pending find every batch, and each runs its own tests once loaded", async () => {
    // Quench calls quenchReady in its setup hook and auto-runs at ready, calling each registered
    // batch's function then (public Ethaks/FVTT-Quench src/module/quench.ts, runSelectedBatches):
    // the fake Quench calls it at registration, so the run's declaration happens while pending.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const ran: string[] = [];
    vi.resetModules();
    vi.doMock("../../../src/foundry/self-test/suite", async () => {
      await gate;
      const SELF_TEST_BATCHES = BATCH_IDS.map((id) =>
        batchSpec<ScratchDocument>(id, ({ describe: inner, it: test, before }) => {
          before(() => void ran.push(`${id} before`));
          inner("its flow", () => {
            test("its test", () => void ran.push(id));
          });
        }),
      );
      // The real wrapper (its user check and cleanup), this user a GM.
      const registerSuite = (q: Quench): void => {
        registerBatches(q, SELF_TEST_BATCHES, { runner: () => "gm", exists: () => true });
      };
      return { SELF_TEST_BATCHES, runDeclared, registerSuite };
    });
    const hooks = new Map<string, (q: Quench) => unknown>();
    vi.stubGlobal("Hooks", { once: (hook: string, fn: (q: Quench) => unknown) => hooks.set(hook, fn) });
    const asGm = { user: { isGM: true }, release: { generation: 13 }, modules: activeModules("quench") };
    vi.stubGlobal("game", asGm);
    const module: typeof QuenchModule = await import("../../../src/foundry/self-test/quench");
    module.registerSelfTest();
    const quench = new FakeQuench();
    void hooks.get("quenchReady")?.(quench);
    // Synchronously, in the hook: every batch, under its key, name and tick.
    expect(quench.batches.map((b) => b.key)).toEqual(BATCH_IDS.map(batchKey));
    expect(quench.batches.map((b) => b.displayName)).toEqual(BATCH_IDS.map((id) => BATCHES[id].displayName));
    expect(quench.batches.find((b) => b.key === batchKey("clearChat"))?.preSelected).toBe(false);
    // The immediate run, before the chunk arrives.
    const runs = quench.batches.map((b) => b.run());
    await Promise.resolve();
    expect(ran).toEqual([]);
    release();
    const results = new Map((await Promise.all(runs)).map((r, i) => [quench.batches[i]?.key, r]));
    for (const id of BATCH_IDS.filter((i) => BATCHES[i].runner === "gm")) expect(results.get(batchKey(id)), id).toEqual({ passed: ["runs once the CASE batches have loaded"], failed: [], hookErrors: [] });
    // The player's batch, run by the GM, is refused by its user check before its tests, as when loaded.
    expect(results.get(batchKey("player"))?.failed[0]?.error).toContain(wrongRunnerMessage(BATCHES.player));
    // The runs overlap (the double does not queue them): each batch's own order, then all of them.
    const gmIds = BATCH_IDS.filter((id) => BATCHES[id].runner === "gm");
    for (const id of gmIds) expect(ran.filter((r) => r === id || r === `${id} before`)).toEqual([`${id} before`, id]);
    expect(ran).toHaveLength(2 * gmIds.length);
  });

  it("quench auto-run before chunk: a batch run that way fails, naming the test, when one of its tests fails, and still runs its after hooks", async () => {
    const done: string[] = [];
    const run = runDeclared(({ describe: inner, it: test, after }) => {
      after(() => void done.push("after"));
      inner("flow", () => {
        test("breaks", () => {
          throw new Error("boom");
        });
        test("holds", () => void done.push("holds"));
      });
    }, assertDouble);
    await expect(run).rejects.toThrow("breaks: boom");
    expect(done).toEqual(["holds", "after"]);
  });
});

describe("the README's self-test section", () => {
  it("names every batch the self-test registers", () => {
    const readme = readFileSync("README.md", "utf8");
    const start = readme.indexOf("**Self-test in your world.**");
    const section = readme.slice(start, readme.indexOf("\n## ", start));
    const unnamed = BATCH_IDS.filter((id) => !section.includes(BATCHES[id].displayName.replace(/^CASE: /, "").replace(/ \(.*$/, "")));
    expect(start).toBeGreaterThan(0);
    expect(unnamed).toEqual([]);
  });
});

// ── the decision of who runs what ─────────────────────────────────────────────────────────

describe("which batches need a second user", () => {
  it("only the player batch, and its name says what to do", () => {
    expect(secondUserBatches()).toEqual(["player"]);
    expect(BATCHES.player.displayName).toMatch(/second browser/);
    expect(BATCHES.player.displayName).toMatch(/log in as a player/);
    for (const id of BATCH_IDS.filter((i) => i !== "player")) expect(BATCHES[id].runner).toBe("gm");
  });

  it("tells the wrong user which browser to use", () => {
    expect(wrongRunnerMessage(BATCHES.turn)).toMatch(/as a GM/);
    expect(wrongRunnerMessage(BATCHES.player)).toMatch(/as a player .*second browser/);
  });

  it("expects a player's Apply by the world's setting", () => {
    expect(playerApplyExpectation("owners")).toBe("applies");
    expect(playerApplyExpectation("gm")).toBe("forbidden");
  });
});

// ── the scratch recorder and the cleanup ─────────────────────────────────────────────────

describe("the scratch recorder", () => {
  it("deletes what it recorded, newest first, skips what is gone and forgets it all", async () => {
    const world = new Set<string>();
    const order: string[] = [];
    const scratch = new ScratchRecorder<FakeDoc>((d) => world.has(d.uuid));
    const scene = scratch.record(new FakeDoc("Scene.a", world));
    const token = scratch.record(new FakeDoc("Scene.a.Token.b", world));
    const actor = scratch.record(new FakeDoc("Actor.c", world));
    scratch.record(actor); // twice: once in the list
    for (const d of [scene, token, actor]) {
      const original = d.delete.bind(d);
      d.delete = () => {
        order.push(d.uuid);
        return original();
      };
    }
    world.delete(token.uuid); // gone with its scene, say
    expect(scratch.uuids).toEqual(["Scene.a", "Scene.a.Token.b", "Actor.c"]);
    const report = await scratch.cleanup();
    expect(order).toEqual(["Actor.c", "Scene.a"]);
    expect(report).toEqual({ deleted: ["Actor.c", "Scene.a"], gone: ["Scene.a.Token.b"], failed: [] });
    expect(world.size).toBe(0);
    expect(await scratch.cleanup()).toEqual({ deleted: [], gone: [], failed: [] });
    expect(actor.deletions).toBe(1);
  });

  it("deletes chat messages last: a combat goes before its turn record, so the GM does not write the record again (records survive clear chat)", async () => {
    const world = new Set<string>();
    const scratch = new ScratchRecorder<FakeDoc>((d) => world.has(d.uuid));
    scratch.record(new FakeDoc("ChatMessage.record", world));
    scratch.record(new FakeDoc("Combat.fight", world));
    scratch.record(new FakeDoc("ChatMessage.card", world));
    expect((await scratch.cleanup()).deleted).toEqual(["Combat.fight", "ChatMessage.card", "ChatMessage.record"]);
  });

  it("keeps deleting after one deletion fails, and reports it", async () => {
    const world = new Set<string>();
    const scratch = new ScratchRecorder<FakeDoc>((d) => world.has(d.uuid));
    scratch.record(new FakeDoc("Actor.a", world));
    scratch.record(new FakeDoc("Actor.b", world, true));
    scratch.record(new FakeDoc("Actor.c", world));
    const report = await scratch.cleanup();
    expect(report.deleted).toEqual(["Actor.c", "Actor.a"]);
    expect(report.failed).toEqual([{ uuid: "Actor.b", error: "permission denied" }]);
  });

  it("refuses a document that was not made, naming it", () => {
    const scratch = new ScratchRecorder<FakeDoc>(() => true);
    expect(() => scratch.record(null, "the scene")).toThrow("The self-test could not create the scene.");
    expect(() => scratch.record(undefined)).toThrow(/could not create a document/);
  });

  it("names scratch documents so a leftover is found by eye", () => {
    expect(scratchName("target")).toBe(`${SCRATCH_PREFIX}: target`);
    expect(() => scratchName(" ")).toThrow(RangeError);
  });
});

describe("registerBatches: the after hook deletes everything, even after a failing test", () => {
  function host(world: Set<string>, runner: Runner = "gm") {
    return { runner: () => runner, exists: (d: FakeDoc) => world.has(d.uuid) };
  }

  it("a batch whose second test fails still deletes what both tests made", async () => {
    const world = new Set<string>();
    const spec = batchSpec<FakeDoc>("exchange", ({ describe: d, it: t }, scratch) => {
      d("made, then failed", () => {
        t("makes a scene and an actor", () => {
          scratch.record(new FakeDoc("Scene.s", world));
          scratch.record(new FakeDoc("Actor.a", world));
        });
        t("makes a card, then fails", () => {
          scratch.record(new FakeDoc("ChatMessage.m", world));
          throw new Error("the to-hit never came");
        });
      });
    });
    const quench = new FakeQuench();
    registerBatches(quench, [spec], host(world));
    const result = await quench.batches[0]?.run();
    expect(result?.passed).toEqual(["makes a scene and an actor"]);
    expect(result?.failed).toEqual([{ name: "makes a card, then fails", error: "Error: the to-hit never came" }]);
    expect(result?.hookErrors).toEqual([]);
    expect(world.size).toBe(0);
  });

  it("fails the after hook, naming the documents left, when a deletion fails", async () => {
    const world = new Set<string>();
    const spec = batchSpec<FakeDoc>("turn", ({ it: t }, scratch) => {
      t("makes a locked thing", () => {
        scratch.record(new FakeDoc("Combat.c", world, true));
      });
    });
    const quench = new FakeQuench();
    registerBatches(quench, [spec], host(world));
    const result = await quench.batches[0]?.run();
    expect(result?.hookErrors).toHaveLength(1);
    expect(result?.hookErrors[0]).toMatch(/could not delete Combat\.c \(permission denied\).*CASE self-test/);
  });

  it("each run of a batch gets its own recorder", async () => {
    const world = new Set<string>();
    let made = 0;
    const spec = batchSpec<FakeDoc>("feat", ({ it: t }, scratch) => {
      t("makes one", () => {
        made += 1;
        scratch.record(new FakeDoc(`Actor.${String(made)}`, world));
      });
    });
    const quench = new FakeQuench();
    registerBatches(quench, [spec], host(world));
    registerBatches(new FakeQuench(), [spec], host(world));
    await quench.batches[0]?.run();
    expect(world.size).toBe(0);
    expect(made).toBe(1);
  });

  it("refuses two batches with one key", () => {
    const spec: BatchSpec<FakeDoc> = batchSpec<FakeDoc>("feat", () => undefined);
    expect(() => {
      registerBatches(new FakeQuench(), [spec, spec], host(new Set()));
    }).toThrow(/share the key case\.feat/);
  });
});

// ── what the batches expect, against the packs and the rules ─────────────────────────────

describe("the values the batches expect", () => {
  it("the compendium hero's derived values are the rules' for the pack's abilities", () => {
    const file = readPack(COMPENDIUM_HERO.pack).find((f) => f.doc?.name === COMPENDIUM_HERO.name);
    expect(file, `${COMPENDIUM_HERO.name} in packs/${COMPENDIUM_HERO.pack}`).toBeDefined();
    const doc = file?.doc as { type: string; items: unknown[]; system: { abilities: AbilitiesInput } };
    expect(doc.type).toBe("hero");
    expect(doc.items).toHaveLength(COMPENDIUM_HERO.items);
    const stats = characterStats(doc.system.abilities);
    expect({ healthMax: stats.healthMax, karmaMax: stats.karmaMax, initiative: stats.initiative }).toEqual({
      healthMax: COMPENDIUM_HERO.healthMax,
      karmaMax: COMPENDIUM_HERO.karmaMax,
      initiative: COMPENDIUM_HERO.initiative,
    });
  });

  it("the old-schema actor migrates to the values the migration batch checks", () => {
    const source = migrateCharacterSource(structuredClone(OLD_SCHEMA_HERO)) as {
      abilities: Record<string, { value: number }>;
      health: { value: number };
      karma: { value: number };
    };
    for (const key of ABILITY_KEYS) expect(source.abilities[key]?.value, key).toBe(MIGRATED_HERO.abilities[key]);
    expect(source.health.value).toBe(MIGRATED_HERO.health);
    expect(source.karma.value).toBe(MIGRATED_HERO.karma);
    // Every ability is old-style in the source, so the batch really exercises the migration.
    for (const key of ABILITY_KEYS) expect(typeof OLD_SCHEMA_HERO.abilities[key]).not.toBe("object");
  });

  it("the exchange's attacker misses on white only, so the tries make a hit all but certain", () => {
    const whites = Array.from({ length: 100 }, (_, i) => i + 1).filter((die) => universalColor(EXCHANGE_ATTACKER.abilities.fighting.value, die) === "white").length;
    expect(whites).toBeLessThan(100);
    expect((whites / 100) ** MAX_ATTACK_TRIES).toBeLessThan(1e-6);
  });

  it("the exchange's attack leaves its target defences to choose, and No defence resolves the row", () => {
    const target = { uuid: "Actor.t", actorUuid: "Actor.t", name: "t", scores: { "agility.bal": 6, "fighting.def": 6, "strength.mgt": 6, "endurance.res": 100 }, armor: { body: 0, energy: 0 } };
    const state = createExchange(exchangeInput({
      attack: EXCHANGE_WEAPON.attack.type,
      source: "club",
      attacker: { uuid: "Actor.a", name: "a", value: EXCHANGE_ATTACKER.abilities.fighting.value, strength: EXCHANGE_ATTACKER.abilities.strength.value, armor: 0 },
      damage: { method: "static", value: EXCHANGE_WEAPON.damage.rank },
      targets: [target],
    }));
    const key = state.targets[0]?.key ?? "";
    expect(state.targets[0]?.phase).toBe("awaitingDefence");
    expect(targetActions(state, key).defend.length).toBeGreaterThan(0);
    expect(declineDefence(state, key).targets[0]?.phase).toBe("awaitingToHit");
  });

  it("Apply and Undo read their Health from the card's record", () => {
    expect(expectedHealth({ healthBefore: 118, healthAfter: 108 })).toEqual({ afterApply: 108, afterUndo: 118 });
    expect(() => expectedHealth({ healthBefore: 10, healthAfter: 12 })).toThrow(RangeError);
  });
});

describe("turnWalkProblems: one turn as the tracker walks it", () => {
  it("accepts the whole table and the walks that pass by the optional phases", () => {
    expect(turnWalkProblems([...TURN_PHASES, "declare"], 1, 2)).toEqual([]);
    expect(turnWalkProblems(["declare", "initiative", "resolve", "wrapUp", "declare"], 3, 4)).toEqual([]);
    expect(turnWalkProblems(["declare", "initiative", "resolve", "extraRounds", "extraRounds", "wrapUp", "declare"], 1, 2)).toEqual([]);
  });

  it("names what is wrong", () => {
    expect(turnWalkProblems(["declare", "resolve", "initiative", "wrapUp", "declare"], 1, 2)).toContain("initiative came after resolve");
    expect(turnWalkProblems(["declare", "initiative", "resolve", "wrapUp"], 1, 2)).toContain("the turn does not come back to declare");
    expect(turnWalkProblems(["initiative", "resolve", "wrapUp", "declare"], 1, 2)).toContain("the turn starts in initiative, not declare");
    expect(turnWalkProblems(["declare", "initiative", "wrapUp", "declare"], 1, 2)).toContain("the turn skipped resolve");
    expect(turnWalkProblems(["declare", "initiative", "resolve", "resolve", "wrapUp", "declare"], 1, 2)).toContain("a phase came twice");
    expect(turnWalkProblems([...TURN_PHASES, "declare"], 1, 1)).toContain("the turn number went from 1 to 1");
  });
});
