/**
 * An area attack: a power with a burst is aimed on a scratch scene, then made through the
 * attack query with its area. The GM reads the area and the scene's tokens itself: one card,
 * a row for each token inside (at its distance from the centre), none for the one outside.
 * The area is placed by {@link placeScratchArea} alone, so the Region path of Foundry 14 slots
 * in there.
 */
import type { AreaDefinition, GridPoint } from "../../rules/index";
import { DEFAULT_ATTACK_INPUT } from "../exchange/attack-input";
import { areaDocumentName } from "../core/compat";
import { areaRegionData, areaTemplateData, areaTemplateFlags } from "../exchange/area-template";
import { attackQuery } from "../exchange/make-attack";
import { batchSpec, scratchName } from "./batches";
import { ask } from "./exchange";
import { AREA_CASE, areaRowProblems } from "./expected";
import { cardState } from "./fight";
import { scratchActor, scratchScene, scratchTokensAt, type Recorder, type Scratch } from "./scratch";

/**
 * AREAS: places the area as the attacker's click does today (area-template.ts `placeArea`: a
 * MeasuredTemplate with the item's flag, drawn by `areaTemplateData`; on 14 a Region drawn by
 * `areaRegionData`), recorded; returns what the attack query is given with it.
 */
export async function placeScratchArea(scratch: Recorder, scene: Scene.Implementation, itemUuid: string, area: AreaDefinition, aim: GridPoint, origin: GridPoint): Promise<{ templateUuid: string }> {
  const flags = areaTemplateFlags(itemUuid);
  const region = areaRegionData(area, aim, origin, scene.grid, flags, scratchName("area"));
  const [made] = areaDocumentName() === "Region" ? await scene.createEmbeddedDocuments("Region", [{ ...region, shapes: [...region.shapes], visibility: CONST.REGION_VISIBILITY.ALWAYS }]) : await scene.createEmbeddedDocuments("MeasuredTemplate", [areaTemplateData(area, aim, origin, scene.grid, flags)]);
  return { templateUuid: scratch.record(made, "the area").uuid };
}

export const areasBatch = batchSpec<Scratch>("areas", ({ describe, it, assert }, scratch) => {
  describe("an area attack", () => {
    it("makes one card with a row for each token inside the area and none for the one outside", async () => {
      const attacker = await scratchActor(scratch, "area attacker", { abilities: { agility: { value: 100 } } });
      const bystanders = await Promise.all([...AREA_CASE.inside, ...AREA_CASE.outside].map((_, i) => scratchActor(scratch, `area target ${String(i + 1)}`, { abilities: { endurance: { value: 100 } } })));
      const [power] = await attacker.createEmbeddedDocuments("Item", [
        { name: scratchName("burst"), type: "power", system: { rank: 30, attack: { enabled: true, type: "En", range: 10, area: AREA_CASE.area } } },
      ]);
      assert.ok(power, "the burst power exists");
      if (!power) return;
      const scene = await scratchScene(scratch, "area");
      const squares = [AREA_CASE.attacker, ...AREA_CASE.inside, ...AREA_CASE.outside];
      const tokens = await scratchTokensAt(
        scratch,
        scene,
        [attacker, ...bystanders].map((actor, i) => ({ actor, square: squares[i] ?? { x: 0, y: 0 } })),
      );
      const inside = tokens.slice(1, 1 + AREA_CASE.inside.length).map((t) => t.uuid);
      const outside = tokens.slice(1 + AREA_CASE.inside.length).map((t) => t.uuid);
      const { templateUuid } = await placeScratchArea(scratch, scene, power.uuid, AREA_CASE.area, AREA_CASE.aim, AREA_CASE.attacker);
      // AREAS: the attack as the attacker's client sends it once the area is placed (its targets: whom the area covers).
      const answer = await ask(scratch, attackQuery, { itemUuid: power.uuid, targetUuids: inside, input: { ...DEFAULT_ATTACK_INPUT }, templateUuid });
      const card = game.messages.get(answer?.messageId ?? "");
      assert.ok(card?.author?.isGM, "the GM wrote the card");
      const rows = cardState(card?.id ?? "").targets;
      assert.deepEqual(areaRowProblems(rows.map((r) => r.uuid), inside, outside), [], "the rows are the tokens inside");
      for (const row of rows) assert.ok(typeof row.areaDistance === "number", `${row.name} has its distance from the centre`);
    });
  });
});
