/**
 * WAI-ARIA tabs over panels the page passes as named slots (one per tab id). Arrow
 * keys, Home and End move and select; panels are linked by aria-controls. The tabs are
 * links to their panels, so without JavaScript each panel opens through `:target`.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import './lookup.css';

export interface TabItem { id: string; label: string }

type Props = { tabs: TabItem[]; label: string } & { [slot: string]: ReactNode | TabItem[] | string };

export default function LookupTabs(props: Props) {
  const { tabs, label } = props;
  const [selected, setSelected] = useState(tabs[0]?.id);
  const [enhanced, setEnhanced] = useState(false);
  const refs = useRef<Record<string, HTMLAnchorElement | null>>({});

  // A link to #panel-map opens that tab; from now on the tabs, not `:target`, decide what shows.
  useEffect(() => {
    const id = location.hash.replace(/^#panel-/, '');
    if (tabs.some((t) => t.id === id)) setSelected(id);
    setEnhanced(true);
  }, [tabs]);

  // A link to something inside a panel (the leak summary's "Details": #webrtc-title) opens that panel's tab.
  useEffect(() => {
    const open = () => {
      const target = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
      const panel = target?.closest('[role="tabpanel"]');
      const tab = tabs.find((t) => panel?.id === `panel-${t.id}`);
      if (!tab || !target) return;
      setSelected(tab.id);
      requestAnimationFrame(() => target.scrollIntoView());
    };
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, [tabs]);

  function select(index: number) {
    const tab = tabs[(index + tabs.length) % tabs.length]!;
    setSelected(tab.id);
    refs.current[tab.id]?.focus();
  }
  function onKeyDown(event: KeyboardEvent, index: number) {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      select(moves[event.key]!);
    } else if (event.key === ' ') {
      event.preventDefault();
      select(index);
    }
  }

  return (
    <div className="tabs" data-enhanced={enhanced || undefined}>
      <div role="tablist" aria-label={label} className="tablist">
        {tabs.map((t, i) => (
          <a
            key={t.id}
            ref={(el) => { refs.current[t.id] = el; }}
            role="tab"
            id={`tab-${t.id}`}
            href={`#panel-${t.id}`}
            aria-selected={t.id === selected}
            aria-controls={`panel-${t.id}`}
            tabIndex={t.id === selected ? 0 : -1}
            onClick={(e) => { e.preventDefault(); setSelected(t.id); }}
            onKeyDown={(e) => onKeyDown(e, i)}
          >
            {t.label}
          </a>
        ))}
      </div>
      {tabs.map((t) => (
        <div key={t.id} role="tabpanel" id={`panel-${t.id}`} aria-labelledby={`tab-${t.id}`} className="tab-panel" hidden={t.id !== selected} tabIndex={0}>
          <h2 className="visually-hidden">{t.label}</h2>
          {props[t.id] as ReactNode}
        </div>
      ))}
    </div>
  );
}
