/**
 * The texts of the outbox (what OpenStad would mail). Templates are filled in with two values only,
 * the user's display name and the site's name: `{{displayName}}` / `{{DISPLAYNAME}}` and
 * `{{siteName}}` / `{{SITENAME}}` (any spacing, any case). Every other `{{...}}` is removed, so a
 * template can never pull other data into a message; no template engine runs admin-written code.
 */
import type { SiteConfig } from '#lib/sites/config-defaults';
import type { UserItem } from '#lib/store/users/users';
import { displayNameOf } from '#lib/users/public-view';
import type { NotificationItem } from '#lib/store/notifications/notifications';

const DEFAULT_WARNING_SUBJECT = 'Your account on {{siteName}} will be anonymized';
const DEFAULT_WARNING_TEMPLATE =
  'Dear {{displayName}},\n\nYou have not been active on {{siteName}} for a long time. ' +
  'Unless you log in again, your account will be anonymized: your name and e-mail address are removed.';

export function fillTemplate(template: string, values: { displayName: string; siteName: string }): string {
  return template.replace(/\{\{([^{}]*)\}\}/g, (_whole, name: string) => {
    const key = name.trim().toLowerCase();
    if (key === 'displayname') return values.displayName;
    if (key === 'sitename') return values.siteName;
    return '';
  });
}

interface SiteNames {
  id: number;
  name: string;
  title?: string | null;
}

const siteNameOf = (site: SiteNames) => (site.title?.trim() ? site.title : site.name);

type Draft = Omit<NotificationItem, 'id' | 'siteId' | 'status' | 'createdAt' | 'sentAt'>;

export function projectEndedNotice(site: SiteNames, to: string, endDate: string): Draft {
  const name = siteNameOf(site);
  return {
    kind: 'project-ended',
    to,
    subject: `The project ${name} has ended`,
    body:
      `The end date of ${name} (${endDate}) has passed. The site no longer accepts votes, ideas, arguments, ` +
      'new users or newsletter signups; what was submitted stays readable.',
  };
}

export function inactivityWarning(site: SiteNames, config: SiteConfig, user: UserItem): Draft {
  const values = { displayName: displayNameOf(user, config), siteName: siteNameOf(site) };
  const email = config.anonymize.inactiveWarningEmail;
  return {
    kind: 'inactivity-warning',
    to: user.email ?? null,
    subject: fillTemplate(email?.subject ?? DEFAULT_WARNING_SUBJECT, values),
    body: fillTemplate(email?.template ?? DEFAULT_WARNING_TEMPLATE, values),
  };
}

/** A pending record from a draft; the id comes from the `notification` counter. */
export const pendingNotification = (siteId: number, id: number, draft: Draft, now: string): NotificationItem => ({
  id,
  siteId,
  ...draft,
  status: 'pending',
  createdAt: now,
  sentAt: null,
});
