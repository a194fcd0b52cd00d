// City Roulette: the collection's copy on this device after a change made here. js/sync.js's `read` keeps the
// collection as last read, and offline My cities opens from that copy, so a change is followed into it: read again
// once the server has the change, or made in the copy while it waits. The offline layer is passed in (`sync`), as
// the city's card loads it only after the page.
export const COLLECTION = '/api/v1/cities/collection';

/**
 * Follows a change sent through `sync.send` (its answer is `sent`). While it waits, `change` turns the kept cities
 * (null when this device has no copy) into the cities to show, or returns null to leave the copy as it is: a part of
 * the collection must not stand for all of it. Returns the copy's new cities, if any; once the server has the
 * change, the copy is read again in the background.
 */
export async function followCollection(sync, sent, change) {
  if (!sent.queued) {
    sync.read(COLLECTION, 'cities').catch(() => {});
    return null;
  }
  const mine = await sync.kept(COLLECTION);
  const cities = change(mine?.cities ?? null)?.map((c, i) => ({ ...c, position: i }));
  if (cities) await sync.keep(COLLECTION, { ...mine, cities });
  return cities ?? null;
}
