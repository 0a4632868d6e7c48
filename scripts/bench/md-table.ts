/** A Markdown table; the first `left` columns are text (left-aligned), the rest figures. */
export const md = (headers: string[], rows: Array<Array<string | number>>, left = 1): string =>
  [`| ${headers.join(' | ')} |`, `|${headers.map((_, i) => (i < left ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
