/**
 * Island: the DNS leak test on its own page. The page is static, so the site's settings
 * come from GET /api/config: the card where the site has a zone for the test, a line
 * saying it is not set up where it has none, and another when the settings cannot be read.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { $clientConfig, ensureClientConfig } from '../stores/client-config.ts';
import DnsLeakCard from './DnsLeakCard.tsx';
import { DNS_LEAK_TEXT, type DnsLeakText } from './dns-leak-text.ts';
import './dns-leak.css';

export default function DnsLeakTool({ text = DNS_LEAK_TEXT.page }: { text?: DnsLeakText<'page'> }) {
  const config = useStore($clientConfig);
  const [unreadable, setUnreadable] = useState(false);
  useEffect(() => { void ensureClientConfig().then(() => setUnreadable(!$clientConfig.get())); }, []);
  if (config) {
    return config.dnsLeakZone
      ? <DnsLeakCard zone={config.dnsLeakZone} level={2} />
      : <p className="dns-leak-off" role="status">{text.notSetUp}</p>;
  }
  return <p className="dns-leak-off" role="status">{unreadable ? text.configFailed : ''}</p>;
}
