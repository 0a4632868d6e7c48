/**
 * CSV lines for the exports, through csv-stringify (node-csv, maintained, no dependencies): quoting of
 * separators, quotes and line breaks is the library's, not ours.
 *
 * Spreadsheet safety: a cell that starts with `=`, `+`, `-`, `@`, tab or carriage return is prefixed
 * with `'` (csv-stringify's `escape_formulas`), so a title such as `=HYPERLINK(...)` written by a user
 * is shown as text when a city opens the export in Excel, not run as a formula (OWASP "CSV injection").
 * Lines end in CRLF (RFC 4180); a value with a line break is quoted.
 */
import { stringify } from 'csv-stringify/sync';

export type Cell = string | number | boolean | null | undefined;

/** One page of CSV: the rows (the header row too, on the first page) as CRLF-terminated lines. */
export function csvRows(rows: readonly (readonly Cell[])[]): string {
  if (rows.length === 0) return '';
  return stringify(rows as Cell[][], {
    escape_formulas: true,
    record_delimiter: 'windows',
    // The library quotes a field holding the record delimiter (CRLF); a lone LF or CR must be quoted too,
    // or most readers would start a new row there.
    quoted_match: /[\r\n]/,
    cast: { boolean: (value) => (value ? 'true' : 'false') },
  });
}
