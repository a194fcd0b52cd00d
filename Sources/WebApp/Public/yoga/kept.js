// Which parts of the yoga API's answers the device keeps (yoga/local.js), pure: loaded with the page, while
// model.js (answers and writes worked out on the device) loads only when a write or an offline read needs it.
const copy = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

const PARTS = [
  [/^\/students(\?|$)/, 'students', (a) => a.students],
  [/^\/student-types$/, 'types', (a) => a.types],
  [/^\/settings$/, 'settings', (a) => a],
  [/^\/venues$/, 'venues', (a) => a.venues],
  [/^\/class$/, 'class', (a) => a.class],
  [/^\/sessions(\?|$)/, 'sessions', (a) => a.sessions],
];

/** Keeps a GET's answer in the model (the parts it knows; a filtered student list is not the roster). */
export function absorb(model, path, answer) {
  if (/^\/students\?/.test(path) && !/active=all/.test(path)) return model;
  if (/[?&]q=/.test(path)) return model;
  const part = PARTS.find(([re]) => re.test(path));
  return part ? { ...model, [part[1]]: copy(part[2](answer)) } : model;
}
