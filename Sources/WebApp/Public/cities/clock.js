// City Roulette: a time in a city's own time zone (pure; city.js uses it).

/** Hour and minute of an ISO instant in a time zone ("07:12"), or '' when there is none. */
export function formatLocalTime(iso, timeZone, date = iso ? new Date(iso) : null) {
  if (!date || Number.isNaN(date.getTime())) return '';
  try {
    return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }).format(date) + ' UTC';
  }
}
