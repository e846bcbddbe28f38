// rulelinks.js: the address of the rules page for a table (what a table
// needs of the rules without loading the rules page itself, rules.js).

// The sections a table's rules open at, most specific first: its house
// rules, then its expansions, else the base game. `state`: a table's
// state (rules as the record's words, expansions' names).
export function rulesSectionsFor(state) {
  const rules = (state?.rules || []).map((r) => `rule-${String(r).split('=')[0]}`);
  return [...rules, ...(state?.expansions || []), 'base'];
}

// The address of the rules for a table, opened at its first section.
export function rulesUrl(state) {
  return `/?rules=${encodeURIComponent(rulesSectionsFor(state)[0])}`;
}
