/**
 * A results table that scrolls on its own on a narrow screen: the scroll region is focusable
 * and named by the table's caption (so a keyboard can scroll it and a screen reader names it),
 * one header row of column headers, and the rows the caller gives (each starting with its row
 * header). The bulk lookup's results and the DNS leak test's resolvers.
 */
import type { ReactNode } from 'react';

interface Props {
  /** The table's class (`bulk-results` and any of its own). */
  className: string;
  /** The caption's id, which names the scroll region. */
  captionId: string;
  caption: string;
  headers: readonly string[];
  children: ReactNode;
}

export default function ScrollTable({ className, captionId, caption, headers, children }: Props) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={captionId}>
      <table className={className}>
        <caption id={captionId}>{caption}</caption>
        <thead>
          <tr>{headers.map((h) => <th key={h} scope="col">{h}</th>)}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
