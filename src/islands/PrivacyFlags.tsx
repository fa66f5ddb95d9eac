/**
 * The named privacy flags (Tor exit, iCloud Private Relay, VPN, open proxy, hosting), each
 * with its answer and the reason in words: which list or name said so, or that the check
 * was not available (never a silent 'no'). Shared by the VPN card and the lookup result.
 */
import { PRIVACY_FLAGS } from '../lib/privacy.ts';
import type { Privacy } from '../lib/record.ts';
import type { LookupText } from './use-lookup.ts';
import './lookup.css';

interface Props {
  privacy: Privacy;
  text: LookupText['privacy'];
}

export default function PrivacyFlags({ privacy, text }: Props) {
  return (
    <dl className="privacy-flags" data-testid="privacy-flags">
      {PRIVACY_FLAGS.map((flag) => {
        const value = privacy[flag];
        const [answer, tone] = value === null ? [text.unavailable, 'neutral'] : value ? [text.yes, 'red'] : [text.no, 'green'];
        return (
          <div key={flag} data-flag={flag}>
            <dt>{text.flags[flag]}</dt>
            <dd><span className={`badge tone-${tone}`}>{answer}</span> <span className="flag-reason">{privacy.reasons[flag]}</span></dd>
          </div>
        );
      })}
      {privacy.service && <div data-flag="service"><dt>{text.service}</dt><dd>{privacy.service}</dd></div>}
    </dl>
  );
}
