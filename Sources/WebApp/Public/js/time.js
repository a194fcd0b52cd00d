// Trove: one way to write a time or a date with its time, in every app: the browser's locale (Intl), as the
// phone's own clock does ("3:25 AM", "03:25" or "15:25", never one app with a leading zero and another without).
const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const when = (value) => {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** An instant's time of day here: "3:25 AM" (en-US), "03:25" (en-GB); '' for nothing or nonsense. */
export const formatTime = (value) => (value && when(value) ? time.format(when(value)) : '');
/** An instant's date and time here: "Nov 25, 2026, 3:25 AM"; nonsense → itself. */
export const formatDateTime = (value) => (when(value) ? dateTime.format(when(value)) : String(value ?? ''));
