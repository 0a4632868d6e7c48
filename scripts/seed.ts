/**
 * The demo site `npm start` creates on an empty database, so a newcomer has something to call.
 */
import { listSites, putNewSite } from '#lib/store/sites';
import { nextId } from '#lib/store/counters';
import type { SiteConfigInput } from '#schemas/site-config';

export async function seedDemoSite(options: { authServerUrl?: string; clientId?: string; clientSecret?: string } = {}) {
  const existing = await listSites({ pageSize: 1 });
  if (existing.items.length > 0) return undefined;
  const now = new Date().toISOString();
  const config: SiteConfigInput = {
    allowedDomains: ['localhost', '127.0.0.1'],
    votes: { isViewable: true, isActive: true, voteType: 'likes', requiredUserRole: 'member' },
    newslettersignup: { isActive: true },
    ideas: { extraData: { theme: { type: 'string' }, images: { type: 'arrayOfStrings' } } },
    ...(options.authServerUrl
      ? {
          oauth: {
            default: {
              'auth-server-url': options.authServerUrl,
              'auth-client-id': options.clientId ?? 'demo-client',
              'auth-client-secret': options.clientSecret ?? 'demo-secret',
              'auth-server-login-path': '/dialog/authorize',
              'auth-server-exchange-code-path': '/oauth/token',
              'auth-server-get-user-path': '/api/userinfo',
              'auth-server-logout-path': '/logout',
              'after-login-redirect-uri': 'http://localhost:3000/oauth/site/1/me',
            },
          },
        }
      : {}),
  };
  const id = await nextId('site');
  await putNewSite({ id, name: 'demo', title: 'Demo participation site', domain: 'localhost', config, createdAt: now, updatedAt: now });
  return id;
}
