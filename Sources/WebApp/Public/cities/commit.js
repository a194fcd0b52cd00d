// City Roulette: Import and Save of a scene (scene.js loads this with the first), through the outbox
// (js/sync.js): without the server, kept on this device and sent when it answers.
import { toast } from '../js/api.js';
import { confirmDialog } from '../js/dom.js';
import { plural } from '../js/format.js';
import * as sync from '../js/sync.js';
import { COLLECTION as collection, followCollection } from './collection.js';
import { describePlan, importPlan } from './plan.js';

const later = ' It reaches your collection when the connection is back.';

export async function commit(view, state) {
  if (state.kind === 'import') {
    // Cities already collected are replaced (their star too): say so first.
    const plan = view.stored ? importPlan(state, view.stored) : { added: state.size, replaced: 0, stars: [] };
    const text = describePlan(plan);
    if (text && !(await confirmDialog({ title: `Import ${plural(state.size, 'city', 'cities')}?`, text, ok: 'Import', cancel: 'Not yet' })))
      return;
    const sent = await sync.send('POST', `${collection}/import`, state.payload(), { label: 'the imported cities', scope: 'cities' });
    state.markSaved();
    const cities = await followCollection(sync, sent, (mine) => {
      const have = new Set(mine?.map((c) => c.geonameid));
      return mine && [...mine, ...state.myOrder().filter((r) => !have.has(r.geonameid))];
    });
    if (sent.queued) {
      toast(`Kept on this device: ${plural(state.size, 'city', 'cities')} to import.${later}`);
      view.onCommitted(cities?.length ?? state.size, true);
    } else {
      const result = sent.data;
      toast(
        `Imported ${plural(result.imported, 'city', 'cities')}` +
          (plan.replaced ? ` (${plan.added} new, ${plan.replaced} replaced)` : '') +
          `. Your collection has ${result.count}.`,
      );
      view.onCommitted(result.count, true);
    }
    return;
  }
  // The collection becomes what the scene shows, keeping what another device changed since the scene opened on it
  // (the payload's base); of two saves, the last wins. A save waiting on this device is replaced by this one in the
  // outbox, which then keeps that one's base (js/sync-logic.js, keepingBase): the server still has that collection.
  const payload = state.payload();
  const sent = await sync.send('PUT', collection, payload, { label: 'your cities', scope: 'cities', replace: 'cities:collection' });
  state.markSaved(!sent.queued);
  const cities = (await followCollection(sync, sent, () => state.myOrder())) ?? sent.data.cities;
  const elsewhere = cities.filter((c) => !state.get(c.geonameid)).length;
  const same = (a, b) => a.length === b.length && a.every((c, i) => c.geonameid === b[i].geonameid && c.favourite === b[i].favourite);
  // Changes kept from elsewhere: the scene shows the collection as it now is.
  if (!sent.queued && !same(cities, state.payload().cities)) view.show('browse', cities, view.labels, { ...view.snapshot(), state: null });
  else if (view.state === state) view.render(); // the line under the title: no more "changes not saved yet"
  toast(
    sent.queued
      ? `Saved on this device: ${plural(cities.length, 'city', 'cities')}.${later}`
      : `Saved: ${plural(cities.length, 'city', 'cities')} in your collection` +
          (elsewhere ? `, with ${plural(elsewhere, 'city', 'cities')} added on another device meanwhile.` : '.'),
  );
  view.onCommitted(cities.length, false);
}
