/**
 * The public face of the CASE rules engine. Pure TypeScript: no Foundry, no DOM.
 *
 * ranks            the rank ladder and column shifts (§1)
 * universal-table  colours, odds, the replaceable table (§2)
 * abilities        abilities, sub-scores, Health, Karma, Table 24, running speed (§3, §9)
 * actions          ACTIONs against an intensity, Karma, Table 22, extra actions and defences (§2, §4)
 * initiative       Table 23, ordering and ties, optional initiative modes (§4)
 * character        a character's derived values
 * attacks          attack rows, pulls, charging, ranged penalties, grabs and holds (§5)
 * defences         defence rows and what each applies to, protection, catching (§6)
 * damage           static and intensity damage, armor (§5, §7)
 * consequences     Slam?, Stun?, Kill? (§8)
 * powers           power categories and talents (§10)
 * turn             the six steps of a turn, as a pure state machine (§4, §6 declared dodge, §8)
 * protection       armor and protective powers against each attack type, with Block/Brace and charges (§5, Errata)
 * obstacles        the per-object breakdown of damage through objects in the path (§5)
 * first-aid        who may aid whom (Aided, first aid reviving the stunned), §8
 * impacts          the Judge's falls and charges at objects (material strength as body armor, §5)
 * ammunition       shots per attack, refusing an empty weapon, reloads (§4 wrap-up)
 * recovery         rest, lost Endurance ranks, regeneration, first aid, 0 Health
 * karma            the Karma log, advancement costs, the group Karma pool
 * feats            Resources and Popularity FEATs
 * creation         random and point-based character creation
 * minor-foes       the minor-foe rule and group initiative
 * areas            area and explosive attacks on the grid
 * effects          Active Effect changes to scores, before derived values
 * board            range between tokens and where a slam throws a token, on the grid
 * stat-block       reading a pasted FASERIP-style stat block into an NPC's numbers
 * fight-log        a combat's log from its attack cards and ledgers; foes beaten and rescues
 * follow-ups       which seed results (collisions, Break, catch damage, Reversal, Mercy Bullets) a card row offers
 */
export * from "./ranks";
export * from "./universal-table";
export * from "./abilities";
export * from "./actions";
export * from "./initiative";
export * from "./character";
export * from "./attacks/index";
export * from "./defences";
export * from "./damage";
export * from "./consequences";
export * from "./powers";
export * from "./turn/index";
export * from "./exchange/index";
export * from "./attack-setup";
export * from "./protection";
export * from "./obstacles";
export * from "./ammunition";
export * from "./recovery";
export * from "./karma";
export * from "./feats";
export * from "./creation";
export * from "./minor-foes";
export * from "./areas";
export * from "./effects";
export * from "./roll-request";
export * from "./board";
export * from "./impacts";
export * from "./first-aid";
export * from "./collisions";
export * from "./combat-results";
export * from "./power-rulings";
export * from "./stat-block";
export * from "./fight-log";
export * from "./follow-ups";
