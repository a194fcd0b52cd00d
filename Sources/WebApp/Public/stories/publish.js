// Choose Your Destiny: publishing for signed-in accounts (a story.json, a zip of story.json with its
// pictures, a Twee file or a Twine 2 published HTML file), updating and withdrawing one's own stories.
// The server puts a published story in its author's library; the hub reloads its lists after each change.
import { api, request, toast } from '../js/api.js';
import { plural } from '../js/format.js';
import { $, make, say, confirmDialog, busy } from './dom.js';
import { uploadType, errorReport } from './logic.js';

let reload = async () => {};
let catalog = () => [];

/** Sends a story file; resolves with the answer's JSON, or throws the API's error (with its details). */
async function upload(method, path, file) {
  const type = uploadType(file.name);
  if (!type) {
    const error = new Error(`“${file.name}” is not a story file: choose a .json, .zip, .twee, .tw, .txt or Twine .html file.`);
    error.details = [];
    throw error;
  }
  const response = await request(method, path, file, type);
  const text = await response.text();
  return text ? JSON.parse(text) : {};
}

function showResult(message, warnings, id) {
  $('publish-errors-box').hidden = true;
  $('publish-read').href = `/stories/${encodeURIComponent(id)}`; // the story as its readers find it
  $('publish-result').hidden = false;
  $('publish-ok').textContent = message;
  $('publish-warnings').replaceChildren(...warnings.map((w) => make('li', { text: w })));
  $('publish-warnings-box').hidden = !warnings.length;
  say(warnings.length ? `${message} ${plural(warnings.length, 'warning')}.` : message);
}

/** Each problem printed once: one is the sentence alone; several are listed under the message. */
function showErrors(error) {
  $('publish-result').hidden = true;
  const report = errorReport(error);
  $('publish-error').textContent = report.heading;
  $('publish-errors').replaceChildren(...report.items.map((line) => make('li', { text: line })));
  $('publish-errors').hidden = !report.items.length;
  $('publish-errors-box').hidden = false;
}

async function publish(e) {
  e.preventDefault();
  const file = $('publish-file').files[0];
  if (!file) {
    showErrors(Object.assign(new Error('Choose a story file first.'), { details: [] }));
    $('publish-file').focus();
    return;
  }
  await busy($('publish-submit'), async () => {
    try {
      const answer = await upload('POST', '/api/v1/stories', file);
      // The server puts a published story in its author's library; asking again is harmless (a PUT).
      await api('PUT', `/api/v1/stories/${encodeURIComponent(answer.id)}/library`).catch(() => {});
      await reload();
      const story = catalog().find((s) => s.id === answer.id);
      showResult(`Published “${story ? story.name : answer.id}”. It is in your library too.`, answer.warnings || [], answer.id);
      $('publish-form').reset();
    } catch (error) {
      showErrors(error);
    }
  });
}

/** The signed-in author's own stories, each with Update and Withdraw. */
export function renderOwn(stories) {
  if (!$('own-list')) return;
  const own = stories.filter((s) => s.owned);
  $('own-box').hidden = !own.length;
  $('own-list').replaceChildren(
    ...own.map((story) =>
      make(
        'li',
        { className: 'st-own-item', dataset: { id: story.id } },
        make('span', { className: 'st-own-name', text: story.name }),
        make(
          'span',
          { className: 'st-actions' },
          make('button', {
            className: 'button st-update',
            type: 'button',
            text: 'Update',
            'aria-label': `Update ${story.name}`,
            onclick: () => chooseUpdate(story),
          }),
          make('button', {
            className: 'button danger st-withdraw',
            type: 'button',
            text: 'Withdraw',
            'aria-label': `Withdraw ${story.name}`,
            onclick: (ev) => withdraw(story, ev.currentTarget),
          }),
        ),
      ),
    ),
  );
}

let updating = null;

function chooseUpdate(story) {
  updating = story;
  const input = $('update-file');
  input.value = '';
  input.click();
}

async function update() {
  const file = $('update-file').files[0];
  const story = updating;
  if (!file || !story) return;
  try {
    const answer = await upload('PUT', `/api/v1/stories/${encodeURIComponent(story.id)}`, file);
    await reload();
    showResult(`Updated “${story.name}”.`, answer.warnings || [], story.id);
  } catch (error) {
    showErrors(error);
  }
  $('publish-heading').scrollIntoView({ block: 'start' });
}

async function withdraw(story, button) {
  const yes = await confirmDialog({
    title: `Withdraw “${story.name}”?`,
    text: 'It leaves the catalog and every library, and readers lose their place in it. This cannot be undone.',
    ok: 'Withdraw',
    cancel: 'Keep it',
  });
  if (!yes) {
    button.focus();
    return;
  }
  try {
    await api('DELETE', `/api/v1/stories/${encodeURIComponent(story.id)}`);
    await reload();
    toast(`Withdrew “${story.name}”`);
    $('publish-heading').focus();
  } catch (error) {
    toast(error.message);
  }
}

/** `load` reloads the hub's lists; `stories` gives the catalog as loaded. */
export function initPublish({ load, stories }) {
  if (!$('publish-form')) return;
  reload = load;
  catalog = stories;
  $('publish-form').addEventListener('submit', publish);
  $('update-file').addEventListener('change', update);
}
