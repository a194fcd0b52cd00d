// City Roulette: what an Import will do to the collection (pure; commit.js asks before replacing).

/**
 * What importing a scene would do to a collection (Map geonameid → stored favourite): how many cities are new,
 * which are replaced, and the replaced ones whose star changes ({ name, favourite } with the new star).
 */
export function importPlan(state, stored) {
  const plan = { added: 0, replaced: 0, stars: [] };
  for (const row of state.myOrder()) {
    if (!stored.has(row.geonameid)) {
      plan.added += 1;
      continue;
    }
    plan.replaced += 1;
    if (stored.get(row.geonameid) !== row.favourite) plan.stars.push({ name: row.name, favourite: row.favourite });
  }
  return plan;
}

/** A sentence for an import plan, or '' when nothing is replaced. */
export function describePlan({ added, replaced, stars }) {
  if (!replaced) return '';
  const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  const gain = stars.filter((s) => s.favourite).map((s) => s.name);
  const lose = stars.filter((s) => !s.favourite).map((s) => s.name);
  return [
    `${n(added, 'city is', 'cities are')} new; ${n(replaced, 'city is', 'cities are')} already in your collection and will be replaced.`,
    lose.length ? `${lose.join(', ')} will lose ${lose.length === 1 ? 'its' : 'their'} star.` : '',
    gain.length ? `${gain.join(', ')} will be starred.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}
