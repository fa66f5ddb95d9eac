/** The bulk lookup's results: one row per address, the API's message on rows that failed. */
import type { BulkResult } from '../lib/bulk.ts';
import { networkTypeLabel } from '../lib/badges.ts';
import { networkOf } from '../lib/ip-info-format.ts';
import AsnLink from './AsnLink.tsx';
import ScrollTable from './ScrollTable.tsx';
import { placeLine } from '../lib/place-line.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import type { ToolsCopy } from './copy.ts';

interface Props {
  results: BulkResult[];
  copy: ToolsCopy<'bulk'>;
}

export default function BulkResultsTable({ results, copy }: Props) {
  const { columns, unknown } = copy;
  const headers = [columns.input, columns.place, columns.network, columns.asn, columns.networkType, columns.vpn];
  return (
    <ScrollTable className="bulk-results" captionId="bulk-caption" caption={copy.caption} headers={headers}>
      {results.map((row, i) => (
        <tr key={`${i}-${row.input}`} className={'error' in row ? 'failed' : undefined}>
          <th scope="row">{row.input}</th>
          {'error' in row
            ? <td colSpan={headers.length - 1}>{fillTemplate(copy.rowError, { message: row.error.message })}</td>
            : (
              <>
                <td>{placeLine(row.data) || unknown}</td>
                <td>{networkOf(row.data, unknown)}</td>
                <td><AsnLink info={row.data} unknown={unknown} /></td>
                <td>{networkTypeLabel(row.data.network_type)}</td>
                <td>{row.data.vpn_detected ? copy.vpnYes : copy.vpnNo}</td>
              </>
            )}
        </tr>
      ))}
    </ScrollTable>
  );
}
