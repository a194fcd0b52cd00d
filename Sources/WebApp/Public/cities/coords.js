// City Roulette: a place typed by a person and the places found for it (pure; place.js uses it,
// tests/js/cities-logic.test.mjs tests it).
import { formatNumber } from '../js/format.js';

/**
 * Coordinates typed by a person: "43.77, 11.25", "43.77 11.25", "43.77° N, 11.25° E", "33.9 S 18.4 E".
 * Returns { latitude, longitude } or null.
 */
export function parseCoordinates(text) {
  const m = String(text)
    .trim()
    .match(/^(-?\d{1,2}(?:[.,]\d+)?)\s*°?\s*([NS])?\s*[,;\s]\s*(-?\d{1,3}(?:[.,]\d+)?)\s*°?\s*([EW])?$/i);
  if (!m) return null;
  const num = (s) => Number(s.replace(',', '.'));
  let latitude = num(m[1]);
  let longitude = num(m[3]);
  if (m[2] && m[2].toUpperCase() === 'S') latitude = -Math.abs(latitude);
  if (m[4] && m[4].toUpperCase() === 'W') longitude = -Math.abs(longitude);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude, longitude };
}

/** Whether a text is two numbers (typed as coordinates) that no place can have ("999, 999"). */
export const outOfRange = (text) =>
  !parseCoordinates(text) && /^\s*-?\d+(?:[.,]\d+)?\s*°?\s*[NS]?\s*[,;\s]\s*-?\d+(?:[.,]\d+)?\s*°?\s*[EW]?\s*$/i.test(text);

/**
 * What follows a found place's name in the list: the name it matched, the US state (GeoNames' admin1 code there is
 * the state's postal code; elsewhere it is a number, meaningless to a person), the country and the population, so
 * seven Florences in the United States read apart.
 */
export function placeDetails(place) {
  const also = place.matched_name && place.matched_name !== place.name ? ` (${place.matched_name})` : '';
  const state = place.country_code === 'US' && /^[A-Z]{2}$/.test(place.admin1_code || '') ? `${place.admin1_code}, ` : '';
  const people = place.population ? ` · ${formatNumber(place.population)} people` : '';
  return `${also}, ${state}${place.country_name || place.country_code}${people}`;
}
