/** The Pabulib writer and the CSV rows of the exports. */
import { describe, expect, it } from 'vitest';
import { csvRows } from '#lib/results/csv';
import { ideaCsvPage } from '#lib/results/idea-export';
import { type PabulibMeta, pabulibDate, pabulibFile, pabulibHead, pabulibVoteLines } from '#lib/results/pabulib';
import { countVotes } from '#lib/votes/tally';

const meta: PabulibMeta = {
  description: 'Municipal PB in Wieliczka',
  country: 'Poland',
  unit: 'Wieliczka',
  instance: '2020',
  num_votes: 3,
  budget: 2500,
  vote_type: 'approval',
  rule: 'greedy',
  date_begin: '16.09.2023',
  date_end: '04.10.2023',
  extra: { min_length: 1, max_length: 3, currency: 'PLN' },
};

/** A small reader of the format for the round trip, quote-aware, written from the format description. */
function readPb(text: string): Record<string, string[][]> {
  const sections: Record<string, string[][]> = {};
  let current = '';
  for (const raw of text.split('\n').filter((l) => l !== '')) {
    if (raw === 'META' || raw === 'PROJECTS' || raw === 'VOTES') {
      current = raw;
      sections[current] = [];
      continue;
    }
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    for (let i = 0; i < raw.length; i += 1) {
      const ch = raw[i]!;
      if (quoted) {
        if (ch === '"' && raw[i + 1] === '"') { cell += '"'; i += 1; } else if (ch === '"') quoted = false; else cell += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ';') { cells.push(cell); cell = ''; } else cell += ch;
    }
    cells.push(cell);
    sections[current]!.push(cells);
  }
  return sections;
}

describe('Pabulib .pb writer', () => {
  const projects = [
    { id: 2, cost: 800, votes: 5, name: 'Zielona rowerowo-piesza obwodnica Wrocławia; ETAP II', category: ['sport'] },
    { id: 1, cost: 600, votes: 4, name: '"Konikowo" - Budowa autorskiego placu zabaw', category: ['culture', 'education'] },
    { id: 4, cost: 1400, votes: 0, name: 'Two\nlines' },
  ];
  const votes = [
    { voterId: '1', projectIds: [2, 1] },
    { voterId: '2', projectIds: [1, 2, 2] },
    { voterId: '3', projectIds: [4] },
  ];
  const text = [...pabulibFile(meta, projects, votes)].join('');

  it('writes META with the mandatory keys in order, num_projects counted, then the optional keys', () => {
    expect(text.startsWith(
      'META\nkey;value\ndescription;Municipal PB in Wieliczka\ncountry;Poland\nunit;Wieliczka\ninstance;2020\n' +
        'num_projects;3\nnum_votes;3\nbudget;2500\nvote_type;approval\nrule;greedy\ndate_begin;16.09.2023\n' +
        'date_end;04.10.2023\nmin_length;1\nmax_length;3\ncurrency;PLN\nPROJECTS\n',
    )).toBe(true);
  });

  it('quotes as the format description shows (its Wrocław examples), by project id, with optional columns', () => {
    const projectsPart = text.slice(text.indexOf('PROJECTS\n'), text.indexOf('VOTES\n'));
    expect(projectsPart).toBe(
      'PROJECTS\nproject_id;cost;votes;name;category\n' +
        '1;600;4;"""Konikowo"" - Budowa autorskiego placu zabaw";culture,education\n' +
        '2;800;5;"Zielona rowerowo-piesza obwodnica Wrocławia; ETAP II";sport\n' +
        '4;1400;0;Two lines;\n',
    );
  });

  it('writes one VOTES row per ballot, ids ascending and once each, and reads back', () => {
    expect(text.endsWith('VOTES\nvoter_id;vote\n1;1,2\n2;1,2\n3;4\n')).toBe(true);
    const read = readPb(text);
    expect(read.PROJECTS![1]).toEqual(['1', '600', '4', '"Konikowo" - Budowa autorskiego placu zabaw', 'culture,education']);
    expect(read.VOTES!.length - 1).toBe(Number(read.META!.find(([k]) => k === 'num_votes')![1]));
  });

  it('pages: head + vote pages give the same bytes as the whole file', () => {
    const paged = [...pabulibHead(meta, projects), ...pabulibVoteLines(votes.slice(0, 2)), ...pabulibVoteLines(votes.slice(2))].join('');
    expect(paged).toBe(text);
  });

  it('leaves out optional project columns nobody has, and refuses a wrong vote count or a META key twice', () => {
    const head = [...pabulibHead({ ...meta, extra: {} }, [{ id: 1, cost: 5 }])].join('');
    expect(head).toContain('PROJECTS\nproject_id;cost\n1;5\nVOTES\nvoter_id;vote\n');
    expect(() => [...pabulibFile(meta, projects, votes.slice(1))]).toThrow(RangeError);
    expect(() => [...pabulibHead({ ...meta, extra: { budget: 1 } }, [])]).toThrow(RangeError);
  });

  it('formats dates as dd.mm.yyyy in UTC', () => {
    expect(pabulibDate('2023-09-16T23:30:00.000Z')).toBe('16.09.2023');
    expect(pabulibDate('2024-01-05T00:00:00+02:00')).toBe('04.01.2024');
    expect(() => pabulibDate('soon')).toThrow(RangeError);
    expect(() => pabulibDate('soon')).toThrow('Not a date: soon');
  });

  it('names what is wrong: a vote count other than the votes given, a META key set twice', () => {
    expect(() => [...pabulibFile(meta, projects, votes.slice(1))]).toThrow('num_votes is 3 but 2 votes were given');
    expect(() => [...pabulibHead({ ...meta, extra: { rule: 'greedy' } }, [])]).toThrow('META key rule is set twice');
  });

  it('writes every line break in a text value as one space: CRLF, LF and a lone CR', () => {
    const head = [...pabulibHead({ ...meta, description: 'North\r\nSouth\rEast\nWest', extra: {} }, [{ id: 1, cost: 5, name: 'a\r\n\r\nb' }])].join('');
    expect(head).toContain('\ndescription;North South East West\n');
    expect(head).toContain('PROJECTS\nproject_id;cost;name\n1;5;a  b\nVOTES\n');
  });

  it('writes the selected column when a project has it: 1 and 0 as numbers, nothing where it is missing', () => {
    const head = [...pabulibHead({ ...meta, extra: {} }, [{ id: 3, cost: 5, selected: 0 }, { id: 1, cost: 7, selected: 1 }, { id: 2, cost: 9 }])].join('');
    expect(head.slice(head.indexOf('PROJECTS\n'))).toBe('PROJECTS\nproject_id;cost;selected\n1;7;1\n2;9;\n3;5;0\nVOTES\nvoter_id;vote\n');
  });

  it('quotes a META value holding the separator or a quote; without optional keys META ends at date_end', () => {
    const { extra: _extra, ...plain } = meta;
    const head = [...pabulibHead({ ...plain, description: 'Budget; "green"' }, [])].join('');
    expect(head).toBe(
      'META\nkey;value\ndescription;"Budget; ""green"""\ncountry;Poland\nunit;Wieliczka\ninstance;2020\nnum_projects;0\nnum_votes;3\n' +
        'budget;2500\nvote_type;approval\nrule;greedy\ndate_begin;16.09.2023\ndate_end;04.10.2023\nPROJECTS\nproject_id;cost\nVOTES\nvoter_id;vote\n',
    );
  });

  it('writes vote ids in numeric order, not as text', () => {
    expect([...pabulibVoteLines([{ voterId: 'v', projectIds: [10, 9, 100, 9] }])]).toEqual(['v;9,10,100\n']);
  });
});

describe('CSV rows', () => {
  it('quotes separators, quotes and line breaks, ends lines in CRLF, writes empty cells for null', () => {
    expect(csvRows([['id', 'title'], [1, 'a, b'], [2, 'say "hi"'], [3, 'two\nlines'], [4, null], [5, true]])).toBe(
      'id,title\r\n1,"a, b"\r\n2,"say ""hi"""\r\n3,"two\nlines"\r\n4,\r\n5,true\r\n',
    );
  });

  it('neutralises cells a spreadsheet would run as a formula (CSV injection)', () => {
    expect(csvRows([['=HYPERLINK("http://x")', '+1', '-1', '@SUM(A1)', 'ok']])).toBe(`"'=HYPERLINK(""http://x"")",'+1,'-1,'@SUM(A1),ok\r\n`);
  });

  it('an empty page is empty', () => {
    expect(csvRows([])).toBe('');
  });

  it('writes booleans as true and false', () => {
    expect(csvRows([[false, true, 0]])).toBe('false,true,0\r\n');
  });

  it('quotes a lone line feed or carriage return; a cell starting with a tab or carriage return is neutralised too', () => {
    expect(csvRows([['a\rb', 'c\nd', 'e\r\nf']])).toBe('"a\rb","c\nd","e\r\nf"\r\n');
    expect(csvRows([['\tx', '\ry']])).toBe(`'\tx,"'\ry"\r\n`);
  });
});

describe('ideas CSV page', () => {
  const ideas = [
    { id: 1, title: '=cmd|calc', status: 'OPEN', budget: 1200, theme: 'green', createdAt: '2026-01-02T03:04:05.000Z' },
    { id: 2, title: 'Bench, "new"', status: 'ACCEPTED', budget: null, theme: null, createdAt: '2026-01-03T00:00:00.000Z' },
  ];
  const tally = countVotes([{ ideaId: 1, opinion: 'yes' }, { ideaId: 1, opinion: 'no' }, { ideaId: 1, opinion: 'yes' }]);

  it('writes the header on the first page only, tallies from the tally, empty cells for missing budget and theme', () => {
    expect(ideaCsvPage(ideas, tally, true)).toBe(
      'id,title,status,budget,theme,yes,no,createdAt\r\n' +
        "1,'=cmd|calc,OPEN,1200,green,2,1,2026-01-02T03:04:05.000Z\r\n" +
        '2,"Bench, ""new""",ACCEPTED,,,0,0,2026-01-03T00:00:00.000Z\r\n',
    );
    expect(ideaCsvPage(ideas.slice(1), tally, false)).toBe('2,"Bench, ""new""",ACCEPTED,,,0,0,2026-01-03T00:00:00.000Z\r\n');
    expect(ideaCsvPage([], tally, true)).toBe('id,title,status,budget,theme,yes,no,createdAt\r\n');
  });
});
