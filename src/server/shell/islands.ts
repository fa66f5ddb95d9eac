/**
 * The islands whose server HTML depends on the visitor's record, for the prebuilt `/`
 * shell (page-shell.ts). scripts/build-islands.mjs bundles this file with React swapped
 * for jsx-string.ts, so these are the very components the browser hydrates, rendering to
 * a string. Keyed by the name Astro's island tag carries in its component-url.
 */
import IpBox from '../../islands/IpBox.tsx';
import BadgeRow from '../../islands/BadgeRow.tsx';
import DetailCards from '../../islands/DetailCards.tsx';
import VerificationCard from '../../islands/VerificationCard.tsx';
import VpnPanel from '../../islands/VpnPanel.tsx';

export { renderToString, jsx } from './jsx-string.ts';
export const islands = { IpBox, BadgeRow, DetailCards, VerificationCard, VpnPanel } as Record<string, (props: never) => unknown>;
