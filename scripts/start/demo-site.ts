/**
 * The demo site's id: 1, as the README, the start's status block and every example call name it. Only
 * an empty database gets it (scripts/seed.ts), and new ids are never that small (lib/store/db/ids.ts:
 * 16 digits; ids below 10^9 are kept for imported and older records), so it takes no id a create
 * could issue.
 */
export const DEMO_SITE_ID = 1;
