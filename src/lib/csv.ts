/**
 * CSV for spreadsheets: RFC 4180 quoting, and a guard against formula injection (a cell
 * that starts with `=`, `+`, `-`, `@`, a tab, a carriage return or NUL is run as a formula
 * by Excel, LibreOffice and Google Sheets; OWASP ASVS 5.0 requirement 1.2.10). Used by the
 * bulk lookup's CSV (src/server/handlers/lookup-api.ts), a network's prefixes
 * (src/server/handlers/asn-api.ts) and by any other export, which all ask for it one way
 * (`asksForCsv`).
 *
 * A number is a number: a finite number is written as it is, so a longitude of -97.822
 * stays a number a spreadsheet can sort and map. Only text is guarded, by its first
 * character, whatever it looks like: text comes from callers and names, and "-1+1" is a
 * formula.
 */

/** First characters that make a spreadsheet read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r\0]/;
/** Characters that force a cell into double quotes (RFC 4180). */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell: a finite number as written; other values as text (null and undefined empty),
 * with a leading apostrophe when it would start a formula, double-quoted when it holds a
 * quote, a comma or a line break.
 */
export function csvCell(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  const text = String(value ?? '');
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One line of cells, comma-separated, without its line break. */
export function csvRow(cells: readonly unknown[]): string {
  return cells.map(csvCell).join(',');
}

/** A whole document: one line per row, each ended by CRLF (RFC 4180). */
export function csvDocument(rows: ReadonlyArray<readonly unknown[]>): string {
  return rows.map((row) => csvRow(row) + '\r\n').join('');
}

/** The media type of every CSV answer. */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/**
 * Whether a request asks for CSV, the one way across the API: `?format=csv`, or `text/csv`
 * in its Accept header (`format` is the query's value, `accept` the header's).
 */
export function asksForCsv(format: string | null | undefined, accept: string | null | undefined): boolean {
  return format === 'csv' || /\btext\/csv\b/.test(accept ?? '');
}
