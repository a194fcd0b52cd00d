// City Roulette: weather icons drawn by Trove (SVG markup, 24 × 24, coloured by cities.css). No DOM.

export const CONDITIONS = ['clear', 'partly_cloudy', 'cloudy', 'fog', 'drizzle', 'rain', 'snow', 'thunderstorm', 'unknown'];

const CLOUD = 'M7 19h10.5a4 4 0 0 0 .4-8A6 6 0 0 0 6.4 11 4 4 0 0 0 7 19z';
const SMALL_CLOUD = 'M8 20h9a3.4 3.4 0 0 0 .3-6.8A5 5 0 0 0 7.6 13.6 3.2 3.2 0 0 0 8 20z';
const HIGH_CLOUD = 'M7 15h10.5a3.6 3.6 0 0 0 .3-7.2A5.4 5.4 0 0 0 6.6 8.4 3.3 3.3 0 0 0 7 15z';

const sun = (cx, cy, r) => {
  let rays = '';
  for (let i = 0; i < 8; i += 1) {
    const a = (i * Math.PI) / 4;
    const p = (d) => `${(cx + Math.cos(a) * d).toFixed(1)} ${(cy + Math.sin(a) * d).toFixed(1)}`;
    rays += `M${p(r + 2)}L${p(r + 4)}`;
  }
  return `<circle class="wx-sun" cx="${cx}" cy="${cy}" r="${r}"/><path class="wx-ray" d="${rays}"/>`;
};
const moon = (s = 1, dx = 0, dy = 0) =>
  `<path class="wx-moon" transform="translate(${dx} ${dy}) scale(${s})" d="M15.5 4.2A8 8 0 1 0 19.8 15 6.4 6.4 0 0 1 15.5 4.2z"/>`;
const lines = (d, cls) => `<path class="${cls}" d="${d}"/>`;

const DRAW = {
  clear: (day) => (day ? sun(12, 12, 4.5) : moon()),
  partly_cloudy: (day) => (day ? sun(9, 8, 3.4) : moon(0.6, 2, 1)) + `<path class="wx-cloud" d="${SMALL_CLOUD}"/>`,
  cloudy: () => `<path class="wx-cloud wx-back" d="M14 9.5h5a3 3 0 0 0 0-6 4 4 0 0 0-7.6 1"/><path class="wx-cloud" d="${CLOUD}"/>`,
  fog: () => `<path class="wx-cloud" d="${HIGH_CLOUD}"/>${lines('M4 18h16M6 21h12', 'wx-fog')}`,
  drizzle: () => `<path class="wx-cloud" d="${HIGH_CLOUD}"/>${lines('M8.5 18.5v.5M12 20v.5M15.5 18.5v.5M10 22v.01M14 22v.01', 'wx-rain')}`,
  rain: () => `<path class="wx-cloud" d="${HIGH_CLOUD}"/>${lines('M8.5 17l-1 4M12.5 17l-1 4M16.5 17l-1 4', 'wx-rain')}`,
  snow: () =>
    `<path class="wx-cloud" d="${HIGH_CLOUD}"/>${lines('M8 18.5v3M6.7 20h2.6M12 17.5v3M10.7 19h2.6M16 18.5v3M14.7 20h2.6', 'wx-snow')}`,
  thunderstorm: () => `<path class="wx-cloud" d="${HIGH_CLOUD}"/><path class="wx-bolt" d="M12.5 14l-3 5h3l-1.5 4.5 4.5-6h-3l1.5-3.5z"/>`,
  unknown: () =>
    `<path class="wx-cloud" d="${CLOUD}"/><path class="wx-mark" d="M10.3 12.6a1.8 1.8 0 1 1 2.4 1.7c-.5.2-.7.6-.7 1.1M12 17.2v.01"/>`,
  unavailable: () => `<path class="wx-cloud wx-off" d="${CLOUD}"/><path class="wx-mark" d="M4 4l16 16"/>`,
};

/** The icon's name: a known condition, else 'unknown'; clear and partly cloudy have night forms. */
export function iconKey(condition, isDay = true) {
  const key = CONDITIONS.includes(condition) ? condition : 'unknown';
  return (key === 'clear' || key === 'partly_cloudy') && isDay === false ? `${key}-night` : key;
}

/** SVG markup for a condition (or 'unavailable'), with an accessible name when `label` is given. */
export function weatherSVG(condition, isDay = true, label = '') {
  const draw = DRAW[condition] || DRAW.unknown;
  const name = label ? `role="img" aria-label="${label.replace(/[<>&"]/g, '')}"` : 'aria-hidden="true"';
  return `<svg class="wx wx-${condition === 'unavailable' ? condition : iconKey(condition, isDay)}" viewBox="0 0 24 24" width="28" height="28" ${name}>${draw(isDay !== false)}</svg>`;
}
