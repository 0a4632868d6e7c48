/** The pure lifecycle rules: due times from a config, templates, progress, the job command line. */
import { describe, expect, it } from 'vitest';
import { withDefaults } from '#lib/sites/config-defaults';
import { siteJobDues, inactivityRule } from '#lib/sites/job-dues';
import { fillTemplate } from '#lib/notifications/messages';
import { progressOf } from '#lib/ideas/includes';
import { assertProjectOpen, PROJECT_ENDED_MESSAGE } from '#lib/sites/project';
import { parseJobCommand } from '../../../scripts/job.ts';

const NOW = '2030-05-01T00:00:00.000Z';

describe('siteJobDues', () => {
  it('gives every job its due time, or null when the config asks for nothing', () => {
    expect(siteJobDues(withDefaults({}), NOW)).toEqual({
      'end-projects': null,
      'close-ideas': null,
      'anonymize-ended': null,
      // On by default (OpenStad's 770 / 860 days).
      'anonymize-inactive': NOW,
      // Due at every site write; its run decides when next.
      'vote-checkpoints': NOW,
      // A site write may change what the results show.
      results: NOW,
    });
    const config = withDefaults({
      project: { endDate: '2030-06-01' },
      anonymize: { anonymizeUsersXDaysAfterEndDate: 10 },
      ideas: { automaticallyUpdateStatus: { isActive: true, afterXDays: 30 } },
    });
    expect(siteJobDues(config, NOW)).toEqual({
      'end-projects': '2030-06-01T00:00:00.000Z',
      'close-ideas': NOW,
      'anonymize-ended': '2030-06-11T00:00:00.000Z',
      'anonymize-inactive': NOW,
      'vote-checkpoints': NOW,
      results: NOW,
    });
  });

  it('keeps end-projects due only while there is something to do', () => {
    const ended = (extra: object) => siteJobDues(withDefaults({ project: { endDate: '2030-01-01', projectHasEnded: true, ...extra } }), NOW)['end-projects'];
    expect(ended({})).toBeNull();
    expect(siteJobDues(withDefaults({ project: { endDate: '2030-01-01', projectHasEnded: true }, notifications: { projectmanagerAddress: 'pm@x.org' } }), NOW)['end-projects']).toBe('2030-01-01T00:00:00.000Z');
    expect(siteJobDues(withDefaults({ project: { endDate: 'not a date' } }), NOW)['end-projects']).toBeNull();
    expect(siteJobDues(withDefaults({ ideas: { automaticallyUpdateStatus: { isActive: false, afterXDays: 3 } } }), NOW)['close-ideas']).toBeNull();
  });

  it('gives the inactivity rule a grace period of the difference, never negative', () => {
    expect(inactivityRule(withDefaults({}))).toEqual({ warnDays: 770, anonymizeDays: 860, graceDays: 90 });
    expect(inactivityRule(withDefaults({ anonymize: { warnUsersAfterXDaysOfInactivity: 10, anonymizeUsersAfterXDaysOfInactivity: 5 } }))!.graceDays).toBe(0);
    expect(inactivityRule(withDefaults({ anonymize: { warnUsersAfterXDaysOfInactivity: 0 } }))).toBeNull();
  });
});

describe('fillTemplate', () => {
  it('fills in the display name and the site name, and nothing else', () => {
    const values = { displayName: 'Ann Lee', siteName: 'Park plans' };
    expect(fillTemplate('Dear {{displayName}} ({{ DISPLAYNAME }}), {{siteName}}/{{SITENAME}}', values)).toBe('Dear Ann Lee (Ann Lee), Park plans/Park plans');
    expect(fillTemplate('{{email}}{{ user.email }}{{constructor}}{{}}x', values)).toBe('x');
    expect(fillTemplate('{{displayName', values)).toBe('{{displayName');
  });
});

describe('progressOf', () => {
  it('is min(100, round(100 * yes / minimumYesVotes))', () => {
    expect(progressOf(0, 100)).toBe(0);
    expect(progressOf(1, 3)).toBe(33);
    expect(progressOf(2, 3)).toBe(67);
    expect(progressOf(250, 100)).toBe(100);
    expect(progressOf(5, 0)).toBe(100);
  });
});

describe('assertProjectOpen', () => {
  it('refuses while projectHasEnded is true, and from the end date on whatever the flag says (to the millisecond)', () => {
    expect(() => assertProjectOpen(withDefaults({ project: { projectHasEnded: true } }))).toThrow(PROJECT_ENDED_MESSAGE);
    expect(() => assertProjectOpen(withDefaults({ project: { projectHasEnded: false, endDate: '2000-01-01' } }))).toThrow(PROJECT_ENDED_MESSAGE);
    const end = withDefaults({ project: { projectHasEnded: false, endDate: '2026-05-01T12:00:00+02:00' } });
    expect(() => assertProjectOpen(end, new Date('2026-05-01T09:59:59.999Z'))).not.toThrow();
    expect(() => assertProjectOpen(end, new Date('2026-05-01T10:00:00.000Z'))).toThrow(PROJECT_ENDED_MESSAGE);
    expect(() => assertProjectOpen(withDefaults({ project: { projectHasEnded: false, endDate: 'not a date' } }))).not.toThrow();
    expect(() => assertProjectOpen(withDefaults({ project: { projectHasEnded: false, endDate: null } }))).not.toThrow();
  });
});

describe('npm run job command line', () => {
  const clock = () => new Date(NOW);
  it('reads the job name, --site and --now', () => {
    expect(parseJobCommand(['close-ideas'], clock)).toEqual({ name: 'close-ideas', siteId: undefined, now: new Date(NOW) });
    expect(parseJobCommand(['end-projects', '--site', '12', '--now', '2031-01-01T00:00:00Z'], clock)).toEqual({
      name: 'end-projects',
      siteId: 12,
      now: new Date('2031-01-01T00:00:00Z'),
    });
    // Ids of sites created today have 16 digits (lib/store/db/ids.ts).
    expect(parseJobCommand(['close-ideas', '--site', '1123170852128294'], clock).siteId).toBe(1123170852128294);
  });
  it('refuses what it does not understand', () => {
    for (const argv of [[], ['nope'], ['close-ideas', 'extra'], ['close-ideas', '--site', '0'], ['close-ideas', '--site', 'x'], ['close-ideas', '--site', '99999999999999999'], ['close-ideas', '--now', 'soon'], ['close-ideas', '--force']]) {
      expect(() => parseJobCommand(argv, clock), argv.join(' ')).toThrow();
    }
  });
});
