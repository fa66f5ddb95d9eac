/** CSV cells as spreadsheets read them safely: the bulk lookup's and the analytics export's. */

/** One cell: quoted when needed; a cell that would start a formula gets a leading quote (CSV injection). */
export function csvCell(value: unknown): string {
  const text = String(value ?? '');
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
