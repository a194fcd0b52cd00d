// City Roulette: coordinates typed by a person (pure; place.js uses it, tests/js/cities-logic.test.mjs tests it).

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
