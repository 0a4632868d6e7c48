// A participation frontend in one file: log in with the site's OAuth login, list ideas, submit one,
// like one. Plain browser JavaScript and fetch, no build step. What it shows on the way:
// - the token comes back in the address after the login; it is taken only when this tab started that
//   login, taken out at once and kept in sessionStorage (this tab only; not localStorage, never a
//   cookie or a URL of our own);
// - every request sends it as `X-Authorization: Bearer <token>`; a 401 means log in again;
// - errors are the API's one error body `{status, error, message, details?}`;
// - lists are pages with `metadata.nextCursor`;
// - everything the API returns is put on the page as text (textContent), never as HTML.

const TOKEN_KEY = 'participation-api.token';
/** The login this tab started: a random value sent along in the return address and kept until it comes back. */
const LOGIN_KEY = 'participation-api.login';
const $ = (id) => document.getElementById(id);

// First, before anything that waits or can fail: a token left in the address stays in history.
let token = takeTokenFromAddress() ?? sessionStorage.getItem(TOKEN_KEY);
if (token) sessionStorage.setItem(TOKEN_KEY, token);

/** Where the API is and which site this is: from the server that serves this page, not from the URL. */
const { apiUrl, siteId } = await (await fetch('config.json')).json();

/**
 * The login hands the token back as `#jwt=` (or `?jwt=`): read it once, then remove it from the address
 * and history. It is taken only when this tab started that login (the `login` value it sent along
 * matches the one it kept): a link with someone else's token in it would otherwise log the reader in
 * as that someone, and what they then submit would be theirs (login CSRF).
 */
function takeTokenFromAddress() {
  const url = new URL(location.href);
  const fragment = new URLSearchParams(url.hash.slice(1));
  const found = fragment.get('jwt') ?? url.searchParams.get('jwt');
  const returned = url.searchParams.get('login');
  const started = sessionStorage.getItem(LOGIN_KEY);
  if (!found && !returned) return null;
  fragment.delete('jwt');
  url.searchParams.delete('jwt');
  url.searchParams.delete('login');
  url.hash = fragment.toString();
  history.replaceState(null, '', url);
  sessionStorage.removeItem(LOGIN_KEY);
  return found && started && returned === started ? found : null;
}

class ApiError extends Error {
  constructor(body) {
    super(body.message);
    this.body = body;
  }
}

/** One call of the API: JSON in and out, the token when there is one, the error body as an ApiError. */
async function api(method, path, body) {
  const headers = {};
  if (token) headers['X-Authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${apiUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const data = text ? JSON.parse(text) : undefined;
  if (res.ok) return data;
  if (res.status === 401 && token) {
    // Expired, or the user is gone: forget the token; the person logs in again.
    forgetToken();
    render.account(null);
  }
  throw new ApiError(data ?? { status: res.status, error: 'Error', message: res.statusText });
}

function forgetToken() {
  token = null;
  sessionStorage.removeItem(TOKEN_KEY);
}

const here = () => `${location.origin}${location.pathname}`;
const site = (path) => `/api/site/${siteId}${path}`;

function say(message, ok = false) {
  $('status').textContent = message;
  $('status').className = ok ? 'ok' : '';
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
}

const render = {
  account(me) {
    $('who').textContent = me ? `Logged in as ${me.displayName}` : 'Not logged in';
    $('login').hidden = Boolean(me);
    $('logout').hidden = !me;
    $('new-idea').hidden = !me;
  },

  idea(idea) {
    const votes = el('div', { className: 'votes' });
    if (typeof idea.yes === 'number') votes.append(el('span', { className: 'likes', textContent: `${idea.yes} ${idea.yes === 1 ? 'like' : 'likes'}` }));
    if (token) {
      const liked = Boolean(idea.userVote);
      const button = el('button', { type: 'button', className: 'like', textContent: liked ? 'Take back my like' : 'Like' });
      button.addEventListener('click', () => like(idea.id));
      votes.append(button);
    }
    const by = idea.user ? ` by ${idea.user.displayName}` : '';
    return el(
      'li',
      { id: `idea-${idea.id}` },
      el('div', { className: 'idea-title', textContent: idea.title }),
      el('div', { className: 'idea-summary', textContent: idea.summary }),
      el('small', { textContent: `${idea.status}${by}` }),
      votes,
    );
  },
};

let nextCursor = null;

async function loadIdeas({ more = false } = {}) {
  const query = new URLSearchParams({ includeVoteCount: '1', includeUser: '1', pageSize: '20' });
  if (token) query.set('includeUserVote', '1');
  if (more && nextCursor) query.set('cursor', nextCursor);
  const page = await api('GET', site(`/idea?${query}`));
  if (!more) $('ideas').replaceChildren();
  $('ideas').append(...page.records.map(render.idea));
  nextCursor = page.metadata.nextCursor;
  $('more').hidden = nextCursor === null;
}

async function like(ideaId) {
  try {
    // A round of one vote. With the site's `likes` voting, liking an idea again takes the like back.
    await api('POST', site('/vote'), [{ ideaId, opinion: 'yes' }]);
    say('Your vote is in.', true);
  } catch (error) {
    say(error instanceof ApiError ? error.body.message : String(error));
  }
  await loadIdeas();
}

async function submitIdea(event) {
  event.preventDefault();
  const form = event.target;
  const body = Object.fromEntries(['title', 'summary', 'description'].map((name) => [name, form.elements[name].value]));
  $('form-errors').replaceChildren();
  try {
    const idea = await api('POST', site('/idea'), body);
    form.reset();
    say(`Thank you: "${idea.title}" is in.`, true);
    await loadIdeas();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    say(error.body.message);
    // A ValidationError names each field that failed.
    for (const detail of error.body.details ?? []) $('form-errors').append(el('li', { textContent: `${detail.path}: ${detail.message}` }));
  }
}

/** The site's own limits on the form (its public config, a cached read). */
function applyLimits(config) {
  const ideas = config.ideas ?? {};
  for (const name of ['title', 'summary', 'description']) {
    const input = $('idea-form').elements[name];
    if (ideas[`${name}MinLength`]) input.minLength = ideas[`${name}MinLength`];
    if (ideas[`${name}MaxLength`]) input.maxLength = ideas[`${name}MaxLength`];
    input.placeholder = `${input.minLength}-${input.maxLength} characters`;
  }
}

$('login').addEventListener('click', () => {
  // A full navigation: the API sets its login cookie and sends the browser to the auth server.
  const login = crypto.randomUUID();
  sessionStorage.setItem(LOGIN_KEY, login);
  location.assign(`${apiUrl}/oauth/site/${siteId}/login?redirectUrl=${encodeURIComponent(`${here()}?login=${login}`)}`);
});
$('logout').addEventListener('click', () => {
  forgetToken();
  location.assign(`${apiUrl}/oauth/site/${siteId}/logout?redirectUrl=${encodeURIComponent(here())}`);
});
$('idea-form').addEventListener('submit', submitIdea);
$('more').addEventListener('click', () => loadIdeas({ more: true }));

try {
  const siteRecord = await api('GET', site(''));
  $('site-title').textContent = siteRecord.title ?? siteRecord.name;
  applyLimits(siteRecord.config);
  render.account(token ? await api('GET', `/oauth/site/${siteId}/me`).catch(() => null) : null);
  await loadIdeas();
  document.body.dataset.state = 'ready';
} catch (error) {
  say(error instanceof ApiError ? error.body.message : `The API at ${apiUrl} did not answer: ${error}`);
  document.body.dataset.state = 'failed';
}
