/**
 * The two HTML pages of the local auth server: pick (or enter) a demo user and approve, and "logged
 * out". Every value that comes from the request is escaped.
 */
import type { StoredUser } from './users.ts';

const escapeHtml = (value: unknown): string =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem}
button{margin:.2rem 0;padding:.4rem .8rem}fieldset{margin:1rem 0}label{display:block;margin:.3rem 0}
.note{color:#666;font-size:.9em}.error{color:#b00}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  loginHint: string;
}

function hiddenFields(req: AuthorizeRequest): string {
  return (
    `<input type="hidden" name="client_id" value="${escapeHtml(req.clientId)}">` +
    `<input type="hidden" name="redirect_uri" value="${escapeHtml(req.redirectUri)}">` +
    `<input type="hidden" name="state" value="${escapeHtml(req.state)}">`
  );
}

export function authorizePage(req: AuthorizeRequest, users: StoredUser[], error?: string): string {
  const fields = hiddenFields(req);
  const userButtons = users
    .map(
      (u) =>
        `<form method="post" action="/dialog/authorize/decision">${fields}` +
        `<input type="hidden" name="user_id" value="${u.id}">` +
        `<button type="submit">${escapeHtml([u.firstName, u.lastName].filter(Boolean).join(' ') || u.email)}` +
        ` &lt;${escapeHtml(u.email)}&gt;${u.roles[req.clientId] ?? u.role ? ` (${escapeHtml(u.roles[req.clientId] ?? u.role)})` : ''}</button></form>`,
    )
    .join('\n');
  return layout(
    'Local login',
    `<p class="note">Local development auth server: no passwords. Pick a demo user or enter one, and
the site <strong>${escapeHtml(req.clientId)}</strong> gets a login for it.</p>
${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
${users.length ? `<fieldset><legend>Demo users</legend>${userButtons}</fieldset>` : ''}
<form method="post" action="/dialog/authorize/decision">${fields}
<fieldset><legend>Another user (created when new)</legend>
<label>E-mail <input type="email" name="email" required value="${escapeHtml(req.loginHint)}"></label>
<label>First name <input name="firstName"></label>
<label>Last name <input name="lastName"></label>
<button type="submit">Log in</button></fieldset></form>
<form method="post" action="/dialog/authorize/decision">${fields}<input type="hidden" name="deny" value="1">
<button type="submit">Cancel</button></form>`,
  );
}

export const errorPage = (message: string) => layout('Login error', `<p class="error">${escapeHtml(message)}</p>`);

export const loggedOutPage = () => layout('Logged out', '<p>You are logged out of the local auth server.</p>');
